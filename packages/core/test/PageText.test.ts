import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as PageText from "../src/pdf/PageText.ts"

describe("PageText.read", () => {
  it.effect("marks the runs set in a bold face", () =>
    Effect.gen(function*() {
      const bytes = yield* Effect.promise(async () => {
        const doc = await PDFDocument.create()
        const page = doc.addPage([612, 792])
        page.drawText("Physical address", { x: 40, y: 700, size: 11, font: await doc.embedFont(StandardFonts.HelveticaBold) })
        page.drawText("City:", { x: 40, y: 670, size: 10, font: await doc.embedFont(StandardFonts.Helvetica) })
        page.drawText("Notes", { x: 40, y: 640, size: 10, font: await doc.embedFont(StandardFonts.TimesRomanBoldItalic) })
        return doc.save()
      })
      const [page] = yield* PageText.read(bytes)
      expect(page!.runs.map((r) => [r.text, r.bold === true])).toEqual([
        ["Physical address", true],
        ["City:", false],
        ["Notes", true]
      ])
    }))
})

describe("PageText.isBoldFace", () => {
  it("reads the weight in a font's name", () => {
    const bold = ["ABCDEF+Arial-BoldMT", "HelveticaNeueLTStd-Bd", "MyriadPro-SemiboldSemiCn", "ITCFranklinGothicStd-Demi", "Times New Roman Negreta", "Arial,Bold"]
    const regular = ["ArialMT", "HelveticaNeueLTStd-Roman", "MyriadPro-SemiCn", "TimesNewRomanPS-ItalicMT", "Courier"]
    expect(bold.filter(PageText.isBoldFace)).toEqual(bold)
    expect(regular.filter(PageText.isBoldFace)).toEqual([])
  })
})
