/**
 * One generated flat page per candidate source added for issue 8: comb boxes, "[ ]" glyphs, round
 * buttons grouped as radios, stacked lines as one multi-line area, table cells with an operator
 * printed in them, signature lines. Positions are known exactly from the drawing code, and the
 * PDFs are read back by pdf.js through the real detector.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "@cantoo/pdf-lib"
import * as FieldDetector from "../src/detect/FieldDetector.ts"
import type { DetectedField } from "../src/detect/FieldDetector.ts"
import * as RadioGroups from "../src/detect/RadioGroups.ts"
import * as Tables from "../src/detect/Tables.ts"
import * as VectorLines from "../src/detect/VectorLines.ts"
import { OPS } from "pdfjs-dist/legacy/build/pdf.mjs"

const black = rgb(0, 0, 0)
/** Helvetica metrics, to know where drawn text ends (the same font the pages embed). */
const font0 = await PDFDocument.create().then((d) => d.embedFont(StandardFonts.Helvetica))

const page = (draw: (page: PDFPage, font: PDFFont) => void) =>
  Effect.promise(async () => {
    const doc = await PDFDocument.create()
    const p = doc.addPage([612, 792])
    draw(p, await doc.embedFont(StandardFonts.Helvetica))
    return new Uint8Array(await doc.save())
  })

const detect = (bytes: Uint8Array) =>
  FieldDetector.detect(bytes, { confidence: 0.1, allowCheckboxes: true }).pipe(Effect.map((d) => d.fields))

const near = (f: DetectedField, x1: number, y1: number, x2: number, y2: number, tolerance = 2) =>
  Math.abs(f.rect.x1 - x1) <= tolerance && Math.abs(f.rect.y1 - y1) <= tolerance && Math.abs(f.rect.x2 - x2) <= tolerance && Math.abs(f.rect.y2 - y2) <= tolerance

describe("detector sources on generated pages", () => {
  it.effect("a row of touching character cells is one comb field with one character per cell", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Account number:", { x: 50, y: 705, size: 10, font })
        for (let k = 0; k < 8; k++) p.drawRectangle({ x: 140 + 14 * k, y: 700, width: 14, height: 18, borderWidth: 0.75, borderColor: black })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(1)
      const comb = fields[0]!
      expect(comb.source).toBe("comb")
      expect(comb.maxLength).toBe(8)
      expect(comb.name).toBe("Account number")
      expect(near(comb, 140, 700, 140 + 14 * 8, 718, 1.5)).toBe(true)
    })
  )

  it.effect("a line with evenly spaced ticks rising from it is one comb; the same with digits printed in it is none", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Registration number: 13 open cells of 14.5 pt, ticks alternately 10 and 6 pt tall.
        p.drawText("Registration number:", { x: 50, y: 703, size: 10, font })
        p.drawLine({ start: { x: 160, y: 700 }, end: { x: 160 + 14.5 * 13, y: 700 }, thickness: 0.5, color: black })
        for (let k = 0; k <= 13; k++) {
          const x = 160 + 14.5 * k
          p.drawLine({ start: { x, y: 700 }, end: { x, y: k % 2 === 0 ? 710 : 706 }, thickness: 0.5, color: black })
        }
        // The same comb already filled in: its digits are content, not blanks.
        p.drawText("Reference:", { x: 50, y: 603, size: 10, font })
        p.drawLine({ start: { x: 160, y: 600 }, end: { x: 160 + 14.5 * 6, y: 600 }, thickness: 0.5, color: black })
        for (let k = 0; k <= 6; k++) p.drawLine({ start: { x: 160 + 14.5 * k, y: 600 }, end: { x: 160 + 14.5 * k, y: 610 }, thickness: 0.5, color: black })
        for (let k = 0; k < 6; k++) p.drawText(String(k), { x: 165 + 14.5 * k, y: 602, size: 9, font })
      })
      const fields = yield* detect(bytes)
      const combs = fields.filter((f) => f.source === "comb")
      expect(combs).toHaveLength(1)
      expect(combs[0]!.maxLength).toBe(13)
      expect(combs[0]!.name).toBe("Registration number")
      expect(combs[0]!.rect.x1).toBeCloseTo(160, 0)
      expect(combs[0]!.rect.x2).toBeCloseTo(160 + 14.5 * 13, 0)
      expect(combs[0]!.rect.y1).toBeGreaterThanOrEqual(699.5)
    })
  )

  it.effect("'[ ]' printed in the text gives a check box on the glyph, named by the word after it", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("[  ] Yes      [  ] No", { x: 60, y: 600, size: 12, font })
      })
      const fields = yield* detect(bytes)
      expect(fields.map((f) => [f.kind, f.source, f.name])).toEqual([
        ["CheckBox", "glyph", "Yes"],
        ["CheckBox", "glyph", "No"]
      ])
      // On the glyph: starting where the bracket starts, sitting on the baseline.
      expect(fields[0]!.rect.x1).toBeGreaterThan(58)
      expect(fields[0]!.rect.x2).toBeLessThan(60 + 20)
      expect(Math.abs(fields[0]!.rect.y1 - 600)).toBeLessThan(2)
    })
  )

  it.effect("round buttons in a column are one radio group, each option valued by its caption", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Preferred contact:", { x: 50, y: 700, size: 10, font })
        ;["Email", "Phone", "Post"].forEach((option, k) => {
          p.drawCircle({ x: 60, y: 680 - 16 * k, size: 5, borderWidth: 0.75, borderColor: black })
          p.drawText(option, { x: 72, y: 677 - 16 * k, size: 10, font })
        })
        // A square box elsewhere stays an independent check box.
        p.drawRectangle({ x: 55, y: 560, width: 10, height: 10, borderWidth: 0.75, borderColor: black })
        p.drawText("I agree", { x: 72, y: 561, size: 10, font })
      })
      const fields = yield* detect(bytes)
      const radios = fields.filter((f) => f.radio !== undefined)
      expect(radios.map((f) => f.radio!.value)).toEqual(["Email", "Phone", "Post"])
      expect(new Set(radios.map((f) => f.radio!.group)).size).toBe(1)
      expect(radios.every((f) => f.kind === "CheckBox" && near(f, 55, f.rect.y1, 65, f.rect.y1 + 10, 0.5))).toBe(true)
      const agree = fields.find((f) => f.name === "I agree")
      expect(agree?.kind).toBe("CheckBox")
      expect(agree?.radio).toBeUndefined()
    })
  )

  it.effect("stacked unlabelled lines under a question are one multi-line field; 'Label: ____' lines stay apart", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Describe the accommodation you need:", { x: 50, y: 700, size: 10, font })
        for (let k = 0; k < 4; k++) p.drawLine({ start: { x: 50, y: 680 - 18 * k }, end: { x: 400, y: 680 - 18 * k }, thickness: 0.5, color: black })
        p.drawText("Address:", { x: 50, y: 500, size: 10, font })
        for (let k = 0; k < 3; k++) p.drawLine({ start: { x: 100, y: 498 - 18 * k }, end: { x: 400, y: 498 - 18 * k }, thickness: 0.5, color: black })
      })
      const fields = yield* detect(bytes)
      const area = fields.find((f) => f.multiline)
      expect(area).toBeDefined()
      expect(near(area!, 50, 680 - 18 * 3, 400, 680 + 18, 1.5)).toBe(true)
      expect(area!.name).toBe("Describe the accommodation you need")
      expect(fields.filter((f) => f.rect.y1 < 510).map((f) => f.name)).toEqual(["Address", "Address (line 2)", "Address (line 3)"])
    })
  )

  it.effect("table cells: empty cells are fields, and a cell with a printed '+' is filled after the sign", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // A 3-column, 2-row grid drawn with lines: label column, two amount columns.
        for (const y of [600, 620, 640]) p.drawLine({ start: { x: 50, y }, end: { x: 350, y }, thickness: 0.5, color: black })
        for (const x of [50, 200, 275, 350]) p.drawLine({ start: { x, y: 600 }, end: { x, y: 640 }, thickness: 0.5, color: black })
        p.drawText("Income received", { x: 55, y: 626, size: 9, font })
        p.drawText("Income spent", { x: 55, y: 606, size: 9, font })
        p.drawText("+", { x: 203, y: 626, size: 9, font })
      })
      const fields = yield* detect(bytes)
      const cells = fields.filter((f) => f.source === "cell")
      // Row 1: the '+' cell's field starts after the sign; row 2: both amount cells whole.
      expect(cells.some((f) => f.rect.x1 > 206 && f.rect.x1 < 212 && f.rect.x2 > 272 && f.rect.y1 > 619)).toBe(true)
      expect(cells.some((f) => near(f, 201, 601, 274, 619, 1.5))).toBe(true)
      expect(cells.some((f) => near(f, 276, 601, 349, 619, 1.5))).toBe(true)
      expect(cells.every((f) => f.rect.x1 >= 200)).toBe(true)
    })
  )

  it.effect("a total cell with '=' and the line number it carries at its left is filled after them", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // One outlined box 100 x 24 pt: "=" and the line number "13" at its left, then room.
        p.drawRectangle({ x: 200, y: 600, width: 100, height: 24, borderWidth: 0.5, borderColor: black })
        p.drawText("Total", { x: 160, y: 606, size: 9, font })
        p.drawText("13", { x: 202, y: 614, size: 7, font })
        p.drawText("=", { x: 203, y: 602, size: 9, font })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(1)
      expect(fields[0]!.rect.x1).toBeGreaterThan(210)
      expect(fields[0]!.rect.x2).toBeGreaterThan(295)
    })
  )

  it.effect("a line captioned 'Signature' is marked as a signature field; its 'Date' line is not", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawLine({ start: { x: 50, y: 200 }, end: { x: 250, y: 200 }, thickness: 0.75, color: black })
        p.drawText("Signature of applicant", { x: 50, y: 190, size: 9, font })
        p.drawLine({ start: { x: 300, y: 200 }, end: { x: 450, y: 200 }, thickness: 0.75, color: black })
        p.drawText("Date", { x: 300, y: 190, size: 9, font })
      })
      const fields = yield* detect(bytes)
      expect(fields.map((f) => [f.name, f.signature ?? false])).toEqual([
        ["Signature of applicant", true],
        ["Date", false]
      ])
    })
  )

  it.effect("a line after a sentence asking when something was signed is a date, not a signature", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("A judge of this court signed the judgment in this case on", { x: 50, y: 300, size: 10, font })
        p.drawLine({ start: { x: 340, y: 298 }, end: { x: 500, y: 298 }, thickness: 0.75, color: black })
      })
      const fields = yield* detect(bytes)
      expect(fields.map((f) => [f.name, f.signature ?? false])).toEqual([["A judge of this court signed the judgment in this case on", false]])
    })
  )
})

