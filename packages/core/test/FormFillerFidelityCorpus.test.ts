/**
 * Appearance fidelity on the corpus of real forms (shared/corpus): for each rule, the corpus
 * forms that have a field it applies to are found by their fields' own properties (never by
 * name), filled, and read back with pdf.js, poppler and qpdf. Skipped, saying so, without the corpus.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PDFCheckBox, PDFDict, PDFName, PDFNumber, PDFRadioGroup, PDFStream, PDFTextField, type PDFDocument, type PDFField } from "@cantoo/pdf-lib"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as FormFiller from "../src/pdf/FormFiller.ts"
import * as PdfLib from "../src/pdf/PdfLib.ts"
import * as Ink from "./support/Ink.ts"
import * as Readback from "./support/Readback.ts"

const corpusDir = join(process.env["FORMWRIGHT_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url)), "pdfs")
const hasCorpus = existsSync(corpusDir)

/** How many forms each rule is tried on, at most, to keep the run short. */
const formsPerRule = 3

interface Candidate {
  readonly file: string
  readonly bytes: Uint8Array
  readonly formName: string
  readonly field: PDFField
  readonly page: number
  readonly rect: ReadonlyArray<number>
  readonly doc: PDFDocument
}

const numbersOf = (dict: PDFDict, key: string): ReadonlyArray<number> => {
  const value = dict.lookup(PDFName.of(key))
  if (!value || !("size" in value)) return []
  const array = value as unknown as { size: () => number; lookup: (i: number) => unknown }
  return Array.from({ length: array.size() }, (_, i) => {
    const n = array.lookup(i)
    return n instanceof PDFNumber ? n.asNumber() : NaN
  })
}

const da = (field: PDFField) => PdfLib.decodeText(PdfLib.inherited(field.acroField.dict, "DA")) ?? ""
const daSize = (field: PDFField) => Number([...da(field).matchAll(/\/[^\s/]+\s+([-+\d.]+)\s+Tf/g)].at(-1)?.[1] ?? NaN)
const quadding = (field: PDFField) => {
  const q = PdfLib.inherited(field.acroField.dict, "Q")
  return q instanceof PDFNumber ? q.asNumber() : 0
}
const isEmpty = (field: PDFField) => (PdfLib.decodeText(PdfLib.inherited(field.acroField.dict, "V")) ?? "").trim() === ""

interface CorpusForm {
  readonly file: string
  readonly bytes: Uint8Array
  readonly doc: PDFDocument
}

let loading: Promise<ReadonlyArray<CorpusForm>> | undefined

/** The corpus forms pdf-lib can open, in name order, read once for all the tests. */
const corpusForms = (): Effect.Effect<ReadonlyArray<CorpusForm>> =>
  Effect.promise(() =>
    loading ??= Effect.runPromise(Effect.gen(function*() {
      const forms: Array<CorpusForm> = []
      for (const file of readdirSync(corpusDir).filter((f) => f.endsWith(".pdf")).sort()) {
        const bytes = new Uint8Array(readFileSync(join(corpusDir, file)))
        const loaded = yield* Effect.result(PdfLib.load(bytes))
        if (loaded._tag === "Success") forms.push({ file, bytes, doc: loaded.success })
      }
      return forms
    }))
  )

/** Single-widget fields drawn upright on an unturned page: the ones whose ink can be measured in page space. */
const candidates = (accept: (field: PDFField) => boolean) => Effect.map(corpusForms(), (forms) => {
  const found: Array<Candidate> = []
  for (const { file, bytes, doc } of forms) {
    if (found.length >= formsPerRule) break
    try {
      const locate = PdfLib.pageLocator(doc)
      const match = PdfLib.terminalFields(doc).find(({ field }) => {
        const widgets = PdfLib.widgetsOf(field)
        if (widgets.length !== 1 || (PdfLib.fieldFlags(field.acroField.dict) & PdfLib.flags.readOnly) !== 0) return false
        const page = locate(widgets[0]!)
        if (page === undefined || doc.getPage(page - 1).getRotation().angle % 360 !== 0) return false
        const mk = widgets[0]!.lookup(PDFName.of("MK"))
        const turned = mk instanceof PDFDict && (mk.lookup(PDFName.of("R")) as PDFNumber | undefined)?.asNumber?.()
        return !turned && accept(field)
      })
      if (!match) continue
      const widget = PdfLib.widgetsOf(match.field)[0]!
      found.push({ file, bytes, formName: match.formName, field: match.field, page: locate(widget)!, rect: numbersOf(widget, "Rect"), doc })
    } catch {
      // A form pdf-lib cannot walk has nothing to offer here.
    }
  }
  return found as ReadonlyArray<Candidate>
})

