/**
 * Page text as a reader sees it: pdf.js hands out runs of any size (a whole line, a word, one
 * glyph, a small-caps "N" then "AME"), so runs on one baseline are joined into words and words
 * into phrases, and a phrase ends where a gap wider than a word space, a blank to write on
 * (`_____`, `.....`) or a printed box (`☐`, `[ ]`) separates two labels.
 */
import { alongThePage, type TextRun } from "../pdf/PageText.ts"

/** An axis-aligned rectangle in PDF user space (origin bottom-left), `x1 < x2`, `y1 < y2`. */
export interface Rect {
  readonly x1: number
  readonly y1: number
  readonly x2: number
  readonly y2: number
}

/** Text on one baseline with no wide gap inside: a label, a heading, a caption or a sentence. */
export interface Phrase extends Rect {
  readonly text: string
  /** Baseline. */
  readonly y: number
  /** Font size. */
  readonly size: number
  /** Position in reading order (top to bottom, left to right); phrases of a line are consecutive. */
  readonly index: number
  /** The line (0 at the top) the phrase is on. */
  readonly line: number
  /** Set when all of the phrase is set in a bold face. */
  readonly bold?: true
}

/** A rectangle from `[x1, y1, x2, y2]` in any corner order. */
export const rectOf = (box: ReadonlyArray<number>): Rect => {
  const [a = 0, b = 0, c = 0, d = 0] = box
  return { x1: Math.min(a, c), y1: Math.min(b, d), x2: Math.max(a, c), y2: Math.max(b, d) }
}

/** Share of the font size below the baseline and above it that glyphs usually cover. */
const DESCENT = 0.22
const ASCENT = 0.78

// Blanks and boxes printed between labels: they end a phrase and are never part of one.
const SEPARATOR = /_{3,}|\.{4,}|…{2,}|(?:\. ){3,}|[☐☑☒□■▢▣◻◼❏❐❑❒○●◯]|\[\s*\]/gu

interface Piece {
  readonly text: string
  readonly x1: number
  readonly x2: number
  readonly y: number
  readonly size: number
  /** The run began or ended with white space: the next piece starts a new word. */
  readonly spaceBefore: boolean
  readonly spaceAfter: boolean
  readonly bold: boolean
}

// Helvetica's advance widths in thousandths of an em, by group; most form fonts are near them.
const NARROW_WIDTHS: ReadonlyArray<readonly [string, number]> = [
  ["'", 191],
  ["ijl", 222],
  [" .,:;!/\\|ftI", 278],
  ["r()[]{}-\"`*", 333],
  ["ckvxyzsJ", 500],
  ["+<=>~", 584],
  ["FTZ", 611],
  ["ABEKPSVXY&", 667],
  ["CDHNRUw", 722],
  ["GOQ", 778],
  ["Mm", 833],
  ["%", 889],
  ["W", 944],
  ["…—@", 1000]
]
const WIDTHS = new Map(NARROW_WIDTHS.flatMap(([chars, width]) => Array.from(chars, (c) => [c, width] as const)))
/** Hangul, CJK and full-width forms: an em each. */
const wide = (code: number) =>
  (code >= 0x1100 && code <= 0x11ff) || (code >= 0x2e80 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7af) ||
  (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xffef)

/** About how wide a character is, in thousandths of an em. */
const widthOf = (c: string): number => {
  const known = WIDTHS.get(c)
  if (known !== undefined) return known
  const code = c.codePointAt(0)!
  if (code >= 0x61 && code <= 0x7a) return 556
  if (code >= 0x41 && code <= 0x5a) return 667
  return wide(code) ? 1000 : c !== c.toLowerCase() ? 667 : 556
}

/**
 * The parts of a run between separators. pdf.js measures a run's ends only, so the ends of a
 * part inside it are estimated from the widths its characters usually have: by count alone, a
 * line of dot leaders ("D./Dña ……… con número de") would shift every word after them.
 */
