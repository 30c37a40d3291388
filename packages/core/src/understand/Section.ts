/**
 * The section a field sits in: the headings printed above it in its column ("Part 3. Information
 * About Your Spouse", "Mailing Address", "Paid Preparer Use Only"). A heading is told from a label
 * by its look: numbered as a part or section, lettered as a block ("H) ..."), set in capitals, or
 * larger than the page's text;
 * and by its place: alone on its line rather than just before a box.
 */
import type { Columns, Phrase, Rect } from "./TextLayout.ts"
import { centreInside, extentOf, overlapY, withLineBelow } from "./TextLayout.ts"

/** A heading of a page. */
export interface Heading {
  readonly text: string
  readonly rect: Rect
  readonly size: number
  /** 1: a numbered part or section (it carries over to the next pages); 2: any other heading. */
  readonly level: 1 | 2
  /** The width it heads when wider than its words: a title centred over a table heads all its columns. */
  readonly across?: { readonly x1: number; readonly x2: number }
}

// "Part 2", "Section B", "Step 3", "Schedule A", "Teil 1", "Abschnitt 2", "Partie 3", "Sección 4", "Parte 1", "Cadre A", "I." ...
const NUMBERED = /^(?:part|section|step|schedule|chapter|teil|abschnitt|schritt|partie|section|rubrique|cadre|volet|seccion|parte|apartado|paso|capitulo|bloque)\s+(?:[0-9]{1,2}[a-z]?|[ivxlc]{1,5}|[a-z])\b/i
const ROMAN = /^[IVX]{1,4}[.)]\s+\p{L}/u
const ROMAN_NUMBER = /^[IVX]{1,4}[.)]/
// "5. Calculation of the sales and duty payable": a number and a title.
const NUMBERED_TITLE = /^\d{1,2}[.)]\s+\p{Lu}/u
// A heading that is a number and nothing more so far ("Part 3."), its title on the next line.
const NUMBERED_ONLY = /^(?:part|section|step|schedule|teil|abschnitt|partie|parte|sección|seccion)\s+\S+$/i
// "H) Désignation de l'employeur", "B. Angaben zum Arbeitgeber": a lettered block of a form.
const LETTERED = /^[A-Z][.)]\s+\p{L}{2}/u

// "Person 2", "Child 1", "Vehicle 3": the block of one of several things a part asks about, alone on its line.
const ENUMERATED = /^(?!page\b)\p{L}{3,}(?:\s\p{L}{2,})?\s+(?:\d{1,2}|[IVX]{1,3})$/iu

const wordsOf = (text: string) => text.split(/\s+/).filter((w) => /\p{L}/u.test(w))

