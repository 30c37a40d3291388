/**
 * Check boxes and radio buttons among the pieces of ink: a small piece about as wide as tall,
 * empty inside, inked all along its four sides (a square) or along its sides but not in its
 * corners (a ring). Sizes are in points, so the rule is the same at any render resolution.
 */
import type { Bitmap } from "./Bitmap.ts"
import { type Component, inkShare } from "./Components.ts"

export interface CheckShape extends Component {
  readonly round: boolean
}

/**
 * Check boxes are drawn at about 6-16 pt (the vector detector's range); the ink box includes the
 * stroke, so the band is a little wider here. Smaller is a bullet, larger a character or photo box.
 */
const MIN_SIDE_PT = 5
const MAX_SIDE_PT = 18
/**
 * Sides within 15 % of each other: a square. Pixel rounding costs a few percent; the "missing
 * glyph" boxes some renderers print for unknown characters are taller (about 1.2-1.3).
 */
const MAX_ASPECT = 1.15
/** Inside a blank box there is at most a speck of ink (anti-aliasing, a scan's noise). */
const MAX_INSIDE_INK = 0.06
/** Each side of a square is inked along nearly all its length. */
const MIN_SIDE_INK = 0.8
/** A ring leaves the corners of its box nearly empty. */
const MAX_CORNER_INK = 0.15
/**
 * A ring is only an option when it stands apart from other ink: an "o" in a word has letters on
 * both sides at letter spacing (a fraction of its width).
 */
const ISOLATION = 0.35
/** A square with ink this close (share of its width) on both sides is a glyph among letters. */
const SQUARE_ISOLATION = 0.2
/**
 * Rings closer together than ISOLATION are still options when they make a scale: at least this
 * many of one size in a row at even spacing, with nothing else beside the row (a rating "○○○○○").
 */
const MIN_SCALE_RINGS = 3

/** Share of positions along one side of `c` whose band (`band` pixels deep) holds ink. */
const sideCoverage = (mask: Bitmap, c: Component, side: "top" | "bottom" | "left" | "right", band: number): number => {
  let covered = 0
  const horizontal = side === "top" || side === "bottom"
  const [from, to] = horizontal ? [c.x1, c.x2] : [c.y1, c.y2]
  for (let k = from; k < to; k++) {
    let ink = 0
    for (let d = 0; d < band && !ink; d++) {
      const [x, y] =
        side === "top" ? [k, c.y1 + d] : side === "bottom" ? [k, c.y2 - 1 - d] : side === "left" ? [c.x1 + d, k] : [c.x2 - 1 - d, k]
      ink = mask.data[y * mask.width + x]!
    }
    covered += ink
  }
  return covered / Math.max(1, to - from)
}

