/**
 * The raster detector end to end on image-only PDFs: a page drawn here as a picture on a page
 * turned by /Rotate 90 (so the way back from pixels to user space is checked), and a corpus form
 * rendered to a picture, whose real widgets are the truth (skipped without ../shared/corpus).
 * Naming needs Tesseract (`apt-get install tesseract-ocr`); without it the labels are not checked
 * and the test says so.
 */
import { describe, expect, it } from "@effect/vitest"
import { concatTransformationMatrix, drawObject, PDFDocument, PDFName, PDFNumber, popGraphicsState, pushGraphicsState } from "@cantoo/pdf-lib"
import { createCanvas, GlobalFonts } from "@napi-rs/canvas"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as FieldDetector from "../../src/detect/FieldDetector.ts"
import * as RasterDetector from "../../src/detect/raster/RasterDetector.ts"
import type { Rect } from "../../src/detect/VectorLines.ts"
import * as PdfJs from "../../src/pdf/PdfJs.ts"
import * as PageRender from "../../src/detect/raster/PageRender.ts"

const hasTesseract = spawnSync("tesseract", ["--version"]).status === 0
if (!hasTesseract) console.log("tesseract is not installed: raster labels are not checked (apt-get install tesseract-ocr)")

const font = (() => {
  const path = createRequire(import.meta.url).resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf")
  GlobalFonts.registerFromPath(path, "Raster Test Sans")
  return "Raster Test Sans"
})()

/** An image-only PDF: one page of `mediaBox` turned by `rotate`, painted with `png` as displayed. */
const imagePdf = async (png: Uint8Array, mediaBox: readonly [number, number, number, number], rotate: 0 | 90) => {
  const doc = await PDFDocument.create()
  const [x0, y0, x1, y1] = mediaBox
  const [w, h] = [x1 - x0, y1 - y0]
  const page = doc.addPage([w, h])
  page.node.set(PDFName.of("MediaBox"), doc.context.obj([...mediaBox]))
  if (rotate) page.node.set(PDFName.of("Rotate"), PDFNumber.of(rotate))
  const image = await doc.embedPng(png)
  const name = page.node.newXObject("Im", image.ref)
  // The picture is the page as displayed: turned back by the rotation so that a viewer shows it upright.
  const m = rotate === 90 ? [0, h, -w, 0, x1, y0] : [w, 0, 0, h, x0, y0]
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!), drawObject(name), popGraphicsState())
  return new Uint8Array(await doc.save())
}

const detect = (pdf: Uint8Array, resolution = 1600) =>
  PdfJs.use(
    pdf,
    (doc) => RasterDetector.detectPage(doc, 1, { confidence: 0.1, allowCheckboxes: true, resolution }),
    { forRendering: true }
  )

const iou = (a: Rect, b: Rect) => {
  const iw = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1)
  const ih = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1)
  if (iw <= 0 || ih <= 0) return 0
  const inter = iw * ih
  return inter / ((a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter)
}

/** A landscape scan (792 x 612 pt as displayed, 2 px/pt): "Name:" and a rule, a check box and "Married". */
const drawnScan = Effect.gen(function*() {
  const k = 2
  const canvas = createCanvas(792 * k, 612 * k)
  const ctx = canvas.getContext("2d")
  ctx.fillStyle = "#ffffff"
  ctx.fillRect(0, 0, 792 * k, 612 * k)
  ctx.fillStyle = "#000000"
  ctx.strokeStyle = "#000000"
  ctx.font = `${12 * k}px "${font}"`
  ctx.textBaseline = "alphabetic"
  ctx.fillText("Name:", 72 * k, 100 * k)
  ctx.fillRect(120 * k, 100 * k, 200 * k, 1 * k) // the rule, from 120 to 320 pt, 100 pt from the top
  ctx.lineWidth = 1 * k
  ctx.strokeRect(72 * k, 190 * k, 10 * k, 10 * k) // the check box, 72-82 x 190-200 pt from the top
  ctx.fillText("Married", 88 * k, 199 * k)
  const png = new Uint8Array(yield* Effect.promise(() => canvas.encode("png")))
  // Stored on a portrait page turned by /Rotate 90.
  return yield* Effect.promise(() => imagePdf(png, [0, 0, 612, 792], 90))
})