/** The size most text of the page is set in (its body size). */
export const bodySize = (phrases: ReadonlyArray<Phrase>): number => {
  const weighted = new Map<number, number>()
  for (const p of phrases) {
    const size = Math.round(p.size * 2) / 2
    weighted.set(size, (weighted.get(size) ?? 0) + p.text.length)
  }
  return [...weighted.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10
}

/**
 * The headings of a page. `boxes` are the page's widgets: a phrase right before one on its line
 * is that widget's label, never a heading; nor is text inside a widget.
 */
export const headings = (phrases: ReadonlyArray<Phrase>, boxes: ReadonlyArray<Rect>): ReadonlyArray<Heading> => {
  const body = bodySize(phrases)
  const { x1: left, x2: right } = extentOf(phrases)
  // A box right under a phrase, within two lines and across its words: the phrase is its caption.
  const captionsBoxUnder = (p: Phrase) =>
    boxes.some((b) => b.y2 <= p.y1 + 0.3 * p.size && p.y1 - b.y2 <= 2 * p.size && b.x1 < p.x2 && b.x2 > p.x1)
  // A short line alone, centred on the page's text, over the column heads of a table of fields
  // ("Dried/Fresh cannabis" over "Sales ($)", "Packages sold" and their boxes), however it is set;
  // not one column's head or a box's caption, which has its box right under it.
  const centredTitle = (p: Phrase, words: number) =>
    words >= 2 && words <= 6 && p.x2 - p.x1 <= 0.4 * (right - left) &&
    Math.abs((p.x1 + p.x2) / 2 - (left + right) / 2) <= 0.03 * (right - left) &&
    !phrases.some((o) => o !== p && overlapY(o, p) > 0.3 * (p.y2 - p.y1)) &&
    boxes.some((b) => b.y2 <= p.y1 && p.y1 - b.y2 <= 6 * p.size) &&
    !captionsBoxUnder(p)
  // A few words in bold, alone on their line, with no box on that line or right under them: the
  // title of a block of the form ("Physical address", "Additions to inventory") set in the body's
  // size. Bold words beside others are a table's column heads; over a box, its caption; ending
  // a sentence ("Give Form W-4 to your employer.") or going on in the line under them, a note.
  const boldTitle = (p: Phrase, words: number) =>
    p.bold === true && words >= 2 && words <= 8 && !/[:.,;]$/.test(p.text.trim()) && !phrases.some((q) => continuesInto(p, q)) &&
    !phrases.some((o) => o !== p && overlapY(o, p) > 0.3 * (p.y2 - p.y1) && Math.max(o.x1 - p.x2, p.x1 - o.x2) < 8 * p.size) &&
    !boxes.some((b) => overlapY(p, b) > 0.3 * (p.y2 - p.y1)) &&
    !captionsBoxUnder(p)
  const out: Array<Heading> = []
  for (const p of phrases) {
    const text = p.text.trim()
    const words = wordsOf(text)
    if (words.length === 0 || words.length > 14 || text.length < 3) continue
    if (boxes.some((b) => centreInside(p, b))) continue
    const labelsBox = boxes.some((b) => overlapY(p, b) > 0.3 * (p.y2 - p.y1) && b.x1 - p.x2 >= -2 && b.x1 - p.x2 <= 4 * p.size)
    if (labelsBox) continue
    // Nor is the caption right after a check box ("☐ Schedule A, Group II"), however it is numbered.
    const captionsBox = boxes.some((b) =>
      overlapY(p, b) > 0.3 * (p.y2 - p.y1) && p.x1 - b.x2 >= -2 && p.x1 - b.x2 <= 2 * p.size && b.x2 - b.x1 <= 3 * p.size
    )
    if (captionsBox) continue
    const letters = text.replace(/[^\p{L}]/gu, "")
    // A heading has words: "2 5 B" in large type is a code.
    if (letters.length < 3) continue
    // Acronyms alone ("IRS EIN", "SSN / ITIN") label a box: a heading in capitals has a word
    // (or is spaced out letter by letter: "A N E X O").
    const acronyms = words.length <= 3 && words.every((w) => /^\p{L}{2,3}$/u.test(w.replace(/[^\p{L}]/gu, "")))
    // A font of small capitals may draw one letter of a word from a lower-case code ("EDUCATION
    // (HIGHEST LEvEL AND YEAR)"); a word in lower case ("e.g.") is not set in capitals.
    const inCapitals = (word: string) => {
      const wordLetters = word.replace(/[^\p{L}]/gu, "")
      const lower = [...wordLetters].filter((c) => c !== c.toUpperCase()).length
      return lower === 0 || (lower === 1 && wordLetters.length >= 3)
    }
    const capitals = letters.length >= 4 && words.every(inCapitals) && letters !== letters.toLowerCase() && words.length >= 2 && !acronyms
    const large = p.size >= 1.15 * body && words.length <= 12
    // "5. Calculation of the sales", set large or in capitals, numbers a part as "Part 5" does.
    // Set smaller than the body, "Schedule A, Group II" is an option in a box of fine print, not a part.
    const numbered = p.size >= 0.85 * body && (NUMBERED.test(text) || ROMAN.test(text) || (NUMBERED_TITLE.test(text) && (large || capitals)))
    const lettered = LETTERED.test(text) && words.length <= 10
    const enumerated = ENUMERATED.test(text)
    const centred = centredTitle(p, words.length)
    if (!numbered && !capitals && !large && !lettered && !enumerated && !centred && !boldTitle(p, words.length)) continue
    // A sentence is not a heading, however it is set; nor is the middle of one.
    if (!numbered && /[.;,]$/.test(text) && words.length > 6) continue
    if (!numbered && !/^[\p{Lu}\p{N}(]/u.test(text)) continue
    // A number with no title ("Part 3. (select only one box):" refers to a part, it does not open one).
    if (numbered && !/\p{L}{2}/u.test(text.replace(NUMBERED, "").replace(ROMAN_NUMBER, "").replace(/^\d{1,2}[.)]/, "").replace(/\([^)]*\)/g, ""))) continue
    // Nor is a part named at the start of a line that goes on with the sentence above it ("...
    // in the space provided in" over "Part 8. Additional Information.").
    if (numbered && phrases.some((q) => continuesInto(q, p))) continue
    out.push({ text, rect: p, size: p.size, level: numbered ? 1 : 2, ...(centred && !numbered ? { across: { x1: left, x2: right } } : {}) })
  }
  return joinWrapped(out).map((heading) => closeParenthesis(heading, phrases))
}

