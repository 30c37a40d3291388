/**
 * Appearance fidelity on a generated form (support/FidelityForm.ts): combs, wrapping, auto size,
 * alignment, the widget's own on-states, read-only fields, and flattening. Checked by reading
 * the output back with pdf.js (text positions of the flattened page, form fields), poppler's and
 * pdf.js's renders, and qpdf.
 */
import { PDFDict, PDFDocument, PDFName, PDFStream } from "@cantoo/pdf-lib"
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as FormFiller from "../src/pdf/FormFiller.ts"
import * as PdfLib from "../src/pdf/PdfLib.ts"
import * as FidelityForm from "./support/FidelityForm.ts"
import * as Ink from "./support/Ink.ts"
import * as Readback from "./support/Readback.ts"

const n = FidelityForm.names

const notes = "Alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo"

const assignments: ReadonlyArray<FormFiller.Assignment> = [
  { formName: n.comb, value: "AB12CD34" },
  { formName: n.notes, value: notes },
  { formName: n.auto, value: "A rather long value for a short box" },
  { formName: n.left, value: "Left text" },
  { formName: n.centre, value: "Centred text" },
  { formName: n.right, value: "Right text" },
  { formName: n.greekRight, value: "Ζωή Ελληνική" },
  { formName: n.japaneseCentre, value: "山田太郎" },
  { formName: n.hebrewLeft, value: "דוד כהן" },
  { formName: n.hebrewCentre, value: "שלום" },
  { formName: n.radio, value: "option1" },
  { formName: n.check, value: true },
  { formName: n.locked, value: "changed" },
  { formName: n.hidden, value: "Not shown" },
  { formName: n.rotatedPage, value: "On a turned page" }
]

let source: Uint8Array
let filled: FormFiller.FillResult
let flat: FormFiller.FillResult

beforeAll(async () => {
  source = await FidelityForm.build()
  filled = await Effect.runPromise(FormFiller.fillForm(source, assignments))
  flat = await Effect.runPromise(FormFiller.fillForm(source, assignments, { flatten: true }))
})

const inside = (item: Readback.TextItem, rect: ReadonlyArray<number>) =>
  item.x >= rect[0]! - 0.5 && item.x + item.width <= rect[2]! + 0.5 && item.y >= rect[1]! - 0.5 && item.y <= rect[3]! + 0.5

const cropBox = (pdf: Uint8Array, page: number) => Effect.map(PdfLib.load(pdf), (doc) => doc.getPage(page - 1).getCropBox())

const widgetOf = (doc: PDFDocument, formName: string, index = 0) => {
  const entry = PdfLib.terminalFields(doc).find((t) => t.formName === formName)!
  return PdfLib.widgetsOf(entry.field)[index]!
}

