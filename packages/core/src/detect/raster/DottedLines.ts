/**
 * Broken lines: dotted leaders ("Name ..............."), the typewriter blank of many forms, and
 * rows of underscores drawn as separate dashes ("Date: ____, 20__"): a row of small, flat pieces
 * of ink at an even pitch on one baseline. Found from the pieces of ink in one sweep left to
 * right, so the cost is linear in the number of pieces.
 */
import type { Component } from "./Components.ts"
import type { PixelLine } from "./RunLines.ts"

/** A dot is at most 1.5 pt across: a period or a leader dot at text sizes up to about 14 pt. */
const MAX_DOT_PT = 1.5
/** Leader dots are about a period's advance apart (2.5-3 pt at 10 pt); wider gaps end the line. */
const MAX_PITCH_PT = 5
/** Eight dots make a line; fewer are an ellipsis or punctuation. */
const MIN_DOTS = 8
/** An underscore glyph is at most about 8 pt long (a wide font at 14 pt). */
const MAX_DASH_PT = 8
/** Three dashes that together cover most of their span are a line drawn with breaks. */
const MIN_DASHES = 3
const MIN_DASH_COVER = 0.6

interface Chain {
  x1: number
  x2: number
  bottom: number
  top: number
  dots: number
  lastX2: number
  /** Pixels of the span under the pieces. */
  inked: number
}

/** A broken line: `dashed` when dotted, solid when its pieces cover most of it (underscores). */
export interface BrokenLine extends PixelLine {
  readonly dashed: boolean
}

/** Broken lines among `components`, on the pieces' centre row. */
export const find = (components: ReadonlyArray<Component>, pxPerPt: number): Array<BrokenLine> => {
  // Anti-aliasing or a scan's blur widens a dot by up to a pixel on each side.
  const maxDot = MAX_DOT_PT * pxPerPt + 2
  const maxGap = MAX_PITCH_PT * pxPerPt
  const maxDash = MAX_DASH_PT * pxPerPt
  const dots = components
    .filter((c) => c.x2 - c.x1 <= maxDash && c.y2 - c.y1 <= maxDot && c.pixels >= 0.4 * (c.x2 - c.x1) * (c.y2 - c.y1))
    .sort((a, b) => a.x1 - b.x1)
  // Open chains by the row of their dots' bottom; a dot continues a chain a row above or below.
  const open = new Map<number, Chain>()
  const done: Array<Chain> = []
  for (const d of dots) {
    let chain: Chain | undefined
    for (const row of [d.y2, d.y2 - 1, d.y2 + 1]) {
      const c = open.get(row)
      if (c && d.x1 - c.lastX2 <= maxGap && d.x1 >= c.lastX2) {
        chain = c
        open.delete(row)
        break
      }
      if (c && d.x1 - c.lastX2 > maxGap) {
        done.push(c)
        open.delete(row)
      }
    }
    if (chain) {
      chain.x2 = d.x2
      chain.lastX2 = d.x2
      chain.dots++
      chain.inked += d.x2 - d.x1
      chain.bottom = Math.max(chain.bottom, d.y2)
      chain.top = Math.min(chain.top, d.y1)
    } else chain = { x1: d.x1, x2: d.x2, bottom: d.y2, top: d.y1, dots: 1, lastX2: d.x2, inked: d.x2 - d.x1 }
    open.set(d.y2, chain)
  }
  done.push(...open.values())
  return done.flatMap((c) => {
    const cover = c.inked / Math.max(1, c.x2 - c.x1)
    const solid = c.dots >= MIN_DASHES && cover >= MIN_DASH_COVER
    // Dots are round: a chain of flat dashes covering little of its span is a row of hyphens.
    if (!solid && c.dots < MIN_DOTS) return []
    return [{ x1: c.x1, x2: c.x2, y: (c.top + c.bottom) / 2, thickness: c.bottom - c.top, dashed: !solid }]
  })
}
