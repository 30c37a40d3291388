/**
 * Names for detected fields: the label a person reads next to a blank, cleaned, and a unique
 * machine name made from it. Labels sit to the left of a blank on the same line in most forms,
 * above it in boxed forms, below it under signature lines, and to the right of a checkbox.
 */
import type { TextPiece } from "./Underscores.ts"
import type { Rect } from "./VectorLines.ts"

/** Where the label was found relative to the field. */
export type LabelPosition = "left" | "above" | "below" | "right"

/** A label for a field: its cleaned text, where it was and how far away. */
export interface Label {
  readonly text: string
  readonly position: LabelPosition
  /** Gap between label and field, in points. */
  readonly distance: number
  /** Font size of the label (to size the field like the text around it). */
  readonly size: number
  /** Baseline of the label's text (to put a field on the label's line). */
  readonly baseline: number
}

/** What to look for: the field's rectangle, the vertical band its same-line labels share. */
export interface LabelQuery {
  readonly rect: Rect
  /** Vertical extent [low, high] that a same-line label overlaps. */
  readonly band: readonly [number, number]
  readonly kind: "Text" | "CheckBox"
  /** Look below too (signature-style lines whose caption is under them). */
  readonly below: boolean
  /**
   * The y of the drawn line a field sits on, if any. Text above and below is compared by its
   * distance from the line: a caption hugs its own line, not the next one's.
   */
  readonly line?: number | undefined
  /** Other fields of the page: a label never belongs to a field behind another field. */
  readonly obstacles: ReadonlyArray<Rect>
}

/** How far to the left a same-line label may be. */
export const MAX_LEFT = 250
/** How far above a label may be. */
export const MAX_ABOVE = 20
const MAX_BELOW = 12
const MAX_RIGHT = 40

const bottom = (p: TextPiece) => p.y - 0.22 * p.size
const top = (p: TextPiece) => p.y + 0.78 * p.size

const sameLine = (p: TextPiece, band: readonly [number, number]): boolean => {
  const overlap = Math.min(top(p), band[1]) - Math.max(bottom(p), band[0])
  return overlap >= 0.5 * Math.min(top(p) - bottom(p), band[1] - band[0])
}

const overlapsY = (r: Rect, lo: number, hi: number) => r.y1 < hi && r.y2 > lo
const overlapsX = (r: Rect, lo: number, hi: number) => r.x1 < hi && r.x2 > lo

/** Joins pieces on one line into a phrase, in reading order. */
const phrase = (pieces: ReadonlyArray<TextPiece>): string =>
  [...pieces]
    .sort((a, b) => a.x1 - b.x1)
    .map((p) => p.text)
    .join(" ")

/**
 * Grows a label from its nearest piece along its line while the gaps stay word-sized, so labels
 * that pdf.js split into several items are read whole.
 */
const extend = (
  seed: TextPiece,
  pieces: ReadonlyArray<TextPiece>,
  direction: "left" | "right",
  blocked: (from: TextPiece, to: TextPiece) => boolean
): Array<TextPiece> => {
  const line = [seed]
  let edge = seed
  for (let guard = 0; guard < 12; guard++) {
    const gap = 1.5 * edge.size
    const next = pieces.find(
      (p) =>
        !line.includes(p) &&
        Math.abs(p.y - edge.y) <= 0.3 * edge.size &&
        (direction === "left" ? edge.x1 - p.x2 >= -1 && edge.x1 - p.x2 <= gap : p.x1 - edge.x2 >= -1 && p.x1 - edge.x2 <= gap) &&
        !blocked(p, edge)
    )
    if (!next) break
    line.push(next)
    edge = next
  }
  return line
}

/** Whether a piece holds a letter or digit: asked for every field of its page, so kept. */
const wordy = new WeakMap<TextPiece, boolean>()
const hasWord = (p: TextPiece): boolean => {
  let answer = wordy.get(p)
  if (answer === undefined) {
    answer = /[\p{L}\p{N}]/u.test(p.text)
    wordy.set(p, answer)
  }
  return answer
}

/** Grid cells of `insideAny`, in points; a rectangle spanning more cells than the limit is asked of every point. */
const CELL = 64
const MAX_CELLS = 1_024

/**
 * Whether a point lies strictly inside any of `rects`. The rectangles are bucketed by the grid
 * cells they cover, so a point is compared with the few around it rather than all of them: the
 * label of every field of a page is sought among every other field, and comparing each text
 * piece with each field there made naming a page cubic in its size.
 */
const insideAny = (rects: ReadonlyArray<Rect>): ((x: number, y: number) => boolean) => {
  const cells = new Map<string, Array<Rect>>()
  const everywhere: Array<Rect> = []
  for (const r of rects) {
    // Nothing is strictly inside an empty (or NaN) rectangle.
    if (!(r.x2 > r.x1 && r.y2 > r.y1)) continue
    const [i1, i2, j1, j2] = [Math.floor(r.x1 / CELL), Math.floor(r.x2 / CELL), Math.floor(r.y1 / CELL), Math.floor(r.y2 / CELL)]
    if (!((i2 - i1 + 1) * (j2 - j1 + 1) <= MAX_CELLS)) {
      everywhere.push(r)
      continue
    }
    for (let i = i1; i <= i2; i++) {
      for (let j = j1; j <= j2; j++) {
        const key = `${i}:${j}`
        const bucket = cells.get(key)
        if (bucket) bucket.push(r)
        else cells.set(key, [r])
      }
    }
  }
  const contains = (x: number, y: number) => (o: Rect) => x > o.x1 && x < o.x2 && y > o.y1 && y < o.y2
  return (x, y) =>
    everywhere.some(contains(x, y)) || (cells.get(`${Math.floor(x / CELL)}:${Math.floor(y / CELL)}`)?.some(contains(x, y)) ?? false)
}

