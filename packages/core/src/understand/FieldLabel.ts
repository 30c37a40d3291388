/**
 * The printed label of a field, found from page text and geometry alone, the way a person reads a
 * form: the words to the left on the same line (with the lines it wraps over), or just above the
 * box, or printed inside it; the caption under a line in forms that print captions below; the
 * caption beside a check box or radio option; the column header (and row label) of a table cell;
 * the line an amount box answers on tax forms that repeat the line number at the box. Works on
 * any rectangle, so a widget read from an AcroForm and a blank found by the detector are named
 * the same way.
 */
import type { Phrase, Rect } from "./TextLayout.ts"
import { centreInside, overlapX, overlapY } from "./TextLayout.ts"

/**
 * What is being labelled: a text-like box, a check box or radio option, a signature line, or
 * the options of a group together (its question is beside or above them, never below; for a
 * `row` of options on one line, only before them).
 */
export type LabelKind = "text" | "check" | "signature" | "group" | "row"

/**
 * Where the label was found relative to the field; `continued`: the box continues the box right
 * before it on its line (cents after dollars, the parts of a split number), whose label it shares.
 */
export type LabelPosition = "left" | "above" | "inside" | "below" | "right" | "column" | "continued"

/** A label: its cleaned text, where it was, how far, and the phrases it was read from. */
export interface Label {
  readonly text: string
  readonly position: LabelPosition
  /** Gap between the label and the field, in points. */
  readonly distance: number
  /** Font size of the label. */
  readonly size: number
  readonly phrases: ReadonlyArray<Phrase>
  /** For `continued`: the box this one continues (one of the query's obstacles). */
  readonly follows?: Rect | undefined
}

/** Which side captions of stacked boxes are printed on, when the layout says (see `captionSides`). */
export type CaptionSide = "above" | "below"

export interface LabelQuery {
  readonly rect: Rect
  readonly kind: LabelKind
  /** The other widgets (or detected blanks) of the page: a label never lies behind one of them. */
  readonly obstacles: ReadonlyArray<Rect>
  /** The box's caption side, from `captionSides` over the page's boxes; absent: the nearer text. */
  readonly captions?: CaptionSide | undefined
  /** Phrases that label something else and nothing more (a group's option captions, when naming the group). */
  readonly exclude?: ReadonlyArray<Phrase> | undefined
  /**
   * Phrases that are another field's caption (a check box's): still the label of a box right of
   * them on their line ("☐ Other (specify): ____"), never one above, below or inside.
   */
  readonly claimed?: ReadonlyArray<Phrase> | undefined
  /** The page's writing direction (`rightToLeft`); left to right when absent. */
  readonly direction?: "ltr" | "rtl" | undefined
}

/** How far to the left a same-line label may be, in points. */
const MAX_LEFT = 220
/** How far above a label may be, in font sizes of the label (plus a few points). */
const MAX_ABOVE = 1.6
/** How far below a caption may be, in font sizes. */
const MAX_BELOW = 1.2
/** How far to the right of a box its caption may start, in font sizes. */
const MAX_RIGHT = 3

const hasWord = (p: Phrase) => /[\p{L}\p{N}]/u.test(p.text)

// Per page (phrases array): the phrases with words, and the phrases inside each widget. Queries of
// one page share them, so naming every field of a page costs one pass over its text per widget.
const wordy = new WeakMap<ReadonlyArray<Phrase>, ReadonlyArray<Phrase>>()
const insideCache = new WeakMap<ReadonlyArray<Phrase>, WeakMap<Rect, ReadonlyArray<Phrase>>>()

const phrasesWithWords = (phrases: ReadonlyArray<Phrase>): ReadonlyArray<Phrase> => {
  let list = wordy.get(phrases)
  if (!list) wordy.set(phrases, (list = phrases.filter(hasWord)))
  return list
}

const phrasesInside = (phrases: ReadonlyArray<Phrase>, rect: Rect): ReadonlyArray<Phrase> => {
  let byRect = insideCache.get(phrases)
  if (!byRect) insideCache.set(phrases, (byRect = new WeakMap()))
  let list = byRect.get(rect)
  if (!list) byRect.set(rect, (list = phrasesWithWords(phrases).filter((p) => centreInside(p, rect))))
  return list
}

/** The phrases that may label something: words, not inside another widget (its own label or value). */
const usableFor = (query: LabelQuery, phrases: ReadonlyArray<Phrase>): ReadonlyArray<Phrase> => {
  const hidden = new Set<Phrase>(query.exclude ?? [])
  for (const o of query.obstacles) {
    for (const p of phrasesInside(phrases, o)) if (!centreInside(p, query.rect)) hidden.add(p)
  }
  const list = phrasesWithWords(phrases)
  return hidden.size === 0 ? list : list.filter((p) => !hidden.has(p))
}

/** Whether a widget stands between two extents (x-wise between them while overlapping in y). */
const blockedX = (obstacles: ReadonlyArray<Rect>, from: number, to: number, band: { y1: number; y2: number }) =>
  obstacles.some((o) => overlapY(o, band) > 0.3 * Math.min(o.y2 - o.y1, band.y2 - band.y1) && o.x1 >= from - 1 && o.x2 <= to + 1)

const blockedY = (obstacles: ReadonlyArray<Rect>, from: number, to: number, span: { x1: number; x2: number }) =>
  obstacles.some((o) => overlapX(o, span) > 2 && o.y1 >= from - 1 && o.y2 <= to + 1)

/** Vertical alignment of a phrase with a field's line: most of the phrase's height within the box. */
const onLineOf = (p: Phrase, rect: Rect): boolean => {
  const height = rect.y2 - rect.y1
  if (height <= 2.6 * p.size) return overlapY(p, rect) >= 0.4 * Math.min(p.y2 - p.y1, height)
  // A tall box (multi-line text) is labelled on its first line, or beside its middle; a long one
  // not much taller than a line is often drawn up from a printed line, with its label on that
  // line ("Signature ► ______").
  const middle = (rect.y1 + rect.y2) / 2
  return (p.y2 <= rect.y2 + 2 && p.y1 >= rect.y2 - 2.2 * p.size) || (p.y1 <= middle && p.y2 >= middle) ||
    (height <= 4 * p.size && rect.x2 - rect.x1 >= 4 * height && Math.abs(p.y - rect.y1) <= 0.4 * p.size)
}

/** Phrases of a line grown from `seed` in one direction while the gaps stay label-sized. */
const grow = (seed: Phrase, usable: ReadonlyArray<Phrase>, direction: -1 | 1, obstacles: ReadonlyArray<Rect>): Array<Phrase> => {
  const line = [seed]
  let edge = seed
  for (let guard = 0; guard < 6; guard++) {
    const next = usable.find((p) =>
      p.line === edge.line && p !== edge && !line.includes(p) &&
      (direction < 0 ? edge.x1 - p.x2 : p.x1 - edge.x2) >= -1 &&
      (direction < 0 ? edge.x1 - p.x2 : p.x1 - edge.x2) <= 2.5 * Math.min(p.size, edge.size) &&
      !blockedX(obstacles, direction < 0 ? p.x2 : edge.x2, direction < 0 ? edge.x1 : p.x1, edge)
    )
    if (!next) break
    line.push(next)
    edge = next
  }
  return direction < 0 ? line.reverse() : line
}

const joined = (ps: ReadonlyArray<Phrase>): string => ps.map((p) => p.text).join(" ")

/** A leading item number ("1.b.", "12a)", "(4)", "3.", "17)*": starred when required) and the space after it. */
const ITEM_NUMBER = /^(?:\(?\d{1,3}[a-z]?[.)](?:\s?[a-z][.)])?|\(\d{1,3}[a-z]?\))\*?\s+(?=\S)/i

/** A leading item letter without a stop, before a capitalised word ("L Have you...", "a U.S. corporations"). */
const ITEM_LETTER = /^[A-Za-z]\s+(?=\p{Lu})/u

