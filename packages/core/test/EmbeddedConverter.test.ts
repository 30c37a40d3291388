/**
 * The embedded Converter end to end: flat PDF in, fillable PDF out, read back with pdf.js as any
 * reader of the form would (widgets, `/TU` names, page text), plus its failure modes.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { PDFDocument, PDFTextField } from "@cantoo/pdf-lib"
import { Converter } from "../src/Converter.ts"
import type { ConversionOptions, ConversionProgress } from "../src/Converter.ts"
import * as EmbeddedConverter from "../src/EmbeddedConverter.ts"
import * as PdfEngine from "../src/PdfEngine.ts"
import * as PageText from "../src/pdf/PageText.ts"
import * as PdfJs from "../src/pdf/PdfJs.ts"
import { FlatFixtures } from "@formwright/testing"

const options: ConversionOptions = { confidence: 0.1, resolution: 1600, allowCheckboxes: true }
const noProgress = () => Effect.void

interface Widget {
  readonly page: number
  readonly fieldName: string
  readonly alternativeText: string
  readonly fieldType: string
  readonly rect: ReadonlyArray<number>
}

/** The widgets of a PDF as pdf.js reads them, and its number of fields. */
const readBack = (bytes: Uint8Array) =>
  PdfJs.use(bytes, (doc) =>
    Effect.promise(async () => {
      const widgets: Array<Widget> = []
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n)
        for (const a of await page.getAnnotations()) if (a.subtype === "Widget") widgets.push({ page: n, ...a })
      }
      const fields = [...((await doc.getFieldObjects())?.keys() ?? [])]
      return { widgets, fields }
    })
  )

const hasQpdf = spawnSync("qpdf", ["--version"]).status === 0