describe("detector sources on generated pages: leaders, tall cells, numbered cells", () => {
  it.effect("heading bars of two columns are no fields: neither the room after a heading nor the other column's bar", () =>
    Effect.gen(function* () {
      const grey = rgb(0.85, 0.85, 0.85)
      const bytes = yield* page((p, font) => {
        // Two outlined grey bars, a gutter between them, each with its heading in 12 pt type.
        p.drawRectangle({ x: 36, y: 720, width: 258, height: 18, color: grey, borderColor: black, borderWidth: 0.5 })
        p.drawRectangle({ x: 318, y: 720, width: 258, height: 18, color: grey, borderColor: black, borderWidth: 0.5 })
        p.drawText("Part 2. Petition Type", { x: 40, y: 724, size: 12, font })
        p.drawText("Reason for Application", { x: 321, y: 724, size: 12, font })
        // Body text in 10 pt.
        for (const y of [690, 676, 662, 648]) p.drawText("Answer every question on this page in black ink.", { x: 40, y, size: 10, font })
      })
      const fields = yield* detect(bytes)
      expect(fields.filter((f) => f.rect.y2 > 715)).toEqual([])
    })
  )

  it.effect("a running footer's rule, its page number under its end, is no field; a rule captioned under both ends is", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawLine({ start: { x: 36, y: 50 }, end: { x: 576, y: 50 }, thickness: 0.5, color: black })
        p.drawText("Form X-1 Edition 04/01/24", { x: 36, y: 40, size: 7, font })
        p.drawText("Page 2 of 7", { x: 576 - font0.widthOfTextAtSize("Page 2 of 7", 7), y: 40, size: 7, font })
        p.drawLine({ start: { x: 36, y: 300 }, end: { x: 400, y: 300 }, thickness: 0.5, color: black })
        p.drawText("Signature of applicant", { x: 36, y: 290, size: 7, font })
        p.drawText("Date", { x: 400 - font0.widthOfTextAtSize("Date", 7), y: 290, size: 7, font })
        p.drawText("I certify that the information given is true and complete.", { x: 36, y: 400, size: 10, font })
        // A running header: the form's name and the page number standing on one rule.
        p.drawLine({ start: { x: 36, y: 745 }, end: { x: 576, y: 745 }, thickness: 0.5, color: black })
        p.drawText("Form X-1 (2023)", { x: 36, y: 747, size: 7, font })
        p.drawText("Page 4", { x: 576 - font0.widthOfTextAtSize("Page 4", 10), y: 747, size: 10, font })
      })
      const fields = yield* detect(bytes)
      expect(fields.filter((f) => f.rect.y1 < 100 || f.rect.y1 > 700)).toEqual([])
      expect(fields.filter((f) => f.rect.y1 >= 299 && f.rect.y1 <= 302).length).toBeGreaterThan(0)
    })
  )

  it.effect("the narrow cents cell after an amount's dollars cell in a tall row is a field too; a narrow cell alone is not", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Two rows of amount cells (dollars 50 pt, cents 20 pt); the first is two lines tall
        // ("76 Dividends paid by: / a U.S. corporations"), which makes its cents cell taller than wide.
        for (const y of [400, 412, 436]) p.drawLine({ start: { x: 250, y }, end: { x: 400, y }, thickness: 0.5, color: black })
        for (const x of [250, 276, 326, 347, 400]) p.drawLine({ start: { x, y: 400 }, end: { x, y: 436 }, thickness: 0.5, color: black })
        p.drawText("76", { x: 40, y: 428, size: 9, font })
        p.drawText("a  U.S. corporations", { x: 50, y: 415, size: 9, font })
        p.drawText("76a", { x: 254, y: 415, size: 9, font })
        p.drawText("b  Foreign corporations", { x: 50, y: 403, size: 9, font })
        p.drawText("76b", { x: 254, y: 403, size: 9, font })
        // A narrow cell of the same height with text in the cell before it: no amount.
        for (const y of [300, 324]) p.drawLine({ start: { x: 250, y }, end: { x: 347, y }, thickness: 0.5, color: black })
        for (const x of [250, 326, 347]) p.drawLine({ start: { x, y: 300 }, end: { x, y: 324 }, thickness: 0.5, color: black })
        p.drawText("Total", { x: 254, y: 308, size: 9, font })
      })
      const fields = yield* detect(bytes)
      const cents = fields.filter((f) => f.rect.x1 >= 326 && f.rect.x2 <= 347)
      expect(cents.filter((f) => f.rect.y1 >= 411).length).toBe(1)
      expect(cents.filter((f) => f.rect.y2 <= 413).length).toBe(1)
      expect(cents.filter((f) => f.rect.y2 <= 325 && f.rect.y1 >= 299)).toEqual([])
    })
  )

  it.effect("periods stacked in a column divide a cell like a rule; text turned up the margin covers no cell", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Two rows: a name cell (60-220) and an identifying number cell (220-330) whose three
        // parts are divided by columns of periods 2.5 pt apart, as older tax forms print them.
        for (const y of [400, 412, 424]) p.drawLine({ start: { x: 60, y }, end: { x: 330, y }, thickness: 0.5, color: black })
        for (const x of [60, 220, 330]) p.drawLine({ start: { x, y: 400 }, end: { x, y: 436 }, thickness: 0.5, color: black })
        p.drawText("First name", { x: 64, y: 427, size: 7, font })
        p.drawText("Identifying number", { x: 240, y: 427, size: 7, font })
        for (const row of [400, 412]) {
          for (const x of [255, 280]) for (const dy of [1.5, 4, 6.5]) p.drawText(".", { x, y: row + dy, size: 8, font })
        }
        // "Attach Forms W-2 here." set up the left margin from the first row's height: read as
        // horizontal text it would run into the name cell.
        p.drawText("Attach Forms W-2 here.", { x: 50, y: 403, size: 7, font, rotate: degrees(90) })
      })
      const fields = yield* detect(bytes)
      const rowOf = (y: number) => fields.filter((f) => f.rect.y1 >= y && f.rect.y2 <= y + 12.5).sort((a, b) => a.rect.x1 - b.rect.x1)
      for (const y of [400, 412]) {
        const row = rowOf(y)
        // Walls at 220, at each column of periods (their centres, 256 and 281) and at 330.
        const walls = [[60, 220], [220, 256], [256, 281], [281, 330]]
        expect(row).toHaveLength(walls.length)
        row.forEach((f, k) => expect(near(f, walls[k]![0]! + 1, y + 1, walls[k]![1]! - 1, y + 11, 1.5), JSON.stringify(f.rect)).toBe(true))
      }
    })
  )

  it.effect("a table's header cell beside another header is no field; the empty cells under it are", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Header row (16 pt) over two 40 pt rows; columns "Service Method" | "Service Address".
        for (const y of [500, 540, 580, 596]) p.drawLine({ start: { x: 180, y }, end: { x: 480, y }, thickness: 0.5, color: black })
        for (const x of [180, 370, 480]) p.drawLine({ start: { x, y: 500 }, end: { x, y: 596 }, thickness: 0.5, color: black })
        p.drawText("Service Method", { x: 240, y: 585, size: 10, font })
        p.drawText("Service Address", { x: 386, y: 585, size: 10, font })
        for (const y of [552, 512]) p.drawText("Mail", { x: 200, y, size: 10, font })
      })
      const fields = yield* detect(bytes)
      const inHeader = fields.filter((f) => f.rect.y1 >= 578)
      expect(inHeader).toEqual([])
      expect(fields.filter((f) => f.rect.x1 >= 369 && f.rect.y2 <= 582)).toHaveLength(2)
    })
  )

  it.effect("a run of dots after a label is a blank; dots leading to a page number are not", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Name " + ".".repeat(60), { x: 50, y: 700, size: 10, font })
        p.drawText("Chapter one " + ".".repeat(40) + " 12", { x: 50, y: 650, size: 10, font })
      })
      const fields = yield* detect(bytes)
      expect(fields.map((f) => [f.name, f.source])).toEqual([["Name", "underscore"]])
      const start = 50 + font0.widthOfTextAtSize("Name ", 10)
      expect(Math.abs(fields[0]!.rect.x1 - start)).toBeLessThan(3)
    })
  )

  it.effect("a two-line cell next to a one-line label gets its field on the label's line; a cell holding a line number is no field", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Number column | amount column, rows 24 pt tall, item text left of the table.
        for (const y of [600, 624]) p.drawLine({ start: { x: 300, y }, end: { x: 450, y }, thickness: 0.5, color: black })
        for (const x of [300, 330, 450]) p.drawLine({ start: { x, y: 600 }, end: { x, y: 624 }, thickness: 0.5, color: black })
        p.drawText("Total wages paid in the year", { x: 60, y: 602, size: 9, font })
        p.drawText("12", { x: 308, y: 602, size: 9, font })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(1)
      const amount = fields[0]!
      expect(amount.rect.x1).toBeGreaterThan(330)
      // One line high, at the bottom where the label's line is, not the whole 24 pt cell.
      expect(amount.rect.y1).toBeLessThan(602)
      expect(amount.rect.y2 - amount.rect.y1).toBeLessThan(14)
    })
  )

  it.effect("blanks of ellipses and periods in a sentence are fields where they are printed; dots up to a number lead to it", () =>
    Effect.gen(function* () {
      const sentence = ["born in ", "…………….………", " on ", "………..", ", holder of passport ", "……………………………", " (if any)"]
      const bytes = yield* page((p, font) => {
        p.drawText(sentence.join(""), { x: 40, y: 600, size: 10, font })
        p.drawText("Total of the amounts above ......................... 12", { x: 40, y: 500, size: 10, font })
      })
      const fields = yield* detect(bytes)
      const blanks = fields.filter((f) => f.rect.y1 >= 595 && f.rect.y1 <= 605).sort((a, b) => a.rect.x1 - b.rect.x1)
      expect(blanks).toHaveLength(3)
      // Where each run of dots is printed (the ellipsis is 1 em wide in Helvetica, a period 0.278).
      let x = 40
      const expected: Array<[number, number]> = []
      sentence.forEach((part, k) => {
        const w = font0.widthOfTextAtSize(part, 10)
        if (k % 2 === 1) expected.push([x, x + w])
        x += w
      })
      blanks.forEach((f, k) => {
        expect(Math.abs(f.rect.x1 - expected[k]![0]), JSON.stringify(f.rect)).toBeLessThan(2)
        expect(Math.abs(f.rect.x2 - expected[k]![1]), JSON.stringify(f.rect)).toBeLessThan(2)
      })
      expect(fields.filter((f) => f.rect.y1 >= 495 && f.rect.y1 <= 505)).toEqual([])
    })
  )

  it.effect("a column open up the page takes a one-line field on the rule an item's leader runs to, and none where no item leads", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // An amount column (440-506) whose walls run from 100 to 700, open at the top; rules
        // across it at 506 (item 7, its dots running up to the column) and at 300 (nothing left of it).
        for (const x of [440, 506]) p.drawLine({ start: { x, y: 100 }, end: { x, y: 700 }, thickness: 0.5, color: black })
        p.drawLine({ start: { x: 40, y: 506 }, end: { x: 528, y: 506 }, thickness: 0.8, color: black })
        p.drawLine({ start: { x: 440, y: 300 }, end: { x: 506, y: 300 }, thickness: 0.5, color: black })
        const item = "Add lines 1 through 6  . . . . . . . . . . . . . . . .   7"
        p.drawText(item, { x: 432 - font0.widthOfTextAtSize(item, 9), y: 508, size: 9, font })
      })
      const fields = yield* detect(bytes)
      const inColumn = fields.filter((f) => f.rect.x1 >= 439 && f.rect.x2 <= 507)
      expect(inColumn).toHaveLength(1)
      expect(near(inColumn[0]!, 441, 507, 505, 520, 1.5), JSON.stringify(inColumn[0]!.rect)).toBe(true)
    })
  )

  it.effect("a cell whose text asks a question is a label and the room after it; a label in the cell before does not make it a value", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // "| Country  ____ | Of what country were you a citizen during the year?  ____ |"
        for (const y of [600, 612]) p.drawLine({ start: { x: 40, y }, end: { x: 540, y }, thickness: 0.5, color: black })
        for (const x of [40, 220, 540]) p.drawLine({ start: { x, y: 600 }, end: { x, y: 612 }, thickness: 0.5, color: black })
        p.drawText("Country", { x: 44, y: 603, size: 8, font })
        const question = "Of what country were you a citizen during the year?"
        p.drawText(question, { x: 224, y: 603, size: 6, font })
      })
      const fields = yield* detect(bytes)
      const right = fields.filter((f) => f.rect.x1 >= 220)
      expect(right).toHaveLength(1)
      // After the question, not over it.
      expect(right[0]!.rect.x1).toBeGreaterThan(224 + font0.widthOfTextAtSize("Of what country were you a citizen during the year?", 6))
    })
  )

  it.effect("a panel kept for the office gets no fields; a grid whose one cell is for the office keeps its other fields", () =>
    Effect.gen(function* () {
      const panel = yield* page((p, font) => {
        // A bordered panel: "For Office Use Only" beside a "Fee Stamp" box and a row of check boxes.
        p.drawRectangle({ x: 40, y: 600, width: 60, height: 80, borderWidth: 0.75, borderColor: black })
        for (const [y, word] of [[660, "For"], [648, "Office"], [636, "Use Only"]] as const) p.drawText(word, { x: 46, y, size: 9, font })
        p.drawRectangle({ x: 100, y: 620, width: 300, height: 60, borderWidth: 0.75, borderColor: black })
        p.drawText("Fee Stamp", { x: 104, y: 670, size: 8, font })
        p.drawRectangle({ x: 40, y: 560, width: 360, height: 40, borderWidth: 0.75, borderColor: black })
        for (const x of [50, 200]) {
          p.drawRectangle({ x, y: 575, width: 8, height: 8, borderWidth: 0.5, borderColor: black })
          p.drawText("Approved", { x: x + 12, y: 576, size: 8, font })
        }
        // The applicant's part below.
        p.drawText("Family name", { x: 40, y: 403, size: 9, font })
        p.drawLine({ start: { x: 110, y: 400 }, end: { x: 400, y: 400 }, thickness: 0.5, color: black })
      })
      const fields = yield* detect(panel)
      expect(fields.filter((f) => f.rect.y2 > 555)).toEqual([])
      expect(fields.filter((f) => f.rect.y1 >= 398 && f.rect.y1 <= 402)).toHaveLength(1)

      const grid = yield* page((p, font) => {
        // A form that is one grid down the page; its last row's first cell says "For office use".
        for (let k = 0; k <= 12; k++) p.drawLine({ start: { x: 40, y: 100 + 50 * k }, end: { x: 570, y: 100 + 50 * k }, thickness: 0.5, color: black })
        for (const x of [40, 200, 570]) p.drawLine({ start: { x, y: 100 }, end: { x, y: 700 }, thickness: 0.5, color: black })
        for (let k = 1; k < 12; k++) p.drawText(`Item ${k}`, { x: 44, y: 700 - 50 * k + 30, size: 9, font })
        p.drawText("For office use", { x: 44, y: 130, size: 9, font })
      })
      const gridFields = yield* detect(grid)
      expect(gridFields.filter((f) => f.rect.x1 >= 199).length).toBeGreaterThanOrEqual(10)
    })
  )

  it.effect("a heavy bar under a title is no line to write on; a thin rule after a label is", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Application to Replace a Card", { x: 200, y: 720, size: 14, font })
        p.drawLine({ start: { x: 100, y: 700 }, end: { x: 500, y: 700 }, thickness: 6, color: black })
        p.drawText("Family name", { x: 40, y: 603, size: 9, font })
        p.drawLine({ start: { x: 110, y: 600 }, end: { x: 400, y: 600 }, thickness: 0.5, color: black })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(1)
      expect(fields[0]!.rect.y1).toBeLessThan(602)
    })
  )

  it.effect("a rule across the page under a heading divides; an answer line across the page with room above is a field", () =>
    Effect.gen(function* () {
      const divided = yield* page((p, font) => {
        // A heading right over a margin-to-margin rule, the section's first item under it.
        p.drawText("Other Information (If an item does not apply to you, enter N/A.)", { x: 120, y: 656.5, size: 10, font })
        p.drawLine({ start: { x: 36, y: 648 }, end: { x: 576, y: 648 }, thickness: 0.5, color: black })
        p.drawText("A  What country issued your passport?", { x: 40, y: 630, size: 9, font })
      })
      expect((yield* detect(divided)).filter((f) => f.rect.x2 - f.rect.x1 > 500)).toEqual([])
      const answer = yield* page((p, font) => {
        // A question, then an answer line across the page 20 pt under it.
        p.drawText("Explain why you are applying:", { x: 40, y: 560, size: 10, font })
        p.drawLine({ start: { x: 36, y: 538 }, end: { x: 576, y: 538 }, thickness: 0.5, color: black })
      })
      expect((yield* detect(answer)).filter((f) => f.rect.y1 >= 536 && f.rect.y1 <= 541 && f.rect.x2 - f.rect.x1 > 500)).toHaveLength(1)
    })
  )

  it.effect("a short rule of 22 pt after its label takes a count ('lived with you ▶ __')", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("No. of children who lived with you", { x: 400, y: 600, size: 7, font })
        p.drawLine({ start: { x: 554, y: 598 }, end: { x: 576, y: 598 }, thickness: 0.5, color: black })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(1)
      expect(near(fields[0]!, 554, 598, 576, fields[0]!.rect.y2, 1.5)).toBe(true)
    })
  )

  it.effect("a dotted leader up to a check box drawn as four lines is no blank; a dashed line up to a table's wall is", () =>
    Effect.gen(function* () {
      const dots = { thickness: 1, color: black, dashArray: [1, 2] }
      const square = (p: PDFPage, x: number, y: number) => {
        for (const [ax, ay, bx, by] of [[x, y, x + 8, y], [x, y + 8, x + 8, y + 8], [x, y, x, y + 8], [x + 8, y, x + 8, y + 8]] as const) {
          p.drawLine({ start: { x: ax, y: ay }, end: { x: bx, y: by }, thickness: 0.5, color: black })
        }
      }
      const bytes = yield* page((p, font) => {
        p.drawText("B  Were you ever a U.S. citizen?", { x: 40, y: 650, size: 9, font })
        p.drawLine({ start: { x: 180, y: 650 }, end: { x: 225, y: 650 }, ...dots })
        square(p, 234, 649)
        p.drawText("Yes", { x: 246, y: 650, size: 9, font })
        square(p, 272, 649)
        p.drawText("No", { x: 284, y: 650, size: 9, font })
        // "Other (specify)" on a dashed line that runs into the wall of an amount column.
        p.drawText("85  Other (specify)", { x: 40, y: 500, size: 9, font })
        p.drawLine({ start: { x: 130, y: 500 }, end: { x: 300, y: 500 }, ...dots })
        p.drawLine({ start: { x: 300, y: 440 }, end: { x: 300, y: 560 }, thickness: 0.5, color: black })
      })
      const fields = yield* detect(bytes)
      expect(fields.filter((f) => f.kind === "Text" && f.rect.y1 >= 645 && f.rect.y1 <= 660)).toEqual([])
      expect(fields.filter((f) => f.kind === "CheckBox" && f.rect.y1 >= 645 && f.rect.y1 <= 660)).toHaveLength(2)
      expect(fields.filter((f) => f.kind === "Text" && f.rect.y1 >= 495 && f.rect.y1 <= 505)).toHaveLength(1)
    })
  )

  it.effect("every amount cell of a two-line row goes on the line its labelled cell was given", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Number column | four amount columns, the row 24 pt tall, its item on the bottom line.
        for (const y of [600, 624]) p.drawLine({ start: { x: 300, y }, end: { x: 560, y }, thickness: 0.5, color: black })
        for (const x of [300, 330, 390, 450, 510, 560]) p.drawLine({ start: { x, y: 600 }, end: { x, y: 624 }, thickness: 0.5, color: black })
        p.drawText("Multiply line 87 by the rate at the top of each column", { x: 60, y: 602, size: 9, font })
        p.drawText("88", { x: 308, y: 602, size: 9, font })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(4)
      for (const amount of fields) {
        expect(amount.rect.y1, JSON.stringify(amount.rect)).toBeLessThan(602)
        expect(amount.rect.y2 - amount.rect.y1, JSON.stringify(amount.rect)).toBeLessThan(14)
      }
    })
  )
})