/**
 * Where the words of a phrase start, past a leading item number: "1.b. Given Name" is printed
 * with "Given" in the column where the next line, "(First Name)", starts. Estimated by share of
 * characters, which is close enough within one line of one font.
 */
const textStart = (p: Phrase): number => {
  const number = ITEM_NUMBER.exec(p.text) ?? ITEM_LETTER.exec(p.text)
  if (!number) return p.x1
  return p.x1 + ((p.x2 - p.x1) * number[0].length) / p.text.length
}

/** An item number printed alone: "3.d.", "12)", "(4)". */
const BARE_ITEM_NUMBER = /^(?:\(?\d{1,3}[a-z]?[.)](?:\s?[a-z][.)])?|\(\d{1,3}[a-z]?\))\*?$/i

/** The item number a text is and nothing else ("3.d.", "12)", "(4)"), without the star of a required item. */
export const bareItemNumber = (text: string): string | undefined => {
  const trimmed = text.trim()
  return BARE_ITEM_NUMBER.test(trimmed) ? trimmed.replace(/\*$/, "") : undefined
}

/** The item number a line starts with, printed alone or before its words ("10.", "3.b. Street Number"). */
export const itemNumberStarting = (text: string): string | undefined =>
  bareItemNumber(text) ?? ITEM_NUMBER.exec(text.trim())?.[0].trim().replace(/\*$/, "")

/**
 * The item number printed before a label ("3.b.", "12)"), without the space after it; or, for a
 * box numbered with nothing else (see `bareNumber`), that number.
 */
export const itemNumberOf = (label: Label): string | undefined => {
  const first = label.phrases[0]
  if (first && label.text === "" && label.position === "left" && BARE_ITEM_NUMBER.test(first.text.trim())) return first.text.trim()
  // The number printed apart before the words it numbers ("7." then "Is this a new position?").
  if (first && label.phrases.length > 1 && BARE_ITEM_NUMBER.test(first.text.trim())) return first.text.trim().replace(/\*$/, "")
  const number = first ? ITEM_NUMBER.exec(first.text.trim()) : null
  return number ? number[0].trim().replace(/\*$/, "") : undefined
}

/**
 * An item number printed alone beside the top line of a box ("3.d." by a tall blank for more
 * text): all the form prints for that box. The text under such a box is the next item's.
 */
const bareNumber = ({ rect, usable }: Finder): Phrase | undefined =>
  usable
    .filter((p) =>
      BARE_ITEM_NUMBER.test(p.text.trim()) && p.x2 <= rect.x1 + 1 && rect.x1 - p.x2 <= 3 * p.size &&
      p.y2 <= rect.y2 + 0.5 * p.size && p.y1 >= rect.y2 - 2.5 * p.size
    )
    .sort((a, b) => b.x2 - a.x2)[0]

/** Whether a phrase's words start at `x` (past any item number), within `slack`. */
const alignedWith = (p: Phrase, x: number, slack: number): boolean => Math.abs(p.x1 - x) <= slack || Math.abs(textStart(p) - x) <= slack

/**
 * Whether a line starts with an item marker ("(a)", "1.b.", "12)", "b.", "L Have"): the first
 * line of an item, never the continuation of the line above it (a heading, "4. ASSETS", or
 * another item).
 */
const startsItem = (p: Phrase): boolean => /^(?:\(?\d{1,3}[a-z]?[.)]|\([a-z]\)|[a-z][.)])\s/i.test(p.text) || ITEM_LETTER.test(p.text)

/** Whether two lines start in the same column (their words, past any item number), within `slack`. */
const alignedStart = (a: Phrase, b: Phrase, slack: number): boolean =>
  Math.abs(a.x1 - b.x1) <= slack || Math.abs(textStart(a) - textStart(b)) <= slack

const make = (ps: ReadonlyArray<Phrase>, position: LabelPosition, distance: number): Label | undefined => {
  const text = clean(joined(ps))
  return text === "" ? undefined : { text, position, distance: Math.max(0, distance), size: Math.max(...ps.map((p) => p.size)), phrases: ps }
}

interface Finder {
  readonly rect: Rect
  readonly usable: ReadonlyArray<Phrase>
  readonly obstacles: ReadonlyArray<Rect>
  /** Captions of other boxes among `usable` (see `LabelQuery.claimed`). */
  readonly claimed?: ReadonlySet<Phrase> | undefined
}

/**
 * Whether `p` lies on a line above `q`'s. By baseline, not by line number: a line number counts
 * the lines of the whole page, so a column of text beside the label puts lines of its own between
 * two lines of one label ("3.b. Street Number" over "and Name").
 */
const lineAbove = (p: Phrase, q: Phrase): boolean => p.y - q.y >= 0.5 * Math.min(p.size, q.size)

/**
 * Whether two phrases are consecutive lines of one text: one above the other at the line spacing
 * of running text (about 1.2 sizes), not the wider spacing between two items of a form.
 */
const adjacentLine = (p: Phrase, q: Phrase): boolean =>
  (lineAbove(p, q) || lineAbove(q, p)) && Math.abs(p.y - q.y) <= 1.5 * Math.max(p.size, q.size)

/** Words of a phrase: a label has a few; a line of a paragraph has many. */
const words = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length

/** Whether text reads as a label rather than a line of running text: short, or ending in `:` or `?`. */
const labelLike = (ps: ReadonlyArray<Phrase>) => {
  const text = joined(ps).trim()
  return words(text) <= 8 || /[:?]$/.test(text)
}

/** A line of running text: a line of many words with another such line right above or below, aligned. */
const paragraphLine = (p: Phrase, usable: ReadonlyArray<Phrase>): boolean =>
  words(p.text) >= 5 &&
  usable.some((q) =>
    adjacentLine(q, p) && Math.abs(q.x1 - p.x1) <= p.size && Math.abs(q.size - p.size) <= 0.1 * p.size && words(q.text) >= 5
  )

/**
 * The nearest same-line text to the left, grown leftwards over label-sized gaps. `strict`: a line
 * of running text is no label even close by (a group of options beside a paragraph).
 */
