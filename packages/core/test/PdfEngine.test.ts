/**
 * The PdfEngine on hostile input: limits refuse bombs and page floods up front, the worker pool
 * contains what only a time budget can stop, and the same work keeps going afterwards.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { PDFDocument } from "@cantoo/pdf-lib"
import { Fixtures, HostileFixtures } from "@formwright/testing"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as PdfEngine from "../src/PdfEngine.ts"

const MiB = 1024 * 1024

const withEngine = <A, E>(layer: Layer.Layer<PdfEngine.PdfEngine>, body: (engine: PdfEngine.PdfEngineShape) => Effect.Effect<A, E>) =>
  Effect.scoped(Effect.flatMap(Layer.build(layer), (context) => body(Context.get(context, PdfEngine.PdfEngine))))

const timed = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const started = Date.now()
    const result = yield* Effect.result(effect)
    return { result, ms: Date.now() - started }
  })

describe("PdfEngine, large PDFs (worker processes)", () => {
  it.live("a PDF of several MB goes to a worker and comes back filled as a file, and leaves no file behind", () =>
    Effect.gen(function*() {
      // The every-field form with a 3 MB image of random (incompressible) pixels on its first page.
      const doc = yield* Effect.promise(async () => PDFDocument.load(await Fixtures.formWithEveryFieldType()))
      const image = doc.context.register(doc.context.stream(randomBytes(1024 * 1024 * 3), {
        Type: "XObject", Subtype: "Image", Width: 1024, Height: 1024, ColorSpace: "DeviceRGB", BitsPerComponent: 8
      }))
      doc.getPage(0).node.newXObject("Noise", image)
      const source = yield* Effect.promise(() => doc.save({ useObjectStreams: false }))
      expect(source.byteLength).toBeGreaterThan(3 * MiB)
      const tempDir = mkdtempSync(join(tmpdir(), "engine-spill-"))
      const spilled = () => readdirSync(tempDir).flatMap((dir) => readdirSync(join(tempDir, dir)))
      yield* withEngine(PdfEngine.layerWorkers({ workers: 1, tempDir }), (engine) =>
        Effect.gen(function*() {
          const form = yield* engine.readForm(source)
          expect(form.fields.map((f) => f.form_name)).toContain(Fixtures.everyFieldType.firstName)
          expect(spilled()).toEqual([])
          const filled = yield* engine.fill(source, [{ formName: Fixtures.everyFieldType.firstName, value: "Ada" }])
          expect(filled.pdf.byteLength).toBeGreaterThan(3 * MiB)
          expect(spilled()).toEqual([])
          const back = yield* Effect.promise(() => PDFDocument.load(filled.pdf))
          expect(back.getForm().getTextField(Fixtures.everyFieldType.firstName).getText()).toBe("Ada")
        }))
      // The engine's directory goes with it.
      expect(readdirSync(tempDir)).toEqual([])
      rmSync(tempDir, { recursive: true })
    }), 60_000)
})

describe("PdfEngine limits (worker processes)", () => {
  it.live("an object-stream bomb is refused before any library inflates it", () =>
    Effect.gen(function*() {
      const bomb = yield* Effect.promise(() => HostileFixtures.objectStreamBomb(512 * MiB))
      yield* withEngine(PdfEngine.layerWorkers({ workers: 1 }), (engine) =>
        Effect.gen(function*() {
          const { result, ms } = yield* timed(engine.readForm(bomb))
          expect(result).toMatchObject({ _tag: "Failure", failure: { _tag: "PdfRejected", reason: "TooLargeDecoded" } })
          // Counting stops at the limit: a second or so, not the minutes of inflating 512 MiB and parsing it.
          expect(ms).toBeLessThan(15_000)
          // The same worker pool goes on serving.
          const form = yield* engine.readForm(yield* Effect.promise(() => Fixtures.formWithEveryFieldType()))
          expect(form.fields.length).toBeGreaterThan(0)
        }))
    }), 60_000)

  it.live("a PDF past the page limit is refused from its page tree, in every task", () =>
    Effect.gen(function*() {
      const pages = HostileFixtures.manyPages(100_000)
      yield* withEngine(PdfEngine.layerWorkers({ workers: 1 }), (engine) =>
        Effect.gen(function*() {
          const tasks: ReadonlyArray<Effect.Effect<unknown, PdfEngine.PdfFailure>> = [engine.readForm(pages), engine.pageCount(pages), engine.readDocument(pages)]
          for (const task of tasks) {
            const { result, ms } = yield* timed(task)
            expect(result).toMatchObject({ _tag: "Failure", failure: { _tag: "PdfRejected", reason: "TooManyPages" } })
            expect(result._tag === "Failure" && result.failure.message).toContain("100000 pages; the limit is 2000")
            expect(ms).toBeLessThan(15_000)
          }
        }))
    }), 90_000)

  it.live("work that only a time budget stops fails with Timeout; the next task is served", () =>
    Effect.gen(function*() {
      yield* withEngine(PdfEngine.layerWorkers({ workers: 1, requestTimeoutMs: 1_000 }), (engine) =>
        Effect.gen(function*() {
          const { result, ms } = yield* timed(engine.readForm(HostileFixtures.textBomb()))
          expect(result).toMatchObject({ _tag: "Failure", failure: { _tag: "PdfRejected", reason: "Timeout" } })
          expect(ms).toBeLessThan(10_000)
          expect(yield* engine.pageCount(yield* Effect.promise(() => Fixtures.formWithEveryFieldType()))).toBeGreaterThan(0)
        }))
    }), 60_000)

  it.live("a font that sends pdf.js allocating without end costs one worker, never the server", () =>
    withEngine(PdfEngine.layerWorkers({ workers: 1 }), (engine) =>
      Effect.gen(function*() {
        // In a worker thread this ended in V8's fatal "Reached heap limit", which aborts the whole process.
        const { result } = yield* timed(engine.readDocument(HostileFixtures.fontPostTableLoop()))
        expect(result).toMatchObject({ _tag: "Failure", failure: { _tag: "PdfRejected" } })
        expect(["OutOfMemory", "Timeout"]).toContain(result._tag === "Failure" ? (result.failure as { reason?: string }).reason : undefined)
        expect((yield* engine.readForm(yield* Effect.promise(() => Fixtures.formWithEveryFieldType()))).fields.length).toBeGreaterThan(0)
      })), 120_000)

  it.live("a heap cap too small for the work fails with OutOfMemory, not a dead process", () =>
    Effect.gen(function*() {
      // Streams within the limits, but more objects than a 64 MiB heap holds.
      const form = HostileFixtures.manyFields(20_000)
      yield* withEngine(PdfEngine.layerWorkers({ workers: 1, maxHeapMb: 64 }), (engine) =>
        Effect.gen(function*() {
          const { result } = yield* timed(engine.readForm(form))
          expect(result).toMatchObject({ _tag: "Failure", failure: { _tag: "PdfRejected", reason: "OutOfMemory" } })
        }))
    }), 60_000)
})

describe("PdfEngine limits (inline)", () => {
  it.live("the calling thread applies the same page and stream limits", () =>
    withEngine(PdfEngine.layerInline({ limits: { maxPages: 10, maxStreamBytes: 8 * MiB } }), (engine) =>
      Effect.gen(function*() {
        const pages = yield* Effect.flip(engine.readForm(HostileFixtures.manyPages(11)))
        expect(pages).toMatchObject({ _tag: "PdfRejected", reason: "TooManyPages" })
        const bomb = yield* Effect.flip(engine.readForm(yield* Effect.promise(() => HostileFixtures.contentStreamBomb(64 * MiB))))
        expect(bomb).toMatchObject({ _tag: "PdfRejected", reason: "TooLargeDecoded" })
        expect((yield* engine.readForm(HostileFixtures.manyPages(10))).pages).toBe(10)
      })), 60_000)

  it.live("a form past the field limit is refused before its fields are understood", () =>
    withEngine(PdfEngine.layerInline({ limits: { maxFields: 100 } }), (engine) =>
      Effect.gen(function*() {
        const refused = yield* Effect.flip(engine.readForm(HostileFixtures.manyFields(101)))
        expect(refused).toMatchObject({ _tag: "PdfRejected", reason: "TooManyFields" })
        expect(refused.message).toBe("The form has 101 fields; the limit is 100.")
        expect((yield* engine.readForm(HostileFixtures.manyFields(100))).fields).toHaveLength(100)
      })), 60_000)
})

describe("PdfEngine on damaged cross-references (inline)", () => {
  it.live("a bad page entry or an orphan widget page leaves no promise rejected with nobody waiting, in any task (which would kill an embedding process)", () =>
    Effect.gen(function*() {
      const stray: Array<unknown> = []
      const listener = (reason: unknown) => stray.push(reason)
      process.on("unhandledRejection", listener)
      yield* Effect.addFinalizer(() => Effect.sync(() => process.off("unhandledRejection", listener)))
      const damaged = HostileFixtures.badPageReference()
      const orphan = HostileFixtures.orphanWidgetPage()
      yield* withEngine(PdfEngine.layerInline(), (engine) =>
        Effect.gen(function*() {
          expect(yield* engine.pageCount(damaged)).toBe(2)
          yield* Effect.result(engine.readForm(damaged))
          const content = yield* engine.readDocument(damaged)
          expect(content.lines).toContain("Page")
          for (const pdf of [damaged, orphan]) {
            yield* Effect.result(engine.convert(pdf, { confidence: 0.5, resolution: 1024, allowCheckboxes: true }, () => Effect.void))
          }
          // Rejections are reported after the microtasks that could still handle them.
          yield* Effect.sleep(200)
        }))
      expect(stray.map(String)).toEqual([])
    }).pipe(Effect.scoped), 60_000)
})

describe("PdfEngine stream limits by kind (inline)", () => {
  it.live("page content past the content-stream limit is refused; an image of the same size is read", () =>
    withEngine(PdfEngine.layerInline({ limits: { maxContentStreamBytes: 4 * MiB, maxStreamBytes: 64 * MiB } }), (engine) =>
      Effect.gen(function*() {
        // 16 MiB of `q Q`: past 4 MiB of page description.
        const operators = yield* Effect.promise(() => HostileFixtures.contentStreamBomb(16 * MiB, "operators"))
        const refused = yield* Effect.flip(engine.readForm(operators))
        expect(refused).toMatchObject({ _tag: "PdfRejected", reason: "TooLargeDecoded" })
        expect(refused.message).toMatch(/page description .* 4 MiB/)
        // A 4,000 x 4,000 grey image is 16 MiB of pixels: past the content limit, under the stream limit.
        const image = yield* Effect.promise(() => HostileFixtures.imageBomb(4_000, 4_000))
        expect((yield* engine.readForm(image)).pages).toBe(1)
      })), 60_000)
})
