/**
 * Radio groups: round buttons lined up in one column or one row, close together, are the options
 * of one question (mutually exclusive). Square boxes stay independent check boxes.
 */
import { height } from "./Geometry.ts"
import type { Rect } from "./VectorLines.ts"

export interface Button {
  readonly rect: Rect
}

/**
 * Indices of `buttons` grouped: each group has two or more buttons aligned (same left edge, or
 * same baseline) with gaps of at most a few button heights between neighbours.
 */
export const group = (buttons: ReadonlyArray<Button>): Array<Array<number>> => {
  const parent = buttons.map((_, i) => i)
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)))
  const join = (a: number, b: number) => {
    parent[find(a)] = find(b)
  }
  const link = (axis: "column" | "row") => {
    const order = buttons
      .map((b, i) => [b, i] as const)
      .sort(([a], [b]) => (axis === "column" ? a.rect.x1 - b.rect.x1 || b.rect.y1 - a.rect.y1 : a.rect.y1 - b.rect.y1 || a.rect.x1 - b.rect.x1))
    for (let k = 1; k < order.length; k++) {
      const [[a, i], [b, j]] = [order[k - 1]!, order[k]!]
      const size = Math.max(height(a.rect), height(b.rect))
      // Options of one question sit within a button's size of one line, a few lines apart
      // (column) or a sentence apart (row).
      if (axis === "column" && Math.abs(a.rect.x1 - b.rect.x1) <= 0.3 * size && Math.abs(a.rect.y1 - b.rect.y1) <= 3 * size) join(i, j)
      if (axis === "row" && Math.abs(a.rect.y1 - b.rect.y1) <= 0.3 * size && Math.abs(a.rect.x1 - b.rect.x2) <= 25 * size) join(i, j)
    }
  }
  link("column")
  link("row")
  const groups = new Map<number, Array<number>>()
  buttons.forEach((_, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), i]))
  return [...groups.values()].filter((g) => g.length >= 2)
}