const leftOf = ({ rect, usable, obstacles, claimed }: Finder, maxGap: number, strict = false): Label | undefined => {
  // The question of a group of options is never the label printed over another box (a box of
  // the page's column to the left, "Country of residence" over its blank).
  // (Another line printed between them is that box's label: "7. New? ☐ Yes" over "8. Wages" over "$ ____".)
  const labelsBoxBelow = (p: Phrase) =>
    obstacles.some((o) =>
      rightAbove(p, o) && overlapX(p, o) >= 0.5 * (p.x2 - p.x1) &&
      !usable.some((q) => q !== p && overlapX(q, o) > 0 && q.y2 <= p.y1 + 0.3 * p.size && q.y1 >= o.y2 - 0.35 * q.size)
    )
  // A widget often starts a little before the end of its label's text (placed by eye).
  const candidates = usable.filter((p) =>
    onLineOf(p, rect) && p.x1 < rect.x1 - 0.5 * p.size && p.x2 <= rect.x1 + Math.min(2.5 * p.size, 0.3 * (rect.x2 - rect.x1)) &&
    rect.x1 - p.x2 <= maxGap && /\p{L}{2}/u.test(p.text) && !blockedX(obstacles, p.x2, rect.x1, p) && !(strict && labelsBoxBelow(p))
  )
  // Nearest horizontally; among equals, the one best centred on the box's line.
  const centre = (rect.y1 + rect.y2) / 2
  const nearest = candidates.sort((a, b) => b.x2 - a.x2 || Math.abs(a.y - centre) - Math.abs(b.y - centre))[0]
  if (!nearest) return undefined
  const line = grow(nearest, usable, -1, obstacles)
  const gap = rect.x1 - nearest.x2
  // Far from the box, only a label-like phrase is a label (not a line of a paragraph beside it).
  if (gap > 3 * nearest.size && !labelLike(line)) return undefined
  if ((strict || gap > 2 * nearest.size) && paragraphLine(nearest, usable)) {
    // Options beside the first line of their question, which runs on under it to its "?".
    const question = strict ? questionGoingOn(line, rect, usable) : undefined
    return question && make(withLinesAbove(question, rect, usable), "left", gap)
  }
  if (claimed?.has(nearest)) {
    // The captions of the boxes before a blank name it together ("☐ Apt. ☐ Ste. ☐ Flr. ____"),
    // unless the nearest one is a label in itself ("☐ Other (specify): ____").
    if (/[:)]$/.test(nearest.text)) return make(line, "left", gap)
    for (let guard = 0; guard < 4; guard++) {
      const head = line[0]!
      const box = obstacles.find((o) => overlapY(o, head) > 0 && o.x2 <= head.x1 + 1 && head.x1 - o.x2 <= 1.5 * head.size && o.x2 - o.x1 <= 2.5 * head.size)
      if (!box) break
      const previous = usable.find((p) => claimed.has(p) && p.line === head.line && p.x2 <= box.x1 + 1 && box.x1 - p.x2 <= 3 * p.size)
      if (!previous || /[:)]$/.test(previous.text)) break
      line.unshift(previous)
    }
    return make(line, "left", gap)
  }
  // A question wrapped over lines ends on the line of its options: take the lines above it too.
  if (strict) return make(withLinesAbove(line, rect, usable), "left", gap)
  // A label wrapped over lines beside a box of two or more lines: "Family Name" over "(Last Name)".
  const start = line[0]!
  const tall = rect.y2 - rect.y1 >= 1.6 * start.size
  const wrapped = (direction: -1 | 1) =>
    tall
      ? usable.find((p) =>
        (direction < 0 ? lineAbove(p, start) : lineAbove(start, p)) && !claimed?.has(p) && alignedStart(p, start, 0.8 * start.size) &&
        Math.abs(p.size - start.size) <= 0.15 * start.size && (direction < 0 ? p.y1 - start.y2 : start.y1 - p.y2) <= 0.6 * start.size &&
        p.x2 <= rect.x1 + 0.5 * p.size && overlapY(p, rect) > 0.3 * (p.y2 - p.y1)
      )
      : undefined
  // A note in brackets alone before the box ("(mm/dd/yyyy)") is the end of the label on the line
  // over it, however that line is indented: "15. Date of Admission" / "(mm/dd/yyyy) ____".
  const noteOnly = /^\(.*\)$/.test(joined(line).trim())
  const noted = noteOnly
    ? usable.find((p) =>
      lineAbove(p, start) && p.y1 - start.y2 <= 0.8 * start.size && p.x1 < rect.x1 && p.x2 >= start.x1 - start.size &&
      Math.abs(p.size - start.size) <= 0.15 * start.size && !claimed?.has(p)
    )
    : undefined
  if (noted) return make([...grow(noted, usable, -1, obstacles), ...line], "left", gap)
  const before = startsItem(start) ? undefined : wrapped(-1)
  const after = before ? undefined : wrapped(1)
  const lines = [
    ...(before ? grow(before, usable, 1, obstacles).filter((p) => p.x2 <= rect.x1 + 1) : []),
    ...line,
    ...(after ? grow(after, usable, 1, obstacles).filter((p) => p.x2 <= rect.x1 + 1) : [])
  ]
  return make(lines, "left", gap)
}

/**
 * A line of a question with the lines of it wrapped above, left-aligned with it, back to its
 * first line (they may run on over the options under them): a line ending a sentence, or
 * starting an item, is no part of it.
 */
const withLinesAbove = (line: ReadonlyArray<Phrase>, rect: Rect, usable: ReadonlyArray<Phrase>): Array<Phrase> => {
  const lines = [...line]
  let top = lines[0]!
  for (let guard = 0; guard < 3 && !startsItem(top); guard++) {
    const previous = usable.find((p) =>
      lineAbove(p, top) && alignedStart(p, top, 1.2 * top.size) && p.y1 - top.y2 <= 0.8 * top.size &&
      Math.abs(p.size - top.size) <= 0.1 * top.size && !/[.:?;!]$/.test(p.text) && p.x1 < rect.x1
    )
    if (!previous) break
    lines.unshift(previous)
    top = previous
  }
  return lines
}

/**
 * The question whose first line is `line`, beside its options, when it runs on under that line
 * to a "?" within six lines ("Are you a nonprofit organized as tax" / "exempt ...?").
 */
const questionGoingOn = (line: ReadonlyArray<Phrase>, rect: Rect, usable: ReadonlyArray<Phrase>): Array<Phrase> | undefined => {
  const first = line[line.length - 1]!
  const lines = [...line]
  let last = first
  // Up to six lines: a question with its qualifiers ("... employees in the United States," /
  // "including all affiliates or subsidiaries" / "of this company/organization?").
  for (let guard = 0; guard < 5 && !/\?$/.test(last.text); guard++) {
    const next = usable.find((p) =>
      lineAbove(last, p) && alignedStart(p, first, 1.2 * first.size) && last.y1 - p.y2 <= 0.8 * last.size &&
      Math.abs(p.size - first.size) <= 0.1 * first.size && p.x2 <= rect.x1 + first.size
    )
    if (!next) break
    lines.push(next)
    last = next
  }
  return /\?$/.test(last.text) ? lines : undefined
}

/**
 * The question of a row of options printed on the line right above the row, starting before it
 * and ending in "?" or ":" ("5. Is he or she applying for adjustment of status?" over
 * "☐ Yes ☐ No"), with its lines wrapped above.
 */
const questionAbove = ({ rect, usable, obstacles }: Finder): Label | undefined => {
  const nearest = usable
    .filter((p) =>
      p.x1 < rect.x1 && p.x2 >= rect.x1 - 2 * p.size && p.y1 >= rect.y2 - 0.35 * p.size && p.y1 - rect.y2 <= 0.8 * p.size + 2
    )
    .sort((a, b) => a.y1 - b.y1 || b.x2 - a.x2)[0]
  if (!nearest || !/[?:]$/.test(nearest.text)) return undefined
  // Its item number before it, and nothing further left (the page's other column).
  const grown = grow(nearest, usable, -1, obstacles)
  const number = grown.findLastIndex((p) => startsItem(p) || /^\(?\d{1,3}[a-z]?[.)]$/i.test(p.text))
  const line = number >= 0 ? grown.slice(number) : [nearest]
  return make(withLinesAbove(line, { ...rect, x1: nearest.x2 + 1 }, usable), "above", nearest.y1 - rect.y2)
}

/** Whether a phrase starts right after a check box on its line: the caption of that box (an option). */
const startsAtBox = (p: Phrase, obstacles: ReadonlyArray<Rect>): boolean =>
  obstacles.some((o) =>
    overlapY(o, p) > 0 && o.x2 <= p.x1 + 1 && p.x1 - o.x2 <= MAX_RIGHT * p.size + 4 && o.x2 - o.x1 <= 2.5 * p.size && o.y2 - o.y1 <= 2.5 * p.size
  )

/** The caption to the right of a box, unless it sits nearer the next box ("Yes ☐ No ☐"). */
const rightOf = ({ rect, usable, obstacles }: Finder): Label | undefined => {
  const candidates = usable.filter((p) =>
    onLineOf(p, rect) && p.x1 >= rect.x2 - 1 && p.x1 - rect.x2 <= MAX_RIGHT * p.size + 4 && !blockedX(obstacles, rect.x2, p.x1, p)
  )
  const nearest = candidates.sort((a, b) => a.x1 - b.x1)[0]
  if (!nearest) return undefined
  const gap = nearest.x1 - rect.x2
  const claimedByNext = obstacles.some((o) =>
    overlapY(o, nearest) > 0 && o.x1 >= nearest.x2 - 1 && o.x1 - nearest.x2 < gap - 0.5 && o.x2 - o.x1 < 4 * nearest.size
  )
  if (claimedByNext) return undefined
  // The line runs on only up to another box's label printed over that box ("☐ Select this box
  // if | Attorney State Bar Number" over its own blank).
  const own = (from: Phrase) => {
    const line = grow(from, usable, 1, obstacles)
    const end = line.findIndex((p, i) => i > 0 && obstacles.some((o) => rightAbove(p, o) && Math.abs(p.x1 - o.x1) <= 1.5 * p.size))
    return end < 0 ? line : line.slice(0, end)
  }
  const lines = [own(nearest)]
  // A caption wrapped under its first line, in its column, up to the end of its sentence; a line
  // with a box of its own before it is the next option.
  let last = nearest
  for (let guard = 0; guard < 4 && !/[.?!:;]$/.test(joined(lines[lines.length - 1]!)); guard++) {
    const next = usable.find((p) =>
      lineAbove(last, p) && last.y1 - p.y2 <= 0.6 * last.size && Math.abs(p.x1 - nearest.x1) <= 0.8 * nearest.size &&
      Math.abs(p.size - nearest.size) <= 0.1 * nearest.size && !startsAtBox(p, obstacles)
    )
    if (!next) break
    lines.push(own(next))
    last = next
  }
  return make(lines.flat(), "right", gap)
}

