/**
 * Whether a page is drawn in vectors (text and paths a vector detector reads) or is a scan (an
 * image of the page, whose lines, boxes and labels exist only as pixels), measured from the
 * page's pdf.js operator list: how much of the page images cover, how many glyphs it draws
 * visibly, how many path segments it strokes or fills.
 */
import { Effect } from "effect"
import { AnnotationMode, OPS } from "pdfjs-dist/legacy/build/pdf.mjs"
import * as PageText from "../pdf/PageText.ts"
import type { PDFDocumentProxy } from "../pdf/PdfJs.ts"
import * as PdfLimits from "../pdf/PdfLimits.ts"
import { asMatrix, compose, IDENTITY, type Matrix } from "./Matrix.ts"

export type Kind = "vector" | "scanned"

/** What a page draws, as far as telling a scan from vector drawing goes. */
export interface PageStats {
  /** Share of the page (its crop box) that images cover, in [0, 1], overlaps counted once. */
  readonly imageCoverage: number
  /** Images painted (each repetition of a repeated image counts). */
  readonly images: number
  /**
   * Glyphs drawn visibly. Text in render mode 3 (invisible) or 7 (clip only) is left out: it is
   * the searchable layer OCR software lays over a scan, which shows nothing on the page.
   */
  readonly visibleGlyphs: number
  /** Path segments (lines, curves, closings) that are stroked or filled; clipping paths are not drawing. */
  readonly pathSegments: number
}

/** The subset of pdf.js's `PDFOperatorList` read here (structural, so tests can build one). */
export interface OperatorList {
  readonly fnArray: ArrayLike<number>
  readonly argsArray: ArrayLike<unknown>
}

/**
 * The rule. A page is scanned when images cover at least half of it and it draws little else:
 * fewer than 200 visible glyphs (a scanner's stamp, a page number, a Bates label) and fewer than
 * 200 path segments (a few rules or a signature squiggle). Half, not all: a photographed or
 * shrunk scan sits inside margins. A page with a full-page background image but real text or
 * drawing on top is vector: its fields are found from that text and drawing. A page with no
 * image at all is vector, however empty.
 */
const SCANNED_MIN_COVERAGE = 0.5
const SCANNED_MAX_GLYPHS = 200
const SCANNED_MAX_SEGMENTS = 200

export const kindOf = (stats: PageStats): Kind =>
  stats.imageCoverage >= SCANNED_MIN_COVERAGE && stats.visibleGlyphs < SCANNED_MAX_GLYPHS && stats.pathSegments < SCANNED_MAX_SEGMENTS
    ? "scanned"
    : "vector"

const STROKES_OR_FILLS: ReadonlySet<number> = new Set([
  OPS.stroke, OPS.closeStroke, OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke
])

/** pdf.js `DrawOPS` (not exported by its public API): codes inside a `constructPath` buffer, and their coordinates. */
const DRAW_ARGS: ReadonlyArray<number> = [2, 2, 6, 4, 0]
const MOVE_TO = 0

/** Segments drawn by a `constructPath` buffer: every code but moveTo. */
const segmentsOf = (data: ArrayLike<number>): number => {
  let segments = 0
  for (let i = 0; i < data.length; ) {
    const code = data[i++]!
    const args = DRAW_ARGS[code]
    // An unknown code means the format moved under us: stop rather than misread coordinates.
    if (args === undefined) break
    if (code !== MOVE_TO) segments++
    i += args
  }
  return segments
}

const isVisibleGlyph = (glyph: unknown): boolean => {
  if (typeof glyph !== "object" || glyph === null) return false
  const { unicode, isSpace } = glyph as { unicode?: unknown; isSpace?: unknown }
  if (isSpace === true) return false
  return typeof unicode !== "string" || unicode.trim() !== ""
}

/** Cells per side of the grid on which image coverage is measured: 1/64 of a page is plenty for "half". */
const GRID = 64
/** Images past this many are counted but not placed on the grid: the grid is long full by then or they are tiny. */
const MAX_PLACED_IMAGES = 4_000

/**
 * Measures a page from its operator list. `view` is the page's crop box in user space, where
 * the operator list's coordinates are.
 */
