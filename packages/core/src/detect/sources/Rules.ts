/**
 * Candidates from drawn horizontal rules: the line a person writes on. Table borders, leaders
 * pointing elsewhere and the parts of a rule that text already stands on are not blanks.
 */
import type { Candidate, PageContext } from "../Candidate.ts"
import { pieceBottom, pieceCentreInside, pieceTop } from "../Geometry.ts"
import type { TextPiece } from "../Underscores.ts"
import type { Box, HorizontalSegment } from "../VectorLines.ts"

/** Shortest rule worth a text field, in points (about four characters). */
export const MIN_RULE = 20

/** A heavier bar (a title's underline, a section divider) is drawn to be seen, not written on. */
const MAX_WRITING_LINE = 3

/** The parts of [x1, x2] not covered by `covers`. */
const freeIntervals = (x1: number, x2: number, covers: ReadonlyArray<readonly [number, number]>): Array<[number, number]> => {
  const out: Array<[number, number]> = []
  let cursor = x1
  for (const [a, b] of [...covers].sort((p, q) => p[0] - q[0])) {
    if (a > cursor) out.push([cursor, Math.min(a, x2)])
    cursor = Math.max(cursor, b)
    if (cursor >= x2) break
  }
  if (cursor < x2) out.push([cursor, x2])
  return out
}

/**
 * Text going on with a comma, a full stop or a closing bracket continues a sentence the line is a
 * blank of ("2005 ....... , 2006 ....... , and 2007 ....... ."): the line leads nowhere.
 */
const GOES_ON = /^[,.;:)\]]/u

/**
 * A table cell holding text on a line's own height: the number of the row the line leads to, in
 * the line-number column of a tax form ("1 State income taxes . . . . . | 1 | amount |").
 */
const numbersLine = (cell: Box, h: HorizontalSegment, pieces: ReadonlyArray<TextPiece>): boolean =>
  pieces.some((p) => pieceCentreInside(p, cell) && Math.abs(p.y - h.y) <= 0.5 * p.size)

/**
 * A dotted line running up to text or a box on its right leads the eye there; it is no blank.
 * The box may be drawn as four lines (a check box "□ Yes" after "Were you ever a citizen? ....."):
 * its left side, a short upright of a line's height, stands within three ems; a table's wall is
 * no such box. A table cell is, when it holds the number of the row the line is on. Text the
 * line's sentence goes on with is no target.
 */
const isLeader = (h: HorizontalSegment, context: PageContext): boolean =>
  context.pieces.some((p) => p.x1 >= h.x2 - 2 && p.x1 - h.x2 <= 20 && pieceBottom(p) < h.y + 12 && pieceTop(p) > h.y - 3 && !GOES_ON.test(p.text)) ||
  context.input.graphics.boxes.some((b) => b.x1 >= h.x2 - 2 && b.x1 - h.x2 <= 20 && b.y1 < h.y + 12 && b.y2 > h.y - 3) ||
  context.boxes.some((b) => context.cells.has(b) && b.x1 >= h.x2 - 2 && b.x1 - h.x2 <= 20 && numbersLine(b, h, context.pieces)) ||
  context.input.graphics.verticals.some((v) =>
    v.x >= h.x2 - 2 && v.x - h.x2 <= 30 && v.y2 - v.y1 >= 4 && v.y2 - v.y1 <= 16 && v.y1 > h.y - 3 && v.y2 < h.y + 16
  )

/** Text this small (in points) is caption text, whatever the page's body size. */
const SMALL_PRINT = 7.5
/** How near a caption must come to the rule's end to be set flush with it. */
const FLUSH = 6
/** "Month  Day  Year" under a rule says how to write one date on it, not three fields. */
const DATE_PART = /^\(?(month|day|year|mm|dd|yy|yyyy|mois|jour|année|annee|aaaa|jj|monat|tag|jahr|tt|jjjj|mes|día|dia|año|ano)\)?$/iu

/** The captions printed right under a rule, as phrases (pieces a word space apart joined), left to right. */
const captionsUnder = (h: HorizontalSegment, pieces: ReadonlyArray<TextPiece>): Array<{ x1: number; x2: number; text: string; size: number }> => {
  const under = pieces
    .filter((p) => p.x1 >= h.x1 - 2 && p.x2 <= h.x2 + 2 && pieceTop(p) <= h.y + 1 && pieceTop(p) >= h.y - 1.2 * p.size && /\p{L}/u.test(p.text))
    .sort((a, b) => a.x1 - b.x1)
  const phrases: Array<{ x1: number; x2: number; text: string; size: number }> = []
  for (const p of under) {
    const last = phrases.at(-1)
    if (last && p.x1 - last.x2 <= 0.8 * p.size) {
      last.x2 = Math.max(last.x2, p.x2)
      last.text = `${last.text} ${p.text}`
      last.size = Math.max(last.size, p.size)
    } else phrases.push({ x1: p.x1, x2: p.x2, text: p.text, size: p.size })
  }
  return phrases
}

type Caption = ReturnType<typeof captionsUnder>[number]

