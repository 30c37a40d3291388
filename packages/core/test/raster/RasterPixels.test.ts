/**
 * The pixel stages of the raster detector on pictures drawn here with @napi-rs/canvas, where the
 * position of every line, box and dot is known: binarisation, connected pieces, run-length lines,
 * check shapes, broken lines, and Tesseract's TSV as the OCR module reads it.
 */
import { describe, expect, it } from "@effect/vitest"
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import { type Bitmap, binarize, darkestOf, greyFromRgba, otsuThreshold, transpose } from "../../src/detect/raster/Bitmap.ts"
import * as Components from "../../src/detect/raster/Components.ts"
import * as DottedLines from "../../src/detect/raster/DottedLines.ts"
import * as Ocr from "../../src/detect/raster/Ocr.ts"
import * as PageRender from "../../src/detect/raster/PageRender.ts"
import * as PixelShapes from "../../src/detect/raster/PixelShapes.ts"
import * as TintBoxes from "../../src/detect/raster/TintBoxes.ts"

/** A white picture of `width` x `height` pixels drawn by `draw`, in grey. */
const picture = (width: number, height: number, draw: (ctx: SKRSContext2D) => void): Bitmap => {
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext("2d")
  ctx.fillStyle = "#ffffff"
  ctx.fillRect(0, 0, width, height)
  ctx.fillStyle = "#000000"
  ctx.strokeStyle = "#000000"
  draw(ctx)
  return greyFromRgba(ctx.getImageData(0, 0, width, height).data, width, height)
}

/** 2 pixels per point (144 dpi), about the default render of a letter page. */
const scale = 2

describe("binarisation", () => {
  it("splits ink from paper, leaving a light tint as paper", () => {
    const grey = picture(100, 100, (ctx) => {
      ctx.fillStyle = "#e6e6e6" // a shaded field background
      ctx.fillRect(0, 0, 100, 50)
      ctx.fillStyle = "#000000"
      ctx.fillRect(10, 70, 80, 4)
    })
    const threshold = otsuThreshold(grey)
    expect(threshold).toBeGreaterThanOrEqual(110)
    expect(threshold).toBeLessThan(0xe6)
    const mask = binarize(grey)
    expect(mask.data.reduce((a, b) => a + b, 0)).toBe(80 * 4)
    expect(mask.data[20 * 100 + 20]).toBe(0)
    expect(mask.data[71 * 100 + 50]).toBe(1)
  })

  it("shrinks a picture keeping thin dark lines dark", () => {
    // A 1-pixel line of mid grey on white: averaging 2 x 2 blocks would make it light grey.
    const data = new Uint8Array(8 * 4).fill(255)
    for (let x = 0; x < 8; x++) data[1 * 8 + x] = 60
    const small = darkestOf({ width: 8, height: 4, data }, 2)
    expect(small).toEqual({ width: 4, height: 2, data: Uint8Array.from([60, 60, 60, 60, 255, 255, 255, 255]) })
    // One dark pixel of a block (a letter's edge) does not darken it; the general path agrees.
    const speck = Uint8Array.from([0, 255, 255, 255, 255, 255, 255, 255, 255])
    expect(darkestOf({ width: 2, height: 2, data: speck.subarray(0, 4) }, 2).data).toEqual(Uint8Array.from([255]))
    expect(darkestOf({ width: 3, height: 3, data: speck }, 3).data).toEqual(Uint8Array.from([255]))
    const third = Uint8Array.from([0, 0, 0, 255, 255, 255, 255, 255, 255])
    expect(darkestOf({ width: 3, height: 3, data: third }, 3).data).toEqual(Uint8Array.from([0]))
  })

  it("transposes rows into columns", () => {
    const t = transpose({ width: 3, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6]) })
    expect(t).toEqual({ width: 2, height: 3, data: Uint8Array.from([1, 4, 2, 5, 3, 6]) })
  })
})

