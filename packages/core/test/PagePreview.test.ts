/**
 * The review picture of a page (PagePreview): its size bounds, its captions, and what it draws,
 * read back from the PNG: each type's colour where the widgets are, rotation respected, a page
 * past the end as a value, and hostile pages contained by the PDF workers.
 */
import { describe, expect, it } from "@effect/vitest"
import { PDFDocument, degrees } from "@cantoo/pdf-lib"
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { Context, Effect, Layer } from "effect"
import { Fixtures, HostileFixtures } from "@formwright/testing"
import type { FormField } from "../src/FormField.ts"
import * as FormReader from "../src/pdf/FormReader.ts"
import * as PagePreview from "../src/pdf/PagePreview.ts"
import * as PdfEngine from "../src/PdfEngine.ts"

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]

/** The decoded pixels of a PNG, with a reader of one pixel and a counter of one exact colour. */
const decode = async (png: Uint8Array) => {
  const image = await loadImage(Buffer.from(png))
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext("2d")
  ctx.drawImage(image, 0, 0)
  const { data } = ctx.getImageData(0, 0, image.width, image.height)
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * image.width + Math.round(x)) * 4
    return [data[i], data[i + 1], data[i + 2]]
  }
  const count = (hex: string) => {
    const [r, g, b] = rgb(hex)
    let n = 0
    for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n++
    return n
  }
  return { width: image.width, height: image.height, at, count }
}

const marks = (fields: ReadonlyArray<FormField>): Array<PagePreview.Mark> =>
  fields.map((f) => ({ name: f.name, form_name: f.form_name, form_type: f.form_type, page: f.page, rect: f.rect, confidence: f.confidence }))

const rendered = (preview: PagePreview.Preview) => {
  if (preview._tag !== "Rendered") throw new Error(`expected a picture, got ${preview._tag}`)
  return preview
}

/** Height of the legend strip above the page (the picture's height less the page's). */
const legendOf = (width: number, height: number, pageWidth: number, pageHeight: number) => height - Math.round((pageHeight * width) / pageWidth)

describe("PagePreview.scaleFor", () => {
  it("draws a letter page at 144 dpi and keeps every page within the pixel and side caps", () => {
    expect(PagePreview.scaleFor(612, 792)).toBe(2)
    for (const [w, h] of [[14_400, 14_400], [14_400, 100], [100, 14_400], [3, 3], [5_000, 7_000]] as const) {
      const scale = PagePreview.scaleFor(w, h)
      expect(w * scale * h * scale).toBeLessThanOrEqual(PagePreview.bounds.maxPixels + 1)
      expect(Math.max(w, h) * scale).toBeLessThanOrEqual(PagePreview.bounds.maxSide + 1e-6)
      expect(scale).toBeLessThanOrEqual(PagePreview.bounds.maxScale)
    }
  })
})

describe("PagePreview.caption", () => {
  it("names the field, with its confidence when a converter placed it", () => {
    expect(PagePreview.caption({ name: "Family name" })).toBe("Family name")
    expect(PagePreview.caption({ name: "Family name", confidence: 0.8 })).toBe("Family name · 0.80")
  })

  it("keeps both ends of a long name, where tooltips that repeat their section differ", () => {
    const text = PagePreview.caption({ name: "Part 3. Information About the Person for Whom You Are Filing. Family Name (Last Name)" })
    expect(text.length).toBeLessThanOrEqual(49)
    expect(text.startsWith("Part 3.")).toBe(true)
    expect(text.endsWith("Family Name (Last Name)")).toBe(true)
  })
})