/** A caption to the left of a box that is not nearer another box further left. */
const leftOfBox = (finder: Finder): Label | undefined => {
  const label = leftOf(finder, MAX_RIGHT * 4 + 10)
  if (!label) return undefined
  const first = label.phrases[label.phrases.length - 1]!
  const claimedByPrevious = finder.obstacles.some((o) =>
    overlapY(o, first) > 0 && o.x2 <= label.phrases[0]!.x1 + 1 && label.phrases[0]!.x1 - o.x2 < label.distance - 0.5 && o.x2 - o.x1 < 4 * first.size
  )
  return claimedByPrevious ? undefined : label
}

/** Text printed inside the box (boxed forms print the label in the cell the widget covers). */
const inside = ({ rect, usable }: Finder): Label | undefined => {
  const within = usable.filter((p) => centreInside(p, rect) && /\p{L}{2}/u.test(p.text))
  if (within.length === 0) return undefined
  const firstLine = within[0]!.line
  return make(within.filter((p) => p.line <= firstLine + 1), "inside", 0)
}

/** Whether a phrase sits right above a box, the way a box's label printed over it does. */
const rightAbove = (p: Phrase, box: Rect): boolean =>
  overlapX(p, box) > 0 && p.y1 >= box.y2 - 0.35 * p.size && p.y1 - box.y2 <= MAX_ABOVE * p.size + 3

/**
 * A line of labels grown rightwards from `seed`, cut before the first phrase that sits more over
 * another box than over this one: boxes side by side each have their label over them ("Page
 * Number", "Part Number", "Item Number"), close enough to read as one line.
 */
const growOver = (seed: Phrase, rect: Rect, usable: ReadonlyArray<Phrase>, obstacles: ReadonlyArray<Rect>): Array<Phrase> => {
  const line = grow(seed, usable, 1, obstacles)
  const end = line.findIndex((p, i) => i > 0 && obstacles.some((o) => rightAbove(p, o) && overlapX(p, o) > Math.max(0, overlapX(p, rect))))
  return end < 0 ? line : line.slice(0, end)
}