describe("connected pieces of ink", () => {
  it("joins diagonal neighbours and keeps separate pieces apart, with their boxes and ink", () => {
    // An L, a diagonal pair and a lone pixel.
    const rows = ["#....#", "#...#.", "##....", "......", "..#..."]
    const data = Uint8Array.from(rows.join("").split("").map((c) => (c === "#" ? 1 : 0)))
    const pieces = Components.label({ width: 6, height: 5, data }).sort((a, b) => a.x1 - b.x1 || a.y1 - b.y1)
    expect(pieces).toEqual([
      { x1: 0, y1: 0, x2: 2, y2: 3, pixels: 4 },
      { x1: 2, y1: 4, x2: 3, y2: 5, pixels: 1 },
      { x1: 4, y1: 0, x2: 6, y2: 2, pixels: 2 }
    ])
  })
})

describe("lines, boxes and check boxes from pixels", () => {
  const page = picture(600, 400, (ctx) => {
    ctx.fillRect(40, 60, 300, 2) // a rule to write on: 150 pt at 2 px/pt
    // An outlined box 200 x 40 px (a one-line field box).
    ctx.lineWidth = 2
    ctx.strokeRect(41, 121, 200, 40)
    // A check box: 20 px (10 pt) square.
    ctx.strokeRect(301, 131, 20, 20)
    // A radio button: a ring 20 px across.
    ctx.beginPath()
    ctx.arc(371, 141, 9, 0, 2 * Math.PI)
    ctx.stroke()
    // A filled banner with white "text" holes: no lines, no boxes.
    ctx.fillRect(40, 200, 400, 60)
    ctx.fillStyle = "#ffffff"
    for (let k = 0; k < 10; k++) ctx.fillRect(60 + 35 * k, 220, 20, 20)
    ctx.fillStyle = "#000000"
    // Letter-sized strokes (5 pt and shorter): no lines.
    for (let k = 0; k < 8; k++) ctx.fillRect(460 + 12 * k, 60, 2, 10)
    // A dotted leader: 2 x 2 px dots every 6 px, 30 of them.
    for (let k = 0; k < 30; k++) ctx.fillRect(40 + 6 * k, 320, 2, 2)
  })
  const shapes = PixelShapes.find(page, scale)

  it("finds the rule where it is drawn", () => {
    const rule = shapes.horizontals.find((h) => Math.abs(h.y - 61) <= 1)
    expect(rule).toBeDefined()
    expect(rule!.x1).toBeLessThanOrEqual(41)
    expect(rule!.x2).toBeGreaterThanOrEqual(339)
    expect(rule!.thickness).toBeLessThanOrEqual(3)
  })

  it("finds the four sides of the box", () => {
    const near = (a: number, b: number) => Math.abs(a - b) <= 2
    expect(shapes.horizontals.filter((h) => near(h.x1, 40) && near(h.x2, 242) && (near(h.y, 121) || near(h.y, 161)))).toHaveLength(2)
    // Verticals are in the transposed frame: `y` is the column, `x1..x2` the rows.
    expect(shapes.verticals.filter((v) => near(v.x1, 120) && near(v.x2, 162) && (near(v.y, 41) || near(v.y, 241)))).toHaveLength(2)
  })

  it("finds the check box as a square and the radio button as a ring, not as lines", () => {
    const square = shapes.checks.find((c) => !c.round)
    const ring = shapes.checks.find((c) => c.round)
    expect(square).toMatchObject({ x1: 300, y1: 130 })
    expect(square!.x2 - square!.x1).toBeGreaterThanOrEqual(21)
    expect(ring).toBeDefined()
    expect(Math.abs((ring!.x1 + ring!.x2) / 2 - 371)).toBeLessThanOrEqual(1)
    expect(shapes.checks).toHaveLength(2)
    expect(shapes.horizontals.some((h) => h.x1 >= 298 && h.x2 <= 324)).toBe(false)
  })

  it("finds nothing in a filled banner nor in letter strokes", () => {
    expect(shapes.horizontals.some((h) => h.y > 195 && h.y < 265)).toBe(false)
    expect(shapes.verticals.some((v) => v.x1 > 195 && v.x2 < 265)).toBe(false)
    expect(shapes.verticals.some((v) => v.y >= 458)).toBe(false)
  })

  it("finds the dotted leader as one dashed line and the dots as no line of their own", () => {
    expect(shapes.dotted).toHaveLength(1)
    expect(shapes.dotted[0]).toMatchObject({ x1: 40, x2: 40 + 6 * 29 + 2, dashed: true })
    expect(shapes.horizontals.some((h) => h.y > 310)).toBe(false)
  })
})

