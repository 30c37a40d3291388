/**
 * Check-box candidates from small drawn squares (and circles, drawn as curves). A square touching
 * its neighbours is a comb cell or a character box, not a check box.
 */
import type { Candidate, PageContext } from "../Candidate.ts"
import { height, pieceCentreInside, width } from "../Geometry.ts"
import type { TextPiece } from "../Underscores.ts"
import type { Box, Rect } from "../VectorLines.ts"

/** Check boxes are drawn at 5.5-20 pt: smaller is a bullet, larger a character or photo box. */
const MIN_SIDE = 5.5
const MAX_SIDE = 20
/** A widget smaller than this is hard to click and to see ticked: a small square gets this much room. */
const MIN_WIDGET = 8

/** The square grown, about its centre, to a widget a person can click. */
const clickable = (r: Rect): Rect => {
  const [cx, cy] = [(r.x1 + r.x2) / 2, (r.y1 + r.y2) / 2]
  const [w, h] = [Math.max(width(r), MIN_WIDGET), Math.max(height(r), MIN_WIDGET)]
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 }
}

export const isCheckSquare = (r: Rect): boolean => {
  const [w, h] = [width(r), height(r)]
  return w >= MIN_SIDE && w <= MAX_SIDE && h >= MIN_SIDE && h <= MAX_SIDE && Math.abs(w - h) <= 0.25 * Math.max(w, h)
}

/**
 * A small box up to about twice as tall as wide ("Male [ ]" drawn to the height of a row): too
 * narrow for any text, it is ticked. Wider-than-tall boxes are left to the text sources.
 */
const UPRIGHT_RATIO = 1.9
const MAX_UPRIGHT_HEIGHT = 28
const isUprightBox = (r: Rect): boolean => {
  const [w, h] = [width(r), height(r)]
  return w >= MIN_SIDE && w <= MAX_SIDE && h > w && h <= UPRIGHT_RATIO * w && h <= MAX_UPRIGHT_HEIGHT
}

/**
 * Comb cells and character boxes touch their neighbours; a checkbox stands alone. With
 * `sideBySideOnly`, only a neighbour on the left or right counts: squares stacked in a column
 * ("M" over "F" over "X") are options, as no comb runs down the page.
 */
const touchesAnother = (b: Box, boxes: ReadonlyArray<Box>, sideBySideOnly = false): boolean =>
  boxes.some((o) => {
    // Only a neighbour of about its size makes a row of character boxes; a table cell it sits
    // against does not.
    if (o === b || width(o) > 2 * width(b) || height(o) > 2 * height(b)) return false
    const vertical = Math.min(o.y2, b.y2) - Math.max(o.y1, b.y1) > 0.5 * height(b)
    const horizontal = Math.min(o.x2, b.x2) - Math.max(o.x1, b.x1) > 0.5 * width(b)
    return (
      (vertical && (Math.abs(o.x1 - b.x2) <= 2 || Math.abs(o.x2 - b.x1) <= 2)) ||
      (!sideBySideOnly && horizontal && (Math.abs(o.y1 - b.y2) <= 2 || Math.abs(o.y2 - b.y1) <= 2))
    )
  })

/**
 * Upright boxes side by side with nothing printed between them ("Pounds [ ][ ][ ]") take one
 * digit each; check boxes in a row are kept apart by their captions.
 */
const digitBoxes = (b: Box, boxes: ReadonlyArray<Box>, pieces: ReadonlyArray<TextPiece>): boolean =>
  boxes.some((o) => {
    if (o === b || Math.abs(height(o) - height(b)) > 1.5 || Math.abs(width(o) - width(b)) > 1.5 || Math.abs(o.y1 - b.y1) > 1.5) return false
    const [left, right] = o.x1 < b.x1 ? [o, b] : [b, o]
    const gap = right.x1 - left.x2
    return gap >= 0 && gap <= width(b) && !pieces.some((p) => p.x2 > left.x2 && p.x1 < right.x1 && p.y > b.y1 - 2 && p.y < b.y2)
  })