describe("detector sources on generated pages: tinted forms, upright boxes, numbered scales, items of several lines", () => {
  it.effect("white boxes on a tinted page are fields; a white box on white paper is nothing", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // A tinted panel with two white boxes on it (labels above), and a white box off the panel.
        p.drawRectangle({ x: 40, y: 500, width: 530, height: 200, color: rgb(0.93, 0.87, 0.75) })
        p.drawText("Name of applicant", { x: 50, y: 680, size: 8, font })
        p.drawRectangle({ x: 50, y: 655, width: 250, height: 20, color: rgb(1, 1, 1) })
        p.drawText("Date of birth", { x: 320, y: 680, size: 8, font })
        p.drawRectangle({ x: 320, y: 655, width: 120, height: 20, color: rgb(1, 1, 1) })
        p.drawRectangle({ x: 50, y: 300, width: 250, height: 20, color: rgb(1, 1, 1) })
      })
      const fields = yield* detect(bytes)
      expect(fields.map((f) => [f.kind, f.name])).toEqual([
        ["Text", "Name of applicant"],
        ["Text", "Date of birth"]
      ])
      expect(near(fields[0]!, 50, 655, 300, 675, 1.5)).toBe(true)
    })
  )

  it.effect("a small box taller than wide beside a caption is a check box; upright boxes side by side take digits", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Male", { x: 50, y: 706, size: 9, font })
        p.drawRectangle({ x: 75, y: 700, width: 12, height: 20, borderWidth: 0.75, borderColor: black })
        p.drawText("Female", { x: 100, y: 706, size: 9, font })
        p.drawRectangle({ x: 132, y: 700, width: 12, height: 20, borderWidth: 0.75, borderColor: black })
        // "Pounds [ ][ ][ ]": one digit per box, no check boxes.
        p.drawText("Pounds", { x: 50, y: 606, size: 9, font })
        for (let k = 0; k < 3; k++) p.drawRectangle({ x: 90 + 16 * k, y: 600, width: 12, height: 20, borderWidth: 0.75, borderColor: black })
      })
      const fields = yield* detect(bytes)
      const boxes = fields.filter((f) => f.kind === "CheckBox")
      expect(boxes.map((f) => Math.round(f.rect.x1))).toEqual([75, 132])
      expect(boxes.every((f) => f.rect.y2 > 650)).toBe(true)
    })
  )

  it.effect("a row of cells numbered 1 to 5 is a scale of five check boxes; a row numbering the empty columns under it is not", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        const grid = (top: number, rows: number) => {
          for (let r = 0; r <= rows; r++) p.drawLine({ start: { x: 200, y: top - 16 * r }, end: { x: 500, y: top - 16 * r }, thickness: 0.5, color: black })
          for (let c = 0; c <= 5; c++) p.drawLine({ start: { x: 200 + 60 * c, y: top }, end: { x: 200 + 60 * c, y: top - 16 * rows }, thickness: 0.5, color: black })
        }
        p.drawText("How often do you read?", { x: 50, y: 704, size: 9, font })
        grid(716, 1)
        for (let c = 0; c < 5; c++) p.drawText(String(c + 1), { x: 228 + 60 * c, y: 704, size: 9, font })
        // Column numbers over three empty rows: a table to write in.
        p.drawText("Amounts", { x: 50, y: 604, size: 9, font })
        grid(616, 4)
        for (let c = 0; c < 5; c++) p.drawText(String(c + 1), { x: 228 + 60 * c, y: 604, size: 9, font })
      })
      const fields = yield* detect(bytes)
      const scale = fields.filter((f) => f.kind === "CheckBox")
      expect(scale).toHaveLength(5)
      expect(scale.every((f) => f.rect.y1 > 690 && f.rect.x2 - f.rect.x1 > 50)).toBe(true)
      expect(fields.filter((f) => f.kind === "Text" && f.rect.y2 < 600).length).toBeGreaterThanOrEqual(15)
    })
  )

  it.effect("a tall row cell beside an item printed on two lines gets its field on the item's last line", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Item text in its own column | an amount column far to its right, under its header;
        // the row is two lines tall.
        for (const y of [600, 626, 640]) p.drawLine({ start: { x: 40, y }, end: { x: 560, y }, thickness: 0.5, color: black })
        for (const x of [40, 440, 560]) p.drawLine({ start: { x, y: 600 }, end: { x, y: 640 }, thickness: 0.5, color: black })
        p.drawText("Amount", { x: 480, y: 630, size: 8, font })
        p.drawText("76 Dividends paid by:", { x: 45, y: 615, size: 9, font })
        p.drawText("a  corporations in the country", { x: 55, y: 603, size: 9, font })
      })
      const fields = yield* detect(bytes)
      const amount = fields.find((f) => f.rect.x1 > 440)
      expect(amount).toBeDefined()
      expect(amount!.rect.y1).toBeLessThan(603)
      expect(amount!.rect.y2).toBeLessThan(614)
    })
  )
})