/** Captions under a rule flush with both its ends: a running header's or footer's ("Form 123 Edition 01/24 ... Page 2 of 8"). */
const flushWithBothEnds = (h: HorizontalSegment, captions: ReadonlyArray<Caption>): boolean =>
  captions.length >= 2 && captions[0]!.x1 - h.x1 <= FLUSH && h.x2 - captions.at(-1)!.x2 <= FLUSH

/** A page number as running headers and footers print it: "Page 2 of 7", "Seite 2 von 3", "2/7". */
const PAGE_NUMBER = /(?:^|\s)(?:page|seite|pagina|página|p\.)\s*\d+(?:\s*(?:of|von|de|sur|di|\/)\s*\d+)?\s*$|^\d+\s*\/\s*\d+$/iu

/**
 * A running footer's or header's rule: the page number printed under it at its end, with text
 * flush with its start ("Form I-90 Edition 04/01/24 ............ Page 2 of 7"), or standing on
 * its end or printed right after it ("Form W-4 (2023) ________ Page 4").
 */
const runningFooter = (h: HorizontalSegment, captions: ReadonlyArray<Caption>, pieces: ReadonlyArray<TextPiece>): boolean => {
  if (flushWithBothEnds(h, captions) && PAGE_NUMBER.test(captions.at(-1)!.text.trim())) return true
  // The page number standing on the rule's end, or printed on its line right after it.
  const end = pieces
    .filter((p) => p.x2 >= h.x2 - 40 && p.x1 - h.x2 <= 20 && p.y >= h.y - 1 && p.y <= h.y + 12)
    .sort((a, b) => a.x1 - b.x1)
  return end.length > 0 && PAGE_NUMBER.test(end.map((p) => p.text).join(" ").trim())
}

/**
 * One long rule with several captions under it ("AGE  HEIGHT  WEIGHT", "Signature  Date") is a
 * row of fields, one per caption: captions set flush with the rule's start each open their
 * field; centred ones divide the rule half way between them. One caption, or none, leaves the
 * rule whole.
 */
const splitByCaptions = (h: HorizontalSegment, captions: ReadonlyArray<Caption>, bodySize: number): Array<readonly [number, number]> => {
  if (captions.length < 2 || captions.every((c) => DATE_PART.test(c.text))) return [[h.x1, h.x2]]
  // Captions are set small: smaller than the page's text, or in the few points a page of
  // captions alone (a character sheet) sets all its text in. Text of body size under a rule is a
  // table's headings, a question with its options, or a footer.
  if (captions.some((c) => c.size >= 0.95 * bodySize && c.size > SMALL_PRINT)) return [[h.x1, h.x2]]
  // Captions flush with both ends ("Address ......... Telephone no.") are a row of fields all the
  // same: a running footer's rule, its page number at its end, was left out before.
  const flush = captions[0]!.x1 - h.x1 <= FLUSH
  const cuts = captions.slice(1).map((c, i) => (flush ? c.x1 - 3 : (captions[i]!.x2 + c.x1) / 2))
  const bounds = [h.x1, ...cuts, h.x2]
  const parts = bounds.slice(1).map((b, i) => [bounds[i]!, b] as const)
  return parts.every(([a, b]) => b - a >= MIN_RULE) ? parts : [[h.x1, h.x2]]
}

export const candidates = (context: PageContext): Array<Candidate> => {
  const { pieces, input, structural, pageWidth } = context
  const out: Array<Candidate> = []
  for (const h of input.graphics.horizontals) {
    const length = h.x2 - h.x1
    // Near page-wide rules separate sections.
    if (length < MIN_RULE || length > 0.9 * pageWidth || structural.has(h) || h.thickness > MAX_WRITING_LINE) continue
    if (h.dashed && isLeader(h, context)) continue
    const captions = captionsUnder(h, pieces)
    if (runningFooter(h, captions, pieces)) continue
    // Text standing on the rule (an underlined heading, a label written on the line) is not
    // blank space; what is left of the rule beside it is. Outlined glyphs count as text here.
    const standing = pieces
      .filter((p) => p.x2 > h.x1 && p.x1 < h.x2 && p.y >= h.y - 1 && p.y <= h.y + 0.5 * p.size + 2)
      .map((p) => [p.x1 - 2, p.x2 + 2] as const)
    const inked = input.graphics.marks
      .filter((m) => m.x2 > h.x1 && m.x1 < h.x2 && m.y1 >= h.y - 1 && m.y1 <= h.y + 6)
      .map((m) => [m.x1 - 2, m.x2 + 2] as const)
    const y1 = h.y + h.thickness / 2
    const parts = splitByCaptions(h, captions, context.fontSize).flatMap(([x1, x2]) => freeIntervals(x1, x2, [...standing, ...inked]))
    for (const [a, b] of parts) {
      if (b - a < MIN_RULE) continue
      out.push({
        kind: "Text",
        source: "rule",
        rect: { x1: a, y1, x2: b, y2: y1 + 14 },
        band: [y1 - 3, y1 + 14],
        sized: true,
        line: h.y,
        features: { dashed: h.dashed ?? false }
      })
    }
  }
  return out
}