export const measure = (list: OperatorList, view: readonly [number, number, number, number]): PageStats => {
  const [vx1, vy1, vx2, vy2] = view
  const cellWidth = (vx2 - vx1) / GRID
  const cellHeight = (vy2 - vy1) / GRID
  const covered = new Uint8Array(GRID * GRID)
  let placed = 0
  let images = 0
  let visibleGlyphs = 0
  let pathSegments = 0

  interface State {
    ctm: Matrix
    textVisible: boolean
  }
  let state: State = { ctm: IDENTITY, textVisible: true }
  const stack: Array<State> = []

  /** Marks the grid cells whose centre lies in the bounding box of the unit square under `m`. */
  const paintUnitSquare = (m: Matrix) => {
    images++
    if (placed >= MAX_PLACED_IMAGES || !(cellWidth > 0) || !(cellHeight > 0)) return
    placed++
    const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]]
    const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]]
    const col1 = Math.max(0, Math.ceil((Math.min(...xs) - vx1) / cellWidth - 0.5))
    const col2 = Math.min(GRID - 1, Math.floor((Math.max(...xs) - vx1) / cellWidth - 0.5))
    const row1 = Math.max(0, Math.ceil((Math.min(...ys) - vy1) / cellHeight - 0.5))
    const row2 = Math.min(GRID - 1, Math.floor((Math.max(...ys) - vy1) / cellHeight - 0.5))
    for (let row = row1; row <= row2; row++) covered.fill(1, row * GRID + col1, row * GRID + col2 + 1)
  }

  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i]
    const args = list.argsArray[i] as Array<unknown> | null
    switch (fn) {
      case OPS.save:
        stack.push(state)
        state = { ...state }
        break
      case OPS.restore:
        state = stack.pop() ?? state
        break
      case OPS.transform: {
        const m = asMatrix(args)
        if (m) state.ctm = compose(state.ctm, m)
        break
      }
      case OPS.paintFormXObjectBegin: {
        stack.push(state)
        state = { ...state }
        const m = asMatrix(args?.[0])
        if (m) state.ctm = compose(state.ctm, m)
        break
      }
      case OPS.paintFormXObjectEnd:
        state = stack.pop() ?? state
        break
      case OPS.setTextRenderingMode: {
        const mode = args?.[0]
        state.textVisible = mode !== 3 && mode !== 7
        break
      }
      case OPS.showText:
      case OPS.showSpacedText: {
        const glyphs = args?.[0]
        if (state.textVisible && Array.isArray(glyphs)) for (const glyph of glyphs) if (isVisibleGlyph(glyph)) visibleGlyphs++
        break
      }
      case OPS.constructPath: {
        const data = (args?.[1] as Array<ArrayLike<number> | null> | undefined)?.[0]
        if (data && STROKES_OR_FILLS.has(args?.[0] as number)) pathSegments += segmentsOf(data)
        break
      }
      // An image fills the unit square of the current transformation.
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject:
      case OPS.paintImageMaskXObject:
        paintUnitSquare(state.ctm)
        break
      case OPS.paintImageXObjectRepeat: {
        // [objId, scaleX, scaleY, positions]
        const [, scaleX, scaleY, positions] = (args ?? []) as [unknown, number, number, ArrayLike<number>]
        for (let k = 0; positions && k + 1 < positions.length; k += 2) {
          paintUnitSquare(compose(state.ctm, [scaleX, 0, 0, scaleY, positions[k]!, positions[k + 1]!]))
        }
        break
      }
      case OPS.paintImageMaskXObjectRepeat: {
        // [image, scaleX, skewX, skewY, scaleY, positions]
        const [, scaleX, skewX, skewY, scaleY, positions] = (args ?? []) as [unknown, number, number, number, number, ArrayLike<number>]
        for (let k = 0; positions && k + 1 < positions.length; k += 2) {
          paintUnitSquare(compose(state.ctm, [scaleX, skewX ?? 0, skewY ?? 0, scaleY, positions[k]!, positions[k + 1]!]))
        }
        break
      }
      case OPS.paintImageMaskXObjectGroup:
      case OPS.paintInlineImageXObjectGroup: {
        // Masks: [images with their transforms]; inline images: [image, map of transforms].
        const entries = (fn === OPS.paintImageMaskXObjectGroup ? args?.[0] : args?.[1]) as Array<{ transform?: unknown }> | undefined
        for (const entry of entries ?? []) {
          const m = asMatrix(entry?.transform)
          if (m) paintUnitSquare(compose(state.ctm, m))
        }
        break
      }
    }
  }
  let cells = 0
  for (const cell of covered) cells += cell
  return { imageCoverage: cells / covered.length, images, visibleGlyphs, pathSegments }
}

/** A page measured; with `tooMuchText` its text passed the item limit, and the stats stand in for a measurement. */
export interface Measured {
  readonly stats: PageStats
  readonly tooMuchText: boolean
}

/**
 * One page measured from its operator list, the page's resources released afterwards. Its text
 * is streamed first, under the item limit: a page drawing more text than that (nested forms
 * drawing each other) is vector beyond doubt, and its operator list, as large, is never built.
 */
export const measurePage = (doc: PDFDocumentProxy, pageNumber: number): Effect.Effect<Measured> =>
  Effect.gen(function*() {
    const { truncated } = yield* PageText.ofPageWithLimit(doc, pageNumber)
    if (truncated) {
      const limits = yield* PdfLimits.PdfLimits
      return { stats: { imageCoverage: 0, images: 0, visibleGlyphs: limits.maxTextItemsPerPage, pathSegments: 0 }, tooMuchText: true }
    }
    const stats = yield* Effect.promise(async () => {
      const page = await doc.getPage(pageNumber)
      try {
        // Widgets are not the page's drawing: a form's fields must not make its page look vector.
        const list = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE })
        return measure(list, page.view as [number, number, number, number])
      } finally {
        page.cleanup()
      }
    })
    return { stats, tooMuchText: false }
  })