describe("detector sources on generated pages: answer areas and small boxes", () => {
  it.effect("a question over blank room and a line gets the whole room as a multi-line answer; ruled paper across the page is one area", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("(d) List any disabilities you wish to reveal:", { x: 72, y: 700, size: 10, font })
        p.drawLine({ start: { x: 72, y: 650 }, end: { x: 540, y: 650 }, thickness: 0.75, color: black })
        p.drawText("b. Conduct and statements others have seen or heard:", { x: 54, y: 560, size: 10, font })
        for (const y of [536, 512, 488]) p.drawLine({ start: { x: 66, y }, end: { x: 585, y }, thickness: 0.75, color: black })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(2)
      const [answer, ruled] = fields
      expect(answer!.multiline).toBe(true)
      expect(answer!.rect.y1).toBeLessThan(652)
      expect(answer!.rect.y2).toBeGreaterThan(690)
      expect(answer!.rect.y2).toBeLessThan(700)
      expect(ruled!.multiline).toBe(true)
      expect(ruled!.rect.y1).toBeLessThan(490)
      expect(ruled!.rect.y2).toBeGreaterThan(540)
      // Under the question, never over it.
      expect(ruled!.rect.y2).toBeLessThan(558)
    })
  )

  it.effect("a tall drawn panel with its caption in its top is one multi-line field under the caption", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawRectangle({ x: 20, y: 300, width: 180, height: 220, borderWidth: 1, borderColor: black })
        p.drawText("Notes", { x: 90, y: 508, size: 10, font })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(1)
      expect(fields[0]!.multiline).toBe(true)
      expect(fields[0]!.rect.y1).toBeLessThan(302)
      expect(fields[0]!.rect.y2).toBeGreaterThan(490)
      expect(fields[0]!.rect.y2).toBeLessThan(508)
    })
  )

  it.effect("a check box drawn smaller than 8 pt gets a widget of 8 pt about its centre", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawRectangle({ x: 100, y: 600, width: 6, height: 6, borderWidth: 0.5, borderColor: black })
        p.drawText("education", { x: 110, y: 600, size: 9, font })
      })
      const fields = yield* detect(bytes)
      expect(fields).toHaveLength(1)
      expect(fields[0]!.kind).toBe("CheckBox")
      expect(near(fields[0]!, 99, 599, 107, 607, 0.6)).toBe(true)
    })
  )

  it.effect("a captioned box halved by a solid wall is two fields; halved by a dotted divider it stays one", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        for (const [y, dash] of [[600, undefined], [450, [1, 2]]] as const) {
          p.drawRectangle({ x: 100, y, width: 160, height: 40, borderWidth: 1, borderColor: black })
          p.drawLine({ start: { x: 180, y }, end: { x: 180, y: y + 40 }, thickness: 0.75, color: black, ...(dash ? { dashArray: [...dash] } : {}) })
          p.drawText("Maximum", { x: 110, y: y + 30, size: 8, font })
          p.drawText("Current", { x: 190, y: y + 30, size: 8, font })
        }
      })
      const fields = yield* detect(bytes)
      const walled = fields.filter((f) => f.rect.y1 > 580).sort((a, b) => a.rect.x1 - b.rect.x1)
      expect(walled.map((f) => f.name)).toEqual(["Maximum", "Current"])
      expect(walled[0]!.rect.x2).toBeLessThanOrEqual(181)
      expect(walled[1]!.rect.x1).toBeGreaterThanOrEqual(179)
      const dotted = fields.filter((f) => f.rect.y1 < 500)
      expect(dotted).toHaveLength(1)
      expect(dotted[0]!.rect.x2 - dotted[0]!.rect.x1).toBeGreaterThan(150)
    })
  )

  it.effect("a narrow empty cell in a tall table row is a field when the row's wide cell is one; beside a filled cell it is not", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Columns: Method (filled in print) | Address 140 pt | Date 60 pt; a header row and three rows of 90 pt.
        const xs = [60, 200, 340, 400]
        const ys = [700, 680, 590, 500, 410]
        for (const x of xs) p.drawLine({ start: { x, y: ys.at(-1)! }, end: { x, y: ys[0]! }, thickness: 0.75, color: black })
        for (const y of ys) p.drawLine({ start: { x: xs[0]!, y }, end: { x: xs.at(-1)!, y }, thickness: 0.75, color: black })
        p.drawText("Method", { x: 65, y: 686, size: 9, font })
        p.drawText("Address", { x: 205, y: 686, size: 9, font })
        p.drawText("Date", { x: 345, y: 686, size: 9, font })
        for (const y of [660, 570, 480]) p.drawText("Mail", { x: 65, y, size: 9, font })
        // The last row's address cell is printed in: its date cell has no field beside it.
        p.drawText("By hand at the office", { x: 205, y: 480, size: 9, font })
      })
      const fields = yield* detect(bytes)
      const dates = fields.filter((f) => f.rect.x1 > 339 && f.rect.x2 < 401)
      expect(dates).toHaveLength(2)
      expect(dates.every((f) => f.kind === "Text" && f.rect.y2 - f.rect.y1 > 80)).toBe(true)
      expect(dates.map((f) => Math.round(f.rect.y1)).sort()).toEqual([501, 591])
    })
  )

  it.effect("a rule with small captions under it is one field per caption; date parts or body-size text under it leave it whole", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Please describe yourself in the fields below, as it is printed on your card.", { x: 72, y: 740, size: 10, font })
        const rule = (y: number) => p.drawLine({ start: { x: 100, y }, end: { x: 400, y }, thickness: 0.75, color: black })
        rule(650)
        for (const [x, caption] of [[100, "AGE"], [200, "HEIGHT"], [300, "WEIGHT"]] as const) p.drawText(caption, { x, y: 642, size: 6, font })
        rule(550)
        for (const [x, caption] of [[110, "Month"], [210, "Day"], [310, "Year"]] as const) p.drawText(caption, { x, y: 542, size: 6, font })
        rule(450)
        for (const [x, caption] of [[110, "Yes"], [210, "No"]] as const) p.drawText(caption, { x, y: 441, size: 10, font })
      })
      const fields = yield* detect(bytes)
      const row = (y: number) => fields.filter((f) => Math.abs(f.rect.y1 - y) < 3).sort((a, b) => a.rect.x1 - b.rect.x1)
      expect(row(650).map((f) => f.name)).toEqual(["AGE", "HEIGHT", "WEIGHT"])
      expect(row(650).map((f) => Math.round(f.rect.x1))).toEqual([100, 197, 297])
      expect(row(550)).toHaveLength(1)
      expect(row(450)).toHaveLength(1)
    })
  )

  it.effect("squares stacked touching in a column are check boxes; the same squares touching in a row are character cells", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Sex", { x: 60, y: 624, size: 9, font })
        for (const [k, caption] of ["Male", "Female", "Unspecified"].entries()) {
          const y = 620 - 10 * k
          p.drawRectangle({ x: 100, y, width: 10, height: 10, borderWidth: 0.75, borderColor: black })
          p.drawText(caption, { x: 114, y: y + 2, size: 8, font })
        }
        p.drawText("Code", { x: 60, y: 402, size: 9, font })
        for (let k = 0; k < 3; k++) p.drawRectangle({ x: 100 + 10 * k, y: 400, width: 10, height: 10, borderWidth: 0.75, borderColor: black })
      })
      const fields = yield* detect(bytes)
      const boxes = fields.filter((f) => f.kind === "CheckBox")
      expect(boxes).toHaveLength(3)
      for (const [k, box] of boxes.sort((a, b) => b.rect.y1 - a.rect.y1).entries()) expect(near(box, 100, 620 - 10 * k, 110, 630 - 10 * k, 1)).toBe(true)
      expect(fields.filter((f) => f.rect.y1 < 450 && f.kind === "CheckBox")).toHaveLength(0)
    })
  )
})

