/**
 * Draws one page with pdf.js on an `@napi-rs/canvas` (as the review picture does) at the
 * conversion's `resolution`, and knows how its pixels map to PDF user space: the viewport turns
 * pixels back through the crop box origin and the page's /Rotate.
 */
import { createCanvas } from "@napi-rs/canvas"
import { Effect } from "effect"
import { AnnotationMode } from "pdfjs-dist/legacy/build/pdf.mjs"
import type { PageViewport, PDFDocumentProxy } from "pdfjs-dist"
import { type Bitmap, darkestOf, greyFromRgba } from "./Bitmap.ts"

/**
 * Bounds of the working picture. Below 100 dpi a form's 8-10 pt labels are too few pixels to
 * read; above 300 dpi nothing more is learnt about lines and words while time and memory grow
 * with the square. 9 MP holds a letter or A4 page at 300 dpi (8.4-8.7 MP) and caps a large page.
 */
export const bounds = { minDpi: 100, maxDpi: 300, maxPixels: 9_000_000, maxDrawnPixels: 16_000_000 } as const

/**
 * The page is drawn at twice the working scale (when that stays within `maxDrawnPixels`) and
 * shrunk back keeping thin lines dark (`Bitmap.darkestOf`). A scan of 200-600 dpi shrunk straight
 * to the working scale averages its thin lines into light grey, which reads as paper.
 */
const SUPERSAMPLE = 2

export interface Rendered {
  readonly grey: Bitmap
  /** Pixels per PDF point. */
  readonly scale: number
  /** The page as displayed, in points (rotation applied). */
  readonly displayWidth: number
  readonly displayHeight: number
  /** User-space point of a pixel position (y down, as in the picture). */
  readonly toUser: (px: number, py: number) => readonly [number, number]
  /** Pixel position of a user-space point. */
  readonly toPixel: (x: number, y: number) => readonly [number, number]
}

/**
 * Pixels per point so that the page's long side is `resolution` pixels (the contract's "render
 * size"), kept within `bounds`.
 */
export const scaleFor = (width: number, height: number, resolution: number): number => {
  const wanted = resolution / Math.max(1, width, height)
  const clamped = Math.min(bounds.maxDpi / 72, Math.max(bounds.minDpi / 72, wanted))
  return Math.min(clamped, Math.sqrt(bounds.maxPixels / Math.max(1, width * height)))
}

const mapping = (viewport: PageViewport) => ({
  toUser: (px: number, py: number) => viewport.convertToPdfPoint(px, py) as [number, number],
  toPixel: (x: number, y: number) => viewport.convertToViewportPoint(x, y) as [number, number]
})

/** Renders page `pageNumber` of `doc` (opened for rendering) in grey. */
export const render = (doc: PDFDocumentProxy, pageNumber: number, resolution: number): Effect.Effect<Rendered, unknown> =>
  Effect.acquireUseRelease(
    Effect.tryPromise({ try: () => doc.getPage(pageNumber), catch: (error) => error }),
    (page) =>
      Effect.gen(function*() {
        const natural = page.getViewport({ scale: 1 })
        const scale = scaleFor(natural.width, natural.height, resolution)
        const viewport = page.getViewport({ scale })
        const factor = SUPERSAMPLE ** 2 * viewport.width * viewport.height <= bounds.maxDrawnPixels ? SUPERSAMPLE : 1
        const drawn = page.getViewport({ scale: scale * factor })
        const width = Math.max(1, Math.round(drawn.width))
        const height = Math.max(1, Math.round(drawn.height))
        const canvas = createCanvas(width, height)
        const ctx = canvas.getContext("2d")
        ctx.fillStyle = "#ffffff"
        ctx.fillRect(0, 0, width, height)
        // Widgets already on the page are read as widgets, not as pixels.
        yield* Effect.tryPromise({
          try: () => page.render({ canvas: canvas as never, canvasContext: ctx as never, viewport: drawn, annotationMode: AnnotationMode.DISABLE }).promise,
          catch: (error) => error
        })
        const full = greyFromRgba(ctx.getImageData(0, 0, width, height).data, width, height)
        // The pixels are copied: the canvas's surface (up to 64 MB) goes now, not at some later
        // collection, which native memory does not hasten.
        canvas.width = 1
        canvas.height = 1
        const grey = factor === 1 ? full : darkestOf(full, factor)
        return { grey, scale, displayWidth: natural.width, displayHeight: natural.height, ...mapping(viewport) }
      }),
    (page) => Effect.sync(() => page.cleanup())
  )
