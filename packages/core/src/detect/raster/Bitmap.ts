/**
 * A page picture as the raster detector works on it: one byte per pixel, row by row, top row
 * first. Grey pictures hold brightness (0 black .. 255 white); ink masks hold 1 for ink, 0 for
 * paper. Everything here is one pass over the pixels, so a page costs time and memory linear in
 * its size.
 */

export interface Bitmap {
  readonly width: number
  readonly height: number
  readonly data: Uint8Array
}

/** Brightness of RGBA pixels (ITU-R 601 weights), transparent pixels taken as white paper. */
export const greyFromRgba = (rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Bitmap => {
  const data = new Uint8Array(width * height)
  for (let i = 0, p = 0; i < data.length; i++, p += 4) {
    const alpha = rgba[p + 3]!
    const lum = (299 * rgba[p]! + 587 * rgba[p + 1]! + 114 * rgba[p + 2]!) / 1000
    data[i] = Math.round((lum * alpha + 255 * (255 - alpha)) / 255)
  }
  return { width, height, data }
}

/** Anything darker than 43 % grey is ink; anything lighter than 78 % is paper (tints, shading). */
const MIN_THRESHOLD = 110
const MAX_THRESHOLD = 200

/**
 * Otsu's threshold: the brightness that best splits the histogram into two classes (ink and
 * paper). A page is mostly paper, so the split lands between the text and the paper, leaving
 * light tints (shaded boxes) on the paper side: they are backgrounds, not lines to write on.
 */
export const otsuThreshold = (grey: Bitmap): number => {
  const histogram = new Float64Array(256)
  for (const v of grey.data) histogram[v]!++
  const total = grey.data.length
  let sumAll = 0
  for (let v = 0; v < 256; v++) sumAll += v * histogram[v]!
  let weightBack = 0
  let sumBack = 0
  let best = 0
  let threshold = 128
  for (let t = 0; t < 256; t++) {
    weightBack += histogram[t]!
    if (weightBack === 0) continue
    const weightFore = total - weightBack
    if (weightFore === 0) break
    sumBack += t * histogram[t]!
    const meanBack = sumBack / weightBack
    const meanFore = (sumAll - sumBack) / weightFore
    const between = weightBack * weightFore * (meanBack - meanFore) ** 2
    if (between > best) {
      best = between
      threshold = t
    }
  }
  // A blank or nearly uniform page has no real split; mid-grey keeps paper as paper. A large
  // tinted area makes a third class, and Otsu may then split black from the rest (losing the
  // grey edges of thin lines) or tint from white: the split is kept where grey is ink and a
  // light tint is paper.
  return best === 0 ? 128 : Math.min(MAX_THRESHOLD, Math.max(MIN_THRESHOLD, threshold))
}

/** Ink mask: 1 where the pixel is at most `threshold` (Otsu's by default). */
export const binarize = (grey: Bitmap, threshold = otsuThreshold(grey)): Bitmap => {
  const data = new Uint8Array(grey.data.length)
  for (let i = 0; i < data.length; i++) data[i] = grey.data[i]! <= threshold ? 1 : 0
  return { width: grey.width, height: grey.height, data }
}

/** The picture turned about its diagonal (rows become columns), so column scans reuse row scans. */
export const transpose = (bitmap: Bitmap): Bitmap => {
  const { width, height, data } = bitmap
  const out = new Uint8Array(data.length)
  for (let y = 0; y < height; y++) {
    const row = y * width
    for (let x = 0; x < width; x++) out[x * height + y] = data[row + x]!
  }
  return { width: height, height: width, data: out }
}

/**
 * The picture shrunk by `factor`, each `factor` x `factor` block giving its `factor`-th darkest
 * pixel: a line one pixel thin crossing the block covers `factor` of its pixels and stays as dark
 * as it was (an average would fade it to light grey), while the edge of a letter touching one
 * pixel of the block does not darken it (the darkest pixel would make letters bolder and run
 * them together).
 */
export const darkestOf = (grey: Bitmap, factor: number): Bitmap => {
  const width = Math.max(1, Math.floor(grey.width / factor))
  const height = Math.max(1, Math.floor(grey.height / factor))
  const data = new Uint8Array(width * height)
  if (factor === 2 && grey.width >= 2 * width && grey.height >= 2 * height) {
    // The common case without a sort: the second darkest of four.
    for (let by = 0; by < height; by++) {
      const top = 2 * by * grey.width
      const bottom = top + grey.width
      for (let bx = 0; bx < width; bx++) {
        const a = grey.data[top + 2 * bx]!
        const b = grey.data[top + 2 * bx + 1]!
        const c = grey.data[bottom + 2 * bx]!
        const d = grey.data[bottom + 2 * bx + 1]!
        const lowAB = a < b ? a : b
        const highAB = a < b ? b : a
        const lowCD = c < d ? c : d
        const highCD = c < d ? d : c
        const secondLow = lowAB > lowCD ? lowAB : lowCD
        const firstHigh = highAB < highCD ? highAB : highCD
        data[by * width + bx] = secondLow < firstHigh ? secondLow : firstHigh
      }
    }
    return { width, height, data }
  }
  const block = new Uint8Array(factor * factor)
  for (let by = 0; by < height; by++) {
    for (let bx = 0; bx < width; bx++) {
      let n = 0
      for (let dy = 0; dy < factor; dy++) {
        const row = (by * factor + dy) * grey.width + bx * factor
        for (let dx = 0; dx < factor; dx++) {
          // Insertion into the sorted prefix: a block holds a handful of pixels.
          const v = grey.data[row + dx] ?? 255
          let k = n++
          while (k > 0 && block[k - 1]! > v) {
            block[k] = block[k - 1]!
            k--
          }
          block[k] = v
        }
      }
      data[by * width + bx] = block[factor - 1]!
    }
  }
  return { width, height, data }
}