describe("FormFiller appearance fidelity", () => {
  it("fills every writable field and reports the read-only one with its reason", () => {
    expect(filled.applied).toEqual(assignments.map((a) => a.formName).filter((name) => name !== n.locked))
    expect(filled.skipped).toEqual([{ formName: n.locked, reason: "The field is read-only." }])
    expect(flat.applied).toEqual(filled.applied)
  })

  it.effect("puts one comb character in each cell", () =>
    Effect.gen(function*() {
      const [x1, y1, x2, y2] = FidelityForm.comb.rect
      const cell = (x2 - x1) / FidelityForm.comb.cells
      const items = (yield* Readback.textItems(flat.pdf, 1)).filter((i) => inside(i, FidelityForm.comb.rect))
      const glyphs = items.flatMap((item) => {
        // pdf.js may join neighbouring cells into one item with spaces between: split it evenly.
        const chars = Array.from(item.text.replace(/\s+/g, ""))
        return chars.length === 1 ? [{ ch: chars[0]!, centre: item.x + item.width / 2 }] : []
      })
      expect(glyphs.map((g) => g.ch).join("")).toBe("AB12CD34")
      glyphs.forEach((g, i) => {
        expect(g.centre).toBeGreaterThan(x1 + i * cell + cell * 0.25)
        expect(g.centre).toBeLessThan(x1 + (i + 1) * cell - cell * 0.25)
      })
      if (Ink.hasPoppler) {
        // Poppler, drawing the widget itself: ink in every cell, near its middle.
        const box = yield* cropBox(source, 1)
        const blank = Ink.poppler(source, 1)
        const page = Ink.poppler(filled.pdf, 1)
        for (let i = 0; i < FidelityForm.comb.cells; i++) {
          const ink = Ink.inkIn(page, blank, [x1 + i * cell, y1, x1 + (i + 1) * cell, y2], box)
          expect(ink.pixels, `cell ${i}`).toBeGreaterThan(10)
          expect((ink.left + ink.right) / 2, `cell ${i}`).toBeGreaterThan(0.25)
          expect((ink.left + ink.right) / 2, `cell ${i}`).toBeLessThan(0.75)
        }
      }
    }))

  it.effect("wraps a multi-line value inside its box, lines in reading order", () =>
    Effect.gen(function*() {
      const rect = FidelityForm.multilineRect
      const lines = (yield* Readback.textItems(flat.pdf, 1)).filter((i) => inside(i, rect))
      expect(lines.length).toBeGreaterThan(2)
      for (const line of lines) expect(line.x + line.width).toBeLessThanOrEqual(rect[2])
      const ys = lines.map((l) => l.y)
      expect(ys).toEqual([...ys].sort((a, b) => b - a))
      expect(lines.map((l) => l.text.trim()).join(" ").replace(/\s+/g, " ")).toBe(notes)
    }))

  it.effect("shrinks an auto-sized value until it fits its box", () =>
    Effect.gen(function*() {
      const rect = FidelityForm.autoRect
      const items = (yield* Readback.textItems(flat.pdf, 1)).filter((i) => inside(i, rect))
      expect(items.map((i) => i.text).join("")).toBe("A rather long value for a short box")
      for (const item of items) {
        expect(item.size).toBeLessThan(12)
        expect(item.x).toBeGreaterThanOrEqual(rect[0])
        expect(item.x + item.width).toBeLessThanOrEqual(rect[2])
      }
    }))

  it.effect.skipIf(!Ink.hasPoppler)("honours /Q for Latin, Greek, Japanese and Hebrew values", () =>
    Effect.gen(function*() {
      const box = yield* cropBox(source, 1)
      const blank = Ink.poppler(source, 1)
      const page = Ink.poppler(filled.pdf, 1)
      const ink = (name: string) => Ink.inkIn(page, blank, FidelityForm.alignedRects[name]!, box)
      const centre = (name: string) => (ink(name).left + ink(name).right) / 2
      for (const name of [n.left]) {
        expect(ink(name).left, name).toBeLessThan(0.05)
        expect(ink(name).right, name).toBeLessThan(0.5)
      }
      for (const name of [n.centre, n.japaneseCentre, n.hebrewCentre]) {
        expect(ink(name).pixels, name).toBeGreaterThan(20)
        expect(Math.abs(centre(name) - 0.5), name).toBeLessThan(0.05)
      }
      // Right-to-left text in a left-aligned field starts at the right, as it is read.
      for (const name of [n.right, n.greekRight, n.hebrewLeft]) {
        expect(ink(name).right, name).toBeGreaterThan(0.95)
        expect(ink(name).left, name).toBeGreaterThan(0.4)
      }
    }))

  it.effect("sets buttons to the widget's own on-state names", () =>
    Effect.gen(function*() {
      const doc = yield* PdfLib.load(filled.pdf)
      const states = [0, 1, 2].map((i) => widgetOf(doc, n.radio, i).lookup(PDFName.of("AS")))
      expect(states).toEqual([PDFName.of("Off"), PDFName.of(FidelityForm.radioStates[1]), PDFName.of("Off")])
      const radio = PdfLib.terminalFields(doc).find((t) => t.formName === n.radio)!
      expect(radio.field.acroField.dict.lookup(PDFName.of("V"))).toBe(PDFName.of(FidelityForm.radioStates[1]))
      expect(widgetOf(doc, n.check).lookup(PDFName.of("AS"))).toBe(PDFName.of(FidelityForm.checkState))
      const check = PdfLib.terminalFields(doc).find((t) => t.formName === n.check)!
      expect(check.field.acroField.dict.lookup(PDFName.of("V"))).toBe(PDFName.of(FidelityForm.checkState))
    }))

  it.effect("leaves a read-only field's value and appearance byte for byte as they were", () =>
    Effect.gen(function*() {
      const snapshot = (pdf: Uint8Array) =>
        Effect.map(PdfLib.load(pdf), (doc) => {
          const entry = PdfLib.terminalFields(doc).find((t) => t.formName === n.locked)!
          const normal = widgetOf(doc, n.locked).lookup(PDFName.of("AP"), PDFDict).lookup(PDFName.of("N"))
          if (!(normal instanceof PDFStream)) throw new Error("no appearance stream")
          return { value: PdfLib.decodeText(entry.field.acroField.dict.get(PDFName.of("V"))), stream: Buffer.from(normal.getContents()).toString("hex") }
        })
      const before = yield* snapshot(source)
      expect(before.value).toBe(FidelityForm.lockedValue)
      expect(yield* snapshot(filled.pdf)).toEqual(before)
    }))

  it.effect.skipIf(!Readback.hasQpdf)("writes files qpdf --check accepts, flattened or not", () =>
    Effect.sync(() => {
      expect(Readback.qpdfCheck(filled.pdf)).toBe(0)
      expect(Readback.qpdfCheck(flat.pdf)).toBe(0)
    }))
})

