/**
 * The blank boxes of a form printed on a coloured ground: white rectangles surrounded by tint
 * (lighter than ink, darker than paper). Binarised, such a page shows neither the ground nor its
 * boxes, since Otsu's threshold calls both paper; the vector path keeps them from the drawing's
 * white fills (`Pipeline.boxesOnTint`), this finds them in the pixels.
 */
import type { Bitmap } from "./Bitmap.ts"
import * as Components from "./Components.ts"

/** A white box in pixels, `[x1, x2)` and `[y1, y2)`. */
export interface TintBox {
  readonly x1: number
  readonly y1: number
  readonly x2: number
  readonly y2: number
}

/** A page with less tint than this share of its pixels has no coloured ground to look at. */
const MIN_TINT_SHARE = 0.05
/** Grey levels within this much of the paper's are white; tint starts twice as far below it. */
const WHITE_MARGIN = 10
/** Smallest box side (points): a check box on a tinted form is about 7 pt. */
const MIN_SIDE_PT = 5
/** Taller than this (points) is a page area, not a box to write in (Boxes' panels stop at 400). */
const MAX_HEIGHT_PT = 400
/** A box is white over at least this share of its rectangle: a rectangle, not a letter's hole or a gap between shapes. */
const MIN_FILL = 0.85
/**
 * Nearly all of the ring just outside the box is tint: a box on the ground, not a cell between
 * light grey dividers and dark borders (a comb's) nor the inside of an outline.
 */
const MIN_RING_TINT = 0.75
/** The ring's width in pixels. */
const RING = 2

/** The paper's grey level: the 99th percentile, as the brightest large part of the page. */
const paperLevel = (histogram: Uint32Array, total: number): number => {
  let seen = 0
  for (let level = 0; level < 256; level++) {
    seen += histogram[level]!
    if (seen >= 0.99 * total) return level
  }
  return 255
}

/**
 * White boxes on tint in `grey` (drawn at `scale` pixels per point), where levels at or below
 * `inkThreshold` are ink. A page with little tint has none.
 */
export const find = (grey: Bitmap, inkThreshold: number, scale: number): Array<TintBox> => {
  const { width, height, data } = grey
  const histogram = new Uint32Array(256)
  for (let i = 0; i < data.length; i++) histogram[data[i]!]!++
  const paper = paperLevel(histogram, data.length)
  const whiteFrom = paper - WHITE_MARGIN
  const tintBelow = paper - 2 * WHITE_MARGIN
  let tint = 0
  for (let level = inkThreshold + 1; level < tintBelow; level++) tint += histogram[level]!
  if (tint < MIN_TINT_SHARE * data.length) return []
  const white = new Uint8Array(data.length)
  for (let i = 0; i < data.length; i++) white[i] = data[i]! >= whiteFrom ? 1 : 0
  const isTint = (level: number) => level > inkThreshold && level < tintBelow
  const minSide = MIN_SIDE_PT * scale
  const boxes: Array<TintBox> = []
  for (const c of Components.label({ width, height, data: white })) {
    const [w, h] = [c.x2 - c.x1, c.y2 - c.y1]
    if (w < minSide || h < minSide || h > MAX_HEIGHT_PT * scale) continue
    if (c.x1 < RING || c.y1 < RING || c.x2 > width - RING || c.y2 > height - RING) continue
    if (c.pixels < MIN_FILL * w * h) continue
    let ring = 0
    let tinted = 0
    for (let y = c.y1 - RING; y < c.y2 + RING; y++) {
      const row = y * width
      const inside = y >= c.y1 && y < c.y2
      for (let x = c.x1 - RING; x < c.x2 + RING; x++) {
        if (inside && x >= c.x1 && x < c.x2) {
          x = c.x2 - 1
          continue
        }
        ring++
        if (isTint(data[row + x]!)) tinted++
      }
    }
    if (tinted >= MIN_RING_TINT * ring) boxes.push({ x1: c.x1, y1: c.y1, x2: c.x2, y2: c.y2 })
  }
  return boxes
}
