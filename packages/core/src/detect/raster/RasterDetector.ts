/**
 * The raster path of field detection, for scanned pages (an image of the page, no vector text
 * or drawing): the page is rendered at the conversion's `resolution`, its lines, boxes and check
 * boxes are found from the pixels, its words are read with OCR, and all of it is handed to the
 * same `Pipeline` (sources, scorer, label inference) that vector pages go through. The pipeline
 * works in the page as displayed (rotation applied), where labels sit left of and above their
 * fields; the fields it finds are mapped back to user space, through the crop box and /Rotate.
 */
import { Cause, Effect } from "effect"
import type { PDFDocumentProxy } from "../../pdf/PdfJs.ts"
import type { TextRun } from "../../pdf/PageText.ts"
import type { DetectOptions, PageInput } from "../Candidate.ts"
import * as Pipeline from "../Pipeline.ts"
import type { PageDetection } from "../Pipeline.ts"
import type { Box, HorizontalSegment, PageGraphics, Rect, VerticalSegment } from "../VectorLines.ts"
import type { Bitmap } from "./Bitmap.ts"
import * as Components from "./Components.ts"
import * as Ocr from "./Ocr.ts"
import * as PageRender from "./PageRender.ts"
import type { Rendered } from "./PageRender.ts"
import * as PixelShapes from "./PixelShapes.ts"
import type { Shapes } from "./PixelShapes.ts"

export interface RasterOptions extends DetectOptions {
  /** Render size: pixels along the page's long side (the contract's `resolution`). */
  readonly resolution: number
  /** How to reach Tesseract (binary, languages, time limit); defaults suit a Debian install. */
  readonly ocr?: Omit<Ocr.OcrOptions, "dpi"> | undefined
}

/** A scanned page as the pipeline reads it, and the way back from its frame to user space. */
export interface RasterPage {
  /** The page in display space: points, origin bottom-left of the page as displayed. */
  readonly input: PageInput
  /** User-space rectangle of a display-space one. */
  readonly toUser: (rect: Rect) => Rect
  /** Whether the words were read (false: OCR unavailable, fields unnamed). */
  readonly ocr: boolean
}

/**
 * Lines at least this long (points) are hidden from OCR: a box or rule around words makes
 * Tesseract misread them. Shorter ones may be letter stems and are left alone.
 */
const HIDE_FROM_OCR_PT = 20
/** A line lying this much over words read by OCR is strokes of their letters. */
const IN_WORDS = 0.6
/**
 * Ink height of a line of text over its font size: capitals and ascenders reach about 0.72 em,
 * descenders 0.21 em below the baseline; most lines have some of both.
 */
const INK_PER_EM = 0.85
/** Words on one OCR line closer than this many font sizes are one run, as a PDF writes a phrase. */
const WORD_GAP_EM = 0.6

interface Frame {
  /** Display-space point of a pixel position. */
  readonly x: (px: number) => number
  readonly y: (py: number) => number
  readonly len: (pixels: number) => number
}

const frameOf = (r: Rendered): Frame => ({
  x: (px) => px / r.scale,
  y: (py) => r.displayHeight - py / r.scale,
  len: (pixels) => pixels / r.scale
})

/** OCR words as text runs: the words of one line, close together, make one run. */
const runsOf = (words: ReadonlyArray<Ocr.Word>, frame: Frame): Array<TextRun> => {
  const runs: Array<TextRun> = []
  const sorted = [...words].sort((a, b) => a.lineTop - b.lineTop || a.lineBottom - b.lineBottom || a.x1 - b.x1)
  let current: { words: Array<Ocr.Word> } | undefined
  const flush = () => {
    if (!current) return
    const ws = current.words
    const first = ws[0]!
    const size = frame.len(first.lineBottom - first.lineTop) / INK_PER_EM
    const bottom = frame.y(first.lineBottom)
    const x1 = frame.x(Math.min(...ws.map((w) => w.x1)))
    const x2 = frame.x(Math.max(...ws.map((w) => w.x2)))
    // The baseline sits a fifth of an em over the ink's bottom, where the detector expects it.
    runs.push({ text: ws.map((w) => w.text).join(" "), x: x1, y: bottom + 0.22 * size, width: x2 - x1, height: size })
    current = undefined
  }
  for (const w of sorted) {
    const last = current?.words[current.words.length - 1]
    const lineHeight = w.lineBottom - w.lineTop
    if (last && last.lineTop === w.lineTop && last.lineBottom === w.lineBottom && w.x1 - last.x2 <= (WORD_GAP_EM * lineHeight) / INK_PER_EM) {
      current!.words.push(w)
    } else {
      flush()
      current = { words: [w] }
    }
  }
  flush()
  return runs
}