describe("PagePreview.render", () => {
  it.effect("outlines every widget on the page in its type's colour, radio options one by one", () =>
    Effect.gen(function*() {
      const pdf = yield* Effect.promise(() => Fixtures.formWithEveryFieldType())
      const form = yield* FormReader.readForm(pdf)
      const preview = rendered(yield* PagePreview.render({ pdf, page: 1, fields: marks(form.fields) }))
      expect(preview.pages).toBe(2)
      const image = yield* Effect.promise(() => decode(preview.png))
      expect([image.width, image.height]).toEqual([preview.width, preview.height])
      expect(image.width).toBe(612 * 2)
      const legend = legendOf(image.width, image.height, 612, 792)
      expect(legend).toBeGreaterThan(0)
      // Page 1 holds text fields, a check box and a radio group; the others are on page 2.
      for (const type of ["Text", "CheckBox", "RadioButton"] as const) expect(image.count(PagePreview.typeColors[type]), type).toBeGreaterThan(100)
      for (const type of ["ComboBox", "ListBox", "Signature", "PushButton"] as const) expect(image.count(PagePreview.typeColors[type]), type).toBe(0)
      // The left edge of each of the three radio widgets (x 200, 260, 320; y 397 to 412).
      const radio = rgb(PagePreview.typeColors.RadioButton)
      for (const x of [200, 260, 320]) expect(image.at(x * 2, legend + (792 - 404.5) * 2)).toEqual(radio)
      // The comb field at x 200..300, y 475..495.
      expect(image.at(200 * 2, legend + (792 - 485) * 2)).toEqual(rgb(PagePreview.typeColors.Text))
    }))

  it.effect("draws the other page's types on page 2", () =>
    Effect.gen(function*() {
      const pdf = yield* Effect.promise(() => Fixtures.formWithEveryFieldType())
      const form = yield* FormReader.readForm(pdf)
      const image = yield* Effect.promise(() =>
        Effect.runPromise(PagePreview.render({ pdf, page: 2, fields: marks(form.fields) })).then((p) => decode(rendered(p).png))
      )
      for (const type of ["Text", "ComboBox", "ListBox", "Signature", "PushButton"] as const) {
        expect(image.count(PagePreview.typeColors[type]), type).toBeGreaterThan(100)
      }
      expect(image.count(PagePreview.typeColors.CheckBox)).toBe(0)
    }))

  it.effect("answers the page count for a page past the end, without drawing", () =>
    Effect.gen(function*() {
      const pdf = yield* Effect.promise(() => Fixtures.formWithEveryFieldType())
      expect(yield* PagePreview.render({ pdf, page: 3, fields: [] })).toEqual({ _tag: "PastEnd", pages: 2 })
    }))

  it.effect("respects the page's rotation: a portrait page turned 90 degrees is drawn landscape, outline where it shows", () =>
    Effect.gen(function*() {
      const doc = yield* Effect.promise(() => PDFDocument.create())
      const page = doc.addPage([612, 792])
      page.setRotation(degrees(90))
      const field = doc.getForm().createTextField("turned")
      field.addToPage(page, { x: 100, y: 600, width: 200, height: 30 })
      const pdf = yield* Effect.promise(() => doc.save())
      const form = yield* FormReader.readForm(pdf)
      const image = yield* Effect.promise(() =>
        Effect.runPromise(PagePreview.render({ pdf, page: 1, fields: marks(form.fields) })).then((p) => decode(rendered(p).png))
      )
      expect(image.width).toBe(792 * 2)
      const legend = legendOf(image.width, image.height, 792, 612)
      // Turned clockwise, user-space (x, y) shows at (y, x): the field's left edge x = 100 is
      // its top edge, y = 600..630 spans the columns 1200..1260 px.
      expect(image.at(615 * 2, legend + 100 * 2)).toEqual(rgb(PagePreview.typeColors.Text))
      expect(image.count(PagePreview.typeColors.Text)).toBeGreaterThan(100)
    }))
})

describe("preview in the PDF workers", () => {
  const withEngine = <A, E>(layer: Layer.Layer<PdfEngine.PdfEngine>, body: (engine: PdfEngine.PdfEngineShape) => Effect.Effect<A, E>) =>
    Effect.scoped(Effect.flatMap(Layer.build(layer), (context) => body(Context.get(context, PdfEngine.PdfEngine))))

  it.live("a page whose text never ends drawing fails with the time limit, and the next preview works", () =>
    withEngine(PdfEngine.layerWorkers({ workers: 1, requestTimeoutMs: 3_000 }), (engine) =>
      Effect.gen(function*() {
        const bomb = yield* Effect.result(engine.preview({ pdf: HostileFixtures.textBomb(), page: 1, fields: [] }))
        expect(bomb).toMatchObject({ _tag: "Failure", failure: { _tag: "PdfRejected", reason: "Timeout" } })
        const pdf = yield* Effect.promise(() => Fixtures.formWithEveryFieldType())
        const after = yield* engine.preview({ pdf, page: 1, fields: [] })
        expect(after._tag).toBe("Rendered")
      })), 60_000)

  it.live("an image too big to decode is left undrawn instead of exhausting the worker", () =>
    withEngine(PdfEngine.layerWorkers({ workers: 1 }), (engine) =>
      Effect.gen(function*() {
        // A letter page scanned at 600 dpi: 33.7 MP, past `maxImagePixels`.
        const pdf = yield* Effect.promise(() => HostileFixtures.imageBomb(5_100, 6_600))
        const preview = rendered(yield* engine.preview({ pdf, page: 1, fields: [] }))
        expect(preview.width * preview.height).toBeLessThanOrEqual(PagePreview.bounds.maxPixels + 26 * preview.width)
        // The same picture at 300 dpi is drawn: mid-grey where the image sits.
        const small = yield* Effect.promise(() => HostileFixtures.imageBomb(2_550, 3_300))
        const image = yield* Effect.promise(() => Effect.runPromise(engine.preview({ pdf: small, page: 1, fields: [] })).then((p) => decode(rendered(p).png)))
        expect(image.at(300, 800)).toEqual([128, 128, 128])
      })), 60_000)
})