describe("Tables.analyse", () => {
  it("closes cells between walls and lines, opens a cell between two equal walls under a short leader, and walls a borderless table at its line ends", () => {
    const h = (x1: number, x2: number, y: number) => ({ x1, x2, y, thickness: 0.5 })
    const v = (x: number, y1: number, y2: number) => ({ x, y1, y2, thickness: 0.5 })
    const cells = (t: Tables.TableStructure) => t.cells.map((c) => [c.x1, c.y1, c.x2, c.y2])
    // A closed cell, and an open-top one whose walls stop 3 pt under the leader above.
    expect(cells(Tables.analyse([h(0, 100, 0), h(0, 100, 12)], [v(0, 0, 12), v(100, 0, 12)]))).toEqual([[0, 0, 100, 12]])
    expect(cells(Tables.analyse([h(0, 100, 0), h(-200, 60, 12)], [v(0, 0, 9), v(100, 0, 9)]))).toEqual([[0, 0, 100, 9]])
    // Rows drawn as lines from x 0 to 300 with a divider at 120 only: two cells per row.
    expect(cells(Tables.analyse([h(0, 300, 0), h(0, 300, 12)], [v(120, 0, 12)]))).toEqual([
      [0, 0, 120, 12],
      [120, 0, 300, 12]
    ])
    // Stacked lines with no divider stay lines to write on.
    expect(Tables.analyse([h(0, 300, 0), h(0, 300, 18)], []).cells).toEqual([])
  })
})

