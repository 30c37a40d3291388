/**
 * Comb candidates: a row of three or more equal, empty, touching cells, one character each (an
 * account number, a date in boxes). The row is one field with one character per cell.
 */
import type { Candidate, PageContext } from "../Candidate.ts"
import { height, pieceCentreInside, width } from "../Geometry.ts"
import type { Box } from "../VectorLines.ts"
import { ownCaption } from "./CheckSquares.ts"

/** A character cell is narrow: up to about three em of the page's text. */
const maxCellWidth = (fontSize: number) => 3 * fontSize
const MIN_CELL_WIDTH = 4
const MIN_CELLS = 3


export const candidates = (context: PageContext): Array<Candidate> => {
  const maxWidth = maxCellWidth(context.fontSize)
  const cells = context.boxes.filter((b) => {
    const [w, h] = [width(b), height(b)]
    return w >= MIN_CELL_WIDTH && w <= maxWidth && h >= 6 && h <= 40 && !context.pieces.some((p) => pieceCentreInside(p, b))
  })
  // Rows: cells sharing top and bottom (within a point), left to right.
  const rows = new Map<string, Array<Box>>()
  for (const c of cells) {
    const key = `${Math.round(c.y1)}:${Math.round(c.y2)}`
    const row = rows.get(key)
    if (row) row.push(c)
    else rows.set(key, [c])
  }
  const out: Array<Candidate> = []
  for (const row of rows.values()) {
    if (row.length < MIN_CELLS) continue
    row.sort((a, b) => a.x1 - b.x1)
    let run: Array<Box> = [row[0]!]
    const flush = () => {
      // Cells each captioned on their own ("M F X") are options to tick, not characters.
      const options = run.every((c) => ownCaption(c, context.pieces))
      if (run.length >= MIN_CELLS && !options) {
        const first = run[0]!
        const last = run[run.length - 1]!
        const rect = { x1: first.x1, y1: Math.min(...run.map((c) => c.y1)), x2: last.x2, y2: Math.max(...run.map((c) => c.y2)) }
        out.push({
          kind: "Text",
          source: "comb",
          rect,
          band: [rect.y1, rect.y2],
          sized: false,
          features: { combCells: run.length }
        })
      }
    }
    for (const c of row.slice(1)) {
      const prev = run[run.length - 1]!
      // Touching (shared wall) and of about the same width: the next character of the comb.
      const touching = c.x1 - prev.x2 <= 2 && c.x1 - prev.x2 >= -2
      const alike = Math.abs(width(c) - width(prev)) <= 0.2 * Math.max(width(c), width(prev))
      if (touching && alike) run.push(c)
      else {
        flush()
        run = [c]
      }
    }
    flush()
  }
  return out
}