const insideShare = (x1: number, x2: number, y1: number, y2: number, w: Ocr.Word): number => {
  const ix = Math.max(0, Math.min(x2, w.x2) - Math.max(x1, w.x1))
  const iy = Math.max(0, Math.min(y2, w.y2) - Math.max(y1, w.y1))
  return (Math.max(ix, 1) * Math.max(iy, 1)) / Math.max(1, (x2 - x1) * Math.max(1, y2 - y1))
}

/** Two or more underscores, dots or dashes at a word's ends: the blank after a label, read with it. */
const BLANK_ENDS = /^([_.\-…—]{2,})?(.*?)([_.\-…—]{2,})?$/su

/**
 * A word without the blank read into it ("Date:_____" is "Date:"), its box shrunk by the share of
 * characters cut: the blank itself is found as a line from the pixels.
 */
const withoutBlanks = (w: Ocr.Word): Ocr.Word => {
  const [, lead = "", core = "", trail = ""] = BLANK_ENDS.exec(w.text) ?? []
  if (lead === "" && trail === "") return w
  const chars = [...w.text].length
  const per = (w.x2 - w.x1) / Math.max(1, chars)
  return { ...w, text: core, x1: w.x1 + per * [...lead].length, x2: w.x2 - per * [...trail].length }
}

/** The picture Tesseract reads: long lines and check shapes painted over with paper. */
const forOcr = (grey: Bitmap, shapes: Shapes, scale: number): Bitmap => {
  const copy: Bitmap = { width: grey.width, height: grey.height, data: grey.data.slice() }
  const long = HIDE_FROM_OCR_PT * scale
  for (const h of shapes.horizontals) {
    if (h.x2 - h.x1 >= long) Components.erase(copy, h.x1, h.y - h.thickness / 2 - 1, h.x2, h.y + h.thickness / 2 + 1, 255)
  }
  for (const v of shapes.verticals) {
    if (v.x2 - v.x1 >= long) Components.erase(copy, v.y - v.thickness / 2 - 1, v.x1, v.y + v.thickness / 2 + 1, v.x2, 255)
  }
  for (const d of shapes.dotted) Components.erase(copy, d.x1 - 1, d.y - d.thickness / 2 - 1, d.x2 + 1, d.y + d.thickness / 2 + 1, 255)
  for (const c of shapes.checks) Components.erase(copy, c.x1 - 1, c.y1 - 1, c.x2 + 1, c.y2 + 1, 255)
  return copy
}

/**
 * Share of the span [a, b) on pixel row (or column) `at` that words cover. A stroke whose length
 * lies mostly over words is part of them: the baseline or top of bold letters run together, the
 * bar of a big "T", a stem of an "l".
 */
const wordCover = (a: number, b: number, at: number, words: ReadonlyArray<Ocr.Word>, vertical: boolean): number => {
  const spans = words
    .filter((w) => (vertical ? at >= w.x1 - 1 && at <= w.x2 + 1 : at >= w.y1 - 1 && at <= w.y2 + 1))
    .map((w): readonly [number, number] => (vertical ? [Math.max(a, w.y1), Math.min(b, w.y2)] : [Math.max(a, w.x1), Math.min(b, w.x2)]))
    .filter(([p, q]) => q > p)
    .sort((p, q) => p[0] - q[0])
  let covered = 0
  let cursor = a
  for (const [p, q] of spans) {
    if (q <= cursor) continue
    covered += q - Math.max(p, cursor)
    cursor = q
  }
  return covered / Math.max(1, b - a)
}

/** The page's drawing in display space, strokes of letters that OCR read left out. */
const graphicsOf = (shapes: Shapes, words: ReadonlyArray<Ocr.Word>, frame: Frame): PageGraphics => {
  const horizontals: Array<HorizontalSegment> = shapes.horizontals
    .filter((h) => wordCover(h.x1, h.x2, h.y, words, false) < IN_WORDS)
    .map((h) => ({ x1: frame.x(h.x1), x2: frame.x(h.x2), y: frame.y(h.y), thickness: frame.len(h.thickness) }))
  for (const d of shapes.dotted) horizontals.push({ x1: frame.x(d.x1), x2: frame.x(d.x2), y: frame.y(d.y), thickness: frame.len(d.thickness), dashed: d.dashed })
  const verticals: Array<VerticalSegment> = shapes.verticals
    .filter((v) => wordCover(v.x1, v.x2, v.y, words, true) < IN_WORDS)
    .map((v) => ({ x: frame.x(v.y), y1: frame.y(v.x2), y2: frame.y(v.x1), thickness: frame.len(v.thickness) }))
  const rectOf = (c: { x1: number; y1: number; x2: number; y2: number }): Rect => ({ x1: frame.x(c.x1), y1: frame.y(c.y2), x2: frame.x(c.x2), y2: frame.y(c.y1) })
  // White boxes on tint are as plain to a reader as outlined ones (as `Pipeline.boxesOnTint` keeps them on vector pages).
  const boxes: Array<Box> = [...shapes.checks.filter((c) => !c.round), ...shapes.tintBoxes].map((c) => ({ ...rectOf(c), stroked: true }))
  const circles = shapes.checks.filter((c) => c.round).map(rectOf)
  return { horizontals, verticals, boxes, marks: [], circles }
}