describe("the feet of a word's letters run together", () => {
  // A serif word at a low resolution: a 2 px bar 60 px (30 pt) long along the letters' feet, stems
  // 2 px wide rising 14 px from it every 5 px. Beside it a rule of the same length with the
  // dividers of a comb rising from it every 28 px, and a short bar of 16 px (8 pt) with stems: the
  // top of a round button or a bold digit, left to the rest of the detector.
  const page = picture(400, 200, (ctx) => {
    ctx.fillRect(40, 60, 60, 2)
    for (let x = 40; x < 100; x += 5) ctx.fillRect(x, 46, 2, 14)
    ctx.fillRect(200, 60, 140, 2)
    for (let x = 200; x <= 338; x += 28) ctx.fillRect(x, 48, 2, 12)
    ctx.fillRect(40, 140, 16, 2)
    for (let x = 40; x < 56; x += 5) ctx.fillRect(x, 126, 2, 14)
  })
  const shapes = PixelShapes.find(page, scale)

  it("reads no line along the letters, the comb's rule as one, and leaves a short bar as it was", () => {
    expect(shapes.horizontals.filter((h) => h.x1 < 120 && Math.abs(h.y - 61) <= 2)).toEqual([])
    expect(shapes.horizontals.filter((h) => h.x1 >= 199 && h.x2 >= 339 && Math.abs(h.y - 61) <= 2)).toHaveLength(1)
    expect(shapes.horizontals.filter((h) => Math.abs(h.y - 141) <= 2)).toHaveLength(1)
  })
})

describe("a table wall with black label boxes beside it", () => {
  // A table's wall 300 px (150 pt) long with, touching its right side, three filled label boxes
  // 16 px square (8 pt, a numbered row marker): each is ink beside the wall over 16 of its rows.
  const page = picture(300, 400, (ctx) => {
    ctx.fillRect(100, 40, 2, 300)
    for (const y of [80, 180, 280]) ctx.fillRect(102, y, 16, 16)
  })
  const shapes = PixelShapes.find(page, scale)

  it("keeps the wall: the boxes do not make it a filled area", () => {
    const wall = shapes.verticals.find((v) => Math.abs(v.y - 101) <= 1 && v.x1 <= 41 && v.x2 >= 339)
    expect(wall).toBeDefined()
    expect(wall!.thickness).toBeLessThanOrEqual(3)
  })
})

describe("white boxes on a tinted ground", () => {
  const tinted = (ctx: SKRSContext2D) => {
    ctx.fillStyle = "#d9c9a8" // a tan ground over most of the page
    ctx.fillRect(20, 20, 560, 360)
    ctx.fillStyle = "#ffffff"
    ctx.fillRect(40, 60, 300, 36) // a one-line box: 150 x 18 pt
    ctx.fillRect(400, 60, 16, 16) // a check box: 8 pt
    ctx.fillRect(40, 200, 500, 120) // a multi-line area
    ctx.fillStyle = "#000000"
    ctx.fillRect(40, 150, 200, 2) // a rule on the ground
    ctx.lineWidth = 2
    ctx.strokeRect(401, 151, 20, 20) // an outlined check box, white inside
    ctx.font = "20px sans-serif"
    ctx.fillText("Name OQ", 420, 120) // letters with holes
  }
  const page = picture(600, 400, tinted)
  const found = TintBoxes.find(page, otsuThreshold(page), scale)

  it("finds each white box where it is painted, and nothing else", () => {
    const near = (box: TintBoxes.TintBox, x1: number, y1: number, x2: number, y2: number) =>
      Math.abs(box.x1 - x1) <= 1 && Math.abs(box.y1 - y1) <= 1 && Math.abs(box.x2 - x2) <= 1 && Math.abs(box.y2 - y2) <= 1
    expect(found).toHaveLength(3)
    expect(found.some((b) => near(b, 40, 60, 340, 96))).toBe(true)
    expect(found.some((b) => near(b, 400, 60, 416, 76))).toBe(true)
    expect(found.some((b) => near(b, 40, 200, 540, 320))).toBe(true)
  })

  it("reads them as boxes through the pixel shapes", () => {
    expect(PixelShapes.find(page, scale).tintBoxes).toHaveLength(3)
  })

  it("finds none on white paper, where a white box is invisible", () => {
    const plain = picture(600, 400, (ctx) => {
      ctx.lineWidth = 2
      ctx.strokeRect(41, 61, 300, 36)
      ctx.font = "20px sans-serif"
      ctx.fillText("Name OQ", 420, 120)
    })
    expect(TintBoxes.find(plain, otsuThreshold(plain), scale)).toEqual([])
  })
})

