/**
 * Panels a form keeps for its office ("For USCIS Use Only", "For office use", "Do not write in
 * this space"): their boxes are for the office's stamps and notes, not for the person filling the
 * form in, so no field is put there (fillable forms leave them flat too).
 *
 * A panel is the boxes drawn together with the one that says so: the boxes touching it, and
 * those touching them. Where they run on over much of the page (the form is one grid), the
 * words name a cell of it, not a panel, and nothing is left out.
 */
import { roleOf } from "../understand/Vocabulary.ts"
import type { PageContext } from "./Candidate.ts"
import { area, centreInside, pieceCentreInside } from "./Geometry.ts"
import type { Rect } from "./VectorLines.ts"

/** A panel covering more of the page than this is the page's grid, not a panel. */
const MAX_PAGE_SHARE = 0.25
/** A word found in each of the office's phrases (Vocabulary's "official" role), to pass most pages by. */
const HINT = /use|office|official|write|r[eé]serv|intern|amt|beh[oö]rd|uso|rellenar|espacio|agency|administration/i
/** Boxes this close (in points) are drawn together. */
const TOUCH = 2

const touches = (a: Rect, b: Rect) =>
  a.x1 <= b.x2 + TOUCH && b.x1 <= a.x2 + TOUCH && a.y1 <= b.y2 + TOUCH && b.y1 <= a.y2 + TOUCH

/** The office's panels on a page, as rectangles. */
export const panels = (context: PageContext): Array<Rect> => {
  const { boxes, pieces } = context
  // Most pages say nothing of the kind: a word of every phrase `roleOf` knows for the office first.
  if (!pieces.some((p) => HINT.test(p.text))) return []
  const seeds = boxes.filter((b) => {
    const inside = pieces.filter((p) => pieceCentreInside(p, b))
    if (inside.length === 0) return false
    const text = [...inside].sort((p, q) => q.y - p.y || p.x1 - q.x1).map((p) => p.text).join(" ")
    return roleOf(text) === "official"
  })
  const largest = MAX_PAGE_SHARE * context.pageWidth * context.pageHeight
  const out: Array<Rect> = []
  for (const seed of seeds) {
    if (out.some((r) => seed.x1 >= r.x1 && seed.x2 <= r.x2 && seed.y1 >= r.y1 && seed.y2 <= r.y2)) continue
    // The boxes drawn together with it, reached one touching box at a time.
    const group = new Set<Rect>([seed])
    const queue: Array<Rect> = [seed]
    let bounds: Rect = seed
    while (queue.length > 0 && area(bounds) <= largest) {
      const g = queue.pop()!
      for (const b of boxes) {
        if (group.has(b) || !touches(g, b)) continue
        group.add(b)
        queue.push(b)
        bounds = { x1: Math.min(bounds.x1, b.x1), y1: Math.min(bounds.y1, b.y1), x2: Math.max(bounds.x2, b.x2), y2: Math.max(bounds.y2, b.y2) }
      }
    }
    if (area(bounds) <= largest) out.push(bounds)
  }
  return out
}

/** Whether a field's middle lies in one of `panels`. */
export const inPanel = (rect: Rect, panels: ReadonlyArray<Rect>): boolean =>
  panels.some((p) => centreInside((rect.x1 + rect.x2) / 2, (rect.y1 + rect.y2) / 2, p))
