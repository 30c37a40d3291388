/**
 * The vector field detector on flat PDFs generated in code (positions known exactly), its
 * building blocks on hand-made inputs (pinning the pdf.js operator-list format it relies on),
 * and, when the shared corpus is present, on real flat and flattened forms.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { degrees, PDFDocument, PDFName, rgb, StandardFonts } from "@cantoo/pdf-lib"
import { OPS } from "pdfjs-dist/legacy/build/pdf.mjs"
import type { ConversionProgress } from "../src/Converter.ts"
import * as FieldDetector from "../src/detect/FieldDetector.ts"
import type { DetectedField, DetectOptions } from "../src/detect/FieldDetector.ts"
import * as Labels from "../src/detect/Labels.ts"
import * as Underscores from "../src/detect/Underscores.ts"
import * as VectorLines from "../src/detect/VectorLines.ts"
import * as PdfJs from "../src/pdf/PdfJs.ts"
import { FlatFixtures } from "@formwright/testing"
type ExpectedField = FlatFixtures.ExpectedField
type FlatFixture = FlatFixtures.FlatFixture

const defaults: DetectOptions = { confidence: 0.1, allowCheckboxes: true }

const fixture = (make: () => Promise<FlatFixture>) => Effect.promise(make)

const detect = (bytes: Uint8Array, options: Partial<DetectOptions> = {}) => FieldDetector.detect(bytes, { ...defaults, ...options })

/** The detection placed over an expected field: same page, horizontally on it, sitting on its line. */
const placedOn = (fields: ReadonlyArray<DetectedField>, expected: ExpectedField): DetectedField | undefined =>
  fields.find(
    (f) =>
      f.page === expected.page &&
      Math.abs(f.rect.x1 - expected.x1) <= 3 &&
      Math.abs(f.rect.x2 - expected.x2) <= 3 &&
      Math.abs(f.rect.y1 - expected.y) <= 3
  )

const expectAllPlaced = (fields: ReadonlyArray<DetectedField>, expected: ReadonlyArray<ExpectedField>) => {
  for (const e of expected) {
    const found = placedOn(fields, e)
    expect(found, `a field on "${e.name}"`).toBeDefined()
    expect(found!.name).toBe(e.name)
    expect(found!.kind).toBe(e.kind === "checkbox" ? "CheckBox" : "Text")
  }
}