const cropBox = (pdf: Uint8Array, page: number) => Effect.map(PdfLib.load(pdf), (doc) => doc.getPage(page - 1).getCropBox())

const normalised = (r: ReadonlyArray<number>) => [Math.min(r[0]!, r[2]!), Math.min(r[1]!, r[3]!), Math.max(r[0]!, r[2]!), Math.max(r[1]!, r[3]!)] as const

const inside = (item: Readback.TextItem, r: ReadonlyArray<number>) =>
  item.x >= r[0]! - 1 && item.x + item.width <= r[2]! + 1 && item.y >= r[1]! - 1 && item.y <= r[3]! + 1

const words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango"

if (!hasCorpus) console.log(`Corpus appearance-fidelity tests skipped: ${corpusDir} not found`)

describe.skipIf(!hasCorpus)("FormFiller appearance fidelity, on the corpus", () => {
  it.effect.skipIf(!Ink.hasPoppler)("comb fields: one character in each cell", () =>
    Effect.gen(function*() {
      const found = yield* candidates((field) => {
        const maxLen = PdfLib.inherited(field.acroField.dict, "MaxLen")
        return field instanceof PDFTextField && field.isCombed() && maxLen instanceof PDFNumber && maxLen.asNumber() >= 2 && isEmpty(field)
      })
      expect(found.length).toBeGreaterThan(0)
      for (const c of found) {
        const cells = (PdfLib.inherited(c.field.acroField.dict, "MaxLen") as PDFNumber).asNumber()
        const value = "1234567890".repeat(Math.ceil(cells / 10)).slice(0, cells)
        const result = yield* FormFiller.fillForm(c.bytes, [{ formName: c.formName, value }])
        expect(result.applied, c.file).toEqual([c.formName])
        const [x1, y1, x2, y2] = normalised(c.rect)
        const cell = (x2 - x1) / cells
        const box = yield* cropBox(c.bytes, c.page)
        const blank = Ink.poppler(c.bytes, c.page)
        const page = Ink.poppler(result.pdf, c.page)
        for (let i = 0; i < cells; i++) {
          const ink = Ink.inkIn(page, blank, [x1 + i * cell, y1, x1 + (i + 1) * cell, y2], box)
          expect(ink.pixels, `${c.file} ${c.formName} cell ${i}`).toBeGreaterThan(0)
          expect((ink.left + ink.right) / 2, `${c.file} ${c.formName} cell ${i}`).toBeGreaterThan(0.15)
          expect((ink.left + ink.right) / 2, `${c.file} ${c.formName} cell ${i}`).toBeLessThan(0.85)
        }
        if (Readback.hasQpdf) expect(Readback.qpdfCheck(result.pdf), c.file).toBe(0)
      }
    }))

  it.effect("multi-line fields: the value wraps inside the box, in reading order", () =>
    Effect.gen(function*() {
      const found = yield* candidates((field) => {
        const [, y1, , y2] = normalised(numbersOf(PdfLib.widgetsOf(field)[0]!, "Rect"))
        return field instanceof PDFTextField && field.isMultiline() && !field.isCombed() && isEmpty(field) && daSize(field) > 0 && y2 - y1 >= daSize(field) * 4
      })
      expect(found.length).toBeGreaterThan(0)
      const vocabulary = new Set(words.split(" "))
      for (const c of found) {
        const rect = normalised(c.rect)
        // About two and a half lines: an average character is about half the font size wide.
        const wanted = Math.ceil((2.5 * (rect[2] - rect[0])) / (daSize(c.field) * 0.5))
        const value = Array.from({ length: Math.ceil(wanted / words.length) }, () => words).join(" ")
        const result = yield* FormFiller.fillForm(c.bytes, [{ formName: c.formName, value }], { flatten: true })
        expect(result.applied, c.file).toEqual([c.formName])
        const lines = (yield* Readback.textItems(result.pdf, c.page)).filter((i) =>
          inside(i, rect) && i.text.trim().split(/\s+/).every((w) => vocabulary.has(w))
        )
        expect(lines.length, c.file).toBeGreaterThan(1)
        for (const line of lines) expect(line.x + line.width, c.file).toBeLessThanOrEqual(rect[2] + 0.5)
        expect(lines.map((l) => l.y), c.file).toEqual(lines.map((l) => l.y).sort((a, b) => b - a))
        for (const line of lines) expect(line.y, c.file).toBeGreaterThanOrEqual(rect[1])
        // A /MaxLen cuts the value first.
        const maxLen = PdfLib.inherited(c.field.acroField.dict, "MaxLen")
        const kept = maxLen instanceof PDFNumber ? value.slice(0, maxLen.asNumber()).trim() : value
        expect(lines.map((l) => l.text.trim()).join(" "), c.file).toBe(kept)
      }
    }))

  it.effect("auto-sized fields: a long value shrinks below 12 pt and stays inside the box", () =>
    Effect.gen(function*() {
      const found = yield* candidates((field) =>
        field instanceof PDFTextField && !field.isMultiline() && !field.isCombed() && isEmpty(field) && daSize(field) === 0 && !PdfLib.inherited(field.acroField.dict, "MaxLen")
      )
      expect(found.length).toBeGreaterThan(0)
      for (const c of found) {
        const rect = normalised(c.rect)
        // Long enough that 12 pt cannot fit: twice the box's width in 12 pt characters of about 6 pt.
        const value = words.slice(0, Math.min(words.length, Math.ceil(((rect[2] - rect[0]) / 6) * 1.3)))
        const result = yield* FormFiller.fillForm(c.bytes, [{ formName: c.formName, value }], { flatten: true })
        expect(result.applied, c.file).toEqual([c.formName])
        const items = (yield* Readback.textItems(result.pdf, c.page)).filter((i) => inside(i, rect) && value.includes(i.text.trim()))
        expect(items.map((i) => i.text).join("").replace(/\s+/g, ""), c.file).toBe(value.replace(/\s+/g, ""))
        for (const item of items) {
          expect(item.size, c.file).toBeLessThan(12)
          expect(item.x + item.width, c.file).toBeLessThanOrEqual(rect[2] + 0.5)
        }
      }
    }))

  it.effect.skipIf(!Ink.hasPoppler)("right-aligned and centred fields: the value sits where /Q puts it", () =>
    Effect.gen(function*() {
      for (const q of [1, 2]) {
        const found = yield* candidates((field) =>
          field instanceof PDFTextField && !field.isMultiline() && !field.isCombed() && isEmpty(field) && quadding(field) === q &&
          normalised(numbersOf(PdfLib.widgetsOf(field)[0]!, "Rect"))[2] - normalised(numbersOf(PdfLib.widgetsOf(field)[0]!, "Rect"))[0] > 60
        )
        expect(found.length, `Q ${q}`).toBeGreaterThan(0)
        for (const c of found) {
          const result = yield* FormFiller.fillForm(c.bytes, [{ formName: c.formName, value: "42" }])
          const ink = Ink.inkIn(Ink.poppler(result.pdf, c.page), Ink.poppler(c.bytes, c.page), c.rect, yield* cropBox(c.bytes, c.page))
          expect(ink.pixels, c.file).toBeGreaterThan(0)
          if (q === 2) {
            expect(ink.right, `${c.file} ${c.formName}`).toBeGreaterThan(0.8)
            expect(ink.left, `${c.file} ${c.formName}`).toBeGreaterThan(0.5)
          } else expect(Math.abs((ink.left + ink.right) / 2 - 0.5), `${c.file} ${c.formName}`).toBeLessThan(0.1)
        }
      }
    }))

  it.effect("check boxes: the widget's own on-state, not /Yes", () =>
    Effect.gen(function*() {
      const found = yield* candidates((field) => {
        const states = PdfLib.widgetsOf(field).flatMap(PdfLib.onStates)
        return field instanceof PDFCheckBox && states.length === 1 && states[0] !== PDFName.of("Yes")
      })
      expect(found.length).toBeGreaterThan(0)
      for (const c of found) {
        const state = PdfLib.onStates(PdfLib.widgetsOf(c.field)[0]!)[0]!
        const result = yield* FormFiller.fillForm(c.bytes, [{ formName: c.formName, value: true }])
        const doc = yield* PdfLib.load(result.pdf)
        const entry = PdfLib.terminalFields(doc).find((t) => t.formName === c.formName)!
        expect(PdfLib.widgetsOf(entry.field)[0]!.lookup(PDFName.of("AS")), c.file).toBe(state)
        expect(entry.field.acroField.dict.lookup(PDFName.of("V")), c.file).toBe(state)
      }
    }))

  it.effect("read-only fields: skipped with the reason, value and appearance unchanged", () =>
    Effect.gen(function*() {
      const found: Array<{ file: string; bytes: Uint8Array; formName: string }> = []
      for (const { file, bytes, doc } of yield* corpusForms()) {
        if (found.length >= formsPerRule) break
        const match = PdfLib.terminalFields(doc).find(({ field }) =>
          field instanceof PDFTextField && (PdfLib.fieldFlags(field.acroField.dict) & PdfLib.flags.readOnly) !== 0 &&
          PdfLib.widgetsOf(field).every((w) => {
            const ap = w.lookup(PDFName.of("AP"))
            return ap instanceof PDFDict && ap.lookup(PDFName.of("N")) instanceof PDFStream
          })
        )
        if (match) found.push({ file, bytes, formName: match.formName })
      }
      expect(found.length).toBeGreaterThan(0)
      const snapshot = (pdf: Uint8Array, formName: string) =>
        Effect.map(PdfLib.load(pdf), (doc) => {
          const entry = PdfLib.terminalFields(doc).find((t) => t.formName === formName)!
          return {
            value: PdfLib.decodeText(PdfLib.inherited(entry.field.acroField.dict, "V")),
            streams: PdfLib.widgetsOf(entry.field).map((w) =>
              Buffer.from((w.lookup(PDFName.of("AP"), PDFDict).lookup(PDFName.of("N")) as PDFStream).getContents()).toString("base64")
            )
          }
        })
      for (const c of found) {
        const result = yield* FormFiller.fillForm(c.bytes, [{ formName: c.formName, value: "changed" }])
        expect(result.skipped, c.file).toEqual([{ formName: c.formName, reason: "The field is read-only." }])
        expect(yield* snapshot(result.pdf, c.formName), c.file).toEqual(yield* snapshot(c.bytes, c.formName))
      }
    }))
})