const normalise = (a: readonly [number, number], b: readonly [number, number]): Rect => ({
  x1: Math.min(a[0], b[0]),
  y1: Math.min(a[1], b[1]),
  x2: Math.max(a[0], b[0]),
  y2: Math.max(a[1], b[1])
})

const asRect = (r: unknown): Rect | undefined => {
  if (!Array.isArray(r) || r.length < 4 || !r.slice(0, 4).every((n) => typeof n === "number" && Number.isFinite(n))) return undefined
  const [a, b, c, d] = r as [number, number, number, number]
  return normalise([a, b], [c, d])
}

/**
 * Reads page `pageNumber` of `doc` (opened with `PdfJs.open(bytes, { forRendering: true })`) into
 * the pipeline's input. Fails when the page cannot be drawn; a missing OCR engine only leaves the
 * page without words (logged), so its fields are found but not named.
 */
export const readPage = (doc: PDFDocumentProxy, pageNumber: number, options: RasterOptions): Effect.Effect<RasterPage, unknown> =>
  Effect.gen(function*() {
    const rendered = yield* PageRender.render(doc, pageNumber, options.resolution)
    const frame = frameOf(rendered)
    const shapes = PixelShapes.find(rendered.grey, rendered.scale)
    const read = yield* Ocr.read(forOcr(rendered.grey, shapes, rendered.scale), { ...options.ocr, dpi: rendered.scale * 72 }).pipe(
      Effect.map((words) => ({ words, ok: true })),
      Effect.catch((error: Ocr.OcrUnavailable) =>
        Effect.logWarning(`RasterDetector: the words of page ${pageNumber} could not be read, so its fields are unnamed`).pipe(
          Effect.annotateLogs({ reason: error.message }),
          Effect.as({ words: [] as Array<Ocr.Word>, ok: false })
        ))
    )
    // A word over a check shape is the shape misread ("O", "[]"), never its label; a "word" of
    // no letter or digit is a line or dots read as text ("|", "....", "___"), drawn already.
    const words = read.words
      .filter((w) => /[\p{L}\p{N}]/u.test(w.text) && !shapes.checks.some((c) => insideShare(c.x1, c.x2, c.y1, c.y2, w) > 0.5))
      .map(withoutBlanks)
    const page = yield* Effect.tryPromise({ try: () => doc.getPage(pageNumber), catch: (error) => error })
    const annotations = yield* Effect.tryPromise(() => page.getAnnotations()).pipe(
      Effect.orElseSucceed(() => []),
      Effect.ensuring(Effect.sync(() => page.cleanup()))
    )
    const toDisplay = (x: number, y: number): readonly [number, number] => {
      const [px, py] = rendered.toPixel(x, y)
      return [frame.x(px), frame.y(py)]
    }
    const widgets = annotations.flatMap((a: { subtype?: string; rect?: unknown }) => {
      const r = a.subtype === "Widget" ? asRect(a.rect) : undefined
      return r ? [normalise(toDisplay(r.x1, r.y1), toDisplay(r.x2, r.y2))] : []
    })
    const input: PageInput = {
      page: pageNumber,
      view: [0, 0, rendered.displayWidth, rendered.displayHeight],
      runs: runsOf(words, frame),
      graphics: graphicsOf(shapes, words, frame),
      widgets
    }
    const toUser = (r: Rect): Rect => {
      const pixel = (x: number, y: number) => rendered.toUser(x * rendered.scale, (rendered.displayHeight - y) * rendered.scale)
      return normalise(pixel(r.x1, r.y1), pixel(r.x2, r.y2))
    }
    return { input, toUser, ocr: read.ok }
  })

/**
 * Detects the fields of scanned page `pageNumber` of `doc` (opened for rendering), in user space,
 * in the same shape as the vector pipeline's. A page that cannot be drawn yields no fields.
 */
export const detectPage = (doc: PDFDocumentProxy, pageNumber: number, options: RasterOptions): Effect.Effect<Array<PageDetection>> =>
  readPage(doc, pageNumber, options).pipe(
    Effect.map(({ input, toUser }) => Pipeline.detectPage(input, options).map((d) => ({ ...d, rect: toUser(d.rect) }))),
    Effect.catchCause((cause) =>
      Effect.logWarning(`RasterDetector: page ${pageNumber} could not be drawn, so no fields were detected on it`).pipe(
        Effect.annotateLogs({ reason: String(Cause.squash(cause)) }),
        Effect.as([] as Array<PageDetection>)
      ))
  )
