/**
 * Candidates from underscore runs in the text ("Name: ________"), the typewriter way of drawing
 * a blank. The run's baseline is the line to write on.
 */
import type { Candidate, PageContext } from "../Candidate.ts"
import type { UnderscoreRun } from "../Underscores.ts"

/** Shorter runs ("___" after a number) are decoration or a tiny blank: about two characters. */
const MIN_WIDTH = 12

/**
 * Dots running up to a number on their line lead the eye there ("Total ........ 12", a contents
 * line's page): no blank. Dots running on into words are a blank in a sentence ("born in
 * ………… on …………, with passport …………").
 */
const leadsToNumber = (u: UnderscoreRun, context: PageContext): boolean =>
  context.pieces.some((p) => /^[\s($€£]*\p{N}/u.test(p.text) && p.x1 >= u.x2 - 1 && p.x1 - u.x2 <= 1.5 * u.size && Math.abs(p.y - u.y) <= 0.3 * u.size)

export const candidates = (context: PageContext): Array<Candidate> =>
  context.underscores.flatMap((u) => {
    if (u.x2 - u.x1 < MIN_WIDTH) return []
    if (u.dotted && leadsToNumber(u, context)) return []
    // The underscore glyph is drawn about a tenth of an em under the baseline: sit on it.
    const y1 = u.y - 0.1 * u.size
    return [
      {
        kind: "Text" as const,
        source: "underscore" as const,
        rect: { x1: u.x1, y1, x2: u.x2, y2: y1 + Math.max(12, 1.3 * u.size) },
        band: [u.y - 0.22 * u.size, u.y + 0.78 * u.size] as const,
        sized: true,
        line: y1,
        features: u.dotted ? { dashed: true } : {}
      }
    ]
  })