/**
 * A heading whose parenthesis is left open ("Section A. (To be used only by a lawful permanent
 * resident or") goes on in the lines under it, however they are set, until it closes.
 */
const closeParenthesis = (heading: Heading, phrases: ReadonlyArray<Phrase>): Heading => {
  const open = (text: string) => (text.match(/\(/g) ?? []).length > (text.match(/\)/g) ?? []).length
  let joined = heading
  for (let guard = 0; guard < 3 && open(joined.text); guard++) {
    const last = joined.rect
    const next = phrases.find((p) => p.y2 < last.y1 + 0.5 * p.size && last.y1 - p.y2 <= 0.8 * p.size && Math.abs(p.x1 - last.x1) <= 3)
    if (!next) break
    joined = { ...joined, text: `${joined.text} ${next.text.trim()}`, rect: withLineBelow(last, next) }
  }
  return joined
}

/** `line` is the next line of the sentence `above` leaves unfinished: right under it, in its column and size. */
const continuesInto = (above: Phrase, line: Phrase) =>
  above !== line && above.y1 > line.y1 && above.y1 - line.y2 <= 0.8 * line.size && Math.abs(above.x1 - line.x1) <= 2 * line.size &&
  Math.abs(above.size - line.size) <= 1 && /\p{L}$/u.test(above.text.trim()) && !NUMBERED.test(above.text)

/**
 * A heading set on two or three lines ("Part 1. Information About the Person or" over
 * "Organization Filing This Petition") is one heading: a line right under another, starting in
 * its column, in its size, when the line above does not end a sentence.
 */
const joinWrapped = (found: ReadonlyArray<Heading>): Array<Heading> => {
  const topFirst = [...found].sort((a, b) => b.rect.y1 - a.rect.y1 || a.rect.x1 - b.rect.x1)
  const used = new Set<Heading>()
  const out: Array<Heading> = []
  for (const head of topFirst) {
    if (used.has(head)) continue
    let joined = head
    for (let guard = 0; guard < 3; guard++) {
      const last = joined
      if (/[.:;?!]$/.test(last.text) && !NUMBERED_ONLY.test(last.text)) break
      const next = topFirst.find((h) =>
        !used.has(h) && h !== head && h.level === 2 && Math.abs(h.rect.x1 - last.rect.x1) <= 3 && Math.abs(h.size - last.size) <= 0.6 &&
        h.rect.y2 < last.rect.y1 + 0.5 * last.size && last.rect.y1 - h.rect.y2 <= 0.7 * last.size
      )
      if (!next) break
      used.add(next)
      joined = { ...head, text: `${last.text} ${next.text}`, rect: withLineBelow(last.rect, next.rect), size: last.size }
    }
    out.push(joined)
  }
  return out
}

/**
 * The headings a field sits under, outermost first: the nearest numbered part or section above it
 * (`carried`, from an earlier page, when this page has none above it), then the nearest other
 * heading above it in its column, when that one comes after the numbered one.
 */