/** A line that starts with examples ("Examples:", "For example,", "e.g."). */
const EXAMPLES = /^\(?(?:examples?\b|for example\b|e\.\s?g\.)/i

/** The text right above the box, left-aligned with it, with the lines of a wrapped label. */
const above = ({ rect, usable, obstacles }: Finder): Label | undefined => {
  const width = rect.x2 - rect.x1
  const gapOf = (p: Phrase) => p.y1 - rect.y2
  const candidates = usable.filter((p) => {
    const gap = gapOf(p)
    if (gap < -0.35 * p.size || gap > MAX_ABOVE * p.size + 3) return false
    if (overlapX(p, rect) <= 0) return false
    // Left-aligned with the box (its words, past a hanging item number: "12d. Is there ...?" over
    // options indented under the words), or starting a little before it while running above it.
    const startsNear = textStart(p) >= rect.x1 - Math.max(2 * p.size, 0.3 * width) || overlapX(p, rect) >= 0.3 * (p.x2 - p.x1)
    if (!startsNear || p.x1 > rect.x1 + Math.max(0.6 * width, 2 * p.size)) return false
    return !blockedY(obstacles, rect.y2, p.y1, { x1: Math.max(p.x1, rect.x1), x2: Math.min(p.x2, rect.x2) })
  })
  const nearest = candidates.sort((a, b) => gapOf(a) - gapOf(b) || a.x1 - b.x1)[0]
  if (!nearest) return undefined
  const lines = [growOver(nearest, rect, usable, obstacles)]
  // A label wrapped over lines, or the end of a paragraph (a question and its instructions): the
  // left-aligned lines close above it.
  // A line ending in a colon is a whole label, unless it starts in lower case, going on from the
  // line above ("impairment and the accommodation you are" / "requesting):"); a line ending a
  // sentence ends the paragraph above (a semicolon only ends a clause: "“concrete floor”;").
  const nearestLine = joined(lines[0]!)
  const whole = /:$/.test(nearestLine) && !/^\(?\p{Ll}/u.test(nearestLine)
  // A note in brackets alone under a question ("(If no, skip the rest of this section)") is no
  // label: the question over it is, however it ends.
  const noteOnly = /^\(.*\)$/.test(nearestLine.trim())
  let top = nearest
  for (let guard = 0; guard < 5 && !whole; guard++) {
    // Examples are never the question: the sentence they illustrate is above them.
    const illustrates = EXAMPLES.test(joined(lines[0]!))
    const previous = usable.find((p) =>
      lineAbove(p, top) && alignedStart(p, top, 1.2 * top.size) && p.y1 - top.y2 <= 0.8 * top.size && p.y1 > top.y2 - 0.3 * top.size &&
      Math.abs(p.size - top.size) <= 0.1 * top.size &&
      (illustrates || (noteOnly && top === nearest) || !/[.:?!]$/.test(joined(grow(p, usable, 1, obstacles))))
    )
    if (!previous || startsAtBox(top, obstacles) || startsItem(top)) break
    lines.unshift(growOver(previous, rect, usable, obstacles))
    top = previous
    // An option's caption begins at its box: the lines above it are other options.
    if (startsAtBox(previous, obstacles)) break
  }
  const text = firstSentence(joined(lines.flat()))
  const label = make(lines.flat(), "above", gapOf(nearest))
  return label && { ...label, text: clean(text) || label.text }
}

/**
 * The label part of a paragraph: its first sentence (up to `?`, `:` or a full stop) when the
 * paragraph goes on with instructions or examples; the whole paragraph otherwise.
 */
export const firstSentence = (text: string): string => {
  const t = text.replace(/\s+/g, " ").trim()
  const end = /[?:](?=\s|$)|[^\s.]{3}\.(?=\s+[\p{Lu}(“"])/gu
  for (const m of t.matchAll(end)) {
    const stop = m.index + m[0].length
    const head = t.slice(0, stop)
    // An item number ("14)", "Part 3.") is not a sentence.
    if (words(head.replace(/^(?:\(?\d{1,3}[a-z]?[.)]\s*)+/i, "")) >= 2) return head
  }
  return t
}

/**
 * The caption right under the box (signature lines, forms that print captions below). Unless the
 * page is known to print captions below (`ownCaptions`), text right over another box, aligned
 * with it, is that box's label ("Page Number" under a tall box, over the next block's first box).
 */
const below = ({ rect, usable, obstacles }: Finder, reach = MAX_BELOW, ownCaptions = true): Label | undefined => {
  const width = rect.x2 - rect.x1
  const gapOf = (p: Phrase) => rect.y1 - p.y2
  const labelsBoxUnder = (p: Phrase) =>
    obstacles.some((o) =>
      rightAbove(p, o) && o.y2 < rect.y1 && overlapX(p, o) >= 0.5 * (p.x2 - p.x1) &&
      Math.min(Math.abs(p.x1 - o.x1), Math.abs(textStart(p) - o.x1)) <= 2.5 * p.size
    )
  const candidates = usable.filter((p) => {
    const gap = gapOf(p)
    if (gap < -0.35 * p.size || gap > reach * p.size + 2) return false
    if (!ownCaptions && labelsBoxUnder(p)) return false
    if (p.x1 < rect.x1 - 1.5 * p.size || p.x1 > rect.x1 + Math.max(0.6 * width, 2 * p.size)) return false
    return !blockedY(obstacles, p.y2, rect.y1, { x1: Math.max(p.x1, rect.x1), x2: Math.min(p.x2, rect.x2) })
  })
  const nearest = candidates.sort((a, b) => gapOf(a) - gapOf(b) || a.x1 - b.x1)[0]
  if (!nearest) return undefined
  return make(grow(nearest, usable, 1, obstacles).filter((p) => p.x1 < rect.x2), "below", gapOf(nearest))
}

/**
 * The words of a phrase whose middles lie between `x1` and `x2`, as a phrase of their own; the
 * extent of each word is estimated by its share of the characters.
 */
const clip = (p: Phrase, x1: number, x2: number): Phrase | undefined => {
  const kept = wordsOf(p).filter((w) => (w.x1 + w.x2) / 2 >= x1 && (w.x1 + w.x2) / 2 <= x2)
  if (kept.length === 0) return undefined
  return { ...p, text: kept.map((w) => w.text).join(" "), x1: kept[0]!.x1, x2: kept[kept.length - 1]!.x2 }
}

/** The words of a phrase with their extents, estimated by share of characters. */
const wordsOf = (p: Phrase): Array<{ readonly text: string; readonly x1: number; readonly x2: number }> => {
  const perChar = (p.x2 - p.x1) / Math.max(1, p.text.length)
  return [...p.text.matchAll(/\S+/g)].map((m) => ({ text: m[0], x1: p.x1 + m.index * perChar, x2: p.x1 + (m.index + m[0].length) * perChar }))
}

/** Whether a word of the phrase runs across one of these edges (a sentence over several cells). */
const crossesEdges = (p: Phrase, edges: ReadonlyArray<number>): boolean =>
  wordsOf(p).some((w) => edges.some((e) => w.x1 < e - 0.5 * p.size && w.x2 > e + 0.5 * p.size))

/**
 * Whether a box has a neighbour cell in its row: one of its height, no further than about its
 * height away (room for a sign printed in the cell, "+" or "$", but not for a label).
 */
const inGrid = (cell: Rect, obstacles: ReadonlyArray<Rect>): boolean => {
  const height = cell.y2 - cell.y1
  return obstacles.some((o) => {
    const gap = Math.max(o.x1 - cell.x2, cell.x1 - o.x2)
    return o !== cell && overlapY(o, cell) >= 0.7 * height && Math.abs(o.y2 - o.y1 - height) <= 0.2 * height && gap >= -1 &&
      gap <= Math.max(12, height)
  })
}

/** Whether a box lines up with a cell as the next cell of its column (see `columnTest`). */
type InColumn = (o: Rect, cell: Rect) => boolean

/**
 * How the cells of a table line up: exactly, where fields that merely sit on consecutive lines
 * rarely do. Cells of one column have one width, or sit in a grid (each beside another cell of
 * its row) where a cell may be cut short by a sign printed in it. Boxes that only end at the same
 * margin are a stack of fields with their own labels ("In Care Of Name" over "Street Number").
 */
const columnTest = (rect: Rect, obstacles: ReadonlyArray<Rect>): InColumn => {
  const tolerance = Math.max(2, 0.05 * (rect.x2 - rect.x1))
  const grid = new Map<Rect, boolean>()
  const gridded = (r: Rect) => {
    let known = grid.get(r)
    if (known === undefined) grid.set(r, (known = inGrid(r, obstacles)))
    return known
  }
  const sameWidth = (o: Rect, cell: Rect) =>
    Math.abs(o.x2 - o.x1 - (cell.x2 - cell.x1)) <= Math.max(2 * tolerance, 0.1 * Math.max(o.x2 - o.x1, cell.x2 - cell.x1))
  return (o, cell) =>
    (Math.abs(o.x1 - cell.x1) <= tolerance || Math.abs(o.x2 - cell.x2) <= tolerance) &&
    overlapX(o, cell) >= 0.7 * Math.max(o.x2 - o.x1, cell.x2 - cell.x1) &&
    (sameWidth(o, cell) || (gridded(o) && gridded(cell)))
}

/**
 * Whether the rows between two cells of a column are rows of the table: a column may skip rows
 * where it has no cell (shaded in the printed table) while the column beside it has one in each.
 */
const rowsFilled = (from: Rect, lo: number, hi: number, obstacles: ReadonlyArray<Rect>): boolean => {
  const width = from.x2 - from.x1
  const beside = obstacles
    .filter((o) => overlapX(o, from) <= 1 && o.x2 >= from.x1 - width - 12 && o.x1 <= from.x2 + width + 12 && o.y2 > lo && o.y1 < hi)
    .map((o) => [Math.max(lo, o.y1), Math.min(hi, o.y2)] as const)
    .sort((a, b) => a[0] - b[0])
  let covered = 0
  let reach = lo
  for (const [a, b] of beside) {
    covered += Math.max(0, b - Math.max(a, reach))
    reach = Math.max(reach, b)
  }
  return covered >= 0.5 * (hi - lo)
}

/**
 * The top cell of the column of widgets the field sits in; `undefined` when no widget lines up
 * with it right above or below (no column).
 */
const columnTop = ({ rect, usable, obstacles }: Finder, inColumn: InColumn): Rect | undefined => {
  // A column's cells overlap the field's width: the walk looks only at the widgets and text there.
  const inBand = (r: Rect) => r.x2 > rect.x1 && r.x1 < rect.x2
  const cells = obstacles.filter(inBand)
  const text = usable.filter(inBand)
  const step = (from: Rect, direction: 1 | -1): Rect | undefined => {
    const height = from.y2 - from.y1
    const gapTo = (o: Rect) => (direction > 0 ? o.y1 - from.y2 : from.y1 - o.y2)
    const next = cells
      .filter((o) => gapTo(o) >= -1 && gapTo(o) <= Math.max(15 * height, 40) && inColumn(o, from))
      .sort((a, b) => gapTo(a) - gapTo(b))[0]
    if (!next) return undefined
    const [lo, hi] = direction > 0 ? [from.y2, next.y1] : [next.y2, from.y1]
    if (gapTo(next) > Math.max(3.5 * height, 40) && !rowsFilled(from, lo, hi, obstacles)) return undefined
    // Text between two cells ends the column (a new block with its own labels), even when its
    // line touches one of them.
    return text.some((p) => overlapX(p, from) > 0 && (p.y1 + p.y2) / 2 >= lo && (p.y1 + p.y2) / 2 <= hi) ? undefined : next
  }
  if (!step(rect, 1) && !step(rect, -1)) return undefined
  let top = rect
  for (let guard = 0, next = step(top, 1); next && guard < 80; guard++, next = step(top, 1)) top = next
  return top
}

/**
 * A table cell's column header: the text right above the top cell of the column of widgets the
 * field sits in, within the column's width. `undefined` when the field is in no column, or
 * nothing is printed over the column.
 */
const columnHeader = (finder: Finder): Label | undefined => {
  const inColumn = columnTest(finder.rect, finder.obstacles)
  const top = columnTop(finder, inColumn)
  return top && headerOver(finder, top, inColumn)
}

/** The header lines over a column whose top cell is `top` (see `columnHeader`). */
const headerOver = ({ rect, usable, obstacles }: Finder, top: Rect, inColumn: InColumn): Label | undefined => {
  const span = { x1: Math.min(rect.x1, top.x1) - 3, x2: Math.max(rect.x2, top.x2) + 3 }
  // The cells of the top row beside this column, when the table is a grid, and their extent.
  const beside = inGrid(top, obstacles)
    ? obstacles.filter((o) => o !== top && overlapY(o, top) >= 0.7 * (top.y2 - top.y1) && overlapX(o, top) <= 1)
    : []
  const columns = [top, ...beside]
  const table = { x1: Math.min(...columns.map((o) => o.x1)), x2: Math.max(...columns.map((o) => o.x2)) }
  // A phrase right before another widget on its line is that widget's label, not a header; one
  // right after it goes on from it ("Signed at ____ (city, and state or country).").
  const labelsAnother = (p: Phrase) =>
    obstacles.some((o) =>
      onLineOf(p, o) && ((o.x1 - p.x2 >= -1 && o.x1 - p.x2 <= 3 * p.size) || (p.x1 - o.x2 <= 3 * p.size && p.x2 > o.x2 && p.x1 > o.x1))
    )
  // Headers of a grid's columns printed close together read as one phrase ("Cannabis plants
  // Cannabis extracts"): over the cells of the top row beside this one, only this column's words.
  // Headers each centred over their own cell keep their words within it; a sentence spanning
  // several columns ("Enter amount of income under the rate of tax"), or running past the
  // table's sides, is left whole.
  const edges = columns.flatMap((o) => [o.x1, o.x2])
  const overColumn = (p: Phrase): Phrase | undefined =>
    beside.some((o) => overlapX(p, o) > p.size) && p.x1 >= table.x1 - p.size && p.x2 <= table.x2 + p.size && !crossesEdges(p, edges)
      ? clip(p, span.x1, span.x2)
      : p
  // A header is printed over its column: starting in it, or centred on it. A line that starts
  // far left of it heads the block of rows below only when it is a heading ("H) Employer") in
  // the size of the rows' labels, not a note or an instruction ("NOTE: Your card will be...").
  const rowSize = Math.max(0, ...usable.filter((q) => onLineOf(q, top) && q.x2 <= top.x1 + 1).map((q) => q.size))
  const heading = (p: Phrase) => words(p.text) <= 6 && !/[.!?]$/.test(p.text) && rowSize > 0 && p.size <= 1.05 * rowSize
  const overIt = (p: Phrase) =>
    (p.x1 + p.x2) / 2 >= span.x1 && (p.x1 + p.x2) / 2 <= span.x2 && p.x2 - p.x1 <= span.x2 - span.x1 + 2 * p.size &&
    (p.x1 >= span.x1 - 1.5 * p.size || Math.abs((p.x1 + p.x2) / 2 - (span.x1 + span.x2) / 2) <= 0.15 * (span.x2 - span.x1) || heading(p))
  const header = usable
    .filter((p) => p.y1 >= top.y2 - 1 && p.y1 - top.y2 <= 200 && overlapX(p, span) > 0)
    .map(overColumn)
    .filter((p): p is Phrase => p !== undefined && overIt(p) && !labelsAnother(p))
    .sort((a, b) => a.y1 - b.y1)
  // A column that starts lower than the table's first row (an "Other (specify)" column under
  // row labels that have cells only in the other columns): the text beside the cells of those
  // rows labels the rows; it is stepped over on the way up to the header, and ends a header.
  const rowsAbove = obstacles.filter((o) => o.y1 >= top.y2 - 1 && o.y1 - top.y2 <= 200 && columns.some((c) => inColumn(o, c)))
  const rowOfCells = (p: Phrase) => rowsAbove.some((o) => overlapY(o, p) >= 0.5 * (p.y2 - p.y1))
  const headings = rowSize > 0 ? headingsLeftOf(usable, top, table, rowSize, rowOfCells) : []
  // The header's lines, from the nearest upwards while they stay close together.
  const taken: Array<Phrase> = []
  let bottom = top.y2
  for (const p of header) {
    if (p.y1 - bottom > (taken.length === 0 ? 40 : 1.2 * p.size)) break
    if (rowOfCells(p)) {
      if (taken.length > 0) break
      bottom = Math.max(bottom, p.y2)
      continue
    }
    if (taken.length === 0 && headings.some((q) => q.y2 <= p.y1 + 1)) break
    if (blockedY(obstacles, top.y2, p.y1, { x1: Math.max(p.x1, top.x1), x2: Math.min(p.x2, top.x2) })) break
    taken.push(p)
    bottom = Math.max(bottom, p.y2)
  }
  if (taken.length === 0) return undefined
  const ordered = taken.sort((a, b) => a.index - b.index)
  return make(ordered, "column", ordered[0]!.y1 - top.y2)
}

/**
 * Headings printed left of a table above its top row `top`: text larger than the labels of the
 * rows (`rowSize`), a section's ("E) Doctors"), that starts another block, so that text over
 * the column further up belongs to the block above. Text level with other text over the table
 * is part of the header rows ("sale was made"); text the size of the row labels is a group of
 * rows ("Dividends paid by:").
 */
const headingsLeftOf = (
  usable: ReadonlyArray<Phrase>,
  top: Rect,
  table: { readonly x1: number; readonly x2: number },
  rowSize: number,
  rowOfCells: (p: Phrase) => boolean
): ReadonlyArray<Phrase> => {
  const overTable = (q: Phrase) =>
    usable.some((r) => r !== q && r.y1 >= top.y2 - 1 && overlapX(r, table) > 0 && overlapY(r, q) > 0.5 * (q.y2 - q.y1))
  return usable.filter((q) =>
    q.x2 <= table.x1 + 1 && table.x1 - q.x2 <= 300 && q.y1 >= top.y2 - 1 && q.y1 - top.y2 <= 200 && q.size >= 1.08 * rowSize &&
    !rowOfCells(q) && !overTable(q)
  )
}

/** The row label of a cell: the text starting its line, left of every widget of the row. */
const rowLabel = ({ rect, usable, obstacles }: Finder): Label | undefined => {
  const row = obstacles.filter((o) => overlapY(o, rect) > 0.5 * Math.min(o.y2 - o.y1, rect.y2 - rect.y1) && o.x2 <= rect.x1 + 1)
  const start = Math.min(rect.x1, ...row.map((o) => o.x1))
  const candidates = usable.filter((p) => onLineOf(p, rect) && p.x2 <= start + 2 && start - p.x2 <= 400 && /\p{L}{2}/u.test(p.text))
  const nearest = candidates.sort((a, b) => b.x2 - a.x2)[0]
  if (!nearest) return undefined
  return make(grow(nearest, usable, -1, obstacles), "left", rect.x1 - nearest.x2)
}

/**
 * The line a box answers when only its line number is printed before it: tax forms repeat the
 * number ("9a") at the amount box, far right of the line's label ("9a Taxable interest . . .",
 * or "b Tax-exempt interest" under a line 9a), with leader dots that are drawn, not written.
 */
const numberedLine = ({ rect, usable, obstacles }: Finder): Label | undefined => {
  const tag = usable
    .filter((p) => onLineOf(p, rect) && p.x2 <= rect.x1 + 1 && rect.x1 - p.x2 <= 3 * p.size && /^\(?\d{1,3}[a-z]?\)?$/i.test(p.text))
    .sort((a, b) => b.x2 - a.x2)[0]
  if (!tag) return undefined
  const number = tag.text.replace(/[()]/g, "").toLowerCase()
  const letter = /[a-z]$/.exec(number)?.[0]
  // The line's own number starts its label, alone or with the first words; boxes on the line
  // before the amount (a type to specify) do not hide it: the repeated number ties the two.
  const numbers = (p: Phrase) => {
    const head = /^\(?(\d{1,3}[a-z]?|[a-z])[.)]?(?:\s|$)/i.exec(p.text)?.[1]?.toLowerCase()
    return head !== undefined && (head === number || head === letter)
  }
  const label = usable.filter((p) => onLineOf(p, tag) && p.x2 <= tag.x1 && p !== tag && numbers(p)).sort((a, b) => b.x2 - a.x2)[0]
  if (!label) return undefined
  return make(grow(label, usable, 1, []).filter((p) => p.x2 <= tag.x1 && p.x1 >= label.x1), "left", rect.x1 - label.x2)
}

/**
 * Which side the caption of each box is printed on, for boxes stacked one under another with one
 * line of text between each two: that text is the label of the box below it (labels above) or of
 * the box above it (captions under lines), and the ends of the stack tell which. Text above the
 * top box but none under the bottom one means labels above, and the other way round captions
 * below; with text at both ends, the end whose size differs from the text between the boxes is
 * a heading, not a label. Stacks that do not tell follow the page's majority, else nothing.
 */
export const captionSides = (rects: ReadonlyArray<Rect>, phrases: ReadonlyArray<Phrase>): Array<CaptionSide | undefined> => {
  const found = rects.map((rect, i) => {
    const obstacles = rects.filter((_, j) => j !== i)
    const finder: Finder = { rect, usable: usableFor({ rect, kind: "text", obstacles }, phrases), obstacles }
    const besideIt = rect.x2 - rect.x1 < 20 || leftOf(finder, 3 * 12) !== undefined
    return { besideIt, up: above(finder), down: below(finder, MAX_BELOW) }
  })
  const shares = (a: Label | undefined, b: Label | undefined) => a !== undefined && b !== undefined && a.phrases.some((p) => b.phrases.includes(p))
  // The box right under each box whose text between them is the same.
  const next = rects.map((rect, i) => {
    if (found[i]!.besideIt) return undefined
    const under = rects
      .map((r, j) => ({ r, j }))
      .filter(({ r, j }) => j !== i && !found[j]!.besideIt && r.y2 <= rect.y1 + 1 && overlapX(r, rect) >= 0.5 * Math.min(r.x2 - r.x1, rect.x2 - rect.x1))
      .sort((a, b) => b.r.y2 - a.r.y2)[0]
    return under && shares(found[i]!.down, found[under.j]!.up) ? under.j : undefined
  })
  const hasPrevious = new Set(next.filter((j): j is number => j !== undefined))
  const sides: Array<CaptionSide | undefined> = rects.map(() => undefined)
  const undecided: Array<number> = []
  rects.forEach((_, start) => {
    if (hasPrevious.has(start) || found[start]!.besideIt) return
    const chain = [start]
    for (let j = next[start]; j !== undefined && !chain.includes(j) && chain.length < 100; j = next[j]) chain.push(j)
    // A box labelled beside its line ("salarié(e): ____") starts no stack, but when the text under
    // it is the text over the stack's top box, the stack reaches up to it: its ends tell.
    const ends = [...chain]
    for (let guard = 0; guard < 3; guard++) {
      const top = rects[ends[0]!]!
      const over = rects
        .map((r, j) => ({ r, j }))
        .filter(({ r, j }) => !ends.includes(j) && r.y1 >= top.y2 - 1 && overlapX(r, top) >= 0.5 * Math.min(r.x2 - r.x1, top.x2 - top.x1))
        .sort((a, b) => a.r.y1 - b.r.y1)[0]
      if (!over || !found[over.j]!.besideIt || !shares(found[over.j]!.down, found[ends[0]!]!.up)) break
      ends.unshift(over.j)
    }
    let head = found[ends[0]!]!.up
    let tail = found[chain[chain.length - 1]!]!.down
    if (ends.length >= 2) {
      // Text of another size than the text between the boxes is a heading or a note, not a label.
      const between = ends.slice(0, -1).map((i) => found[i]!.down!.size).sort((a, b) => a - b)
      const typical = between[Math.floor(between.length / 2)]!
      if (head && Math.abs(head.size - typical) > 0.5) head = undefined
      if (tail && Math.abs(tail.size - typical) > 0.5) tail = undefined
    }
    const side: CaptionSide | undefined = head && !tail ? "above" : tail && !head ? "below" : undefined
    for (const i of chain) sides[i] = side
    if (side === undefined && chain.length >= 2) undecided.push(...chain)
  })
  // Stacks that did not tell, and lone boxes, follow the stacks that did.
  const decided = sides.filter((s): s is CaptionSide => s !== undefined)
  const downs = decided.filter((s) => s === "below").length
  const ups = decided.length - downs
  const majority = downs > 2 * ups ? "below" : ups > 2 * downs ? "above" : undefined
  for (const i of undecided) sides[i] = majority
  return sides.map((s, i) => s ?? (found[i]!.up && found[i]!.down ? majority : undefined))
}

/**
 * The box right before this one on its line when this one only continues it: they touch or
 * nearly, have the same height, and nothing but punctuation ("-", "/") is printed between them.
 */
const continues = ({ rect, usable, obstacles }: Finder): Rect | undefined => {
  const height = rect.y2 - rect.y1
  // Parts of a value are short one-line boxes (cents, 2 or 4 digits); a wide or tall box is a field of its own.
  if (rect.x2 - rect.x1 > 3.5 * height || height > 30) return undefined
  // Close by, or further with only digits and signs printed between (", 20" before a year's box).
  const joiner = (o: Rect) => usable.some((p) => overlapY(p, rect) > 0 && p.x1 >= o.x2 - 1 && p.x2 <= rect.x1 + 1 && !/\p{L}/u.test(p.text))
  const previous = obstacles
    .filter((o) =>
      o.x2 <= rect.x1 + 1 && Math.abs(o.y2 - o.y1 - height) <= 0.25 * height && overlapY(o, rect) >= 0.7 * height &&
      (rect.x1 - o.x2 <= Math.max(12, 0.6 * height) || (rect.x1 - o.x2 <= 3 * height && joiner(o)))
    )
    .sort((a, b) => b.x2 - a.x2)[0]
  if (!previous) return undefined
  const between = usable.some((p) => overlapY(p, rect) > 0 && p.x1 >= previous.x2 - 1 && p.x2 <= rect.x1 + 1 && /\p{L}/u.test(p.text))
  return between ? undefined : previous
}

/**
 * Finds the label of one field among the page's phrases. On a right-to-left page (Arabic,
 * Hebrew) labels sit to the right of their boxes and captions to the left of theirs: the page is
 * read in a mirror, and what is found is mapped back.
 */
export const find = (query: LabelQuery, phrases: ReadonlyArray<Phrase>): Label | undefined => {
  if (query.direction !== "rtl") return findLeftToRight(query, phrases)
  const flip = <R extends Rect>(r: R): R => ({ ...r, x1: -r.x2, x2: -r.x1 })
  const mirrored = phrases.map(flip)
  const back = new Map(mirrored.map((m, i) => [m, phrases[i]!]))
  const forth = new Map(phrases.map((p, i) => [p, mirrored[i]!]))
  const obstacles = query.obstacles.map(flip)
  const obstacleBack = new Map(obstacles.map((m, i) => [m as Rect, query.obstacles[i]!]))
  const map = (list: ReadonlyArray<Phrase> | undefined) => list?.map((p) => forth.get(p) ?? p)
  const found = findLeftToRight(
    { ...query, rect: flip(query.rect), obstacles, exclude: map(query.exclude), claimed: map(query.claimed), direction: "ltr" },
    mirrored
  )
  if (!found) return undefined
  return {
    ...found,
    phrases: found.phrases.map((p) => back.get(p) ?? p),
    follows: found.follows ? obstacleBack.get(found.follows) : undefined
  }
}

/** Whether most letters of a page's text are in a right-to-left script. */
export const rightToLeft = (phrases: ReadonlyArray<Phrase>): boolean => {
  const text = phrases.map((p) => p.text).join("")
  const rtl = text.match(/[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/gu)?.length ?? 0
  const all = text.match(/\p{L}/gu)?.length ?? 0
  return all > 0 && rtl > 0.5 * all
}

/** Whether a label is made of other boxes' captions only, and does not end as a label does (`:` or `)`). */
const borrowed = (label: Label, claimed: ReadonlySet<Phrase>): boolean =>
  label.phrases.every((p) => claimed.has(p)) && !/[:)]$/.test(label.phrases[label.phrases.length - 1]!.text)

const findLeftToRight = (query: LabelQuery, phrases: ReadonlyArray<Phrase>): Label | undefined => {
  const all = usableFor(query, phrases)
  const claimed = new Set(query.claimed ?? [])
  const finder: Finder = { rect: query.rect, usable: claimed.size === 0 ? all : all.filter((p) => !claimed.has(p)), obstacles: query.obstacles }
  const sideways: Finder = { ...finder, usable: all, claimed }
  const { rect } = query

  if (query.kind === "check") {
    const caption = rightOf(finder) ?? leftOfBox(finder)
    if (caption) return caption
    // A grid of boxes with no caption of their own ("with friends: Listening", "with family:
    // Reading"): each is named by its row and its column, as a table cell is.
    const column = columnHeader(finder)
    if (column) {
      const row = rowLabel(finder)
      return row && row.text !== column.text ? { ...column, text: `${row.text}: ${column.text}`, phrases: [...row.phrases, ...column.phrases] } : column
    }
    return above(finder) ?? below(finder)
  }

  if (query.kind === "row") return leftOf(sideways, 6 * 12, true) ?? leftOf(sideways, MAX_LEFT, true) ?? questionAbove(finder)

  const beside = leftOf(sideways, 6 * 12, query.kind === "group")
  // Another box's caption beside this one names it only when nothing of its own is printed right
  // over it ("☐ Apt. ☐ Ste. ☐ Flr. ____"); a label above wins over a neighbour's sentence
  // ("☐ Form G-28 is attached. | Attorney State Bar Number / ____").
  const own = beside && borrowed(beside, claimed) ? above(finder) : undefined
  const ownAligned = own !== undefined && alignedWith(own.phrases[0]!, rect.x1, 1.5 * own.size)
  const near = (ownAligned ? undefined : beside) ?? numberedLine(sideways)
  const column = columnHeader(finder)
  if (column) {
    // A table cell: its row's label and its column's header name it together.
    const row = near ?? rowLabel(finder)
    if (!row || row.text === column.text) return column
    return { ...column, text: `${row.text}: ${column.text}`, position: "column", phrases: [...row.phrases, ...column.phrases] }
  }
  // A caption printed in the top of the box's own cell, flush with its left edge ("(a) First
  // name and middle initial" over the box), names it rather than margin text to its left: text
  // higher up ("Step 1:"), a margin heading in larger type ("Name, Address, and SSN"), or text
  // more than two characters away ("Presidential Election Campaign").
  // (A title in large type over the box is neither: "Certificat de salaire" right over "nom".)
  const top = near ? tightAbove(finder) : undefined
  if (near && top && top.size < 1.6 * near.size && (!onBoxLine(near, rect) || near.distance > 2 * near.size || near.size >= 1.4 * top.size)) return top
  if (near && near.distance <= 3 * near.size) return near
  // Text inside a group's area, among its options, is not its question: it belongs to something
  // printed beside them (another field's label where a caption runs long).
  const within = query.kind === "group" ? undefined : inside(finder)
  if (within) return within
  const up = above(finder)
  const number = near || up || query.kind === "group" ? undefined : bareNumber(finder)
  if (number) return { text: "", position: "left", distance: rect.x1 - number.x2, size: number.size, phrases: [number] }
  const down = query.kind === "group" ? undefined : below(finder, query.kind === "signature" ? 2 : MAX_BELOW, query.captions === "below")
  const vertical = query.kind === "signature"
    ? down ?? up
    : query.captions === "below"
    ? down
    : query.captions === "above"
    ? up
    : up && down
    ? down.distance + 1 < up.distance ? down : up
    : up ?? down
  // Text a few characters to the left loses to the caption on the side the page prints its
  // captions, when it has one there.
  if (near && (!vertical || (query.captions === undefined && near.distance <= 6 * near.size))) return near
  if (vertical) return vertical
  const follows = near ? undefined : continues(finder)
  if (follows) return { text: "", position: "continued", distance: 0, size: 0, phrases: [], follows }
  return leftOf(sideways, MAX_LEFT, query.kind === "group") ??
    (query.kind !== "group" && rect.y2 - rect.y1 > 0 ? below(finder, 2, query.captions === "below") : undefined) ??
    (query.kind === "text" && !near ? explains({ ...sideways, usable: [...claimed] }) : undefined)
}

/** Whether a label's text sits on the box's own line (most of its height within the box's). */
const onBoxLine = (label: Label, rect: Rect): boolean => label.phrases.some((p) => overlapY(p, rect) >= 0.7 * Math.min(p.y2 - p.y1, rect.y2 - rect.y1))

/** A label right on top of the box (within half a line) and starting at its left edge. */
const tightAbove = (finder: Finder): Label | undefined => {
  const up = above(finder)
  if (!up || up.distance > 0.6 * up.size) return undefined
  return alignedWith(up.phrases[0]!, finder.rect.x1, 1.5 * up.size) ? up : undefined
}

/**
 * A wide box right under a check box's caption and aligned with it, with nothing printed for it
 * alone, is where that option is explained ("☐ Other (describe the accommodation you are
 * requesting):" over a blank). `usable`: the captions of the page's check boxes.
 */
const explains = (finder: Finder): Label | undefined => {
  const { rect } = finder
  const caption = above(finder)
  if (!caption || rect.x2 - rect.x1 < 10 * caption.size) return undefined
  return caption.phrases.some((p) => alignedWith(p, rect.x1, 1.5 * p.size)) ? caption : undefined
}

const MAX_LABEL = 120
/** Blanks, colons and dashes a label ends with before its answer. */
const TRAILING_PUNCTUATION = /[\s:*_.…,;–—\uff1a\uff1b-]+$/

/** A label as people would name the field: no numbering, blanks, trailing colons or brackets. */
export const clean = (text: string): string => {
  let s = text
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(/_{2,}|\.{3,}|…+/g, " ")
    .replace(/\[\s*\]|[☐☑☒□■▢▣◻◼❏❐❑❒○●◯►▶•]/gu, " ")
    // A combining mark with nothing to combine with (a stray accent drawn on its own).
    .replace(/(^|\s)\p{M}+/gu, "$1")
    .replace(/\s+/g, " ")
    .trim()
  // How to answer is no part of the question: "(select only one box)", "(check all that apply)".
  s = s.replace(/\s*\((?:[^()]*\b(?:select|check|tick|mark|choose|cochez|cocher|ankreuzen|marque|marcar|seleccione)\b[^()]*)\)\s*/giu, " ").trim()
  // Item numbers, possibly nested ("6.d.", "12a)", "(4)", "b.", a circled "⑮"); "Part 2" and
  // "Line 5" stay (they are words).
  s = s.replace(/^[\u2460-\u2473\u24ea\u24f5-\u24fe\u2776-\u2793]\s*/u, "")
  // The margin numbers of the lines a label spans, read as one run ("46 47 48 49 Credits from"):
  // only the last is the label's own line.
  s = s.replace(/^(?:\d{1,3}[a-z]?\s+)+(?=\d{1,3}[a-z]?\s+\p{L})/u, "")
  for (let guard = 0; guard < 3; guard++) {
    const stripped = s.replace(/^(?:\(?\d{1,3}[a-z]?[.)](?:\s?[a-z][.)])?\s*|\(\d{1,3}[a-z]?\)\s*|\(?[a-z][.)]\s+)(?=\S)/i, "")
    if (stripped === s) break
    s = stripped
  }
  s = s
    .replace(/^[\s:*•·–—,;.\uff1a\uff1b-]+/, "")
    .replace(TRAILING_PUNCTUATION, "")
    // A line letter and an operator in a boxed total ("Total additions B =").
    .replace(/(?:\s+[A-Z])?\s*[=+±]+$/, "")
    .trim()
  // The letter of the next option on the line ("☐ Form 2439 b ☐ Form 4136"), or of the first
  // one after a question ("Check if any tax is from: a ☐ Form 8814"), where words remain.
  const lettered = /^(.*\p{L}.*?)(?:\s+|:\s*)[a-h]$/u.exec(s)
  if (lettered) s = lettered[1]!.replace(TRAILING_PUNCTUATION, "")
  if (!/\p{L}/u.test(s)) return ""
  if (s.length > MAX_LABEL) {
    const cut = s.lastIndexOf(" ", MAX_LABEL)
    s = s.slice(0, cut > 40 ? cut : MAX_LABEL).replace(/[\s:,;–—-]+$/, "")
  }
  return s
}
