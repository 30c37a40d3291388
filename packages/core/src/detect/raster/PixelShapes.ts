/**
 * The drawing of a page picture: horizontal and vertical lines (rules, box and cell borders, comb
 * dividers) and check boxes / radio buttons, all in pixels. Every size is given in points and
 * turned into pixels by the picture's scale, so the same page gives the same shapes at any
 * resolution.
 */
import { type Bitmap, binarize, otsuThreshold } from "./Bitmap.ts"
import * as CheckShapes from "./CheckShapes.ts"
import type { CheckShape } from "./CheckShapes.ts"
import * as Components from "./Components.ts"
import * as DottedLines from "./DottedLines.ts"
import * as RunLines from "./RunLines.ts"
import type { PixelLine } from "./RunLines.ts"
import * as TintBoxes from "./TintBoxes.ts"

export interface Shapes {
  readonly mask: Bitmap
  readonly horizontals: ReadonlyArray<PixelLine>
  /** In the transposed frame: `x1..x2` are rows, `y` is the column. */
  readonly verticals: ReadonlyArray<PixelLine>
  readonly checks: ReadonlyArray<CheckShape>
  /** Dotted lines (leaders to write on) and underscore rows, on their pieces' centre row. */
  readonly dotted: ReadonlyArray<DottedLines.BrokenLine>
  /** White boxes on a tinted ground, which have no ink to find them by. */
  readonly tintBoxes: ReadonlyArray<TintBoxes.TintBox>
}

/**
 * Shortest line kept: 7 pt, about the height of a one-line cell's wall minus its padding and the
 * stem of a 10 pt capital. Shorter strokes are letters; the glyph stems that pass are dropped
 * later where the words read by OCR cover them.
 */
const MIN_LINE_PT = 7
/** Thicker than 4 pt is a filled bar or block, not a rule. */
const MAX_THICKNESS_PT = 4
/**
 * Breaks up to half a point in a line are bridged (a scan or a thin render breaks thin lines);
 * wider ones are kept apart, or the feet of bold letters would run together into a line.
 */
const MAX_GAP_PT = 0.5

/**
 * A piece of ink at least this wide and tall (points) and at least this share inked is a filled
 * block (a dark banner, a button, a photo): its holes are white text, not lines or boxes.
 */
const MIN_BLOCK_PT = 20
const MIN_BLOCK_INK = 0.5

/** More check boxes than this on one page is no form's. */
const MAX_CHECKS = 1000

/**
 * Share of a line's columns beyond which ink leaving it on either side (stems) makes it a row of
 * letters: their feet or tops run together at a low resolution, stems rising or falling from
 * nearly every few pixels ("understand" in a serif face). A rule has paper on both sides all
 * along but where a wall or a divider crosses it (a few hundredths of its length, a comb's
 * dividers a tenth); a row of letters has stems in half its columns or more.
 */
const MAX_STEM_SHARE = 0.3

/**
 * Runs shorter than this (points) are left as they are: a round button's flat top has its curved
 * sides leaving it all along, and the strokes of a bold digit keep a number's cell from reading
 * as empty where OCR missed the number.
 */
const MIN_LETTERS_PT = 10

/** Whether ink touches the line from above or below in more than `MAX_STEM_SHARE` of its columns. */
const alongLetters = (mask: Bitmap, line: PixelLine): boolean => {
  const above = Math.round(line.y - line.thickness / 2) - 1
  const below = Math.round(line.y + line.thickness / 2)
  const inked = (row: number, x: number) => row >= 0 && row < mask.height && mask.data[row * mask.width + x] !== 0
  let stems = 0
  for (let x = line.x1; x < line.x2; x++) if (inked(above, x) || inked(below, x)) stems++
  return stems > MAX_STEM_SHARE * (line.x2 - line.x1)
}

/** Finds lines and check shapes in the grey picture `grey` drawn at `scale` pixels per point. */
export const find = (grey: Bitmap, scale: number): Shapes => {
  const threshold = otsuThreshold(grey)
  const mask = binarize(grey, threshold)
  const components = Components.label(mask)
  const minBlock = MIN_BLOCK_PT * scale
  for (const c of components) {
    const [w, h] = [c.x2 - c.x1, c.y2 - c.y1]
    if (w >= minBlock && h >= minBlock && c.pixels >= MIN_BLOCK_INK * w * h) Components.erase(mask, c.x1, c.y1, c.x2, c.y2, 0)
  }
  const options: RunLines.LineOptions = {
    minLength: Math.max(4, Math.round(MIN_LINE_PT * scale)),
    maxThickness: Math.max(2, Math.round(MAX_THICKNESS_PT * scale)),
    maxGap: Math.max(1, Math.round(MAX_GAP_PT * scale))
  }
  const found = CheckShapes.find(mask, components, scale)
  // Thousands of small squares are graph paper or a texture, not check boxes; dropping them also
  // keeps the pairing of lines with check boxes below from growing with the square of the page.
  const checks = found.length > MAX_CHECKS ? [] : found
  // A check box's sides are no lines of the page: they would make a table cell of the box.
  const inCheck = (x1: number, x2: number, y: number, vertical: boolean) =>
    checks.some((c) =>
      vertical
        ? y >= c.x1 - 1 && y <= c.x2 + 1 && x1 >= c.y1 - 1 && x2 <= c.y2 + 1
        : y >= c.y1 - 1 && y <= c.y2 + 1 && x1 >= c.x1 - 1 && x2 <= c.x2 + 1
    )
  const minLetters = MIN_LETTERS_PT * scale
  const horizontals = RunLines.horizontal(mask, options).filter((l) => !inCheck(l.x1, l.x2, l.y, false) && !(l.x2 - l.x1 >= minLetters && alongLetters(mask, l)))
  const verticals = RunLines.vertical(mask, options).filter((l) => !inCheck(l.x1, l.x2, l.y, true))
  return { mask, horizontals, verticals, checks, dotted: DottedLines.find(components, scale), tintBoxes: TintBoxes.find(grey, threshold, scale) }
}