/**
 * Words inside are a label or a value, so no check box; a lone symbol (a tick or a dot printed in
 * a symbol font) is only the box's mark.
 */
const holdsWords = (r: Rect, pieces: ReadonlyArray<TextPiece>): boolean =>
  pieces.some((p) => pieceCentreInside(p, r) && (p.text.length > 1 || /[\p{L}\p{N}]/u.test(p.text)))

/**
 * A letter or word printed right above a box, centred on it and no wider than a few boxes: the
 * box's own caption ("M  F  X" over three boxes), which makes a row of boxes a row of options.
 */
export const ownCaption = (b: Rect, pieces: ReadonlyArray<TextPiece>): boolean =>
  pieces.some((p) => {
    const cx = (p.x1 + p.x2) / 2
    const gap = p.y - 0.22 * p.size - b.y2
    return cx > b.x1 && cx < b.x2 && p.x2 - p.x1 <= 3 * width(b) && gap >= -1 && gap <= 1.2 * p.size && /[\p{L}\p{N}]/u.test(p.text)
  })

/** Squares of about one size side by side, touching: the run a square belongs to. */
const MAX_RUN = 60

const sideBySide = (a: Box, b: Box): boolean =>
  Math.abs(width(a) - width(b)) <= 0.25 * width(b) && Math.abs(height(a) - height(b)) <= 0.25 * height(b) &&
  Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) > 0.5 * height(b) && (Math.abs(a.x1 - b.x2) <= 2 || Math.abs(a.x2 - b.x1) <= 2)

/**
 * Touching squares are options when each of them has its own caption ("M  F  X" over three
 * boxes); where only some have a word over them (a heading of the line above standing over a few
 * cells of an account number's comb), the run is character cells.
 */
const captionedRow = (b: Box, boxes: ReadonlyArray<Box>, pieces: ReadonlyArray<TextPiece>): boolean => {
  if (!ownCaption(b, pieces)) return false
  const run = new Set<Box>([b])
  const queue = [b]
  while (queue.length > 0 && run.size <= MAX_RUN) {
    const at = queue.pop()!
    for (const o of boxes) {
      if (run.has(o) || !sideBySide(o, at)) continue
      run.add(o)
      queue.push(o)
    }
  }
  return [...run].every((o) => ownCaption(o, pieces))
}

export const candidates = (context: PageContext): Array<Candidate> => {
  if (!context.options.allowCheckboxes) return []
  const { boxes, pieces, input } = context
  const out: Array<Candidate> = []
  for (const b of boxes) {
    if (!(isCheckSquare(b) || isUprightBox(b)) || holdsWords(b, pieces)) continue
    // A small square holding a drawing (not the box's own tick) is an icon, not a box.
    const inked = input.graphics.marks.some((m) => {
      const [cx, cy] = [(m.x1 + m.x2) / 2, (m.y1 + m.y2) / 2]
      return cx > b.x1 && cx < b.x2 && cy > b.y1 && cy < b.y2 && width(m) < 0.5 * width(b)
    })
    if (inked) continue
    if (isCheckSquare(b) ? touchesAnother(b, boxes, true) && !captionedRow(b, boxes, pieces) : touchesAnother(b, boxes) || digitBoxes(b, boxes, pieces)) continue
    const rect = clickable(b)
    out.push({ kind: "CheckBox", source: "checkbox", rect, band: [rect.y1, rect.y2], sized: false, features: {} })
  }
  for (const c of input.graphics.circles ?? []) {
    if (holdsWords(c, pieces)) continue
    const rect = clickable(c)
    out.push({ kind: "CheckBox", source: "checkbox", rect, band: [rect.y1, rect.y2], sized: false, features: { round: true } })
  }
  return out
}
