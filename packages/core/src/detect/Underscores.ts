/**
 * Splits page text into label text and underscore runs ("Name: ________"), the typewriter way of
 * drawing a blank to write on. pdf.js gives a run's total width but not each glyph's, so the
 * x-extent of each part is estimated from standard Helvetica glyph widths scaled to the run's
 * real width: exact for Helvetica/Arial, within a few points for other text faces.
 */
import type { TextRun } from "../pdf/PageText.ts"
import type { HorizontalSegment, VerticalSegment } from "./VectorLines.ts"

/** A piece of text without underscores, on one baseline: a label candidate. */
export interface TextPiece {
  readonly text: string
  readonly x1: number
  readonly x2: number
  /** Baseline. */
  readonly y: number
  /** Font size. */
  readonly size: number
}

/** Three or more consecutive underscores (merged with adjacent runs of them on the baseline). */
export interface UnderscoreRun {
  readonly x1: number
  readonly x2: number
  /** Baseline of the text the underscores belong to. */
  readonly y: number
  readonly size: number
  /** A run of dots ("Name ..........."): a blank too, unless it leads to text (a contents line). */
  readonly dotted?: boolean
}

/** A check-box glyph printed in the text: "☐", "□", "[ ]" (square) or "○", "( )" (round). */
export interface BoxGlyph {
  readonly x1: number
  readonly x2: number
  /** Baseline. */
  readonly y: number
  readonly size: number
  readonly round: boolean
}

/** Helvetica advance widths (1/1000 em) for printable ASCII 32..126. */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556,
  278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
  611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833,
  556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584
]

/** Helvetica widths of the punctuation past ASCII that forms print most: blanks of ellipses, dashes, quotes. */
const HELVETICA_PUNCTUATION: Readonly<Record<string, number>> = {
  "\u2026": 1000,
  "\u2013": 556,
  "\u2014": 1000,
  "\u2018": 222,
  "\u2019": 222,
  "\u201c": 333,
  "\u201d": 333,
  "\u2022": 350,
  "\u00b7": 278
}

const glyphWidth = (ch: string): number => {
  const code = ch.codePointAt(0) ?? 0
  return code >= 32 && code <= 126 ? HELVETICA[code - 32]! : HELVETICA_PUNCTUATION[ch] ?? 556
}

/**
 * Underscore runs (and dots: six periods or more, or three dots or more with an ellipsis among
 * them, "……….……"), square box glyphs (and bracket pairs) and round ones (and parenthesis pairs).
 */
const BLANKS = /(_{3,}|\.{6,}|(?=[.\u2026]{3})[.\u2026]*\u2026[.\u2026]*)|([\u2610\u25a1\u274f\u2751\u25a2\u2b1c]|\[ {1,3}\])|([\u25cb\u25ef]|\( {1,3}\))/gu

/** Text and underscore parts of every run, with estimated horizontal extents. */
export const split = (
  runs: ReadonlyArray<TextRun>
): { pieces: Array<TextPiece>; underscores: Array<UnderscoreRun>; glyphs: Array<BoxGlyph> } => {
  const pieces: Array<TextPiece> = []
  const underscores: Array<UnderscoreRun> = []
  const glyphs: Array<BoxGlyph> = []
  for (const run of runs) {
    const chars = Array.from(run.text)
    const offsets = [0]
    for (const ch of chars) offsets.push(offsets[offsets.length - 1]! + glyphWidth(ch))
    const total = offsets[offsets.length - 1]!
    const scale = total > 0 && run.width > 0 ? run.width / total : 0
    // Offsets are in code points; the regex works on UTF-16 indices, so map through `chars`.
    const joined = chars.join("")
    const indexOf = (utf16: number) => Array.from(joined.slice(0, utf16)).length
    const xAt = (index: number) => run.x + offsets[index]! * scale
    const pushText = (from: number, to: number) => {
      const text = chars.slice(from, to).join("")
      const leading = text.length - text.trimStart().length
      const trimmed = text.trim()
      if (trimmed === "") return
      const start = from + Array.from(text.slice(0, leading)).length
      const end = start + Array.from(trimmed).length
      pieces.push({ text: trimmed, x1: xAt(start), x2: xAt(end), y: run.y, size: run.height })
    }
    let cursor = 0
    for (const match of joined.matchAll(BLANKS)) {
      const start = indexOf(match.index)
      const end = start + Array.from(match[0]).length
      pushText(cursor, start)
      if (match[1] !== undefined) {
        underscores.push({ x1: xAt(start), x2: xAt(end), y: run.y, size: run.height, ...(match[1].startsWith("_") ? {} : { dotted: true }) })
      }
      else glyphs.push({ x1: xAt(start), x2: xAt(end), y: run.y, size: run.height, round: match[3] !== undefined })
      cursor = end
    }
    pushText(cursor, chars.length)
  }
  return { pieces, underscores: mergeRuns(underscores), glyphs }
}

