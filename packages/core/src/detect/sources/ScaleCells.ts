/**
 * Check-box candidates from a numbered scale: a row of three or more boxes or table cells of one
 * height, each holding nothing but a number, the numbers counting up by one from left to right
 * ("1 2 3 4 5" under "never ... always", "Choose a number from 1 to 9"). The person ticks or
 * circles one of them, so each cell is an option. A row of numbers heading empty columns is a
 * table's column numbering, not a scale.
 */
import type { Candidate, PageContext } from "../Candidate.ts"
import { height, pieceCentreInside, width } from "../Geometry.ts"
import type { Box } from "../VectorLines.ts"

const NUMBER = /^\d{1,2}$/
const MIN_OPTIONS = 3
/** Cells of a scale are cells of a row, not pages of text. */
const MAX_HEIGHT = 30
const MAX_WIDTH = 120

interface Numbered {
  readonly box: Box
  readonly value: number
}

const sameRow = (a: Box, b: Box) => Math.abs(a.y1 - b.y1) <= 1.5 && Math.abs(a.y2 - b.y2) <= 1.5

/** Empty boxes right under the row, as wide as its cells: the row numbers a table's columns. */
const headsColumns = (row: ReadonlyArray<Numbered>, context: PageContext): boolean => {
  const under = row.filter(({ box }) =>
    context.boxes.some((o) =>
      o !== box && Math.abs(o.x1 - box.x1) <= 2 && Math.abs(o.x2 - box.x2) <= 2 && Math.abs(o.y2 - box.y1) <= 2 &&
      !context.pieces.some((p) => pieceCentreInside(p, o))
    )
  )
  return under.length * 2 >= row.length
}

export const candidates = (context: PageContext): Array<Candidate> => {
  if (!context.options.allowCheckboxes) return []
  const numbered: Array<Numbered> = []
  for (const box of context.boxes) {
    const [w, h] = [width(box), height(box)]
    if (w < 8 || h < 8 || w > MAX_WIDTH || h > MAX_HEIGHT) continue
    const inside = context.pieces.filter((p) => pieceCentreInside(p, box))
    if (inside.length !== 1 || !NUMBER.test(inside[0]!.text.trim())) continue
    numbered.push({ box, value: Number(inside[0]!.text.trim()) })
  }
  const out: Array<Candidate> = []
  const used = new Set<Numbered>()
  for (const start of [...numbered].sort((a, b) => a.box.x1 - b.box.x1)) {
    if (used.has(start)) continue
    const row = [start]
    for (;;) {
      const last = row[row.length - 1]!
      const next = numbered.find((n) =>
        !used.has(n) && n.value === last.value + 1 && sameRow(n.box, last.box) && n.box.x1 >= last.box.x2 - 1.5 &&
        n.box.x1 - last.box.x2 <= width(last.box)
      )
      if (!next) break
      row.push(next)
    }
    if (row.length < MIN_OPTIONS) continue
    for (const n of row) used.add(n)
    if (headsColumns(row, context)) continue
    for (const { box } of row) {
      out.push({ kind: "CheckBox", source: "checkbox", rect: box, band: [box.y1, box.y2], sized: false, features: {} })
    }
  }
  return out
}
