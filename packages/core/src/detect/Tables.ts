/**
 * Table structure drawn with lines: a horizontal line with verticals at both ends is a cell
 * border, not a rule to write on; the cells it closes with the next line above are boxes.
 */
import { lowerBound } from "./Geometry.ts"
import type { Box, HorizontalSegment, VerticalSegment } from "./VectorLines.ts"

/** Taller cells are page regions (frames, photo areas), not places to type. */
export const MAX_CELL_HEIGHT = 100
/**
 * How far a wall may stop short of the line it meets (or overshoot it) and still close a cell:
 * producers leave gaps of a couple of points where lines of different widths join.
 */
const JOIN = 1.5
/** Walls shorter than this are ticks (comb dividers, marks), not the sides of an open cell. */
const MIN_OPEN_HEIGHT = 6
/**
 * An open-top cell whose walls rise well past the tallest cell (a column running up the page,
 * not a panel whose top line is missing) is one line on its bottom rule, this high: an amount
 * column's row "7 ........ | ____ |".
 */
const COLUMN_HEIGHT = 1.5 * MAX_CELL_HEIGHT
const OPEN_LINE_HEIGHT = 14
/** Cells narrower than this are dividers of comb boxes or spacing, looked at by the comb source. */
const MIN_CELL_WIDTH = 4

export interface TableStructure {
  readonly cells: ReadonlyArray<Box>
  readonly structural: ReadonlySet<HorizontalSegment>
  /** Open-top cells cut to one line on their rule: a field only where an item leads to them. */
  readonly openLines: ReadonlySet<Box>
}

/**
 * Many tables draw no outer border: their rows are lines with dividers only inside. Where two
 * lines start (or end) together and a divider stands between them, their common end is a wall.
 * Plain stacked lines with no divider stay lines to write on.
 */
const openWalls = (byY: ReadonlyArray<HorizontalSegment>, byX: ReadonlyArray<VerticalSegment>): Array<VerticalSegment> => {
  const walls: Array<VerticalSegment> = []
  const dividerBetween = (h: HorizontalSegment, g: HorizontalSegment) => {
    const [x1, x2] = [Math.max(h.x1, g.x1) + 2.5, Math.min(h.x2, g.x2) - 2.5]
    for (let i = lowerBound(byX, (v) => v.x, x1); i < byX.length && byX[i]!.x <= x2; i++) {
      const v = byX[i]!
      if (v.y1 <= h.y + JOIN && v.y2 >= g.y - JOIN) return true
    }
    return false
  }
  for (let k = 0; k < byY.length; k++) {
    const h = byY[k]!
    const found = { start: false, end: false }
    for (let i = lowerBound(byY, (s) => s.y, h.y + 4); i < byY.length && byY[i]!.y <= h.y + MAX_CELL_HEIGHT; i++) {
      const g = byY[i]!
      const start = !found.start && Math.abs(g.x1 - h.x1) <= 2.5
      const end = !found.end && Math.abs(g.x2 - h.x2) <= 2.5
      if (!start && !end) continue
      if (!dividerBetween(h, g)) continue
      if (start) walls.push({ x: h.x1, y1: h.y, y2: g.y, thickness: 0 })
      if (end) walls.push({ x: h.x2, y1: h.y, y2: g.y, thickness: 0 })
      found.start ||= start
      found.end ||= end
      if (found.start && found.end) break
    }
  }
  return walls
}

/**
 * Whether the open-top cell between columns k and k + 1 ends a row of them at a divider that
 * runs on up the page (the cents after the dollars, against the next column's wall): its other
 * wall is as high as the wall beyond it, the row's height, and the divider rises at least that
 * much again. A comb's ticks beside its taller walls are no such row, nor is a column running up
 * the page.
 */
