/**
 * Multi-line areas: three or more blank lines stacked at an even pitch, with the same left and
 * right ends and nothing written between them, are one field whose text wraps (a "describe" or
 * "explain" answer), not separate one-line fields.
 */
import type { Candidate, PageContext } from "./Candidate.ts"
import { pieceBottom, pieceTop } from "./Geometry.ts"

const MIN_LINES = 3

const isLine = (c: Candidate) => c.line !== undefined && (c.source === "rule" || c.source === "underscore")

/** Text on the line's own baseline, left of it: "Label: ____". */
const labelledOnLeft = (c: Candidate, context: PageContext): boolean =>
  context.pieces.some(
    (p) => p.x2 <= c.rect.x1 + 1 && p.x2 >= c.rect.x1 - 20 * context.fontSize && pieceTop(p) > c.line! && pieceBottom(p) < c.line! + context.fontSize
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
    if (used.has(top) || labelledOnLeft(top, context)) continue
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
      if (between || labelled) break
      stack.push(c)
    }
    if (stack.length < MIN_LINES) continue
    for (const c of stack) used.add(c)
    const bottom = stack[stack.length - 1]!
    const pitch = (top.line! - bottom.line!) / (stack.length - 1)
    const rect = { x1: top.rect.x1, y1: bottom.rect.y1, x2: top.rect.x2, y2: top.rect.y1 + pitch }
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