/** pdf.js may cut a long underscore line into several items; a person sees one blank. */
const mergeRuns = (runs: ReadonlyArray<UnderscoreRun>): Array<UnderscoreRun> => {
  const sorted = [...runs].sort((a, b) => a.y - b.y || a.x1 - b.x1)
  const merged: Array<UnderscoreRun> = []
  for (const run of sorted) {
    const last = merged[merged.length - 1]
    if (last && Math.abs(last.y - run.y) < 0.5 && run.x1 - last.x2 <= Math.max(1, run.size * 0.35)) {
      const dotted = last.dotted === true && run.dotted === true
      merged[merged.length - 1] = { x1: last.x1, x2: Math.max(last.x2, run.x2), y: last.y, size: Math.max(last.size, run.size), ...(dotted ? { dotted } : {}) }
    } else {
      merged.push(run)
    }
  }
  return merged
}

/**
 * Periods stacked in a column, a few points apart ("." over "." over "."): a dotted rule set in
 * type, as older tax forms divide the cells of an identifying number. Each column of three or more
 * becomes a vertical segment, reaching to the rules just above and below it (within a pitch and
 * a dot's height) so that it walls a cell; its periods are no text. Everything else is returned
 * as it was.
 */
export const dottedColumns = (
  runs: ReadonlyArray<TextRun>,
  horizontals: ReadonlyArray<HorizontalSegment>
): { readonly verticals: Array<VerticalSegment>; readonly rest: ReadonlyArray<TextRun> } => {
  const dots = runs.filter((r) => r.text.trim() === "." && !r.turned)
  if (dots.length < 3) return { verticals: [], rest: runs }
  const byColumn = new Map<number, Array<TextRun>>()
  for (const d of dots) {
    const key = Math.round((d.x + d.width / 2) * 2)
    const column = byColumn.get(key)
    if (column) column.push(d)
    else byColumn.set(key, [d])
  }
  const verticals: Array<VerticalSegment> = []
  const used = new Set<TextRun>()
  for (const column of byColumn.values()) {
    column.sort((a, b) => a.y - b.y)
    let start = 0
    for (let k = 1; k <= column.length; k++) {
      const pitch = k < column.length ? column[k]!.y - column[k - 1]!.y : Infinity
      // A run of periods goes on while each is under half its type size above the last.
      if (pitch > 0 && pitch <= 0.5 * column[k - 1]!.height) continue
      const stack = column.slice(start, k)
      start = k
      if (stack.length < 3) continue
      const first = stack[0]!
      const last = stack[stack.length - 1]!
      const x = first.x + first.width / 2
      const reach = (last.y - first.y) / (stack.length - 1) + 0.3 * first.height
      const across = horizontals.filter((h) => h.x1 <= x && h.x2 >= x)
      const below = across.filter((h) => h.y <= first.y && h.y >= first.y - reach).sort((a, b) => b.y - a.y)[0]
      const above = across.filter((h) => h.y >= last.y && h.y <= last.y + reach + 0.3 * last.height).sort((a, b) => a.y - b.y)[0]
      verticals.push({ x, y1: below?.y ?? first.y, y2: above?.y ?? last.y + 0.3 * last.height, thickness: 0.5, dashed: true })
      for (const d of stack) used.add(d)
    }
  }
  return { verticals, rest: used.size === 0 ? runs : runs.filter((r) => !used.has(r)) }
}
