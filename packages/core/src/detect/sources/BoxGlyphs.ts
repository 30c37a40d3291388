/**
 * Check-box candidates from glyphs printed in the text: "☐ Yes", "[ ] No", "○ Option". The
 * glyph's extent is estimated from the text run, so the field is a square on its baseline.
 */
import type { Candidate, PageContext } from "../Candidate.ts"

export const candidates = (context: PageContext): Array<Candidate> => {
  if (!context.options.allowCheckboxes) return []
  return context.glyphs.map((g) => {
    // A box glyph fills about the x-height to cap-height band: from just under the baseline to
    // about 0.75 em above it. Square, centred on the glyph's estimated extent.
    const side = Math.min(Math.max(g.x2 - g.x1, 0.5 * g.size), 0.85 * g.size)
    const cx = (g.x1 + g.x2) / 2
    const y1 = g.y - 0.08 * g.size
    const rect = { x1: cx - side / 2, y1, x2: cx + side / 2, y2: y1 + side }
    return { kind: "CheckBox" as const, source: "glyph" as const, rect, band: [rect.y1, rect.y2] as const, sized: false, features: { round: g.round } }
  })
}
