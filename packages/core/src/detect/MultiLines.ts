/**
 * Multi-line areas: three or more blank lines stacked at an even pitch, with the same left and
 * right ends and nothing written between them, are one field whose text wraps (a "describe" or
 * "explain" answer), not separate one-line fields.
 */
import type { Candidate, PageContext } from "./Candidate.ts"
import { pieceBottom, pieceTop } from "./Geometry.ts"
import type { TextPiece } from "./Underscores.ts"

const MIN_LINES = 3

const isLine = (c: Candidate) => c.line !== undefined && (c.source === "rule" || c.source === "underscore")

/** Text within reach left of a line, in its column's width. */
const leftOf = (c: Candidate, p: TextPiece, context: PageContext): boolean => p.x2 <= c.rect.x1 + 1 && p.x2 >= c.rect.x1 - 20 * context.fontSize

/**
 * A wall between x1 and x2 at height y: a vertical rule or an outlined box's side. Text beyond it
 * is in another cell (a comb's caption beside a ruled area), not the line's label.
 */
const walled = (x1: number, x2: number, y: number, context: PageContext): boolean => {
  const { verticals, boxes } = context.input.graphics
  const across = (x: number, y1: number, y2: number) => x >= x1 - 1 && x <= x2 + 1 && y >= y1 && y <= y2
  return verticals.some((v) => across(v.x, v.y1, v.y2)) || boxes.some((b) => b.stroked && (across(b.x1, b.y1, b.y2) || across(b.x2, b.y1, b.y2)))
}

/** The text on the line's own baseline, left of it on its side of any wall: "Label: ____". The nearest piece. */
const leftLabel = (c: Candidate, context: PageContext): TextPiece | undefined =>
  context.pieces
    .filter(
      (p) => leftOf(c, p, context) && pieceTop(p) > c.line! && pieceBottom(p) < c.line! + context.fontSize && !walled(p.x2, c.rect.x1, c.line!, context)
    )
    .sort((a, b) => b.x2 - a.x2)[0]

const labelledOnLeft = (c: Candidate, context: PageContext): boolean => leftLabel(c, context) !== undefined

/** An item's number alone ("5.d.", "12b", "(3)", "a."): it opens the answer written below it. */
const ITEM_NUMBER = /^(?:\(?\d{1,3}(?:\.?[a-z]{1,2}|\.\d{1,2})?[.)]?|\(?[a-z][.)])$/i

/**
 * A check box right after the line's end, on its height: the line is one entry of a list, each
 * with its own marks (a goal and its progress circles), not a line of a wrapped answer.
 */
const endsInCheckBox = (c: Candidate, candidates: ReadonlyArray<Candidate>, context: PageContext): boolean =>
  candidates.some(
    (o) =>
      o.kind === "CheckBox" && o.rect.x1 >= c.rect.x2 - 1 && o.rect.x1 - c.rect.x2 <= 3 * context.fontSize &&
      (o.rect.y1 + o.rect.y2) / 2 > c.line! - 2 && (o.rect.y1 + o.rect.y2) / 2 < c.line! + 1.5 * context.fontSize
  )

