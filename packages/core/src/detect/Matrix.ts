/**
 * PDF transformation matrices `[a b c d e f]`, as pdf.js operator lists carry them (`cm`, form
 * XObjects, images): shared by the readers of page drawing (`VectorLines`, `PageKind`).
 */
export type Matrix = readonly [number, number, number, number, number, number]

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0]

/** `m` after `n`: the matrix applying `n` first, as `cm` composes with the current matrix. */
export const compose = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5]
]

/** The point `(x, y)` under `m`. */
export const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]

/** A matrix from an operator's argument (an array or typed array of six finite numbers), else undefined. */
export const asMatrix = (value: unknown): Matrix | undefined => {
  if (value == null || typeof (value as ArrayLike<number>).length !== "number") return undefined
  const v = Array.from(value as ArrayLike<number>)
  return v.length >= 6 && v.slice(0, 6).every(Number.isFinite) ? [v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!] : undefined
}
