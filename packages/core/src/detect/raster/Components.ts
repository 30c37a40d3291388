/**
 * Connected pieces of ink (8-connected), found from row runs with a union-find, so the cost is
 * linear in the pixels and the memory in the number of runs. Each piece keeps its bounding box
 * and its ink count: enough to tell a small hollow square or ring (a check box, a radio button)
 * from a letter.
 */
import type { Bitmap } from "./Bitmap.ts"

/** A connected piece of ink: its box in pixels, `[x1, x2)` and `[y1, y2)`, and its ink pixels. */
export interface Component {
  readonly x1: number
  readonly y1: number
  readonly x2: number
  readonly y2: number
  readonly pixels: number
}

const find = (parent: Array<number>, i: number): number => {
  let root = i
  while (parent[root] !== root) root = parent[root]!
  while (parent[i] !== root) {
    const next = parent[i]!
    parent[i] = root
    i = next
  }
  return root
}

/** Every connected piece of ink in `mask`. */
export const label = (mask: Bitmap): Array<Component> => {
  const { width, height, data } = mask
  const parent: Array<number> = []
  const runX1: Array<number> = []
  const runX2: Array<number> = []
  const runY: Array<number> = []
  let previous: Array<number> = []
  for (let y = 0; y < height; y++) {
    const current: Array<number> = []
    const row = y * width
    let p = 0
    for (let x = 0; x < width; ) {
      if (data[row + x] === 0) {
        x++
        continue
      }
      const start = x
      while (x < width && data[row + x] !== 0) x++
      const id = parent.length
      parent.push(id)
      runX1.push(start)
      runX2.push(x)
      runY.push(y)
      current.push(id)
      // Runs of the row above touching this one, diagonals included.
      while (p < previous.length && runX2[previous[p]!]! < start) p++
      for (let q = p; q < previous.length && runX1[previous[q]!]! <= x; q++) {
        const a = find(parent, previous[q]!)
        const b = find(parent, id)
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b)
      }
    }
    previous = current
  }
  const boxes = new Map<number, { x1: number; y1: number; x2: number; y2: number; pixels: number }>()
  for (let i = 0; i < parent.length; i++) {
    const root = find(parent, i)
    const box = boxes.get(root)
    const [x1, x2, y] = [runX1[i]!, runX2[i]!, runY[i]!]
    if (box) {
      box.x1 = Math.min(box.x1, x1)
      box.x2 = Math.max(box.x2, x2)
      box.y1 = Math.min(box.y1, y)
      box.y2 = Math.max(box.y2, y + 1)
      box.pixels += x2 - x1
    } else boxes.set(root, { x1, y1: y, x2, y2: y + 1, pixels: x2 - x1 })
  }
  return [...boxes.values()]
}

/** Share of ink in the pixel rectangle `[x1, x2) x [y1, y2)` (clipped to the mask). */
export const inkShare = (mask: Bitmap, x1: number, y1: number, x2: number, y2: number): number => {
  const [a, b, c, d] = [Math.max(0, Math.floor(x1)), Math.max(0, Math.floor(y1)), Math.min(mask.width, Math.ceil(x2)), Math.min(mask.height, Math.ceil(y2))]
  if (c <= a || d <= b) return 0
  let ink = 0
  for (let y = b; y < d; y++) {
    const row = y * mask.width
    for (let x = a; x < c; x++) ink += mask.data[row + x]!
  }
  return ink / ((c - a) * (d - b))
}

/** Clears the pixels of `[x1, x2) x [y1, y2)` (clipped), e.g. to hide found shapes from OCR. */
export const erase = (mask: Bitmap, x1: number, y1: number, x2: number, y2: number, paper: number): void => {
  const [a, b, c, d] = [Math.max(0, Math.floor(x1)), Math.max(0, Math.floor(y1)), Math.min(mask.width, Math.ceil(x2)), Math.min(mask.height, Math.ceil(y2))]
  for (let y = b; y < d; y++) mask.data.fill(paper, y * mask.width + a, y * mask.width + c)
}