describe("FieldDetector on generated flat forms", () => {
  it.effect("finds underscore runs, rules and checkboxes, named after their labels", () =>
    Effect.gen(function* () {
      const form = yield* fixture(FlatFixtures.flatApplicationForm)
      const { fields, pagesTotal } = yield* detect(form.bytes)
      expect(pagesTotal).toBe(1)
      expect(fields.map((f) => f.name)).toEqual([
        "Given name",
        "Family name",
        "City",
        "Postal code",
        "Street address",
        "Email",
        "Phone number",
        "I agree to the terms",
        "Send me the newsletter"
      ])
      expect(fields.map((f) => f.formName)).toEqual([
        "given_name",
        "family_name",
        "city",
        "postal_code",
        "street_address",
        "email",
        "phone_number",
        "i_agree_to_the_terms",
        "send_me_the_newsletter"
      ])
      expectAllPlaced(fields, form.fields)
      expect(fields.map((f) => f.source)).toEqual([
        "underscore",
        "underscore",
        "underscore",
        "underscore",
        "rule",
        "rule",
        "rule",
        "checkbox",
        "checkbox"
      ])
      for (const f of fields) {
        expect(f.confidence).toBeGreaterThan(0.5)
        expect(f.confidence).toBeLessThanOrEqual(1)
        // A line-high field, not a slab of the page.
        if (f.kind === "Text") expect(f.rect.y2 - f.rect.y1).toBeGreaterThanOrEqual(8)
        if (f.kind === "Text") expect(f.rect.y2 - f.rect.y1).toBeLessThanOrEqual(20)
      }
    }))

  it.effect("ignores the underlined heading, the page frame and the paragraph text", () =>
    Effect.gen(function* () {
      const form = yield* fixture(FlatFixtures.flatApplicationForm)
      const { fields } = yield* detect(form.bytes)
      // The heading underline is at y 717 and the frame spans the page: nothing above y 680.
      expect(fields.filter((f) => f.rect.y2 > 680)).toEqual([])
    }))

  it.effect("drops detections below the confidence threshold", () =>
    Effect.gen(function* () {
      const form = yield* fixture(FlatFixtures.flatApplicationForm)
      const all = (yield* detect(form.bytes)).fields
      const sure = (yield* detect(form.bytes, { confidence: 0.85 })).fields
      expect(sure.length).toBeGreaterThan(0)
      expect(sure.length).toBeLessThan(all.length)
      expect(sure.every((f) => f.confidence >= 0.85)).toBe(true)
      expect(sure.map((f) => f.name)).toEqual(all.filter((f) => f.confidence >= 0.85).map((f) => f.name))
      expect((yield* detect(form.bytes, { confidence: 1 })).fields).toEqual([])
    }))

  it.effect("leaves squares alone when checkboxes are not allowed", () =>
    Effect.gen(function* () {
      const form = yield* fixture(FlatFixtures.flatApplicationForm)
      const { fields } = yield* detect(form.bytes, { allowCheckboxes: false })
      expect(fields).toHaveLength(7)
      expect(fields.some((f) => f.kind === "CheckBox")).toBe(false)
    }))

  it.effect("reads only the selected pages and reports progress after each", () =>
    Effect.gen(function* () {
      const form = yield* fixture(FlatFixtures.flatTwoPageForm)
      const all = yield* detect(form.bytes)
      expect(all.fields.map((f) => [f.page, f.name])).toEqual([
        [1, "Full name"],
        [1, "Date of birth"],
        [2, "Employer name"],
        [2, "Job title"]
      ])
      expectAllPlaced(all.fields, form.fields)

      const progress: Array<ConversionProgress> = []
      const second = yield* FieldDetector.detect(form.bytes, { ...defaults, pages: [2] }, (p) => Effect.sync(() => void progress.push(p)))
      expect(second.fields.map((f) => f.name)).toEqual(["Employer name", "Job title"])
      expect(second.pagesTotal).toBe(1)
      expect(progress).toEqual([{ pagesDone: 1, pagesTotal: 1 }])
    }))

  it.effect("finds nothing on a letter or on a scanned page", () =>
    Effect.gen(function* () {
      for (const make of [FlatFixtures.flatNoFields, FlatFixtures.flatScannedPage]) {
        const form = yield* fixture(make)
        const { fields, pagesTotal } = yield* detect(form.bytes)
        expect(pagesTotal).toBe(1)
        expect(fields).toEqual([])
      }
    }))

  it.effect("hands on the page's text as read, text turned up the margin included", () =>
    Effect.gen(function* () {
      // Detection leaves the turned words out of its labels; the text it hands on for storing the
      // converted form (its as_text) is the page as PageText.read reads it.
      const doc = yield* Effect.promise(() => PDFDocument.create())
      const font = yield* Effect.promise(() => doc.embedFont(StandardFonts.Helvetica))
      const page = doc.addPage([612, 792])
      // Mostly text along the page (a page mostly turned keeps all of its text as the labels' too).
      for (const [k, label] of ["Full name", "Employer", "Job title"].entries()) {
        page.drawText(label, { x: 72, y: 700 - 40 * k, size: 10, font })
        page.drawLine({ start: { x: 130, y: 698 - 40 * k }, end: { x: 330, y: 698 - 40 * k }, thickness: 0.5, color: rgb(0, 0, 0) })
      }
      page.drawText("Attach Forms W-2 here.", { x: 40, y: 600, size: 7, font, rotate: degrees(90) })
      const bytes = new Uint8Array(yield* Effect.promise(() => doc.save()))
      const { fields, text } = yield* detect(bytes)
      expect(fields.map((f) => f.name)).toEqual(["Full name", "Employer", "Job title"])
      expect(text?.[0]?.runs.map((r) => r.text)).toContain("Attach Forms W-2 here.")
    }))

  it.effect("works in user space on a page with /Rotate 90", () =>
    Effect.gen(function* () {
      const form = yield* fixture(FlatFixtures.flatRotatedForm)
      const { fields } = yield* detect(form.bytes)
      expect(fields.map((f) => f.name)).toEqual(["Given name", "Signature"])
      expectAllPlaced(fields, form.fields)
    }))

  it.effect("reads boxes, line-drawn table cells, continuation lines and captioned boxes", () =>
    Effect.gen(function* () {
      const form = yield* fixture(FlatFixtures.flatBoxedForm)
      const { fields } = yield* detect(form.bytes)
      expect(fields.map((f) => f.name)).toEqual([
        "Account number",
        "Employer",
        "Position",
        "Address",
        "Address (line 2)",
        "Address (line 3)",
        "Comments"
      ])
      for (const e of form.fields) {
        const f = fields.find((f) => f.name === e.name)!
        expect(Math.abs(f.rect.x1 - e.x1)).toBeLessThanOrEqual(3)
        expect(Math.abs(f.rect.x2 - e.x2)).toBeLessThanOrEqual(3)
        expect(Math.abs(f.rect.y1 - e.y)).toBeLessThanOrEqual(3)
      }
      const comments = fields.find((f) => f.name === "Comments")!
      expect(comments.multiline).toBe(true)
      // Below the caption, not over it.
      expect(comments.rect.y2).toBeLessThan(400)
    }))

  it.effect("keeps 13 pages of fields apart, one progress report per page", () =>
    Effect.gen(function* () {
      const form = yield* fixture(() => FlatFixtures.flatLongForm(13))
      const progress: Array<ConversionProgress> = []
      const { fields } = yield* FieldDetector.detect(form.bytes, defaults, (p) => Effect.sync(() => void progress.push(p)))
      expect(progress.map((p) => p.pagesDone)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1))
      expect(progress.every((p) => p.pagesTotal === 13)).toBe(true)
      expect(fields).toHaveLength(39)
      expectAllPlaced(fields, form.fields)
      expect(new Set(fields.map((f) => f.formName)).size).toBe(39)
    }))

  it.effect("names repeated labels uniquely and unlabelled fields by number", () =>
    Effect.gen(function* () {
      const detections: Array<FieldDetector.PageDetection> = [
        { page: 1, kind: "Text", rect: { x1: 0, y1: 0, x2: 10, y2: 10 }, source: "rule", confidence: 0.8, label: "Date", multiline: false },
        { page: 1, kind: "Text", rect: { x1: 0, y1: 0, x2: 10, y2: 10 }, source: "rule", confidence: 0.4, label: undefined, multiline: false },
        { page: 2, kind: "Text", rect: { x1: 0, y1: 0, x2: 10, y2: 10 }, source: "rule", confidence: 0.8, label: "Date", multiline: false },
        { page: 2, kind: "Text", rect: { x1: 0, y1: 0, x2: 10, y2: 10 }, source: "rule", confidence: 0.8, label: "Date", multiline: false }
      ]
      const named = FieldDetector.name(detections, ["date"])
      expect(named.map((f) => [f.name, f.formName])).toEqual([
        ["Date", "date_2"],
        ["Field 2", "field_2"],
        ["Date", "date_3"],
        ["Date", "date_4"]
      ])
    }))

  it.effect("fails with PdfUnusable on bytes that are not a PDF", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(detect(new TextEncoder().encode("hello, not a pdf")))
      expect(error._tag).toBe("PdfUnusable")
      expect(error.reason).toBe("NotPdf")
    }))
})