describe("RadioGroups.group", () => {
  const at = (x: number, y: number) => ({ rect: { x1: x, y1: y, x2: x + 10, y2: y + 10 } })
  it("groups aligned buttons close together, and leaves far or lone ones out", () => {
    const groups = RadioGroups.group([at(50, 700), at(50, 684), at(50, 668), at(300, 400), at(50, 300), at(120, 300)])
    expect(groups.map((g) => g.sort())).toEqual([[0, 1, 2], [4, 5]])
  })
})

describe("VectorLines: hatching and round buttons", () => {
  // pdf.js 6 paths: [paintOp, [Float32Array of DrawOPS codes and coordinates], minMax].
  const path = (paint: number, ...data: Array<number>) => [paint, [new Float32Array(data)], null]
  const [moveTo, lineTo, curveTo, closePath] = [0, 1, 2, 4]
  const square = (x: number, y: number, side: number) => [moveTo, x, y, lineTo, x + side, y, lineTo, x + side, y + side, lineTo, x, y + side, closePath]
  /** A circle of radius r at (cx, cy) as four Bezier quarters, as PDF producers draw one. */
  const circle = (cx: number, cy: number, r: number) => {
    const k = 0.5523 * r
    return [
      moveTo, cx + r, cy,
      curveTo, cx + r, cy + k, cx + k, cy + r, cx, cy + r,
      curveTo, cx - k, cy + r, cx - r, cy + k, cx - r, cy,
      curveTo, cx - r, cy - k, cx - k, cy - r, cx, cy - r,
      curveTo, cx + k, cy - r, cx + r, cy - k, cx + r, cy,
      closePath
    ]
  }

  it("reads a rectangle filled with a tiling pattern as ink (hatching), not as a box", () => {
    const list = {
      fnArray: [OPS.setFillColorN, OPS.constructPath, OPS.setFillRGBColor, OPS.constructPath],
      argsArray: [["TilingPattern", "#000000", null], path(OPS.fill, ...square(100, 100, 60)), ["#cccccc"], path(OPS.fill, ...square(300, 100, 60))]
    }
    const g = VectorLines.fromOperatorList(list)
    expect(g.marks.map((m) => [m.x1, m.y1, m.x2, m.y2])).toEqual([[100, 100, 160, 160]])
    expect(g.boxes.map((b) => [b.x1, b.y1, b.stroked])).toEqual([[300, 100, false]])
  })

  it("reads a box outline drawn as one filled ring, and a rounded box, as boxes", () => {
    // Outer rectangle then inner rectangle 0.25 pt inside, in one sub-path (CAD exports do this).
    const ring = [moveTo, 0, 0, lineTo, 30, 0, lineTo, 30, 20, lineTo, 0, 20, lineTo, 0, 0, lineTo, 0.25, 0.25, lineTo, 0.25, 19.75, lineTo, 29.75, 19.75, lineTo, 29.75, 0.25, lineTo, 0.25, 0.25, closePath]
    const k = 0.5523 * 3
    const rounded = [
      moveTo, 103, 0, lineTo, 197, 0,
      curveTo, 197 + k, 0, 200, 3 - k, 200, 3, lineTo, 200, 17,
      curveTo, 200, 17 + k, 197 + k, 20, 197, 20, lineTo, 103, 20,
      curveTo, 103 - k, 20, 100, 17 + k, 100, 17, lineTo, 100, 3,
      curveTo, 100, 3 - k, 103 - k, 0, 103, 0, closePath
    ]
    const list = { fnArray: [OPS.constructPath, OPS.constructPath], argsArray: [path(OPS.fill, ...ring), path(OPS.stroke, ...rounded)] }
    const g = VectorLines.fromOperatorList(list)
    expect(g.boxes.map((b) => [b.x1, b.y1, b.x2, b.y2, b.stroked])).toEqual([
      [0, 0, 30, 20, true],
      [100, 0, 200, 20, true]
    ])
  })

  it("reads stroked button-sized circles as circles, once per ring; filled letters and big curves are not", () => {
    const list = {
      fnArray: [OPS.constructPath, OPS.constructPath, OPS.constructPath, OPS.constructPath],
      argsArray: [
        path(OPS.stroke, ...circle(50, 50, 5)),
        // The same button's inner dot: part of the one ring.
        path(OPS.stroke, ...circle(50, 50, 2.6)),
        // An outlined "o" of body text is filled, not stroked.
        path(OPS.fill, ...circle(100, 50, 4)),
        path(OPS.stroke, ...circle(200, 200, 40))
      ]
    }
    const g = VectorLines.fromOperatorList(list)
    expect((g.circles ?? []).map((c) => [c.x1, c.y1, c.x2, c.y2].map(Math.round))).toEqual([[45, 45, 55, 55]])
  })
})