const piecesOf = (run: TextRun): ReadonlyArray<Piece> => {
  const size = run.height > 0 ? run.height : 10
  const chars = Array.from(run.text)
  if (chars.length === 0) return []
  // Where each character starts, as a share of the run; the run's own width scales them.
  const starts = [0]
  for (const c of chars) starts.push(starts[starts.length - 1]! + widthOf(c))
  const total = starts[chars.length]!
  const span = run.width > 0 ? run.width : (size * 0.5 * total) / 556
  const at = (index: number) => run.x + (span * starts[index]!) / total
  const pieces: Array<Piece> = []
  const push = (from: number, to: number) => {
    const part = chars.slice(from, to).join("")
    const trimmedStart = part.length - part.trimStart().length
    const trimmedEnd = part.length - part.trimEnd().length
    const text = part.trim()
    if (text === "") return
    const start = from + Array.from(part.slice(0, trimmedStart)).length
    const end = to - Array.from(part.slice(part.length - trimmedEnd)).length
    pieces.push({
      text,
      x1: at(start),
      x2: at(end),
      y: run.y,
      size,
      spaceBefore: trimmedStart > 0 || from > 0,
      spaceAfter: trimmedEnd > 0 || to < chars.length,
      bold: run.bold === true
    })
  }
  const joined = chars.join("")
  const indexOf = (utf16: number) => Array.from(joined.slice(0, utf16)).length
  let from = 0
  for (const match of joined.matchAll(SEPARATOR)) {
    const start = indexOf(match.index)
    push(from, start)
    from = indexOf(match.index + match[0].length)
  }
  push(from, chars.length)
  // A run that pdf.js measured precisely keeps its exact ends when nothing was cut out of it.
  if (pieces.length === 1 && from === 0) {
    const only = pieces[0]!
    if (only.text.length === chars.length) return [{ ...only, x1: run.x, x2: run.x + run.width }]
  }
  return pieces
}

/** Gap above which two pieces of a line belong to different phrases, as a share of the font size. */
const PHRASE_GAP = 1.1
/** Gap below which two pieces are one word (no space between them). */
const LETTER_GAP = 0.12

/**
 * The phrases of a page in reading order. Runs whose baselines differ by less than a third of
 * their size share a line; pieces of a line closer than about a word space join into a phrase.
 * Text turned across the page is left out (`alongThePage`).
 */
export const phrases = (runs: ReadonlyArray<TextRun>): ReadonlyArray<Phrase> => {
  const pieces = alongThePage(runs).flatMap(piecesOf).filter((p) => Number.isFinite(p.x1) && Number.isFinite(p.y))
  pieces.sort((p, q) => q.y - p.y || p.x1 - q.x1)
  const lines: Array<{ y: number; size: number; pieces: Array<Piece> }> = []
  for (const piece of pieces) {
    // Sorted by baseline, so only the last lines can take this piece.
    let home: (typeof lines)[number] | undefined
    for (let i = lines.length - 1; i >= 0 && i >= lines.length - 3; i--) {
      const line = lines[i]!
      if (Math.abs(line.y - piece.y) <= Math.max(1, 0.3 * Math.min(line.size, piece.size))) {
        home = line
        break
      }
    }
    if (home) {
      home.pieces.push(piece)
      home.size = Math.max(home.size, piece.size)
    } else lines.push({ y: piece.y, size: piece.size, pieces: [piece] })
  }
  const out: Array<Phrase> = []
  lines.forEach((line, lineIndex) => {
    const sorted = line.pieces.sort((p, q) => p.x1 - q.x1)
    let current: { texts: Array<string>; x1: number; x2: number; y: number; size: number; last: Piece; bold: boolean } | undefined
    const flush = () => {
      if (!current) return
      // Right-to-left words read from the right: their pieces join in the other order.
      const parts = rightToLeft(current.texts.join("")) ? [...current.texts].map((t) => t.trim()).reverse().join(" ") : current.texts.join("")
      const text = parts.replace(/\s+/g, " ").trim()
      if (text !== "") {
        out.push({
          text,
          x1: current.x1,
          x2: current.x2,
          y: current.y,
          y1: current.y - DESCENT * current.size,
          y2: current.y + ASCENT * current.size,
          size: current.size,
          index: out.length,
          line: lineIndex,
          ...(current.bold ? { bold: true as const } : {})
        })
      }
      current = undefined
    }
    for (const piece of sorted) {
      if (current) {
        const size = Math.min(current.size, piece.size)
        const gap = piece.x1 - current.x2
        if (gap > PHRASE_GAP * size) flush()
        else if (piece.x2 <= current.x2 && piece.text === current.last.text) continue // fake bold: the same text drawn twice
        else {
          const glued = gap < LETTER_GAP * size && !current.last.spaceAfter && !piece.spaceBefore
          current.texts.push(glued ? piece.text : ` ${piece.text}`)
          current.x2 = Math.max(current.x2, piece.x2)
          current.size = Math.max(current.size, piece.size)
          current.last = piece
          current.bold &&= piece.bold
          continue
        }
      }
      current = { texts: [piece.text], x1: piece.x1, x2: piece.x2, y: piece.y, size: piece.size, last: piece, bold: piece.bold }
    }
    flush()
  })
  return out
}

