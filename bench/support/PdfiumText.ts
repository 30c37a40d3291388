/**
 * Page text and geometry read by PDFium compiled to WebAssembly (`@embedpdf/pdfium`, MIT; PDFium
 * itself BSD-3): the measured alternative to pdf.js, which `bench/upload-speed.ts` times beside
 * it on the same pages. It is not the server's reader: with it the autofill evaluation invented
 * two values on one form, one form's label F1 fell from 0.948 to 0.804 (glyphs PDFium places
 * without widths), and its WebAssembly heap, which never shrinks, put a worker past its memory
 * cap on a 50 MB upload. It gives the same `PageText.PageText` as pdf.js, so the two compare
 * directly.
 *
 * One instance per process, loaded on first use. Documents live in the WebAssembly heap: `use`
 * copies the bytes in and always closes the document and frees them, whatever happens.
 */
import type { WrappedPdfiumModule } from "@embedpdf/pdfium"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as PageText from "../../packages/core/src/pdf/PageText.ts"
import { unusable, type PdfRejected, type PdfUnusable } from "../../packages/core/src/pdf/PdfError.ts"
import * as PdfLimits from "../../packages/core/src/pdf/PdfLimits.ts"

type Pdfium = WrappedPdfiumModule

/** The module's memory views (the package types them through `@types/emscripten`, which we do not install). */
interface Heaps {
  readonly HEAPU8: Uint8Array
  readonly HEAPF32: Float32Array
  readonly HEAPF64: Float64Array
}

/** The module's memory, viewed afresh: a view taken before the memory grew is detached. */
const heaps = (pdfium: Pdfium): Heaps => pdfium.pdfium as unknown as Heaps

let instance: Promise<Pdfium> | undefined

const load = async (): Promise<Pdfium> => {
  const { init } = await import("@embedpdf/pdfium")
  const require = createRequire(import.meta.url)
  const wasmBinary = await readFile(join(dirname(require.resolve("@embedpdf/pdfium")), "pdfium.wasm"))
  const pdfium = await init({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer })
  pdfium.PDFiumExt_Init()
  return pdfium
}

/** The process's PDFium, loaded once (a failed load is tried again next time). */
const module: Effect.Effect<Pdfium> = Effect.promise(() => {
  instance ??= load().catch((error) => {
    instance = undefined
    throw error
  })
  return instance
})

// FPDF_GetLastError codes (fpdfview.h).
const errorPassword = 4

/** An open document: its handle, and the module that owns it. */
interface Document {
  readonly pdfium: Pdfium
  readonly handle: number
  readonly pages: number
}

const useUnguarded = <A, E, R>(bytes: Uint8Array, f: (doc: Document) => Effect.Effect<A, E, R>): Effect.Effect<A, E | PdfUnusable, R> =>
  Effect.flatMap(module, (pdfium) =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        const heap = pdfium.pdfium.wasmExports.malloc(Math.max(1, bytes.length))
        heaps(pdfium).HEAPU8.set(bytes, heap)
        return { heap, handle: pdfium.FPDF_LoadMemDocument(heap, bytes.length, "") }
      }),
      ({ handle }): Effect.Effect<A, E | PdfUnusable, R> =>
        handle === 0
          ? Effect.fail(pdfium.FPDF_GetLastError() === errorPassword ? unusable("UserPassword") : unusable("Damaged"))
          : f({ pdfium, handle, pages: pdfium.FPDF_GetPageCount(handle) }),
      ({ heap, handle }) =>
        Effect.sync(() => {
          if (handle !== 0) pdfium.FPDF_CloseDocument(handle)
          pdfium.pdfium.wasmExports.free(heap)
        })
    ))

/**
 * Runs `f` with `bytes` open in PDFium; the document is closed and its copy of the bytes freed
 * afterwards. An empty user password is tried (owner-password files open transparently).
 * Should PDFium abort inside (a WebAssembly trap on a hostile file), the instance may be left in
 * any state: it is dropped, a fresh one is loaded next time, and the file counts as damaged.
 */
const use = <A, E, R>(bytes: Uint8Array, f: (doc: Document) => Effect.Effect<A, E, R>): Effect.Effect<A, E | PdfUnusable, R> =>
  Effect.catchDefect(useUnguarded(bytes, f), () =>
    Effect.suspend(() => {
      instance = undefined
      return Effect.fail(unusable("Damaged"))
    }))

// pdf.js's spacing rules (text_layer SPACE_IN_FLOW factors), so PDFium's runs split where pdf.js's items do.
/** A gap wider than this share of the font size reads as a space. */
const spaceFactor = 0.102
/** A gap wider than this share of the font size ends the run. */
const breakFactor = 0.6