describe("FormFiller flatten", () => {
  it.effect("leaves no form fields and no widgets", () =>
    Effect.gen(function*() {
      const before = yield* Readback.formOf(filled.pdf)
      expect(before.fieldNames).toContain(n.comb)
      expect(before.widgets).toBeGreaterThan(10)
      expect(yield* Readback.formOf(flat.pdf)).toEqual({ fieldNames: [], widgets: 0 })
      const doc = yield* PdfLib.load(flat.pdf)
      expect(PdfLib.acroForm(doc)).toBeUndefined()
    }))

  it.effect("keeps every value as page text, and nothing of a hidden widget", () =>
    Effect.gen(function*() {
      const text = (yield* Readback.textItems(flat.pdf, 1)).map((i) => i.text).join(" ")
      for (const expected of ["Left text", "Centred text", "Right text", "Ζωή", "山田太郎", "TURNED", FidelityForm.lockedValue]) {
        expect(text).toContain(expected)
      }
      expect(text).not.toContain("Not shown")
      expect((yield* Readback.textItems(flat.pdf, 2)).map((i) => i.text).join(" ")).toContain("On a turned page")
    }))

  it.effect.skipIf(!Ink.hasPoppler)("looks as the filled form does in poppler, check marks, turned appearances and turned pages included", () =>
    Effect.gen(function*() {
      for (const page of [1, 2]) {
        const share = Readback.differingShare(Ink.poppler(filled.pdf, page), Ink.poppler(flat.pdf, page))
        expect(share, `page ${page}`).toBeLessThan(0.0005)
      }
      // The check mark and the chosen radio button are there: ink where the blank form has none.
      const box = yield* cropBox(source, 1)
      const blank = Ink.poppler(source, 1)
      const page = Ink.poppler(flat.pdf, 1)
      expect(Ink.inkIn(page, blank, [200, 500, 216, 516], box).pixels).toBeGreaterThan(10)
      expect(Ink.inkIn(page, blank, [90, 500, 106, 516], box).pixels).toBeGreaterThan(5)
      expect(Ink.inkIn(page, blank, [50, 500, 66, 516], box).pixels).toBe(0)
    }))

  it.effect("looks as the filled form does in pdf.js", () =>
    Effect.gen(function*() {
      for (const page of [1, 2]) {
        const share = Readback.differingShare(yield* Ink.pdfjs(filled.pdf, page), yield* Ink.pdfjs(flat.pdf, page))
        expect(share, `page ${page}`).toBeLessThan(0.0005)
      }
    }))

  it.effect("reports a value no font can draw, fills the rest, and flattens the field as it was", () =>
    Effect.gen(function*() {
      const result = yield* FormFiller.fillForm(source, [
        { formName: n.left, value: "bad \u0378 value" },
        { formName: n.right, value: "Right text" }
      ], { flatten: true })
      expect(result.applied).toEqual([n.right])
      expect(result.skipped).toHaveLength(1)
      expect(result.skipped[0]!.reason).toContain("U+0378")
      const text = (yield* Readback.textItems(result.pdf, 1)).map((i) => i.text).join(" ")
      expect(text).toContain("Right text")
      expect(text).not.toContain("bad")
      if (Readback.hasQpdf) expect(Readback.qpdfCheck(result.pdf)).toBe(0)
    }))

  it.effect.skipIf(!Ink.hasPoppler)("places an appearance by its /BBox and /Matrix, where pdf-lib's own flatten does not", () =>
    Effect.gen(function*() {
      const withPdfLib = yield* Effect.promise(async () => {
        const doc = await PDFDocument.load(filled.pdf)
        doc.getForm().flatten({ updateFieldAppearances: false })
        return doc.save()
      })
      const box = yield* cropBox(source, 1)
      const rendered = (pdf: Uint8Array) => Ink.poppler(pdf, 1)
      const white = { ...rendered(source), data: new Uint8Array(rendered(source).data.length).fill(255) }
      const ink = (pdf: Uint8Array) => Ink.inkIn(rendered(pdf), white, FidelityForm.turnedRect, box).pixels
      const expected = ink(filled.pdf)
      expect(expected).toBeGreaterThan(100)
      expect(Math.abs(ink(flat.pdf) - expected)).toBeLessThan(expected * 0.02)
      expect(Math.abs(ink(withPdfLib) - expected)).toBeGreaterThan(expected * 0.2)
    }))
})
