/**
 * Candidates from drawn horizontal rules: the line a person writes on. Table borders, leaders
 * pointing elsewhere and the parts of a rule that text already stands on are not blanks.
 */
import type { Candidate, PageContext } from "../Candidate.ts"
import { pieceBottom, pieceTop } from "../Geometry.ts"
import type { HorizontalSegment } from "../VectorLines.ts"

/** Shortest rule worth a text field, in points (about four characters). */
export const MIN_RULE = 24

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

/** A dotted line running up to text or a box on its right leads the eye there; it is no blank. */
const isLeader = (h: HorizontalSegment, context: PageContext): boolean =>
  context.pieces.some((p) => p.x1 >= h.x2 - 2 && p.x1 - h.x2 <= 20 && pieceBottom(p) < h.y + 12 && pieceTop(p) > h.y - 3) ||
  context.input.graphics.boxes.some((b) => b.x1 >= h.x2 - 2 && b.x1 - h.x2 <= 20 && b.y1 < h.y + 12 && b.y2 > h.y - 3)

export const candidates = (context: PageContext): Array<Candidate> => {
  const { pieces, input, structural, pageWidth } = context
  const out: Array<Candidate> = []
  for (const h of input.graphics.horizontals) {
    const length = h.x2 - h.x1
    // Near page-wide rules separate sections.
    if (length < MIN_RULE || length > 0.9 * pageWidth || structural.has(h)) continue
    if (h.dashed && isLeader(h, context)) continue
    // Text standing on the rule (an underlined heading, a label written on the line) is not
    // blank space; what is left of the rule beside it is. Outlined glyphs count as text here.
    const standing = pieces
      .filter((p) => p.x2 > h.x1 && p.x1 < h.x2 && p.y >= h.y - 1 && p.y <= h.y + 0.5 * p.size + 2)
      .map((p) => [p.x1 - 2, p.x2 + 2] as const)
    const inked = input.graphics.marks
      .filter((m) => m.x2 > h.x1 && m.x1 < h.x2 && m.y1 >= h.y - 1 && m.y1 <= h.y + 6)
      .map((m) => [m.x1 - 2, m.x2 + 2] as const)
    const y1 = h.y + h.thickness / 2
    for (const [a, b] of freeIntervals(h.x1, h.x2, [...standing, ...inked])) {
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