export const merge = (candidates: ReadonlyArray<Candidate>, context: PageContext): Array<Candidate> => {
  // Lines stack at about one to three em of the page's text apart.
  const maxPitch = 3 * context.fontSize
  const minPitch = 0.9 * context.fontSize
  const lines = candidates.filter(isLine).sort((a, b) => b.line! - a.line!)
  const used = new Set<Candidate>()
  const merged: Array<Candidate> = []
  for (const top of lines) {
    // "Address: ____" over unlabelled lines is a field with continuation lines, each its own
    // field; a stack of lines under a question is one area.
    // An item number alone ("5.d.") opens a stack all the same: the item's answer starts there.
    const own = leftLabel(top, context)
    if (used.has(top) || (own !== undefined && !ITEM_NUMBER.test(own.text)) || endsInCheckBox(top, candidates, context)) continue
    const stack = [top]
    for (const c of lines) {
      const last = stack[stack.length - 1]!
      if (c.line! >= last.line! || used.has(c)) continue
      const pitch = last.line! - c.line!
      if (pitch > maxPitch) break
      const sameEnds = Math.abs(c.rect.x1 - top.rect.x1) <= 3 && Math.abs(c.rect.x2 - top.rect.x2) <= 3
      const even = stack.length < 2 || Math.abs(pitch - (stack[0]!.line! - stack[1]!.line!)) <= 2
      if (!sameEnds || !even || pitch < minPitch) continue
      // Words between the two lines make the lower one a field of its own.
      const between = context.pieces.some((p) => p.x2 > c.rect.x1 && p.x1 < c.rect.x2 && pieceBottom(p) >= c.line! - 1 && pieceTop(p) <= last.line! + 1)
      // Nor may it have its own label on its left ("Federal tax ____" under "State tax ____").
      const labelled = labelledOnLeft(c, context)
      if (between || labelled || endsInCheckBox(c, candidates, context)) break
      stack.push(c)
    }
    if (stack.length < MIN_LINES) continue
    for (const c of stack) used.add(c)
    const bottom = stack[stack.length - 1]!
    const pitch = (top.line! - bottom.line!) / (stack.length - 1)
    // One pitch above the top line, but never over the question printed there.
    const textAbove = context.pieces
      .filter((p) => p.x2 > top.rect.x1 && p.x1 < top.rect.x2 && pieceBottom(p) > top.line!)
      .map((p) => pieceBottom(p) - 0.5)
    const rect = { x1: top.rect.x1, y1: bottom.rect.y1, x2: top.rect.x2, y2: Math.min(top.rect.y1 + pitch, ...textAbove) }
    merged.push({
      kind: "Text",
      source: top.source,
      rect,
      band: top.band,
      sized: false,
      multiline: true,
      features: top.features
    })
  }
  return [...candidates.filter((c) => !used.has(c)), ...merged]
}

/** Lines of blank space above a line, under its question, that make it an answer area. */
const ANSWER_LINES = 2.5
const MAX_ANSWER_HEIGHT = 120
/** A prompt that asks for an answer: it ends with a colon or a question mark. */
const PROMPT = /[:?：？]\s*$/u

/**
 * A line under a question with several lines of blank space between them ("(d) List any
 * disabilities you wish to reveal:", then room, then the line): the whole space is the answer, as
 * a person filling the form by hand uses it. Nothing but blank paper may lie between.
 */
const answerArea = (c: Candidate, context: PageContext, others: ReadonlyArray<Candidate>): Candidate | undefined => {
  const rect = c.rect
  const line = c.line!
  const overlapsX = (x1: number, x2: number) => x1 < rect.x2 - 1 && x2 > rect.x1 + 1
  const above = context.pieces.filter((p) => overlapsX(p.x1, p.x2) && pieceBottom(p) > line + 1).sort((a, b) => pieceBottom(a) - pieceBottom(b))
  const question = above[0]
  if (!question) return undefined
  const top = pieceBottom(question) - 1
  if (top - line < ANSWER_LINES * context.fontSize || top - line > MAX_ANSWER_HEIGHT) return undefined
  // The question's own line: it ends asking, and starts near where the answer line starts.
  const words = context.pieces.filter((p) => Math.abs(p.y - question.y) < 0.3 * question.size).sort((a, b) => a.x2 - b.x2)
  if (!PROMPT.test(words.at(-1)!.text) || Math.min(...words.map((p) => p.x1)) > rect.x1 + 60) return undefined
  const between = (y1: number, y2: number) => y2 > line + 1 && y1 < top
  const { horizontals, boxes, marks } = context.input.graphics
  if (horizontals.some((h) => overlapsX(h.x1, h.x2) && between(h.y, h.y))) return undefined
  if ([...boxes, ...marks].some((b) => overlapsX(b.x1, b.x2) && between(b.y1, b.y2))) return undefined
  if (others.some((o) => o !== c && overlapsX(o.rect.x1, o.rect.x2) && between(o.rect.y1, o.rect.y2))) return undefined
  const area = { x1: rect.x1, y1: rect.y1, x2: rect.x2, y2: top }
  return { ...c, rect: area, band: [area.y1, area.y2], sized: false, multiline: true }
}

/** Lines that are the bottom of an answer area become the area (see `answerArea`). */
export const answerAreas = (candidates: ReadonlyArray<Candidate>, context: PageContext): Array<Candidate> =>
  candidates.map((c) =>
    c.kind === "Text" && isLine(c) && !c.multiline && !labelledOnLeft(c, context) ? answerArea(c, context, candidates) ?? c : c
  )
