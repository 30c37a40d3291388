/**
 * Rectangle arithmetic shared by the candidate sources, the scorer and the pipeline. Everything
 * is in PDF user space (points, y up).
 */
import type { TextPiece } from "./Underscores.ts"
import type { Rect } from "./VectorLines.ts"

export const width = (r: Rect) => r.x2 - r.x1
export const height = (r: Rect) => r.y2 - r.y1
export const area = (r: Rect) => Math.max(0, width(r)) * Math.max(0, height(r))
export const intersection = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1)) * Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1))
/** Shared area over the smaller rectangle's area: 1 when one holds the other. */
export const overlapRatio = (a: Rect, b: Rect) => intersection(a, b) / Math.max(1e-6, Math.min(area(a), area(b)))
export const inset = (r: Rect, by: number): Rect => ({ x1: r.x1 + by, y1: r.y1 + by, x2: r.x2 - by, y2: r.y2 - by })
export const centreInside = (x: number, y: number, r: Rect) => x > r.x1 && x < r.x2 && y > r.y1 && y < r.y2

/** A text piece's ink reaches about a fifth of an em under the baseline and four fifths above. */
export const pieceBottom = (p: TextPiece) => p.y - 0.22 * p.size
export const pieceTop = (p: TextPiece) => p.y + 0.78 * p.size
export const pieceCentreInside = (p: TextPiece, r: Rect) => centreInside((p.x1 + p.x2) / 2, (pieceBottom(p) + pieceTop(p)) / 2, r)

/** Sorted-array range lookup, so pairwise questions stay n log n on busy pages. */
export const lowerBound = <A>(items: ReadonlyArray<A>, key: (a: A) => number, value: number): number => {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (key(items[mid]!) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
