/**
 * Text-field candidates from empty boxes and table cells: one-line boxes, taller boxes for
 * wrapped text, boxes with a caption in their top, and boxes holding their label on the left.
 */
import type { Candidate, PageContext } from "../Candidate.ts"
import { height, inset, pieceBottom, pieceCentreInside, width } from "../Geometry.ts"
import * as Labels from "../Labels.ts"
import { MAX_CELL_HEIGHT } from "../Tables.ts"
import type { TextPiece } from "../Underscores.ts"
import type { Box, HorizontalSegment, Rect, VerticalSegment } from "../VectorLines.ts"
import { isCheckSquare } from "./CheckSquares.ts"

/** Narrowest box worth a text field: about three digits at a form's usual 9-10 pt. */
const MIN_BOX_WIDTH = 16
/** Narrowest part of a divided box that is a field of its own. */
const MIN_PART_WIDTH = 36
/** A captioned panel taller than this is a page region, not one field. */
const MAX_PANEL_HEIGHT = 400
const ITEM_NUMBER = /^\(?\d{1,3}[a-z]?[.)]?$/i

/** A box with a rule across its inside is a frame around fields, not one field. */
const crossedByRule = (b: Box, horizontals: ReadonlyArray<HorizontalSegment>): boolean =>
  horizontals.some(
    (h) => h.y > b.y1 + 3 && h.y < b.y2 - 3 && Math.min(h.x2, b.x2) - Math.max(h.x1, b.x1) > 0.5 * Math.min(h.x2 - h.x1, width(b))
  )

/**
 * A box with a solid wall from its top to its bottom inside it, leaving room for a field on both
 * sides, is a frame around the two cells the wall makes ("Maximum | Current"), not one field. A
 * dotted divider (the groups of an id number) or one between character cells divides nothing.
 */
const dividedByWall = (b: Box, verticals: ReadonlyArray<VerticalSegment>): boolean =>
  verticals.some((v) =>
    !v.dashed && v.x - b.x1 >= MIN_PART_WIDTH && b.x2 - v.x >= MIN_PART_WIDTH && Math.min(v.y2, b.y2) - Math.max(v.y1, b.y1) >= 0.85 * height(b)
  )

const hasNeighbourRight = (b: Box, boxes: ReadonlyArray<Box>): boolean =>
  boxes.some((o) => o !== b && Math.abs(o.x1 - b.x2) <= 3 && Math.min(o.y2, b.y2) - Math.max(o.y1, b.y1) > 0.5 * height(b))

const containsAnother = (b: Box, boxes: ReadonlyArray<Box>): boolean =>
  boxes.some((o) => o !== b && o.x1 >= b.x1 + 1 && o.x2 <= b.x2 - 1 && o.y1 >= b.y1 + 1 && o.y2 <= b.y2 - 1 && width(o) > 4 && height(o) > 4)

/** Whether no text sits in the box (by the centres of the text pieces). */
const holdsNoText = (b: Box, pieces: ReadonlyArray<TextPiece>): boolean => !pieces.some((p) => pieceCentreInside(p, b))

/**
 * A captioned cell with an empty cell of the same width right under it heads a table column;
 * stacked boxes that each carry their own caption (name, address, city) do not.
 */
const headsColumn = (b: Box, boxes: ReadonlyArray<Box>, pieces: ReadonlyArray<TextPiece>): boolean =>
  boxes.some(
    (o) =>
      o !== b &&
      Math.abs(o.x1 - b.x1) <= 2.5 &&
      Math.abs(o.x2 - b.x2) <= 2.5 &&
      Math.abs(o.y2 - b.y1) <= 2 &&
      holdsNoText(o, pieces)
  )

/** Taller than one line of text, short enough for a cell. */
const tallHeight = (h: number): boolean => h > 40 && h <= MAX_CELL_HEIGHT

/** A box shaped for a few lines of wrapped text: taller than one line, at least as wide as tall. */
const tallTextShape = (w: number, h: number): boolean => tallHeight(h) && w >= h && w >= 72