describe("a rating scale of rings", () => {
  // Five rings 14 px (7 pt) across, 3 px apart: closer than a lone option stands from other ink.
  const ring = (ctx: SKRSContext2D, cx: number, cy: number) => {
    ctx.beginPath()
    ctx.arc(cx, cy, 6, 0, 2 * Math.PI)
    ctx.stroke()
  }
  const page = picture(400, 200, (ctx) => {
    ctx.lineWidth = 2
    for (let k = 0; k < 5; k++) ring(ctx, 60 + 17 * k, 60)
    // Two such rings with a bar right after them: letters of a word ("oo|"), not a scale.
    for (let k = 0; k < 2; k++) ring(ctx, 60 + 17 * k, 140)
    ctx.fillRect(60 + 17 + 10, 130, 3, 20)
  })
  const shapes = PixelShapes.find(page, scale)

  it("reads every ring of the row as an option, and rings among other ink as none", () => {
    const rings = shapes.checks.filter((c) => c.round)
    expect(rings.filter((c) => c.y1 < 100)).toHaveLength(5)
    expect(rings.filter((c) => c.y1 > 100)).toHaveLength(0)
  })
})

describe("broken lines", () => {
  it("reads a row of underscore dashes as a solid line and a short run of dots as nothing", () => {
    const dash = (x: number) => ({ x1: x, y1: 100, x2: x + 12, y2: 102, pixels: 24 })
    const dot = (x: number) => ({ x1: x, y1: 200, x2: x + 2, y2: 202, pixels: 4 })
    const found = DottedLines.find([...[0, 14, 28, 42].map(dash), ...[0, 6, 12, 18].map(dot)], scale)
    expect(found).toEqual([{ x1: 0, x2: 54, y: 101, thickness: 2, dashed: false }])
  })
})

describe("render size", () => {
  it("gives the long side `resolution` pixels within 100-300 dpi and 9 MP", () => {
    expect(PageRender.scaleFor(612, 792, 1600) * 792).toBeCloseTo(1600)
    expect(PageRender.scaleFor(612, 792, 200)).toBeCloseTo(100 / 72)
    expect(PageRender.scaleFor(612, 792, 10_000)).toBeCloseTo(300 / 72)
    const big = PageRender.scaleFor(2448, 3168, 10_000) // a 34 x 44 inch sheet
    expect(2448 * 3168 * big * big).toBeLessThanOrEqual(PageRender.bounds.maxPixels + 1)
  })
})

describe("Tesseract TSV", () => {
  it("keeps confident words with their line's box and drops noise", () => {
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      "1\t1\t0\t0\t0\t0\t0\t0\t1224\t1584\t-1\t",
      "4\t1\t1\t1\t1\t0\t100\t200\t180\t22\t-1\t",
      "5\t1\t1\t1\t1\t1\t100\t202\t60\t18\t96.5\tFirst",
      "5\t1\t1\t1\t1\t2\t170\t200\t110\t22\t91.2\tname:",
      "5\t1\t1\t1\t1\t3\t300\t205\t4\t15\t12.0\t|",
      "4\t1\t2\t1\t1\t0\t100\t300\t50\t20\t-1\t",
      "5\t1\t2\t1\t1\t1\t100\t300\t50\t20\t88\tDate"
    ].join("\n")
    expect(Ocr.parseTsv(tsv)).toEqual([
      { text: "First", x1: 100, y1: 202, x2: 160, y2: 220, confidence: 96.5, lineTop: 200, lineBottom: 222 },
      { text: "name:", x1: 170, y1: 200, x2: 280, y2: 222, confidence: 91.2, lineTop: 200, lineBottom: 222 },
      { text: "Date", x1: 100, y1: 300, x2: 150, y2: 320, confidence: 88, lineTop: 300, lineBottom: 320 }
    ])
  })
})