/**
 * The runs of one PDFium text page: characters on one baseline, in one size, with no wide gap,
 * as pdf.js would have handed them out. PDFium's generated characters (the spaces and line ends
 * it infers) only mark breaks; gaps are measured from the glyph boxes. At most `maxChars`
 * characters are read.
 */
const pdfiumRuns = (pdfium: Pdfium, textPage: number, maxChars: number): { runs: Array<PageText.TextRun>; truncated: boolean } => {
  const count = pdfium.FPDFText_CountChars(textPage)
  // Two doubles (origin), four floats (box), six floats (matrix).
  const scratch = pdfium.pdfium.wasmExports.malloc(80)
  const runs: Array<PageText.TextRun> = []
  let text = ""
  // The run's direction (unit vector), its baseline across that direction, its size, and the
  // extent of its characters along it: right-to-left text comes in logical order, so a run
  // grows at either end.
  let ux = 1
  let uy = 0
  let across = 0
  let size = 0
  let lo = 0
  let hi = 0
  /** The extent of its characters other than spaces: trailing spaces are not part of a run. */
  let inkLo = Infinity
  let inkHi = -Infinity
  const flush = () => {
    if (text.trim() !== "") {
      // Back from (along, across) to page space: the run starts at its leftmost character, on its baseline.
      runs.push({ text: text.trim(), x: inkLo * ux + across * uy, y: inkLo * uy - across * ux, width: Math.max(0, inkHi - inkLo), height: size })
    }
    text = ""
    inkLo = Infinity
    inkHi = -Infinity
  }
  try {
    for (let i = 0; i < Math.min(count, maxChars); i++) {
      const code = pdfium.FPDFText_GetUnicode(textPage, i)
      if (pdfium.FPDFText_IsGenerated(textPage, i) === 1) {
        if (code === 0x0d || code === 0x0a) flush()
        continue
      }
      // Line ends and tabs separate what pdf.js hands out as separate items.
      if (code === 0x0d || code === 0x0a || code === 0x09 || code === 0) {
        flush()
        continue
      }
      const char = String.fromCharCode(code)
      pdfium.FPDFText_GetCharOrigin(textPage, i, scratch, scratch + 8)
      // The loose box spans the glyph's advance (a "1" is narrower than its box's ink), as
      // pdf.js measures runs: left, top, right, bottom.
      pdfium.FPDFText_GetLooseCharBox(textPage, i, scratch + 16)
      pdfium.FPDFText_GetMatrix(textPage, i, scratch + 48)
      const heap = heaps(pdfium)
      const ox = heap.HEAPF64[scratch >> 3]!
      const oy = heap.HEAPF64[(scratch >> 3) + 1]!
      const box = (scratch + 16) >> 2
      const [left, top, right, bottom] = [heap.HEAPF32[box]!, heap.HEAPF32[box + 1]!, heap.HEAPF32[box + 2]!, heap.HEAPF32[box + 3]!]
      const a = heap.HEAPF32[(scratch + 48) >> 2]!
      const b = heap.HEAPF32[((scratch + 48) >> 2) + 1]!
      // As pdf.js sizes a run: the font size scaled by the text's horizontal axis.
      const scale = Math.hypot(a, b) || 1
      const charSize = pdfium.FPDFText_GetFontSize(textPage, i) * scale
      const cx = a / scale
      const cy = b / scale
      const sameDirection = Math.abs(cx * ux + cy * uy - 1) < 1e-3
      // The glyph's extent along the run's direction, from its box (its origin when it has none).
      const hasBox = right > left
      const along = (px: number, py: number) => px * cx + py * cy
      const from = hasBox ? Math.min(along(left, bottom), along(right, bottom), along(left, top), along(right, top)) : along(ox, oy)
      const to = hasBox ? Math.max(along(left, bottom), along(right, bottom), along(left, top), along(right, top)) : from
      const charAcross = ox * cy - oy * cx
      const sameLine = text !== "" && sameDirection && Math.abs(charAcross - across) <= Math.max(0.5, size * 0.2) &&
        Math.abs(charSize - size) <= size * 0.2
      const gap = from >= hi ? from - hi : to <= lo ? lo - to : 0
      if (!sameLine || gap > size * breakFactor) {
        flush()
        ux = cx
        uy = cy
        across = charAcross
        size = charSize
        lo = from
        hi = to
      } else if (gap > size * spaceFactor && !/\s$/.test(text) && char.trim() !== "") {
        text += " "
      }
      text += char
      lo = Math.min(lo, from)
      hi = Math.max(hi, to)
      if (char.trim() !== "") {
        inkLo = Math.min(inkLo, from)
        inkHi = Math.max(inkHi, to)
      }
    }
    flush()
  } finally {
    pdfium.pdfium.wasmExports.free(scratch)
  }
  return { runs, truncated: count > maxChars }
}

