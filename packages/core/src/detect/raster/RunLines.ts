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
 * box) and is dropped whole.
 */
export const horizontal = (mask: Bitmap, options: LineOptions): Array<PixelLine> => {
  const { width, height, data } = mask
  const out: Array<PixelLine> = []
  let open: Array<Open> = []
  const close = (segment: Open) => {
    const thickness = segment.last - segment.top + 1
    if (thickness <= options.maxThickness) out.push({ x1: segment.x1, x2: segment.x2, y: (segment.top + segment.last + 1) / 2, thickness })
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
      } else next.push({ x1: a, x2: b, top: y, last: y })
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
