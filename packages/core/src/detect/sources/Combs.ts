/**
 * Comb candidates: a row of three or more equal, empty, touching cells, one character each (an
 * account number, a date in boxes). The row is one field with one character per cell. The cells
 * are closed boxes, or open ones: a line to write on with short ticks rising from it at even
 * spacing (often alternately taller and shorter, grouping the digits).
 */
import type { Candidate, PageContext } from "../Candidate.ts"
import { height, pieceCentreInside, width } from "../Geometry.ts"
import type { Box, HorizontalSegment, VerticalSegment } from "../VectorLines.ts"
import { ownCaption } from "./CheckSquares.ts"

/** A character cell is narrow: up to about three em of the page's text. */
const maxCellWidth = (fontSize: number) => 3 * fontSize
const MIN_CELL_WIDTH = 4
const MIN_CELLS = 3
/** A tick rises at least this far from its line (points): shorter is the line's own serif or a dot. */
const MIN_TICK = 2.5
/** Taller than this, a divider is a box's wall, not a tick. */
const MAX_TICK = 20
/** Spacings of one comb's ticks differ by at most this share of their median. */
const EVEN = 0.2
/** The field over an open comb is at least this tall: room for a character above short ticks. */
const MIN_OPEN_HEIGHT = 14

/** The ticks rising from `h`, left to right, one per position. */
const ticksOn = (h: HorizontalSegment, verticals: ReadonlyArray<VerticalSegment>): Array<VerticalSegment> => {
  const ticks = verticals
    .filter((v) => Math.abs(v.y1 - h.y) <= 1.5 && v.x >= h.x1 - 1.5 && v.x <= h.x2 + 1.5 && v.y2 - h.y >= MIN_TICK && v.y2 - h.y <= MAX_TICK)
    .sort((a, b) => a.x - b.x)
  return ticks.filter((v, i) => i === 0 || v.x - ticks[i - 1]!.x > 1)
}

const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Open combs: runs of evenly spaced ticks on a line, their cells empty and not already closed boxes. */
const openCombs = (context: PageContext, maxWidth: number): Array<Candidate> => {
  const out: Array<Candidate> = []
  for (const h of context.input.graphics.horizontals) {
    if (h.dashed || h.x2 - h.x1 < MIN_CELLS * MIN_CELL_WIDTH) continue
    const ticks = ticksOn(h, context.input.graphics.verticals)
    const emit = (run: ReadonlyArray<VerticalSegment>) => {
      const cells = run.length - 1
      if (cells < MIN_CELLS) return
      const y1 = h.y + h.thickness / 2
      const tallest = Math.max(...run.map((v) => v.y2)) - y1
      const rect = { x1: run[0]!.x, y1, x2: run[run.length - 1]!.x, y2: y1 + Math.max(MIN_OPEN_HEIGHT, tallest) }
      if (context.pieces.some((p) => pieceCentreInside(p, { ...rect, y2: y1 + tallest }))) return
      // Cells closed on top as well are the box comb's to find.
      const closed = context.boxes.filter((b) => Math.abs(b.y1 - y1) <= 1.5 && b.x1 >= rect.x1 - 1 && b.x2 <= rect.x2 + 1 && width(b) <= maxWidth)
      if (2 * closed.length >= cells) return
      out.push({ kind: "Text", source: "comb", rect, band: [rect.y1, rect.y2], sized: true, features: { combCells: cells } })
    }
    let run: Array<VerticalSegment> = []
    for (const tick of ticks) {
      const previous = run[run.length - 1]
      const step = previous === undefined ? 0 : tick.x - previous.x
      const steps = run.slice(1).map((v, k) => v.x - run[k]!.x)
      const usual = steps.length > 0 ? median(steps) : step
      if (previous !== undefined && (step < MIN_CELL_WIDTH || step > maxWidth || Math.abs(step - usual) > EVEN * usual)) {
        emit(run)
        // An uneven step may still start the next comb from the last tick; a gap does not.
        run = step <= maxWidth ? [previous] : []
      }
      run.push(tick)
    }
    emit(run)
  }
  return out
}

export const candidates = (context: PageContext): Array<Candidate> => [...boxCombs(context), ...openCombs(context, maxCellWidth(context.fontSize))]

const boxCombs = (context: PageContext): Array<Candidate> => {
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