describe("VectorLines.fromOperatorList", () => {
  // pdf.js 6 paths: [paintOp, [Float32Array of DrawOPS codes and coordinates], minMax].
  const path = (paint: number, ...data: Array<number>) => [paint, [new Float32Array(data)], null]
  const [moveTo, lineTo, closePath] = [0, 1, 4]

  it("applies the transformation matrix through save, transform and restore", () => {
    const list = {
      fnArray: [OPS.save, OPS.transform, OPS.constructPath, OPS.restore, OPS.constructPath],
      argsArray: [null, [2, 0, 0, 2, 10, 20], path(OPS.stroke, moveTo, 0, 0, lineTo, 50, 0), null, path(OPS.stroke, moveTo, 0, 5, lineTo, 50, 5)]
    }
    const g = VectorLines.fromOperatorList(list)
    expect(g.horizontals.map((h) => [h.x1, h.x2, h.y])).toEqual([
      [0, 50, 5],
      [10, 110, 20]
    ])
  })

  it("reads thin filled rectangles as rules, others as boxes; ignores clips and white paint", () => {
    const list = {
      fnArray: [OPS.constructPath, OPS.constructPath, OPS.constructPath, OPS.setStrokeRGBColor, OPS.constructPath],
      argsArray: [
        path(OPS.fill, moveTo, 10, 10, lineTo, 110, 10, lineTo, 110, 11, lineTo, 10, 11, closePath),
        path(OPS.stroke, moveTo, 10, 50, lineTo, 110, 50, lineTo, 110, 70, lineTo, 10, 70, closePath),
        path(OPS.endPath, moveTo, 0, 0, lineTo, 500, 0),
        ["#ffffff"],
        path(OPS.stroke, moveTo, 0, 300, lineTo, 500, 300)
      ]
    }
    const g = VectorLines.fromOperatorList(list)
    expect(g.horizontals.map((h) => [h.x1, h.x2, h.y])).toEqual([[10, 110, 10.5]])
    expect(g.boxes.map((b) => [b.x1, b.y1, b.x2, b.y2, b.stroked])).toEqual([[10, 50, 110, 70, true]])
  })

  it("joins dashes and pieces of one line, and remembers the dash pattern", () => {
    const list = {
      fnArray: [OPS.setDash, OPS.constructPath],
      argsArray: [[[1, 2], 0], path(OPS.stroke, moveTo, 0, 100, lineTo, 40, 100, moveTo, 41, 100, lineTo, 90, 100.3)]
    }
    const g = VectorLines.fromOperatorList(list)
    expect(g.horizontals).toHaveLength(1)
    expect(g.horizontals[0]).toMatchObject({ x1: 0, x2: 90, dashed: true })
  })
})