/**
 * An empty table cell taller than it is wide ("Service Date" beside a column of tall address
 * cells) is a field when its row holds an empty cell that is one on its own shape: the row is
 * tall for its widest column, and every empty cell of it is written in.
 */
const rowHasTallCell = (b: Box, boxes: ReadonlyArray<Box>, pieces: ReadonlyArray<TextPiece>): boolean =>
  boxes.some(
    (o) =>
      o !== b &&
      Math.abs(o.y1 - b.y1) <= 1.5 &&
      Math.abs(o.y2 - b.y2) <= 1.5 &&
      tallTextShape(width(o), height(o)) &&
      holdsNoText(o, pieces)
  )

/**
 * A narrow empty cell right after a wider empty one of the same row, top and bottom alike: the
 * cents of an amount whose dollars are the cell before ("| 1,234 | 56 |"), narrower than a
 * one-line box where the row is tall.
 */
const continuesEmptyCell = (b: Box, boxes: ReadonlyArray<Box>, pieces: ReadonlyArray<TextPiece>): boolean =>
  boxes.some((o) =>
    o !== b && Math.abs(o.y1 - b.y1) <= 1 && Math.abs(o.y2 - b.y2) <= 1 && b.x1 - o.x2 >= -1 && b.x1 - o.x2 <= 3 &&
    width(o) >= 1.3 * height(o) && width(o) > width(b) && holdsNoText(o, pieces)
  )

/**
 * Text on a cell's bottom line that ends just left of it: the item number or the leader dots
 * of the row whose value the cell takes ("7 . . . . . | ____").
 */
const ledTo = (b: Box, pieces: ReadonlyArray<TextPiece>): boolean =>
  pieces.some((p) => p.x2 <= b.x1 + 1 && b.x1 - p.x2 <= 15 && p.y >= b.y1 - 2 && p.y <= b.y1 + 0.5 * height(b))

/**
 * The text that leads to a tall cell's bottom line from just left of it: the item number or the
 * leader of the row whose value the cell takes, where an amount column runs on blank above it
 * ("54 Add lines 47 through 53 .... 54 | |" under the rows the column leaves empty).
 */
const leadsToBottom = (b: Box, pieces: ReadonlyArray<TextPiece>): TextPiece | undefined =>
  pieces.find((p) => p.x2 <= b.x1 + 1 && b.x1 - p.x2 <= 15 && p.y >= b.y1 - 2 && p.y <= b.y1 + 0.5 * p.size)

/** Empty cells of one row, side by side, this many at most: the columns of a wide amounts table. */
const MAX_ROW_CELLS = 12

/**
 * The lead of the empty cells before this one in its row, top and bottom alike, the nearest that
 * has one: the dollars before the cents, the first amount column before the others.
 */
const ledCellBefore = (b: Box, boxes: ReadonlyArray<Box>, pieces: ReadonlyArray<TextPiece>): TextPiece | undefined => {
  let cell = b
  for (let k = 0; k < MAX_ROW_CELLS; k++) {
    const at = cell
    const before = boxes.find((o) =>
      o !== at && Math.abs(o.y1 - at.y1) <= 1 && Math.abs(o.y2 - at.y2) <= 1 && Math.abs(at.x1 - o.x2) <= 1 && holdsNoText(o, pieces)
    )
    if (!before) return undefined
    const lead = leadsToBottom(before, pieces)
    if (lead) return lead
    cell = before
  }
  return undefined
}

/** One line on a tall cell's bottom, as high as the row's text leading to it. */
const bottomLine = (b: Box, lead: TextPiece): Rect => {
  const y1 = b.y1 + 1
  return { x1: b.x1 + 1, y1, x2: b.x2 - 1, y2: Math.min(b.y2 - 1, y1 + Math.max(11, 1.35 * lead.size)) }
}

