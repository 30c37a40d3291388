/**
 * Straight lines in an ink mask, found from run lengths: a rule is a long run of ink in a row,
 * repeated in the few rows its thickness covers. One pass over the pixels per direction; the
 * vertical pass scans the transposed mask with the same code.
 */
import { type Bitmap, transpose } from "./Bitmap.ts"

/** A horizontal line in pixel space: columns [x1, x2), centre row `y`, `thickness` rows. */
export interface PixelLine {
  readonly x1: number
  readonly x2: number
  readonly y: number
  readonly thickness: number
}

export interface LineOptions {
  /** Shortest run, in pixels, that counts as a line. */
  readonly minLength: number
  /** Thicker than this (pixels) is a filled area, not a line. */
  readonly maxThickness: number
  /** Paper gaps up to this many pixels inside a run are bridged (broken scan lines, anti-aliasing). */
  readonly maxGap: number
}

interface Open {
  x1: number
  x2: number
  top: number
  last: number
  /** Every run of the stack, by row: a stack too thick may still hold a line (see `wallOf`). */
  runs: Array<readonly [row: number, a: number, b: number]>
}

/** Rows whose run spans this share of a stack's length are its full rows. */
const FULL = 0.9
/** What else a stack may hold beside its full rows, as a share of its length, and still be a line. */
const MAX_BESIDE = 0.25

/**
 * The line in a stack too thick to be one: its full rows, when they are consecutive and thin
 * enough, and the rest of the stack lies along a small part of its length. That is a table's wall
 * with small shapes touching it (black label boxes, a letter), which would otherwise be dropped
 * with them; a filled area cut by white letters has short runs all along it, and stays dropped.
 */
const wallOf = (segment: Open, maxThickness: number): PixelLine | undefined => {
  const length = segment.x2 - segment.x1
  const full = segment.runs.filter(([, a, b]) => b - a >= FULL * length)
  if (full.length === 0 || full.length > maxThickness) return undefined
  const [top, last] = [full[0]![0], full[full.length - 1]![0]]
  if (last - top + 1 !== full.length) return undefined
  const beside = segment.runs.filter(([row]) => row < top || row > last).map(([, a, b]) => [a, b] as const).sort((p, q) => p[0] - q[0])
  let covered = 0
  let cursor = -Infinity
  for (const [a, b] of beside) {
    if (b <= cursor) continue
    covered += b - Math.max(a, cursor)
    cursor = b
  }
  if (covered > MAX_BESIDE * length) return undefined
  return { x1: segment.x1, x2: segment.x2, y: (top + last + 1) / 2, thickness: full.length }
}

/** Runs of ink of at least `minLength` in one row, bridging gaps up to `maxGap`. */
const rowRuns = (data: Uint8Array, offset: number, width: number, options: LineOptions): Array<readonly [number, number]> => {
  const runs: Array<readonly [number, number]> = []
  let start = -1
  let end = -1
  for (let x = 0; x < width; x++) {
    if (data[offset + x] === 0) continue
    if (start >= 0 && x - end <= options.maxGap + 1) end = x
    else {
      if (start >= 0 && end + 1 - start >= options.minLength) runs.push([start, end + 1])
      start = x
      end = x
    }
  }
  if (start >= 0 && end + 1 - start >= options.minLength) runs.push([start, end + 1])
  return runs
}

/**
 * Horizontal lines of `mask`. Runs of consecutive rows that overlap along most of the shorter
 * one are one line; a stack taller than `maxThickness` is a filled area (a black bar, a solid
 * box) and is dropped whole, unless it is a line with small shapes touching it (`wallOf`).
 */
export const horizontal = (mask: Bitmap, options: LineOptions): Array<PixelLine> => {
  const { width, height, data } = mask
  const out: Array<PixelLine> = []
  let open: Array<Open> = []
  const close = (segment: Open) => {
    const thickness = segment.last - segment.top + 1
    if (thickness <= options.maxThickness) out.push({ x1: segment.x1, x2: segment.x2, y: (segment.top + segment.last + 1) / 2, thickness })
    else {
      const wall = wallOf(segment, options.maxThickness)
      if (wall) out.push(wall)
    }
  }
  for (let y = 0; y < height; y++) {
    const runs = rowRuns(data, y * width, width, options)
    const next: Array<Open> = []
    for (const [a, b] of runs) {
      const match = open.find((s) => s.last === y - 1 && Math.min(s.x2, b) - Math.max(s.x1, a) >= 0.5 * Math.min(s.x2 - s.x1, b - a))
      if (match) {
        match.x1 = Math.min(match.x1, a)
        match.x2 = Math.max(match.x2, b)
        match.last = y
        match.runs.push([y, a, b])
      } else next.push({ x1: a, x2: b, top: y, last: y, runs: [[y, a, b]] })
    }
    const still: Array<Open> = []
    for (const s of open) {
      if (s.last === y) still.push(s)
      else close(s)
    }
    open = [...still, ...next]
  }
  for (const s of open) close(s)
  return out
}

/** Vertical lines of `mask`, as `PixelLine`s in the transposed frame: `x1..x2` are rows, `y` the column. */
export const vertical = (mask: Bitmap, options: LineOptions): Array<PixelLine> => horizontal(transpose(mask), options)