describe("raster detector on a drawn scan", () => {
  it.effect("finds a labelled rule and a check box on a page turned by /Rotate 90, in user space", () =>
    Effect.gen(function*() {
      const fields = yield* detect(yield* drawnScan)
      // /Rotate 90: displayed right is user +y, displayed down is user +x.
      const text = fields.find((f) => f.kind === "Text")
      expect(text).toBeDefined()
      expect(text!.rect.y1).toBeCloseTo(120, -0.5)
      expect(text!.rect.y2).toBeCloseTo(320, -0.5)
      expect(Math.abs(text!.rect.x2 - 100)).toBeLessThanOrEqual(1.5)
      expect(text!.rect.x1).toBeLessThan(text!.rect.x2 - 8)
      const box = fields.find((f) => f.kind === "CheckBox")
      expect(box).toBeDefined()
      expect(iou(box!.rect, { x1: 190, y1: 72, x2: 200, y2: 82 })).toBeGreaterThan(0.6)
      expect(fields).toHaveLength(2)
      if (hasTesseract) {
        expect(text!.label).toBe("Name")
        expect(box!.label).toBe("Married")
      }
    }))

  it.effect("still finds the fields, unnamed, when Tesseract cannot be run", () =>
    Effect.gen(function*() {
      const pdf = yield* drawnScan
      const fields = yield* PdfJs.use(
        pdf,
        (doc) =>
          RasterDetector.detectPage(doc, 1, { confidence: 0.1, allowCheckboxes: true, resolution: 1600, ocr: { binary: "/nonexistent/tesseract" } }),
        { forRendering: true }
      )
      expect(fields.map((f) => f.kind).sort()).toEqual(["CheckBox", "Text"])
      expect(fields.every((f) => f.label === undefined)).toBe(true)
    }))
  it.effect("is where the detector sends a page of a document that is all image, page by page", () =>
    Effect.gen(function*() {
      // The vector pass reads no images: the page must still be measured as a scan and drawn.
      const pdf = yield* drawnScan
      const progress: Array<FieldDetector.DetectProgress> = []
      const { fields } = yield* FieldDetector.detect(
        pdf,
        { confidence: 0.1, allowCheckboxes: true },
        (p) => Effect.sync(() => void progress.push(p))
      )
      expect(fields.map((f) => f.kind).sort()).toEqual(["CheckBox", "Text"])
      expect(progress).toEqual([{ pagesDone: 1, pagesTotal: 1 }])
    }))
})

const corpusDir = process.env["FORMWRIGHT_CORPUS"] ?? fileURLToPath(new URL("../../../../../shared/corpus", import.meta.url))
const form = join(corpusDir, "pdfs", "pdflib__sample_form.pdf")

if (existsSync(form)) {
  describe("raster detector on a rendered corpus form", () => {
    it.effect("finds most of the form's real fields on a picture of its page", () =>
      Effect.gen(function*() {
        const bytes = new Uint8Array(readFileSync(form))
        // The truth: the form's own widgets, in user space.
        const { truth, png, view } = yield* PdfJs.use(
          bytes,
          (doc) =>
            Effect.gen(function*() {
              const page = yield* Effect.promise(() => doc.getPage(1))
              const annotations = (yield* Effect.promise(() => page.getAnnotations())) as Array<{ subtype?: string; rect: Array<number>; fieldType?: string }>
              const truth = annotations
                .filter((a) => a.subtype === "Widget" && (a.fieldType === "Tx" || a.fieldType === "Btn"))
                .map((a) => ({ x1: a.rect[0]!, y1: a.rect[1]!, x2: a.rect[2]!, y2: a.rect[3]! }))
              // Widgets are left out of the picture (as a flat scan would show them: not at all).
              const rendered = yield* PageRender.render(doc, 1, 1275)
              const canvas = createCanvas(rendered.grey.width, rendered.grey.height)
              const ctx = canvas.getContext("2d")
              const image = ctx.createImageData(rendered.grey.width, rendered.grey.height)
              rendered.grey.data.forEach((v, i) => image.data.set([v, v, v, 255], 4 * i))
              ctx.putImageData(image, 0, 0)
              const png = new Uint8Array(yield* Effect.promise(() => canvas.encode("png")))
              return { truth, png, view: page.view as [number, number, number, number] }
            }),
          { forRendering: true }
        )
        const fields = yield* detect(yield* Effect.promise(() => imagePdf(png, view, 0)))
        const matched = truth.filter((t) => fields.some((f) => iou(f.rect, t) >= 0.5)).length
        const recall = matched / truth.length
        const precision = fields.filter((f) => truth.some((t) => iou(f.rect, t) >= 0.5)).length / fields.length
        console.log(`raster corpus check: ${fields.length} fields, ${matched} of ${truth.length} widgets matched (precision ${precision.toFixed(2)})`)
        expect(truth.length).toBeGreaterThan(20)
        expect(recall).toBeGreaterThanOrEqual(0.6)
        expect(precision).toBeGreaterThanOrEqual(0.6)
      }), 120_000)
  })
} else {
  console.log(`Corpus not found at ${corpusDir}: the raster corpus check was skipped.`)
  describe.skip("raster detector on a rendered corpus form", () => {
    it("needs shared/corpus", () => {})
  })
}