/** Every writable field given a value: text "Sample n" (cut to its /MaxLen), boxes checked, radio groups on their first option. */
const fillEverything = (doc: PDFDocument): ReadonlyArray<FormFiller.Assignment> =>
  PdfLib.terminalFields(doc).flatMap(({ field, formName }, i): Array<FormFiller.Assignment> => {
    if ((PdfLib.fieldFlags(field.acroField.dict) & PdfLib.flags.readOnly) !== 0) return []
    if (field instanceof PDFTextField) return [{ formName, value: `Sample ${i}` }]
    if (field instanceof PDFCheckBox) return [{ formName, value: true }]
    if (field instanceof PDFRadioGroup) {
      const state = PdfLib.widgetsOf(field).flatMap(PdfLib.onStates)[0]
      return state ? [{ formName, value: PdfLib.nameText(state) }] : []
    }
    return []
  })

describe.skipIf(!hasCorpus)("FormFiller flatten, on the corpus", () => {
  /** Short forms with text fields and buttons, and the first form with a turned page that has fields. */
  const forms = (all: ReadonlyArray<CorpusForm>): ReadonlyArray<CorpusForm> => {
    const picked: Array<CorpusForm> = []
    let turned = false
    for (const { file, bytes, doc } of all) {
      try {
        const fields = PdfLib.terminalFields(doc).map((t) => t.field)
        if (fields.length === 0 || doc.getPageCount() > 3 || PdfLib.hasXfa(doc)) continue
        const hasTurnedPage = doc.getPages().some((p) => p.getRotation().angle % 360 !== 0)
        const mixed = fields.some((f) => f instanceof PDFTextField) && fields.some((f) => f instanceof PDFCheckBox || f instanceof PDFRadioGroup)
        if (hasTurnedPage && !turned) {
          turned = true
          picked.push({ file, bytes, doc })
        } else if (mixed && picked.length < formsPerRule + (turned ? 1 : 0)) picked.push({ file, bytes, doc })
      } catch {
        continue
      }
      if (turned && picked.length >= formsPerRule + 1) break
    }
    return picked
  }

  it.effect.skipIf(!Ink.hasPoppler)("leaves no fields, and every page looks as it did filled", () =>
    Effect.gen(function*() {
      const picked = forms(yield* corpusForms())
      expect(picked.length).toBeGreaterThan(formsPerRule - 1)
      for (const { file, bytes, doc } of picked) {
        const assignments = fillEverything(doc)
        const filled = yield* FormFiller.fillForm(bytes, assignments)
        const flat = yield* FormFiller.fillForm(bytes, assignments, { flatten: true })
        expect(flat.applied, file).toEqual(filled.applied)
        expect(yield* Readback.formOf(flat.pdf), file).toEqual({ fieldNames: [], widgets: 0 })
        if (Readback.hasQpdf) expect(Readback.qpdfCheck(flat.pdf), file).toBe(0)
        for (let page = 1; page <= doc.getPageCount(); page++) {
          const share = Readback.differingShare(Ink.poppler(filled.pdf, page), Ink.poppler(flat.pdf, page))
          expect(share, `${file} page ${page}`).toBeLessThan(0.001)
        }
      }
    }))
})