const endsRow = (columns: ReadonlyArray<VerticalSegment>, k: number, h: HorizontalSegment): boolean => {
  const [a, b] = [columns[k]!, columns[k + 1]!]
  const [shorter, taller, beyond] = a.y2 < b.y2 ? [a, b, columns[k - 1]] : [b, a, columns[k + 2]]
  const row = shorter.y2 - h.y
  return beyond !== undefined && Math.abs(beyond.y2 - shorter.y2) <= JOIN && row <= MAX_CELL_HEIGHT && taller.y2 - h.y >= 2 * row
}

export const analyse = (horizontals: ReadonlyArray<HorizontalSegment>, drawn: ReadonlyArray<VerticalSegment>): TableStructure => {
  const byY = [...horizontals].sort((a, b) => a.y - b.y)
  const drawnByX = [...drawn].sort((a, b) => a.x - b.x)
  const byX = [...drawn, ...openWalls(byY, drawnByX)].sort((a, b) => a.x - b.x)
  const verticalsBetween = (x1: number, x2: number) => byX.slice(lowerBound(byX, (v) => v.x, x1), lowerBound(byX, (v) => v.x, x2 + 1e-9))
  const structural = new Set<HorizontalSegment>()
  const cells: Array<Box> = []
  const openLines = new Set<Box>()
  for (const h of horizontals) {
    const endsAt = (x: number) =>
      verticalsBetween(x - 2.5, x + 2.5).some(
        (v) => v.y1 <= h.y + JOIN && v.y2 >= h.y - JOIN && Math.max(v.y2 - h.y, h.y - v.y1) >= 6
      )
    if (endsAt(h.x1) && endsAt(h.x2)) structural.add(h)
    // Verticals standing on this line: the walls of the cells above it.
    const ups = verticalsBetween(h.x1 - 2.5, h.x2 + 2.5).filter((v) => v.y1 <= h.y + JOIN && v.y2 >= h.y + 4)
    const columns: Array<VerticalSegment> = []
    for (const v of ups) {
      const last = columns[columns.length - 1]
      if (last && v.x - last.x < 2) {
        if (v.y2 > last.y2) columns[columns.length - 1] = v
      } else columns.push(v)
    }
    // A cell runs from one wall to the next wall that reaches the line above; walls ending
    // below it (a short tick, a comb divider) are inside the cell.
    for (let k = 0; k < columns.length - 1; k++) {
      const a = columns[k]!
      const limit = Math.min(a.y2, h.y + MAX_CELL_HEIGHT) + JOIN
      let closed = false
      for (let i = lowerBound(byY, (s) => s.y, h.y + 4); i < byY.length && byY[i]!.y <= limit && !closed; i++) {
        const g = byY[i]!
        if (g.x1 > a.x + 2.5 || g.x2 < a.x + MIN_CELL_WIDTH) continue
        for (let m = k + 1; m < columns.length; m++) {
          const b = columns[m]!
          if (b.x - a.x < MIN_CELL_WIDTH) continue
          if (b.y2 < g.y - JOIN) continue
          if (g.x2 < b.x - 2.5) break
          cells.push({ x1: a.x, y1: h.y, x2: b.x, y2: g.y, stroked: true })
          structural.add(h)
          structural.add(g)
          closed = true
          break
        }
      }
      // An open-top cell: two walls of the same height rising from the line with no line across
      // their tops (amount columns whose row line is a leader that stops short of them).
      const b = columns[k + 1]
      if (!closed && b && b.x - a.x >= MIN_CELL_WIDTH && (Math.abs(b.y2 - a.y2) <= JOIN || endsRow(columns, k, h)) && Math.min(a.y2, b.y2) - h.y >= MIN_OPEN_HEIGHT) {
        const column = Math.min(a.y2, b.y2) - h.y > COLUMN_HEIGHT
        const cell = { x1: a.x, y1: h.y, x2: b.x, y2: column ? h.y + OPEN_LINE_HEIGHT : Math.min(a.y2, b.y2, h.y + MAX_CELL_HEIGHT), stroked: true }
        cells.push(cell)
        if (column) openLines.add(cell)
        structural.add(h)
      }
    }
  }
  return { cells, structural, openLines }
}
