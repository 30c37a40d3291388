/**
 * Whether a value shows: a page rendered by poppler (pdftoppm) or by pdf.js, compared pixel by
 * pixel with the same page of the unfilled form inside a widget's rectangle. Ink where the value
 * is means the glyphs were drawn (an empty box or a missing glyph leaves none, or only a frame).
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createCanvas } from "@napi-rs/canvas"
import { Effect } from "effect"
import { AnnotationMode } from "pdfjs-dist/legacy/build/pdf.mjs"
import * as PdfJs from "../../src/pdf/PdfJs.ts"

/** One grey level (0 black, 255 white) per pixel, row by row from the top. */
export interface Gray {
  readonly width: number
  readonly height: number
  readonly data: Uint8Array
}

export const dpi = 150

export const hasPoppler = spawnSync("pdftoppm", ["-v"]).status === 0

/** Page `page` (1-based) as poppler draws it, annotations included: its CropBox, as pdf.js draws. */
export const poppler = (pdf: Uint8Array, page: number): Gray => {
  const dir = mkdtempSync(join(tmpdir(), "fw-ink-"))
  try {
    writeFileSync(join(dir, "in.pdf"), pdf)
    const run = spawnSync("pdftoppm", ["-cropbox", "-gray", "-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", join(dir, "in.pdf"), join(dir, "out")])
    if (run.status !== 0) throw new Error(`pdftoppm failed: ${run.stderr}`)
    const pgm = readFileSync(join(dir, "out.pgm"))
    // P5 header: magic, width, height, max value, then one byte per pixel.
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString("latin1"))
    if (!header) throw new Error("pdftoppm wrote no PGM")
    const width = Number(header[1])
    const height = Number(header[2])
    return { width, height, data: new Uint8Array(pgm.subarray(header[0].length, header[0].length + width * height)) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Page `page` (1-based) as pdf.js draws it (annotation appearances included). */
export const pdfjs = (pdf: Uint8Array, page: number): Effect.Effect<Gray, unknown> =>
  PdfJs.use(pdf, (doc) =>
    Effect.promise(async () => {
      const p = await doc.getPage(page)
      const viewport = p.getViewport({ scale: dpi / 72 })
      const width = Math.round(viewport.width)
      const height = Math.round(viewport.height)
      const canvas = createCanvas(width, height)
      const ctx = canvas.getContext("2d")
      ctx.fillStyle = "#ffffff"
      ctx.fillRect(0, 0, width, height)
      await p.render({ canvas: canvas as never, canvasContext: ctx as never, viewport, annotationMode: AnnotationMode.ENABLE }).promise
      const rgba = ctx.getImageData(0, 0, width, height).data
      const data = new Uint8Array(width * height)
      for (let i = 0; i < data.length; i++) data[i] = Math.round((rgba[i * 4]! + rgba[i * 4 + 1]! + rgba[i * 4 + 2]!) / 3)
      return { width, height, data }
    }), { forRendering: true })

/** Where the ink that changed lies inside a rect: how many pixels, and their horizontal extent. */
export interface Ink {
  readonly pixels: number
  /** 0 at the rect's left edge, 1 at its right; NaN when there is no ink. */
  readonly left: number
  readonly right: number
}

/** The part of the page both renderers draw (its CropBox), in PDF points. */
export interface Box {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

/**
 * The pixels inside `rect` (`[x1, y1, x2, y2]` in PDF points, on a page whose visible box is
 * `box`) that are clearly darker in `filled` than in `blank`. An inset of 3 px keeps the
 * widget's own border out.
 */
export const inkIn = (filled: Gray, blank: Gray, rect: ReadonlyArray<number>, box: Box): Ink => {
  const s = dpi / 72
  const [x1, y1, x2, y2] = [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)]
  const left = Math.ceil((x1 - box.x) * s) + 3
  const right = Math.floor((x2 - box.x) * s) - 3
  const top = Math.ceil((box.y + box.height - y2) * s) + 3
  const bottom = Math.floor((box.y + box.height - y1) * s) - 3
  let pixels = 0
  let minX = Infinity
  let maxX = -Infinity
  for (let y = Math.max(0, top); y <= Math.min(filled.height - 1, bottom); y++) {
    for (let x = Math.max(0, left); x <= Math.min(filled.width - 1, right); x++) {
      const i = y * filled.width + x
      if (blank.data[i]! - filled.data[i]! > 80) {
        pixels++
        minX = Math.min(minX, x)
        maxX = Math.max(maxX, x)
      }
    }
  }
  const span = Math.max(1, right - left)
  return { pixels, left: pixels ? (minX - left) / span : NaN, right: pixels ? (maxX - left) / span : NaN }
}