const rightToLeft = (text: string): boolean => {
  const rtl = text.match(/[\p{Script=Arabic}\p{Script=Hebrew}]/gu)?.length ?? 0
  return rtl > 0 && rtl >= 0.5 * (text.match(/\p{L}/gu)?.length ?? 0)
}

/** Horizontal overlap of two extents, in points (negative when apart). */
export const overlapX = (a: { x1: number; x2: number }, b: { x1: number; x2: number }): number => Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1)

/** Vertical overlap of two extents, in points (negative when apart). */
export const overlapY = (a: { y1: number; y2: number }, b: { y1: number; y2: number }): number => Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1)

/** Whether the centre of `inner` lies inside `outer`. */
export const centreInside = (inner: Rect, outer: Rect): boolean => {
  const cx = (inner.x1 + inner.x2) / 2
  const cy = (inner.y1 + inner.y2) / 2
  return cx > outer.x1 && cx < outer.x2 && cy > outer.y1 && cy < outer.y2
}

/**
 * The rectangle a page's phrases cover (a loop: a page may hold more phrases than a call takes
 * arguments); empty (`Infinity` to `-Infinity`) when there are none.
 */
export const extentOf = (phrases: ReadonlyArray<Rect>): Rect => {
  let x1 = Infinity
  let y1 = Infinity
  let x2 = -Infinity
  let y2 = -Infinity
  for (const p of phrases) {
    x1 = Math.min(x1, p.x1)
    y1 = Math.min(y1, p.y1)
    x2 = Math.max(x2, p.x2)
    y2 = Math.max(y2, p.y2)
  }
  return { x1, y1, x2, y2 }
}

/** The rectangle of a line and the line right under it, read as one. */
export const withLineBelow = (line: Rect, below: Rect): Rect => ({
  x1: Math.min(line.x1, below.x1),
  y1: below.y1,
  x2: Math.max(line.x2, below.x2),
  y2: line.y2
})

/**
 * A band of a page set in two columns: `gutter` is the x of the white space between them, and
 * the band runs from `y1` to `y2`. `left` is where the first column's text starts.
 */
export interface Columns {
  readonly gutter: number
  readonly left: number
  readonly y1: number
  readonly y2: number
}

/**
 * The two columns of a page, when it is set in two: a vertical strip in the middle of its text
 * that no phrase or box crosses over at least two fifths of the text's height, with text on both
 * sides of it in comparable amounts. A page of labels on the left and boxes on the right (a tax
 * form's lines and their amount boxes) has such a strip too, but its right side holds little
 * text: it is one column.
 */
export const columns = (phrases: ReadonlyArray<Phrase>, boxes: ReadonlyArray<Rect>): Columns | undefined => {
  if (phrases.length < 10) return undefined
  const { x1: left, y1: bottom, x2: right, y2: top } = extentOf(phrases)
  const items: ReadonlyArray<Rect> = [...phrases, ...boxes]
  let best: { x: number; y1: number; y2: number } | undefined
  for (let x = left + 0.3 * (right - left); x <= left + 0.7 * (right - left); x += 2) {
    // The longest stretch of the text's height that nothing crosses at x.
    const crossing = items.filter((r) => r.x1 < x - 1 && r.x2 > x + 1).map((r) => [r.y1, r.y2] as const).sort((a, b) => b[1] - a[1])
    let above = top
    let band = { y1: top, y2: top }
    for (const [y1, y2] of [...crossing, [bottom, bottom] as const]) {
      if (above - y2 > band.y2 - band.y1) band = { y1: Math.max(y2, bottom), y2: above }
      above = Math.min(above, y1)
    }
    if (band.y2 - band.y1 >= 0.4 * (top - bottom) && (best === undefined || band.y2 - band.y1 > best.y2 - best.y1)) best = { x, ...band }
  }
  if (best === undefined) return undefined
  const band = best
  const inBand = phrases.filter((p) => p.y >= band.y1 && p.y <= band.y2)
  const leftSide = inBand.filter((p) => p.x2 <= band.x)
  const rightSide = inBand.filter((p) => p.x1 >= band.x)
  const chars = (side: ReadonlyArray<Phrase>) => side.reduce((n, p) => n + p.text.length, 0)
  const [l, r] = [chars(leftSide), chars(rightSide)]
  if (leftSide.length < 5 || rightSide.length < 5 || Math.min(l, r) < 0.3 * Math.max(l, r)) return undefined
  // The gutter is the middle of the white space between the columns' text.
  const leftEdge = Math.max(...leftSide.map((p) => p.x2))
  const rightEdge = Math.min(...rightSide.map((p) => p.x1))
  return { gutter: (leftEdge + rightEdge) / 2, left: Math.min(...leftSide.map((p) => p.x1)), y1: band.y1, y2: band.y2 }
}