// FPDF_PAGEOBJ_* (fpdf_edit.h).
const objectPath = 2
const objectForm = 5

/**
 * Reads every path of a page's drawing, form XObjects included, as a vector detector needs it:
 * each object's matrix and paint (fill, stroke), and every segment's type and point. Returns the
 * segments read. The figures are only read, not interpreted: this is what PDFium costs to hand
 * out the drawing pdf.js hands out as an operator list.
 */
const readDrawing = (pdfium: Pdfium, page: number): number => {
  // Six floats (matrix), two floats (point), two ints (draw mode).
  const scratch = pdfium.pdfium.wasmExports.malloc(48)
  let segments = 0
  const visit = (object: number) => {
    const type = pdfium.FPDFPageObj_GetType(object)
    if (type === objectForm) {
      const count = pdfium.FPDFFormObj_CountObjects(object)
      for (let i = 0; i < count; i++) visit(pdfium.FPDFFormObj_GetObject(object, i))
      return
    }
    if (type !== objectPath) return
    pdfium.FPDFPageObj_GetMatrix(object, scratch)
    pdfium.FPDFPath_GetDrawMode(object, scratch + 32, scratch + 36)
    const count = pdfium.FPDFPath_CountSegments(object)
    for (let i = 0; i < count; i++) {
      const segment = pdfium.FPDFPath_GetPathSegment(object, i)
      pdfium.FPDFPathSegment_GetType(segment)
      pdfium.FPDFPathSegment_GetPoint(segment, scratch + 24, scratch + 28)
      segments++
    }
  }
  try {
    const count = pdfium.FPDFPage_CountObjects(page)
    for (let i = 0; i < count; i++) visit(pdfium.FPDFPage_GetObject(page, i))
  } finally {
    pdfium.pdfium.wasmExports.free(scratch)
  }
  return segments
}

export interface ReadOptions {
  /** Also read every page's drawing (`readDrawing`), as a vector detector would. */
  readonly drawing?: boolean | undefined
  /** Called after each page with the milliseconds it took to read (loading and closing it included). */
  readonly onPage?: ((page: number, ms: number) => void) | undefined
  /** The clock `onPage` reads, in ms (`performance.now` by default; a bench may pass CPU time). */
  readonly clock?: (() => number) | undefined
}

/**
 * The text of every page of `bytes`, read by PDFium, as the runs `PageText.read` (pdf.js)
 * gives. A page past the item limit (counted in characters) ends the reading as there.
 */
export const read = (bytes: Uint8Array, options: ReadOptions = {}): Effect.Effect<ReadonlyArray<PageText.PageText>, PdfUnusable | PdfRejected> => {
  const clock = options.clock ?? (() => performance.now())
  return   Effect.flatMap(Effect.service(PdfLimits.PdfLimits), (limits) =>
    use(bytes, ({ pdfium, handle, pages }) =>
      Effect.gen(function*() {
        yield* PdfLimits.checkPages(pages)
        const out: Array<PageText.PageText> = []
        for (let n = 1; n <= pages; n++) {
          const started = clock()
          const page = pdfium.FPDF_LoadPage(handle, n - 1)
          if (page === 0) {
            out.push({ page: n, width: 0, height: 0, runs: [] })
            continue
          }
          const textPage = pdfium.FPDFText_LoadPage(page)
          const box = pdfium.pdfium.wasmExports.malloc(16)
          let read: { runs: Array<PageText.TextRun>; truncated: boolean } = { runs: [], truncated: false }
          let width = 0
          let height = 0
          try {
            // pdf.js's page view: the crop box (else the media box), unrotated.
            const has = pdfium.FPDFPage_GetCropBox(page, box, box + 4, box + 8, box + 12) ||
              pdfium.FPDFPage_GetMediaBox(page, box, box + 4, box + 8, box + 12)
            const f = heaps(pdfium).HEAPF32
            width = has ? Math.abs(f[(box >> 2) + 2]! - f[box >> 2]!) : pdfium.FPDF_GetPageWidthF(page)
            height = has ? Math.abs(f[(box >> 2) + 3]! - f[(box >> 2) + 1]!) : pdfium.FPDF_GetPageHeightF(page)
            if (textPage !== 0) read = pdfiumRuns(pdfium, textPage, limits.maxTextItemsPerPage)
            if (options.drawing) readDrawing(pdfium, page)
          } finally {
            pdfium.pdfium.wasmExports.free(box)
            if (textPage !== 0) pdfium.FPDFText_ClosePage(textPage)
            pdfium.FPDF_ClosePage(page)
          }
          options.onPage?.(n, clock() - started)
          out.push({ page: n, width, height, runs: read.runs })
          if (read.truncated) {
            yield* Effect.logWarning(`page ${n} has more than the limit of text items; the text after it was not read`)
            break
          }
        }
        return out
      })
    ))
}