export const candidates = (context: PageContext): Array<Candidate> => {
  const { input, pieces, boxes, pageWidth } = context
  const out: Array<Candidate> = []
  for (const b of boxes) {
    const [w, h] = [width(b), height(b)]
    // A grey or dark fill blocks a cell out ("do not enter") or bars a heading: nothing to write.
    if (isCheckSquare(b) || b.dark) continue
    const inside = pieces.filter((p) => pieceCentreInside(p, b))
    // Hatching or outlined text inside: the box is marked "not applicable" or holds content.
    const inked = input.graphics.marks.some((m) => (m.x1 + m.x2) / 2 > b.x1 && (m.x1 + m.x2) / 2 < b.x2 && (m.y1 + m.y2) / 2 > b.y1 && (m.y1 + m.y2) / 2 < b.y2)
    if (inked) continue
    const shadedOnly = !b.stroked
    // A drawn box of its own (not a table's cell) may be a whole panel under its caption ("Notes").
    const tallest = b.stroked && !context.cells.has(b) ? MAX_PANEL_HEIGHT : MAX_CELL_HEIGHT
    if (w >= 36 && h >= 16 && h <= tallest && w <= 0.9 * pageWidth && inside.length > 0) {
      // A caption printed in the top of a box, space to write below it (tax-form style).
      const captionBottom = Math.min(...inside.map(pieceBottom))
      if (captionBottom >= b.y1 + 0.4 * h) {
        const rest = { x1: b.x1 + 1, y1: b.y1 + 1, x2: b.x2 - 1, y2: captionBottom - 1 }
        if (
          height(rest) >= 8 && !containsAnother(b, boxes) && !crossedByRule(b, input.graphics.horizontals) &&
          !dividedByWall(b, input.graphics.verticals) && !headsColumn(b, boxes, pieces)
        ) {
          out.push({
            kind: "Text",
            source: context.cells.has(b) ? "cell" : "box",
            rect: rest,
            band: [rest.y1, Math.min(rest.y2, rest.y1 + 40)],
            sized: false,
            multiline: height(rest) > 30,
            features: { shadedOnly, captioned: true }
          })
        }
        continue
      }
    }
    // One-line boxes are wider than tall; taller empty ones (up to a few lines) take wrapped text.
    // Line-drawn cells run down to 8 pt (tight tax-form rows); a filled area that low is a stripe.
    const oneLineBox = h >= (context.cells.has(b) ? 8 : 10) && h <= 40 && w >= 1.3 * h
    const tallBox = tallTextShape(w, h) && inside.length === 0
    const narrowTallCell = !tallBox && tallHeight(h) && w >= MIN_PART_WIDTH && inside.length === 0 &&
      context.cells.has(b) && rowHasTallCell(b, boxes, pieces)
    const centsCell = !oneLineBox && !tallBox && !narrowTallCell && h <= 40 && inside.length === 0 && context.cells.has(b) &&
      continuesEmptyCell(b, boxes, pieces)
    // An empty box or cell taller than a line, led to on its bottom line: the amount goes on that
    // line, not over the blank rows above it; so do the cents in the cell right after it.
    if (h > 40 && w >= MIN_BOX_WIDTH && w <= 0.9 * pageWidth && inside.length === 0 && !containsAnother(b, boxes) && !crossedByRule(b, input.graphics.horizontals)) {
      const lead = leadsToBottom(b, pieces) ?? ledCellBefore(b, boxes, pieces)
      if (lead) {
        const rect = bottomLine(b, lead)
        out.push({ kind: "Text", source: context.cells.has(b) ? "cell" : "box", rect, band: [rect.y1, rect.y2], sized: false, features: { shadedOnly } })
        continue
      }
    }
    if (w < MIN_BOX_WIDTH || !(oneLineBox || tallBox || narrowTallCell || centsCell) || w > 0.9 * pageWidth) continue
    if (containsAnother(b, boxes) || crossedByRule(b, input.graphics.horizontals) || dividedByWall(b, input.graphics.verticals)) continue
    const base = {
      kind: "Text" as const,
      source: context.cells.has(b) ? ("cell" as const) : ("box" as const),
      band: [b.y1, Math.min(b.y2, b.y1 + 40)] as const,
      sized: false
    }
    if (inside.length === 0) {
      if (context.openLines.has(b) && !ledTo(b, pieces)) continue
      out.push({ ...base, rect: inset(b, 1), multiline: h > 30, features: { shadedOnly } })
      continue
    }
    // An operator or unit printed at the cell's left ("+", "=", "$"), with or without the line
    // number it carries ("= 13"): the amount goes after it.
    const symbol = (p: TextPiece) => p.text.length <= 2 && !/[\p{L}\p{N}]/u.test(p.text)
    const symbolsOnly = inside.some(symbol) && inside.every((p) => symbol(p) || ITEM_NUMBER.test(p.text))
    if (symbolsOnly && Math.max(...inside.map((p) => p.x2)) - b.x1 <= 0.3 * w) {
      const rest = { x1: Math.max(...inside.map((p) => p.x2)) + 2, y1: b.y1 + 1, x2: b.x2 - 1, y2: b.y2 - 1 }
      if (width(rest) >= MIN_BOX_WIDTH) out.push({ ...base, rect: rest, features: { shadedOnly } })
      continue
    }
    // A unit printed at the cell's right end alone ("[        %]"): the amount goes before it.
    if (inside.every(symbol) && b.x2 - Math.min(...inside.map((p) => p.x1)) <= 0.3 * w) {
      const rest = { x1: b.x1 + 1, y1: b.y1 + 1, x2: Math.min(...inside.map((p) => p.x1)) - 2, y2: b.y2 - 1 }
      if (width(rest) >= MIN_BOX_WIDTH) out.push({ ...base, rect: rest, features: { shadedOnly } })
      continue
    }
    // A line or item number ("12", "8a", "(3)") in its own cell numbers the row; it is no value.
    if (inside.length === 1 && ITEM_NUMBER.test(inside[0]!.text)) continue
    const oneLine = Math.max(...inside.map((p) => p.y)) - Math.min(...inside.map((p) => p.y)) <= 2
    const textStart = Math.min(...inside.map((p) => p.x1))
    if (!oneLine || textStart - b.x1 > 0.3 * w) continue
    // Either a flattened value in a box labelled outside ("Name: [ABC ]"), or a label written
    // inside the box with room to its right ("[Name:      ]").
    // (A column's header cell, its text over the empty cells under it, is neither: "Service
    // Address" beside "Service Method" heads the addresses below.)
    const outside = Labels.find({ rect: b, band: [b.y1, b.y2], kind: "Text", below: false, obstacles: [] }, pieces)
    // Nor is text inside a box apart from this one (the heading bar of the other column: "Part 1.
    // ... (continued) | Reason for Application") a label outside it; a table's cells touch.
    const labelEnd = outside ? b.x1 - outside.distance - 1 : 0
    const labelInBoxApart = outside !== undefined && boxes.some((o) =>
      o !== b && b.x1 - o.x2 > 3 && o.x1 < labelEnd && o.x2 > labelEnd && o.y1 < outside.baseline + 0.3 * outside.size && o.y2 > outside.baseline + 0.3 * outside.size
    )
    // Text that asks or introduces ("... during the tax year? ▶", "Name:") is the cell's own
    // label, however a label outside reads: no value was ever written so.
    const asks = inside.some((p) => /[?:]$/u.test(p.text))
    if (outside?.position === "left" && !context.cells.has(b) && !headsColumn(b, boxes, pieces) && !labelInBoxApart && !asks) {
      out.push({ ...base, rect: inset(b, 1), features: { shadedOnly, valueInside: true } })
    } else if (b.stroked && !hasNeighbourRight(b, boxes) && Math.max(...inside.map((p) => p.size)) < 1.15 * context.fontSize) {
      // Only an outlined box reads as "label, then space": text on a shaded area is its content,
      // and in a table row the space to fill is the next cell, not the rest of the label's; a
      // heading in larger type on its bar ("Part 2. Petition Type") leaves no space to write.
      const textEnd = Math.max(...inside.map((p) => p.x2))
      const rest = { x1: textEnd + 3, y1: b.y1 + 1, x2: b.x2 - 1, y2: b.y2 - 1 }
      if (width(rest) >= 36) out.push({ ...base, rect: rest, features: { shadedOnly } })
    }
  }
  return out
}