layer(EmbeddedConverter.layer.pipe(Layer.provideMerge(PdfEngine.layerWorkers())))("EmbeddedConverter", (it) => {
  it.effect("turns a flat form into a fillable one: widgets on the lines, named by /TU", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const form = yield* Effect.promise(FlatFixtures.flatApplicationForm)
      const result = yield* converter.convert(form.bytes, options, noProgress)
      expect(result.detections.map((d) => d.name)).toEqual(form.fields.map((f) => f.name))
      expect(new Set(result.detections.map((d) => d.formName)).size).toBe(result.detections.length)

      const { widgets, fields } = yield* readBack(result.pdf)
      expect(fields.sort()).toEqual(result.detections.map((d) => d.formName).sort())
      expect(widgets).toHaveLength(form.fields.length)
      for (const expected of form.fields) {
        const widget = widgets.find((w) => w.alternativeText === expected.name)
        expect(widget, expected.name).toBeDefined()
        expect(widget!.fieldType).toBe(expected.kind === "checkbox" ? "Btn" : "Tx")
        expect(Math.abs(widget!.rect[0]! - expected.x1)).toBeLessThanOrEqual(3)
        expect(Math.abs(widget!.rect[2]! - expected.x2)).toBeLessThanOrEqual(3)
        expect(Math.abs(widget!.rect[1]! - expected.y)).toBeLessThanOrEqual(3)
        const detection = result.detections.find((d) => d.name === expected.name)!
        expect(widget!.fieldName).toBe(detection.formName)
        expect(detection.confidence).toBeGreaterThan(0)
        expect(detection.confidence).toBeLessThanOrEqual(1)
      }
    }))

  it.effect("keeps the page content: the original text is still there", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const form = yield* Effect.promise(FlatFixtures.flatApplicationForm)
      const before = yield* PageText.read(form.bytes)
      const result = yield* converter.convert(form.bytes, options, noProgress)
      const after = yield* PageText.read(result.pdf)
      expect(after.map(PageText.toLines)).toEqual(before.map(PageText.toLines))
      expect(PageText.toLines(after[0]!)).toContain("Street address:")
    }))

  it.effect("writes fields a filler can fill, with appearance streams", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const form = yield* Effect.promise(FlatFixtures.flatBoxedForm)
      const result = yield* converter.convert(form.bytes, options, noProgress)
      const filled = yield* Effect.promise(async () => {
        const doc = await PDFDocument.load(result.pdf)
        const fields = doc.getForm().getFields()
        for (const field of fields) {
          expect(field.acroField.getWidgets().every((w) => w.getNormalAppearance() !== undefined)).toBe(true)
          if (field instanceof PDFTextField) field.setText("Ada Lovelace")
        }
        return doc.save()
      })
      const { fields } = yield* readBack(filled)
      expect(fields).toHaveLength(result.detections.length)
    }))

  it.effect("gives the output as reading it would: the form it stores needs no second parse", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const engine = yield* PdfEngine.PdfEngine
      for (const make of [FlatFixtures.flatApplicationForm, FlatFixtures.flatBoxedForm, FlatFixtures.flatNoFields]) {
        const form = yield* Effect.promise(make)
        const result = yield* converter.convert(form.bytes, options, noProgress)
        expect(result.form).toBeDefined()
        expect(result.form).toEqual(yield* engine.readForm(result.pdf))
      }
      // With only some pages read, the output is left to be read whole.
      const long = yield* Effect.promise(() => FlatFixtures.flatLongForm(3))
      expect((yield* converter.convert(long.bytes, { ...options, pages: [2] }, noProgress)).form).toBeUndefined()
    }))

  it.effect("reports progress after each page and honours the page selection", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const form = yield* Effect.promise(() => FlatFixtures.flatLongForm(13))
      const progress: Array<ConversionProgress> = []
      const result = yield* converter.convert(form.bytes, { ...options, pages: [2, 5, 13] }, (p) => Effect.sync(() => void progress.push(p)))
      expect(progress).toEqual([
        { pagesDone: 1, pagesTotal: 3 },
        { pagesDone: 2, pagesTotal: 3 },
        { pagesDone: 3, pagesTotal: 3 }
      ])
      const { widgets } = yield* readBack(result.pdf)
      expect([...new Set(widgets.map((w) => w.page))]).toEqual([2, 5, 13])
      expect(result.detections).toHaveLength(9)
    }))

  it.effect("converts a 13-page form", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const form = yield* Effect.promise(() => FlatFixtures.flatLongForm(13))
      const progress: Array<ConversionProgress> = []
      const result = yield* converter.convert(form.bytes, options, (p) => Effect.sync(() => void progress.push(p)))
      expect(progress).toHaveLength(13)
      expect(result.detections).toHaveLength(39)
      expect((yield* readBack(result.pdf)).fields).toHaveLength(39)
    }))

  it.effect("returns the PDF unchanged when there is nothing to detect", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      for (const make of [FlatFixtures.flatNoFields, FlatFixtures.flatScannedPage]) {
        const form = yield* Effect.promise(make)
        const result = yield* converter.convert(form.bytes, options, noProgress)
        expect(result.detections).toEqual([])
        expect(result.pdf).toEqual(form.bytes)
      }
    }))

  it.effect("places nothing over existing fields and never reuses their names", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const form = yield* Effect.promise(FlatFixtures.flatTwoPageForm)
      // Page 1 converted first: its fields now exist.
      const once = yield* converter.convert(form.bytes, { ...options, pages: [1] }, noProgress)
      expect(once.detections.map((d) => d.formName)).toEqual(["full_name", "date_of_birth"])
      // A field elsewhere already called "job_title".
      const withTaken = yield* Effect.promise(async () => {
        const doc = await PDFDocument.load(once.pdf)
        doc.getForm().createTextField("job_title").addToPage(doc.getPage(0), { x: 400, y: 100, width: 100, height: 14 })
        return doc.save()
      })
      const twice = yield* converter.convert(withTaken, options, noProgress)
      expect(twice.detections.map((d) => [d.name, d.formName])).toEqual([
        ["Employer name", "employer_name"],
        ["Job title", "job_title_2"]
      ])
      const { fields } = yield* readBack(twice.pdf)
      expect(fields.sort()).toEqual(["date_of_birth", "employer_name", "full_name", "job_title", "job_title_2"])
    }))

  it.effect("fails with PdfUnusable on a body that is not a PDF", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const error = yield* Effect.flip(converter.convert(new TextEncoder().encode("%PDF-1.7 but nothing else"), options, noProgress))
      expect(error._tag).toBe("PdfUnusable")
    }))

  it.effect.skipIf(!hasQpdf)("writes a structurally valid PDF (qpdf --check)", () =>
    Effect.gen(function* () {
      const converter = yield* Converter
      const form = yield* Effect.promise(FlatFixtures.flatApplicationForm)
      const result = yield* converter.convert(form.bytes, options, noProgress)
      const dir = mkdtempSync(join(tmpdir(), "fw-convert-"))
      try {
        const file = join(dir, "out.pdf")
        writeFileSync(file, result.pdf)
        const check = spawnSync("qpdf", ["--check", file], { encoding: "utf8" })
        expect(check.status, check.stdout + check.stderr).toBe(0)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }))
})

const corpusDir = join(process.env["FORMWRIGHT_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url)), "pdfs")
const hasCorpus = existsSync(corpusDir)

describe.skipIf(!hasCorpus)("EmbeddedConverter on the corpus", () => {
  if (!hasCorpus) console.log(`EmbeddedConverter corpus tests skipped: ${corpusDir} not found`)

  layer(EmbeddedConverter.layer.pipe(Layer.provide(PdfEngine.layerWorkers())))((it) => {
    it.effect("a flattened form becomes fillable again", () =>
      Effect.gen(function* () {
        const converter = yield* Converter
        const bytes = new Uint8Array(readFileSync(join(corpusDir, "qpdf__sample-form-out.pdf")))
        const result = yield* converter.convert(bytes, options, noProgress)
        const { widgets } = yield* readBack(result.pdf)
        expect(widgets.map((w) => w.alternativeText)).toEqual(expect.arrayContaining(["Given Name", "Family Name"]))
      }))

    it.effect("a PDF pdf.js reads but pdf-lib cannot rewrite fails with ConverterError, not a defect", () =>
      Effect.gen(function* () {
        const converter = yield* Converter
        const bytes = new Uint8Array(readFileSync(join(corpusDir, "qpdf__issue-202.pdf")))
        const exit = yield* Effect.exit(converter.convert(bytes, options, noProgress))
        // Either it converts, or it fails with a typed error: never a defect.
        if (exit._tag === "Failure") {
          const error = yield* Effect.flip(converter.convert(bytes, options, noProgress))
          expect(["ConverterError", "PdfUnusable"]).toContain(error._tag)
          expect(error.message.length).toBeGreaterThan(0)
        }
      }))
  })
})