describe("detector sources on generated pages: table text, item answers, list entries, blocked cells", () => {
  it.effect("text in a table cell beside another cell's label is the table's print; a value in a box of its own is a field", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // A two-column table row: "Language | Japanese ...", both cells printed.
        for (const y of [600, 616]) p.drawLine({ start: { x: 40, y }, end: { x: 300, y }, thickness: 0.5, color: black })
        for (const x of [40, 120, 300]) p.drawLine({ start: { x, y: 600 }, end: { x, y: 616 }, thickness: 0.5, color: black })
        p.drawText("Language", { x: 44, y: 604, size: 9, font })
        p.drawText("Japanese, English, or both of them", { x: 124, y: 604, size: 9, font })
        // A flattened value in an outlined box of its own after its label.
        p.drawText("Given Name:", { x: 40, y: 504, size: 10, font })
        p.drawRectangle({ x: 110, y: 498, width: 150, height: 18, borderWidth: 0.75, borderColor: black })
        p.drawText("ABC", { x: 114, y: 503, size: 10, font })
      })
      const fields = yield* detect(bytes)
      expect(fields.filter((f) => f.rect.y1 >= 590), JSON.stringify(fields)).toEqual([])
      expect(fields).toHaveLength(1)
      expect(fields[0]!.name).toBe("Given Name")
      expect(near(fields[0]!, 111, 499, 259, 515, 1.5)).toBe(true)
    })
  )

  it.effect("lines under an item number alone are one answer from the first line; a box's text beside the last line labels none", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // "5.d." then four ruled lines at an 18 pt pitch, the top one on the item's baseline.
        p.drawText("5.d.", { x: 318, y: 686, size: 10, font })
        for (const y of [684, 666, 648, 630]) p.drawLine({ start: { x: 342, y }, end: { x: 576, y }, thickness: 0.5, color: black })
        // Ruled paper whose bottom line has, beyond the wall of a box, that box's caption.
        p.drawText("Explain:", { x: 200, y: 480, size: 10, font })
        p.drawRectangle({ x: 40, y: 395, width: 110, height: 20, borderWidth: 0.75, borderColor: black })
        p.drawText("Code", { x: 44, y: 402, size: 10, font })
        for (const y of [454, 436, 418, 400]) p.drawLine({ start: { x: 200, y }, end: { x: 540, y }, thickness: 0.5, color: black })
      })
      const fields = yield* detect(bytes)
      const item = fields.filter((f) => f.rect.x1 >= 340)
      expect(item, JSON.stringify(item)).toHaveLength(1)
      expect(item[0]!.multiline).toBe(true)
      expect(item[0]!.rect.y1).toBeLessThan(631)
      expect(item[0]!.rect.y2).toBeGreaterThan(690)
      const ruled = fields.filter((f) => f.rect.x1 >= 190 && f.rect.x2 <= 545)
      expect(ruled, JSON.stringify(ruled)).toHaveLength(1)
      expect(ruled[0]!.multiline).toBe(true)
      expect(ruled[0]!.rect.y1).toBeLessThan(401)
      expect(ruled[0]!.rect.y2).toBeGreaterThan(460)
    })
  )

  it.effect("stacked lines that each end in their own check boxes are one field each, not one area", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("GOALS", { x: 250, y: 700, size: 9, font })
        for (const y of [670, 647, 624, 601]) {
          p.drawLine({ start: { x: 200, y }, end: { x: 400, y }, thickness: 0.5, color: black })
          for (let k = 0; k < 3; k++) p.drawRectangle({ x: 406 + 11 * k, y: y + 1, width: 8, height: 8, borderWidth: 0.75, borderColor: black })
        }
      })
      const fields = yield* detect(bytes)
      const lines = fields.filter((f) => f.kind === "Text")
      expect(lines, JSON.stringify(lines)).toHaveLength(4)
      expect(lines.every((f) => !f.multiline && f.rect.x1 >= 199 && f.rect.x2 <= 401)).toBe(true)
      expect(fields.filter((f) => f.kind === "CheckBox")).toHaveLength(12)
    })
  )

  it.effect("a cell filled grey is blocked out; a box in a pale tint is a field", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Tax-exempt interest", { x: 40, y: 603, size: 9, font })
        p.drawRectangle({ x: 140, y: 600, width: 20, height: 12, color: rgb(0.75, 0.75, 0.75) })
        p.drawText("Family name", { x: 40, y: 503, size: 9, font })
        p.drawRectangle({ x: 140, y: 498, width: 200, height: 16, color: rgb(0.86, 0.9, 0.94) })
      })
      const fields = yield* detect(bytes)
      expect(fields.map((f) => f.name)).toEqual(["Family name"])
    })
  )
})

describe("Tables.analyse: rows of open-top cells", () => {
  const h = (x1: number, x2: number, y: number) => ({ x1, x2, y, thickness: 0.5 })
  const v = (x: number, y1: number, y2: number) => ({ x, y1, y2, thickness: 0.5 })
  const cells = (t: Tables.TableStructure) => t.cells.map((c) => [c.x1, c.y1, c.x2, c.y2])

  it("ends a row of open-top cells at a divider running up the page: the cents after the dollars", () => {
    // "8b | dollars | cents |" with walls 12 pt high and the next column's divider from 50 to 460.
    const row = Tables.analyse([h(345, 461, 420)], [v(345, 420, 432), v(367, 420, 432), v(439, 420, 432), v(461, 50, 460)])
    expect(cells(row)).toEqual([
      [345, 420, 367, 432],
      [367, 420, 439, 432],
      [439, 420, 461, 432]
    ])
  })

  it("opens no cell between a comb's taller walls and its short ticks, nor in a column up the page", () => {
    // A date comb: walls 10 pt high, ticks 6 pt between them (the comb source reads it).
    const comb = Tables.analyse([h(80, 195, 113)], [v(80, 113, 123), v(94, 113, 119), v(108, 113, 123), v(123, 113, 119), v(137, 113, 123)])
    expect(cells(comb)).toEqual([])
    // A margin column: one wall rising 540 pt, the other 220 pt, the one beyond it as high.
    const margin = Tables.analyse([h(14, 528, 144)], [v(14, 0, 686), v(29, 0, 364), v(200, 0, 364)])
    expect(cells(margin).filter((c) => c[0] === 14)).toEqual([])
  })
})

