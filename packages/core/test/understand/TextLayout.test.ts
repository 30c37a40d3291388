import { describe, expect, it } from "@effect/vitest"
import * as TextLayout from "../../src/understand/TextLayout.ts"
import { run } from "./support.ts"

const texts = (runs: Parameters<typeof TextLayout.phrases>[0]) => TextLayout.phrases(runs).map((p) => p.text)

describe("TextLayout.phrases", () => {
  it("joins runs of single glyphs into words and words into a phrase", () => {
    const glyphs = [..."Notice"].map((c, i) => ({ text: c, x: 100 + i * 5, y: 700, width: 5, height: 10 }))
    const next = [..."to"].map((c, i) => ({ text: c, x: 133 + i * 5, y: 700, width: 5, height: 10 }))
    expect(texts([...glyphs, ...next])).toEqual(["Notice to"])
  })

  it("joins a small-caps word drawn as two runs", () => {
    expect(texts([{ text: "N", x: 30, y: 425, width: 7.1, height: 10.8 }, { text: "AME", x: 37.4, y: 425, width: 21, height: 10.8 }])).toEqual(["NAME"])
  })

  it("ends a phrase at a wide gap, at a blank to write on and at a printed box", () => {
    expect(texts([run("Name:", 50, 700), run("Date:", 300, 700)])).toEqual(["Name:", "Date:"])
    expect(texts([run("City ______ State ____", 50, 700)])).toEqual(["City", "State"])
    expect(texts([run("Married ☐ Single", 50, 700)])).toEqual(["Married", "Single"])
    expect(texts([run("né le ........ à", 50, 700)])).toEqual(["né le", "à"])
  })

  it("places a word after dot leaders by the widths characters usually have, not by their count", () => {
    // pdf.js measured the whole run: 40 leaders ("…", an em each) take most of its 400 points.
    const text = `o pasaporte ${"…".repeat(40)}, nacido/a el`
    const width = 400
    const [, after] = TextLayout.phrases([{ text, x: 50, y: 640, width, height: 12 }])
    expect(after!.text).toBe(", nacido/a el")
    // By count alone it would start at 50 + 400 * 52 / 66 = 365; it ends where the run does.
    expect(after!.x2).toBeCloseTo(450, 0)
    expect(after!.x1).toBeGreaterThan(375)
  })

  it("keeps lines apart, top to bottom, and numbers them", () => {
    const phrases = TextLayout.phrases([run("second", 50, 680), run("first", 50, 700), run("beside", 200, 700.5)])
    expect(phrases.map((p) => [p.text, p.line])).toEqual([["first", 0], ["beside", 0], ["second", 1]])
  })

  it("reads right-to-left pieces from the right", () => {
    expect(texts([run("الاول", 100, 700), run("الاسم", 130, 700)])).toEqual(["الاسم الاول"])
  })

  it("gives each phrase a box from its baseline and size", () => {
    const [p] = TextLayout.phrases([run("Label", 10, 100, 10)])
    expect(p).toMatchObject({ x1: 10, x2: 35, y: 100, size: 10 })
    expect(p!.y1).toBeCloseTo(97.8)
    expect(p!.y2).toBeCloseTo(107.8)
  })
})

describe("TextLayout geometry", () => {
  it("turns [x1, y1, x2, y2] in any corner order into a rectangle", () => {
    expect(TextLayout.rectOf([200, 80, 100, 60])).toEqual({ x1: 100, y1: 60, x2: 200, y2: 80 })
  })
})