export const sectionOf = (rect: Rect, pageHeadings: ReadonlyArray<Heading>, carried?: Heading, columns?: Columns): ReadonlyArray<Heading> => {
  // In the second column of a page set in two, before any part printed over that column, the
  // field goes on with the section the first column ends in ("6. Country of Birth" at the top of
  // the right column, under the left column's "Part 3 ... Other Information"): a reader takes
  // the first column to its end before starting the second.
  // Only where the first column holds a part of its own: blocks side by side in a grid (a
  // "Telephone" block beside a "Name" block) are read across, not down.
  const inFirst = (h: Heading) => columns !== undefined && h.rect.x2 <= columns.gutter && h.rect.y1 >= columns.y1 && h.rect.y2 <= columns.y2 + 2
  const partInFirst = pageHeadings.some((h) => h.level === 1 && inFirst(h))
  if (columns && rect.x1 >= columns.gutter && rect.y1 >= columns.y1 - 2 && rect.y2 <= columns.y2 + 2 && partInFirst) {
    const own = pageHeadings.filter((h) => h.rect.x1 >= columns.gutter - 2 && h.rect.y1 >= rect.y2 - 2).sort((a, b) => a.rect.y1 - b.rect.y1)
    if (!own.some((h) => h.level === 1)) {
      const endOfFirst: Rect = { x1: columns.left, y1: columns.y1, x2: columns.gutter - 1, y2: columns.y1 }
      const before = sectionOf(endOfFirst, pageHeadings.filter((h) => h.rect.x1 < columns.gutter - 2), carried)
      const nearest = own[0]
      if (nearest === undefined) return before
      return [...before.filter((h) => h.level === 1).slice(0, 1), nearest]
    }
  }
  // A heading covers a column: it starts before the field's right edge and does not end far left
  // of it; a numbered part covers everything after it that starts to its right.
  // On a page set in two columns (the first holding a part), a block of the first column ends at the gutter.
  const acrossGutter = (h: Heading) =>
    columns !== undefined && partInFirst && h.rect.x2 <= columns.gutter && rect.x1 >= columns.gutter - 2 && rect.y1 >= columns.y1 - 2 &&
    rect.y2 <= columns.y2 + 2
  const covers = (h: Heading) => {
    const { x1, x2 } = h.across ?? h.rect
    return x1 <= rect.x2 && (h.level === 1 || (x2 >= rect.x1 - 160 && !acrossGutter(h)))
  }
  const above = pageHeadings.filter((h) => h.rect.y1 >= rect.y2 - 2 && covers(h)).sort((a, b) => a.rect.y1 - b.rect.y1)
  // On a page of two columns, the part printed over the field's own column, however near the other one's.
  // A field at the top of a page's second column, level with the part heading that tops the
  // first one, is in that part (read after the first column), not in the part carried over.
  const besideLeft = pageHeadings.filter((h) => h.level === 1 && h.rect.x2 <= rect.x1 && h.rect.y2 >= rect.y2 - 2 && !above.includes(h))
    .sort((a, b) => a.rect.y1 - b.rect.y1)[0]
  const overColumn = above.find((h) => h.level === 1 && h.rect.x2 > rect.x1)
  // A later part set in the same column as that one ends it, however short its title ("6.
  // Certification" under "5. Calculation of the sales and duty payable", for a field far right).
  const endedBy = overColumn && above.find((h) => h.level === 1 && h.rect.y1 < overColumn.rect.y1 && Math.abs(h.rect.x1 - overColumn.rect.x1) <= 4)
  const part = endedBy ?? overColumn ?? above.find((h) => h.level === 1) ?? besideLeft ?? carried
  // Nor is the nearest heading another column's part ("Part 6" lower in the left column, under
  // "Part 7" over the field's own column).
  const otherColumnPart = (h: Heading) => h !== part && h.level === 1 && h.rect.x2 <= rect.x1 && part !== undefined && part.rect.x2 > rect.x1
  const nearest = above.find((h) => !otherColumnPart(h))
  const path: Array<Heading> = []
  if (part) path.push(part)
  // The nearest heading is inside the part when read after it: lower in the part's column, or in a column to its right.
  // (A heading to the right that stands above the part, "Protected B" in the page's corner, is
  // the page's header, not a block of the part.)
  const readAfter = (h: Heading, first: Heading) => (first.rect.x2 <= h.rect.x1 && h.rect.y1 <= first.rect.y2) || h.rect.y1 < first.rect.y1
  if (nearest && nearest !== part && (part === undefined || part === carried || readAfter(nearest, part))) path.push(nearest)
  return path
}

/**
 * The headings of a form's pages (in page order) with their ranks settled across the form: the
 * kind of numbered heading that comes first ("Part 2. Application Type") is the form's parts, and
 * a numbered heading of another kind after it ("Section A. (To be used only by ...)" under Part 2)
 * is a heading inside a part, not a part of its own.
 */
export const ranked = (pages: ReadonlyArray<ReadonlyArray<Heading>>): ReadonlyArray<ReadonlyArray<Heading>> => {
  const kindOf = (h: Heading) => NUMBERED.exec(h.text)?.[0].split(/\s+/)[0]!.toLowerCase()
  const inOrder = pages.flatMap((headings) => [...headings].filter((h) => h.level === 1).sort((a, b) => b.rect.y1 - a.rect.y1))
  // A kind the form uses once (a stray "Schedule A" in a header) does not outrank one it is set out in.
  const kinds = inOrder.map(kindOf)
  const top = kinds.find((kind) => kind !== undefined && kinds.filter((k) => k === kind).length >= 2) ?? kinds[0]
  if (top === undefined) return pages
  return pages.map((headings) =>
    headings.map((h) => {
      const kind = h.level === 1 ? kindOf(h) : undefined
      return kind !== undefined && kind !== top ? { ...h, level: 2 as const } : h
    })
  )
}

/** The numbered heading a page ends under, to carry to the next page. */
export const lastNumbered = (pageHeadings: ReadonlyArray<Heading>, carried?: Heading): Heading | undefined =>
  [...pageHeadings].filter((h) => h.level === 1).sort((a, b) => a.rect.y1 - b.rect.y1)[0] ?? carried