describe("Underscores.split", () => {
  it("measures the underscore part of a run by glyph widths", () => {
    // Helvetica 10pt: "Name: " is 32.23pt wide, each underscore 5.56pt.
    const run = { text: "Name: __________", x: 100, y: 500, width: 32.23 + 55.6, height: 10 }
    const { pieces, underscores } = Underscores.split([run])
    expect(pieces.map((p) => p.text)).toEqual(["Name:"])
    expect(underscores).toHaveLength(1)
    expect(underscores[0]!.x1).toBeCloseTo(132.23, 1)
    expect(underscores[0]!.x2).toBeCloseTo(187.83, 1)
  })

  it("splits several blanks in one run and keeps two underscores as text", () => {
    const { pieces, underscores } = Underscores.split([{ text: "City ______ Zip ____ a__b", x: 0, y: 0, width: 200, height: 10 }])
    expect(underscores).toHaveLength(2)
    expect(pieces.map((p) => p.text)).toEqual(["City", "Zip", "a__b"])
  })
})

describe("Labels", () => {
  it("cleans labels as people would name the field", () => {
    expect(Labels.clean("Given name:")).toBe("Given name")
    expect(Labels.clean("  3. Date of birth  ____")).toBe("Date of birth")
    expect(Labels.clean("[ ] Yes")).toBe("Yes")
    expect(Labels.clean("交易账号：")).toBe("交易账号")
    expect(Labels.clean("Signature *")).toBe("Signature")
    expect(Labels.clean("a".repeat(30) + " " + "b".repeat(40)).length).toBeLessThanOrEqual(60)
  })

  it("makes machine names and keeps them unique", () => {
    expect(Labels.machineName("Given name")).toBe("given_name")
    expect(Labels.machineName("Employer’s address (street, no.)")).toBe("employer_s_address_street_no")
    expect(Labels.machineName("Élève")).toBe("eleve")
    expect(Labels.machineName("!!!")).toBe("field")
    const used = new Set<string>()
    expect([1, 2, 3].map(() => Labels.uniqueName("date", used))).toEqual(["date", "date_2", "date_3"])
  })

  it("prefers the caption hugging a line over the previous line's caption", () => {
    const pieces = [
      { text: "Case Number", x1: 100, x2: 160, y: 337, size: 10 },
      { text: "Judge", x1: 100, x2: 127, y: 300, size: 10 }
    ]
    const rect = { x1: 100, y1: 310.6, x2: 300, y2: 326 }
    const label = Labels.find({ rect, band: [309, 321], kind: "Text", below: true, line: 310.6, obstacles: [] }, pieces)
    expect(label).toMatchObject({ text: "Judge", position: "below" })
  })

  it("gives a checkbox the label on its right unless that text belongs to the next box", () => {
    const pieces = [
      { text: "Yes", x1: 20, x2: 38, y: 101, size: 10 },
      { text: "No", x1: 60, x2: 72, y: 101, size: 10 }
    ]
    const first = { x1: 40, y1: 100, x2: 50, y2: 110 }
    const second = { x1: 74, y1: 100, x2: 84, y2: 110 }
    const query = (rect: typeof first, other: typeof first) => ({ rect, band: [rect.y1, rect.y2] as const, kind: "CheckBox" as const, below: false, obstacles: [other] })
    expect(Labels.find(query(first, second), pieces)?.text).toBe("Yes")
    expect(Labels.find(query(second, first), pieces)?.text).toBe("No")
  })

  it("never takes text inside another field as a label, however many fields the page has", () => {
    // A value left inside a box ("ABC") sits closer than the real label further left.
    const pieces = [
      { text: "Name", x1: 20, x2: 50, y: 502, size: 10 },
      { text: "ABC", x1: 130, x2: 150, y: 502, size: 10 }
    ]
    const rect = { x1: 200, y1: 500, x2: 300, y2: 514 }
    const holding = { x1: 45, y1: 498, x2: 190, y2: 516 }
    // Fields all over the page, one spanning most of it and one with NaN corners: the value
    // is found inside its box among them.
    const others = [
      ...Array.from({ length: 400 }, (_, i) => ({ x1: 20 + (i % 20) * 28, y1: 20 + Math.floor(i / 20) * 22, x2: 40 + (i % 20) * 28, y2: 34 + Math.floor(i / 20) * 22 })),
      { x1: -5_000, y1: 700, x2: 5_000, y2: 760 },
      { x1: Number.NaN, y1: 0, x2: 10, y2: 10 }
    ]
    const query = (obstacles: ReadonlyArray<typeof rect>) => ({ rect, band: [500, 514] as const, kind: "Text" as const, below: false, obstacles })
    expect(Labels.find(query(others), pieces)?.text).toBe("ABC")
    expect(Labels.find(query([...others, holding]), pieces)?.text).toBe("Name")
  })
})