/** The check boxes and radio buttons among `components` of `mask`, drawn at `pxPerPt` pixels per point. */
export const find = (mask: Bitmap, components: ReadonlyArray<Component>, pxPerPt: number): Array<CheckShape> => {
  const [min, max] = [MIN_SIDE_PT * pxPerPt, MAX_SIDE_PT * pxPerPt]
  const out: Array<CheckShape> = []
  const crowded: Array<Component> = []
  for (const c of components) {
    const [w, h] = [c.x2 - c.x1, c.y2 - c.y1]
    if (w < min || h < min || w > max || h > max || Math.max(w, h) > MAX_ASPECT * Math.min(w, h)) continue
    // A stroke is at most about a sixth of the side: deeper than that is a solid blob.
    const band = Math.max(1, Math.round(0.16 * Math.min(w, h)))
    // The middle two fifths: inside a ring drawn with a heavy stroke too (a square inset by a
    // quarter would reach the ring's inner edge at its corners).
    const inset = Math.max(band + 1, Math.round(0.3 * Math.min(w, h)))
    if (inkShare(mask, c.x1 + inset, c.y1 + inset, c.x2 - inset, c.y2 - inset) > MAX_INSIDE_INK) continue
    const sides = (["top", "bottom", "left", "right"] as const).map((s) => sideCoverage(mask, c, s, band))
    if (sides.every((s) => s >= MIN_SIDE_INK)) {
      // Boxes in a run of text at letter spacing on both sides are glyphs, not check boxes.
      const near = Math.max(1, Math.round(SQUARE_ISOLATION * w))
      const squeezed = inkShare(mask, c.x1 - near, c.y1, c.x1, c.y2) > 0 && inkShare(mask, c.x2, c.y1, c.x2 + near, c.y2) > 0
      if (!squeezed) out.push({ ...c, round: false })
      continue
    }
    // A circle passes 0.146 of the side from each corner of its box: a tenth stays clear of it.
    const corner = Math.max(1, Math.round(0.1 * Math.min(w, h)))
    const corners = [
      inkShare(mask, c.x1, c.y1, c.x1 + corner, c.y1 + corner),
      inkShare(mask, c.x2 - corner, c.y1, c.x2, c.y1 + corner),
      inkShare(mask, c.x1, c.y2 - corner, c.x1 + corner, c.y2),
      inkShare(mask, c.x2 - corner, c.y2 - corner, c.x2, c.y2)
    ]
    // Mid-sides of a ring: the middle third of each side of its box.
    const third = (a: number, b: number) => [a + (b - a) / 3, b - (b - a) / 3] as const
    const [mx1, mx2] = third(c.x1, c.x2)
    const [my1, my2] = third(c.y1, c.y2)
    const mids = [
      inkShare(mask, mx1, c.y1, mx2, c.y1 + band),
      inkShare(mask, mx1, c.y2 - band, mx2, c.y2),
      inkShare(mask, c.x1, my1, c.x1 + band, my2),
      inkShare(mask, c.x2 - band, my1, c.x2, my2)
    ]
    if (!corners.every((k) => k <= MAX_CORNER_INK) || !mids.every((m) => m >= 0.3)) continue
    const gap = Math.max(2, Math.round(ISOLATION * w))
    const alone = inkShare(mask, c.x1 - gap, c.y1, c.x1, c.y2) === 0 && inkShare(mask, c.x2, c.y1, c.x2 + gap, c.y2) === 0
    if (alone) out.push({ ...c, round: true })
    else crowded.push(c)
  }
  return [...out, ...scaleRings(mask, crowded)]
}

/**
 * The rings of `crowded` (ring-shaped but with ink close beside them) that stand in a row of
 * MIN_SCALE_RINGS or more of about one size at even spacing, the row with nothing else close on
 * either end: the options of a scale, where letters "o" in a word have other letters around them.
 */
const scaleRings = (mask: Bitmap, crowded: ReadonlyArray<Component>): Array<CheckShape> => {
  const out: Array<CheckShape> = []
  const sameRow = (a: Component, b: Component) => {
    const [ha, hb] = [a.y2 - a.y1, b.y2 - b.y1]
    return Math.abs(ha - hb) <= 0.15 * Math.max(ha, hb) && Math.abs(a.y1 + a.y2 - b.y1 - b.y2) / 2 <= 0.15 * ha
  }
  const sorted = [...crowded].sort((a, b) => a.x1 - b.x1)
  const taken = new Set<Component>()
  for (const first of sorted) {
    if (taken.has(first)) continue
    const row = [first]
    for (const next of sorted) {
      const last = row[row.length - 1]!
      if (next.x1 <= last.x1 || !sameRow(first, next)) continue
      const width = last.x2 - last.x1
      const space = next.x1 - last.x2
      // Touching or apart by less than a ring's width; the same spacing all along the row.
      if (space > width) break
      if (row.length >= 2 && Math.abs(space - (row[1]!.x1 - row[0]!.x2)) > Math.max(2, 0.25 * width)) break
      row.push(next)
    }
    if (row.length < MIN_SCALE_RINGS) continue
    const [head, tail] = [row[0]!, row[row.length - 1]!]
    const gap = Math.max(2, Math.round(ISOLATION * (head.x2 - head.x1)))
    const alone = inkShare(mask, head.x1 - gap, head.y1, head.x1, head.y2) === 0 && inkShare(mask, tail.x2, tail.y1, tail.x2 + gap, tail.y2) === 0
    if (!alone) continue
    for (const ring of row) {
      taken.add(ring)
      out.push({ ...ring, round: true })
    }
  }
  return out
}