/** Finds the label of one field among the page's text pieces. */
export const find = (query: LabelQuery, pieces: ReadonlyArray<TextPiece>): Label | undefined => {
  const { rect, band, obstacles } = query
  // Text inside another field is that field's value, never a label; nor is bare punctuation.
  const covered = insideAny(obstacles)
  const usable = pieces.filter((p) => hasWord(p) && !covered((p.x1 + p.x2) / 2, (bottom(p) + top(p)) / 2))
  const between = (x1: number, x2: number) =>
    obstacles.some((o) => overlapsY(o, band[0], band[1]) && o.x1 >= x1 - 1 && o.x2 <= x2 + 1)
  const make = (line: ReadonlyArray<TextPiece>, position: LabelPosition, distance: number): Label | undefined => {
    const text = clean(phrase(line))
    return text === "" ? undefined : { text, position, distance, size: Math.max(...line.map((p) => p.size)), baseline: line[0]!.y }
  }

  const leftOf = (maxGap: number): Label | undefined => {
    const candidates = usable.filter(
      (p) => sameLine(p, band) && p.x2 <= rect.x1 + 2 && rect.x1 - p.x2 <= maxGap && !between(p.x2, rect.x1)
    )
    const nearest = candidates.sort((a, b) => b.x2 - a.x2)[0]
    if (!nearest) return undefined
    const line = extend(nearest, usable, "left", (p, edge) => between(p.x2, edge.x1))
    return make(line, "left", Math.max(0, rect.x1 - nearest.x2))
  }

  const rightOf = (): Label | undefined => {
    const candidates = usable.filter(
      (p) => sameLine(p, band) && p.x1 >= rect.x2 - 1 && p.x1 - rect.x2 <= MAX_RIGHT && !between(rect.x2, p.x1)
    )
    const nearest = candidates.sort((a, b) => a.x1 - b.x1)[0]
    if (!nearest) return undefined
    // "Yes [ ] No [ ]": text closer to the next box than to this one is the next box's label.
    const gap = nearest.x1 - rect.x2
    const claimedByNext = obstacles.some((o) => overlapsY(o, band[0], band[1]) && o.x1 >= nearest.x2 - 1 && o.x1 - nearest.x2 < gap)
    if (claimedByNext) return undefined
    const line = extend(nearest, usable, "right", (p, edge) => between(edge.x2, p.x1))
    return make(line, "right", gap)
  }

  const vertical = (position: "above" | "below"): { label: Label; lineGap: number } | undefined => {
    const gapOf = (p: TextPiece) => (position === "above" ? bottom(p) - rect.y2 : rect.y1 - top(p))
    const max = position === "above" ? MAX_ABOVE : MAX_BELOW
    const candidates = usable.filter((p) => {
      const gap = gapOf(p)
      if (gap < -1.5 || gap > max) return false
      const horizontally = position === "above" ? overlapsX(rect, p.x1, p.x2) && p.x1 >= rect.x1 - 30 : p.x1 >= rect.x1 - 10 && p.x1 <= rect.x2 - 10
      if (!horizontally) return false
      const [lo, hi] = position === "above" ? [rect.y2, bottom(p)] : [top(p), rect.y1]
      return !obstacles.some((o) => o.y1 >= lo - 1 && o.y2 <= hi + 1 && overlapsX(o, p.x1, p.x2))
    })
    const nearest = candidates.sort((a, b) => gapOf(a) - gapOf(b) || a.x1 - b.x1)[0]
    if (!nearest) return undefined
    const line = [...extend(nearest, usable, "left", () => false), ...extend(nearest, usable, "right", () => false).slice(1)]
    const label = make(line, position, Math.max(0, gapOf(nearest)))
    const lineGap = position === "above" ? bottom(nearest) - (query.line ?? rect.y2) : (query.line ?? rect.y1) - top(nearest)
    return label && { label, lineGap }
  }

  if (query.kind === "CheckBox") return rightOf() ?? leftOf(MAX_RIGHT)
  const left = leftOf(MAX_LEFT)
  if (left) return left
  const above = vertical("above")
  const below = query.below ? vertical("below") : undefined
  if (above && below) return below.lineGap < above.lineGap ? below.label : above.label
  return (above ?? below)?.label
}

const MAX_LABEL = 60

/** A label as people would name the field: no numbering, no trailing colon or blanks. */
export const clean = (text: string): string => {
  let s = text
    .replace(/\s+/g, " ")
    .replace(/_{2,}/g, " ")
    .trim()
    .replace(/^\(?\d{1,3}[a-z]?[.)]\s+/i, "")
    .replace(/\[\s*\]/g, " ")
    .replace(/\s+/g, " ")
    .replace(/^[\s:*•·–—,;.\uff1a\uff1b-]+/, "")
    .replace(/[\s:*_.…,;–—\uff1a\uff1b-]+$/, "")
    .trim()
  if (s.length > MAX_LABEL) {
    const cut = s.lastIndexOf(" ", MAX_LABEL)
    s = s.slice(0, cut > 20 ? cut : MAX_LABEL).replace(/[\s:,;–—-]+$/, "")
  }
  return s
}

/** A machine name from a label: lower case words joined by `_` (letters of any script kept). */
export const machineName = (label: string): string => {
  const base = label
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "")
  const short = base.length > 48 ? base.slice(0, 48).replace(/_[^_]*$/, "") || base.slice(0, 48) : base
  return short === "" ? "field" : short
}

/** `base`, or `base_2`, `base_3`... whichever `used` does not hold yet; records the result. */
export const uniqueName = (base: string, used: Set<string>): string => {
  let name = base
  for (let k = 2; used.has(name); k++) name = `${base}_${k}`
  used.add(name)
  return name
}