const corpusDir = join(process.env["FORMWRIGHT_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url)), "pdfs")
const hasCorpus = existsSync(corpusDir)
const corpusFile = (name: string) => new Uint8Array(readFileSync(join(corpusDir, name)))

/** A real form with its fields removed: the fields' rectangles are the answer key. */
const stripFields = async (bytes: Uint8Array) => {
  const truth = await Effect.runPromise(
    PdfJs.use(bytes, (doc) =>
      Effect.promise(async () => {
        const rects: Array<{ page: number; rect: Array<number> }> = []
        for (let n = 1; n <= doc.numPages; n++) {
          const page = await doc.getPage(n)
          for (const a of await page.getAnnotations()) if (a.subtype === "Widget" && !a.hidden) rects.push({ page: n, rect: a.rect })
        }
        return rects
      })
    )
  )
  const doc = await PDFDocument.load(bytes, { password: "", updateMetadata: false })
  for (const page of doc.getPages()) page.node.delete(PDFName.of("Annots"))
  doc.catalog.delete(PDFName.of("AcroForm"))
  return { flat: await doc.save(), truth }
}

describe.skipIf(!hasCorpus)("FieldDetector on the corpus", () => {
  if (!hasCorpus) console.log(`FieldDetector corpus tests skipped: ${corpusDir} not found`)

  it.effect("qpdf sample-form-out (a flattened form): the two outlined boxes, named after their labels", () =>
    Effect.gen(function* () {
      const { fields } = yield* detect(corpusFile("qpdf__sample-form-out.pdf"))
      console.log("qpdf__sample-form-out.pdf:", fields.map((f) => `${f.name} (${f.source}, ${f.confidence})`).join("; "))
      expect(fields.length).toBeGreaterThanOrEqual(2)
      expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(["Given Name", "Family Name"]))
      // The flattened values inside the boxes ("ABC", "DEF") are values, never names.
      expect(fields.some((f) => f.name === "ABC" || f.name === "DEF")).toBe(false)
    }))

  it.effect("pypdfform DS82 (text drawn as outlines): nothing over its one existing field, no crash", () =>
    Effect.gen(function* () {
      const { fields, pagesTotal } = yield* detect(corpusFile("pypdfform__DS82.pdf"))
      console.log(`pypdfform__DS82.pdf: ${fields.length} fields`, fields.map((f) => f.name))
      expect(pagesTotal).toBe(1)
      // LastName widget: [69.9, 648.4, 392.7, 670.6].
      const overlapsLastName = fields.some((f) => f.rect.x1 < 392.7 && f.rect.x2 > 69.9 && f.rect.y1 < 670.6 && f.rect.y2 > 648.4)
      expect(overlapsLastName).toBe(false)
      // Crop marks outside the page are not rules.
      expect(fields.every((f) => f.rect.x1 >= 0 && f.rect.x2 <= 611.5)).toBe(true)
    }))

  it.effect("a court form with its fields stripped: most fields found again, few false ones", () =>
    Effect.gen(function* () {
      const { flat, truth } = yield* Effect.promise(() => stripFields(corpusFile("formfyxer__affidavit_supplement.pdf")))
      const { fields } = yield* detect(flat)
      const overlaps = (f: DetectedField, t: { page: number; rect: Array<number> }) => {
        const w = Math.max(0, Math.min(f.rect.x2, t.rect[2]!) - Math.max(f.rect.x1, t.rect[0]!))
        const h = Math.max(0, Math.min(f.rect.y2, t.rect[3]!) - Math.max(f.rect.y1, t.rect[1]!))
        return f.page === t.page && w * h > 0.3 * (f.rect.x2 - f.rect.x1) * (f.rect.y2 - f.rect.y1)
      }
      const precision = fields.filter((f) => truth.some((t) => overlaps(f, t))).length / fields.length
      const recall = truth.filter((t) => fields.some((f) => overlaps(f, t))).length / truth.length
      console.log(`formfyxer__affidavit_supplement.pdf stripped: ${truth.length} fields, ${fields.length} found, precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)}`)
      expect(precision).toBeGreaterThanOrEqual(0.85)
      expect(recall).toBeGreaterThanOrEqual(0.75)
    }))
})
