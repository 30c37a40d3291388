/**
 * Notes that govern a run of numbered items: "If you provided a United States address in Part 3.,
 * provide the person's foreign address in Item Numbers 3.a. - 3.f.:" printed before item 3.a., or
 * "For Item Numbers 9.a. - 9.e., provide the address where the person will work". The note says
 * which items it is about, so it is read with each of them, as accessible forms write it into
 * their /TU.
 */
import { itemNumberStarting } from "./FieldLabel.ts"
import type { Phrase, Rect } from "./TextLayout.ts"
import { withLineBelow } from "./TextLayout.ts"

/** An item number as an ordered key: "3.b." is [3, "b"], "10." is [10, ""]. */
export type ItemKey = readonly [number, string]

/** A note and the items it names, first to last. */
export interface ItemNote {
  readonly text: string
  readonly rect: Rect
  readonly from: ItemKey
  readonly to: ItemKey
}

// "Item Numbers 3.a. - 3.f.", "Item Number 2.", "Items 6.a. through 10.", "Item Numbers 4. or 5.".
const ITEM_REF = String.raw`\d{1,3}(?:\.?[a-z]\d?)?\.?`
const MENTION = new RegExp(String.raw`\bItems?(?:\s+Numbers?)?\s+(${ITEM_REF}(?:\s*(?:-|–|—|through|to|and|or|,)\s*${ITEM_REF})*)`, "gi")
// A note governs a run of items only when it names one ("3.a. - 3.f."); a single reference or a
// choice ("Item Numbers 4. or 5.") points at items elsewhere.
const RANGE = new RegExp(String.raw`${ITEM_REF}\s*(?:-|–|—|through|to|and)\s*${ITEM_REF}`, "i")
const JUMP = /\b(?:proceed|go|skip|continue|move|turn)\s+(?:on\s+)?to\s*$/i

/** The key of an item number ("3.b.", "12a", "(4)"), or `undefined` when it is none. */
export const keyOf = (number: string): ItemKey | undefined => {
  const match = /(\d{1,3})(?:\.?([a-z]))?/i.exec(number)
  return match ? [Number(match[1]), (match[2] ?? "").toLowerCase()] : undefined
}

const compare = (a: ItemKey, b: ItemKey): number => a[0] - b[0] || a[1].localeCompare(b[1])

/** Whether item `key` lies in a note's run: "10." as the last item takes in "10.a." and "10.b.". */
export const names = (note: ItemNote, key: ItemKey): boolean =>
  compare(key, note.from) >= 0 && (compare(key, note.to) <= 0 || (note.to[1] === "" && key[0] === note.to[0]))

const endsSentence = (p: Phrase) => /[.:;?!)]$/.test(p.text.trim())

/**
 * The paragraphs of a page: lines one under another, starting in one column, in one size. A
 * line that starts an item after a line that ends a sentence starts a paragraph of its own.
 */
const paragraphs = (phrases: ReadonlyArray<Phrase>): ReadonlyArray<ReadonlyArray<Phrase>> => {
  const next = (line: Phrase) =>
    phrases.find((p) =>
      p !== line && p.y2 < line.y1 + 0.3 * p.size && line.y1 - p.y2 <= 0.8 * p.size && Math.abs(p.x1 - line.x1) <= 3 &&
      Math.abs(p.size - line.size) <= 1 && !(endsSentence(line) && itemNumberStarting(p.text) !== undefined)
    )
  const following = new Set(phrases.map(next).filter((p) => p !== undefined))
  return phrases.filter((p) => !following.has(p)).map((first) => {
    const lines = [first]
    for (let line = next(first); line !== undefined && lines.length < 8 && !lines.includes(line); line = next(line)) lines.push(line)
    return lines
  })
}

/**
 * The notes of a page that name a run of items. `taken` are the phrases that label or caption a
 * field: a question or a caption that names items ("Yes (Proceed to Item Numbers 5.a. - 5.c.)")
 * belongs to its own box.
 */
export const itemNotes = (phrases: ReadonlyArray<Phrase>, taken: ReadonlySet<Phrase>): ReadonlyArray<ItemNote> =>
  paragraphs(phrases).flatMap((lines) => {
    if (lines.some((p) => taken.has(p)) || itemNumberStarting(lines[0]!.text) !== undefined) return []
    const text = lines.map((p) => p.text.trim()).join(" ")
    // "(... proceed to Item Number 4.)" sends the reader on: item 4 is not the note's.
    const mentions = [...text.matchAll(MENTION)].filter((m) => !JUMP.test(text.slice(0, m.index))).map((m) => m[1]!)
    if (!mentions.some((m) => RANGE.test(m))) return []
    const sorted = mentions.flatMap((m) => [...m.matchAll(new RegExp(ITEM_REF, "gi"))].map((k) => keyOf(k[0])!)).sort(compare)
    const rect = lines.slice(1).reduce<Rect>((r, p) => withLineBelow(r, p), lines[0]!)
    return [{ text: text.replace(/[\s:;,]+$/, ""), rect, from: sorted[0]!, to: sorted[sorted.length - 1]! }]
  })

/**
 * Whether a note ends the block of `heading` above it in its column: items the note does not name
 * are printed between the two ("Mailing Address" over items 5.a. to 5.g., then "If you answer
 * "Yes" to Item Numbers 6.a. - 10., ..."). A note right under its heading ("Worksite Location",
 * then "For Item Numbers 9.a. - 9.e., ...") is the block's own.
 */
export const endsBlockOf = (note: ItemNote, heading: Rect, phrases: ReadonlyArray<Phrase>): boolean =>
  heading.y1 >= note.rect.y2 && heading.x1 <= note.rect.x2 && heading.x2 >= note.rect.x1 &&
  phrases.some((p) => {
    if (p.y1 < note.rect.y2 || p.y2 > heading.y1 || p.x1 < note.rect.x1 - 3 || p.x1 > note.rect.x2) return false
    const number = itemNumberStarting(p.text)
    const key = number !== undefined ? keyOf(number) : undefined
    return key !== undefined && !names(note, key)
  })