describe("detector sources on generated pages: amount columns of a tax form", () => {
  it.effect("a tall amount cell its row's item number leads to takes a one-line field on its bottom line, as do the row's other cells; a tall cell nothing leads to none", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // Columns: line numbers 420-441, dollars 441-506, cents 506-528, running from 100 to 686;
        // rules across them at 638 and 686, so the cells between are 48 pt tall (the rows above
        // the total are left blank in this column).
        // A second amount column (528-580, cents 580-600) takes the row's line as well.
        for (const x of [420, 441, 506, 528, 580, 600]) p.drawLine({ start: { x, y: 100 }, end: { x, y: 686 }, thickness: 0.5, color: black })
        for (const y of [638, 686, 300, 348]) p.drawLine({ start: { x: 420, y }, end: { x: 600, y }, thickness: 0.5, color: black })
        const item = "3  Add lines 1 and 2  . . . . . . . . . . . . ."
        p.drawText(item, { x: 60, y: 640, size: 9, font })
        p.drawText("3", { x: 428, y: 640, size: 9, font })
      })
      const fields = yield* detect(bytes)
      const dollars = fields.filter((f) => f.rect.x1 >= 440 && f.rect.x2 <= 507)
      const cents = fields.filter((f) => f.rect.x1 >= 505 && f.rect.x2 <= 529)
      expect(dollars).toHaveLength(1)
      expect(near(dollars[0]!, 442, 639, 505, 651, 1.5), JSON.stringify(dollars[0]!.rect)).toBe(true)
      expect(cents).toHaveLength(1)
      expect(near(cents[0]!, 507, 639, 527, 651, 1.5), JSON.stringify(cents[0]!.rect)).toBe(true)
      const second = fields.filter((f) => f.rect.x1 >= 527)
      expect(second).toHaveLength(2)
      expect(second.every((f) => f.rect.y1 >= 638.5 && f.rect.y2 <= 652)).toBe(true)
      // The cells from 300 to 348 have nothing leading to them.
      expect(fields.filter((f) => f.rect.y1 < 400)).toEqual([])
    })
  )

  it.effect("dotted lines in a sentence that goes on after each ('2005 ....., 2006 ....., and 2007 .....') are blanks", () =>
    Effect.gen(function* () {
      const dots = { thickness: 0.5, color: black, dashArray: [1, 2] }
      const bytes = yield* page((p, font) => {
        const parts = ["2005", ", 2006", ", and 2007", "."]
        let x = 40
        for (const [k, text] of parts.entries()) {
          p.drawText(text, { x, y: 500, size: 9, font })
          x += font0.widthOfTextAtSize(text, 9) + 6
          if (k === parts.length - 1) break
          p.drawLine({ start: { x, y: 500 }, end: { x: x + 36, y: 500 }, ...dots })
          x += 42
        }
      })
      const fields = yield* detect(bytes)
      expect(fields.filter((f) => f.kind === "Text" && f.rect.y1 >= 499 && f.rect.y1 <= 502)).toHaveLength(3)
    })
  )

  it.effect("a rule captioned flush with both its ends ('Address ...... Telephone no.') is one field per caption", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        p.drawText("Attorney for the respondent, if any:", { x: 40, y: 440, size: 10, font })
        p.drawLine({ start: { x: 40, y: 400 }, end: { x: 300, y: 400 }, thickness: 0.5, color: black })
        p.drawText("Address", { x: 40, y: 392, size: 7, font })
        const phone = "Telephone no."
        p.drawText(phone, { x: 300 - font0.widthOfTextAtSize(phone, 7), y: 392, size: 7, font })
      })
      const onRule = (yield* detect(bytes)).filter((f) => f.rect.y1 >= 399 && f.rect.y1 <= 402).sort((a, b) => a.rect.x1 - b.rect.x1)
      expect(onRule).toHaveLength(2)
      expect(onRule[0]!.rect.x1).toBeCloseTo(40, 0)
      expect(onRule[1]!.rect.x1).toBeCloseTo(300 - font0.widthOfTextAtSize("Telephone no.", 7) - 3, 0)
      expect(onRule[1]!.rect.x2).toBeCloseTo(300, 0)
    })
  )

  it.effect("touching squares each captioned are options; a word over a few cells of a comb leaves it a comb", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // "M F X" over three touching squares: three options.
        for (const [k, caption] of ["M", "F", "X"].entries()) {
          p.drawRectangle({ x: 100 + 12 * k, y: 620, width: 12, height: 12, borderWidth: 0.75, borderColor: black })
          p.drawText(caption, { x: 103 + 12 * k, y: 635, size: 8, font })
        }
        // An account number of 12 touching cells, the line above's "Checking" standing over two.
        p.drawText("Account number", { x: 40, y: 403, size: 8, font })
        for (let k = 0; k < 12; k++) p.drawRectangle({ x: 120 + 14.5 * k, y: 400, width: 14.5, height: 12, borderWidth: 0.75, borderColor: black })
        p.drawText("Type:   Checking", { x: 120 + 14.5 * 6, y: 415, size: 8, font })
      })
      const fields = yield* detect(bytes)
      expect(fields.filter((f) => f.kind === "CheckBox" && f.rect.y1 > 600)).toHaveLength(3)
      expect(fields.filter((f) => f.kind === "CheckBox" && f.rect.y1 < 450)).toEqual([])
      expect(fields.filter((f) => f.source === "comb" && f.maxLength === 12)).toHaveLength(1)
    })
  )

  it.effect("a cell with a unit printed at its right end ('%') is a field before the unit", () =>
    Effect.gen(function* () {
      const bytes = yield* page((p, font) => {
        // A header cell "Rate" over a cell 72 pt wide holding only "%" at its right end.
        for (const y of [600, 612, 626]) p.drawLine({ start: { x: 200, y }, end: { x: 272, y }, thickness: 0.5, color: black })
        for (const x of [200, 272]) p.drawLine({ start: { x, y: 600 }, end: { x, y: 626 }, thickness: 0.5, color: black })
        p.drawText("Rate", { x: 204, y: 615, size: 8, font })
        p.drawText("%", { x: 263, y: 602, size: 9, font })
      })
      const fields = (yield* detect(bytes)).filter((f) => f.rect.y1 < 611)
      expect(fields).toHaveLength(1)
      expect(near(fields[0]!, 201, 601, 261, 611, 1.5), JSON.stringify(fields[0]!.rect)).toBe(true)
    })
  )

  it.effect("a dotted leader up to the cell numbering its row is no blank; a dotted line up to an empty cell is", () =>
    Effect.gen(function* () {
      const dots = { thickness: 1, color: black, dashArray: [1, 2] }
      const bytes = yield* page((p, font) => {
        // Line numbers 318-340, dollars 340-397, cents 397-419; rows 650-674 and 674-686.
        for (const x of [318, 340, 397, 419]) p.drawLine({ start: { x, y: 600 }, end: { x, y: 686 }, thickness: 0.5, color: black })
        for (const y of [600, 650, 674, 686]) p.drawLine({ start: { x: 318, y }, end: { x: 419, y }, thickness: 0.5, color: black })
        p.drawText("1  State income taxes", { x: 60, y: 676, size: 9, font })
        p.drawLine({ start: { x: 168, y: 675 }, end: { x: 301, y: 675 }, ...dots })
        p.drawText("1", { x: 326, y: 676, size: 9, font })
        // A line to list on, its number cell empty on its height (the item's number is at its foot).
        p.drawText("List type and amount", { x: 60, y: 630, size: 9, font })
        p.drawLine({ start: { x: 168, y: 630 }, end: { x: 301, y: 630 }, ...dots })
        p.drawText("2", { x: 326, y: 602, size: 9, font })
      })
      const fields = yield* detect(bytes)
      expect(fields.filter((f) => f.rect.x2 <= 310 && f.rect.y1 >= 670)).toEqual([])
      expect(fields.filter((f) => f.rect.x1 >= 339 && f.rect.x2 <= 398 && f.rect.y1 >= 673)).toHaveLength(1)
      expect(fields.filter((f) => f.rect.x2 <= 310 && f.rect.y1 >= 625 && f.rect.y1 <= 635)).toHaveLength(1)
    })
  )
})
