/**
 * The vector field detector: finds where a person is meant to write on a flat PDF and names each
 * spot after its label. Each kind of evidence is a source module under `sources/` producing
 * candidates with their features; `Pipeline` resolves, labels and scores them page by page
 * through the one `Scorer`. Pages are read one at a time with pdf.js and released before the
 * next, so memory stays bounded by the largest page. A page with nothing to read in vectors that
 * PageKind calls scanned goes the raster path (`raster/RasterDetector.ts`): rendered, its lines
 * and boxes found in its pixels, its words read by OCR, then the same pipeline.
 */
import { Effect } from "effect"
import type { PdfRejected, PdfUnusable } from "../pdf/PdfError.ts"
import * as PdfLimits from "../pdf/PdfLimits.ts"
import * as PdfJs from "../pdf/PdfJs.ts"
import type { PDFDocumentProxy } from "../pdf/PdfJs.ts"
import type { PageText } from "../pdf/PageText.ts"
import type { DetectOptions } from "./Candidate.ts"
import * as PagePreview from "../pdf/PagePreview.ts"
import * as DetectedNames from "./DetectedNames.ts"
import * as PageKind from "./PageKind.ts"
import * as RasterDetector from "./raster/RasterDetector.ts"
import * as Labels from "./Labels.ts"
import * as PageReader from "./PageReader.ts"
import type { PageDetection } from "./Pipeline.ts"
import * as Pipeline from "./Pipeline.ts"

export type { DetectOptions, FieldSource, PageInput } from "./Candidate.ts"
export type { PageDetection } from "./Pipeline.ts"
export const detectPage = Pipeline.detectPage

/** A detected field with its names: what the converter writes as a widget. */
export interface DetectedField extends PageDetection {
  /** Human-readable: the label, or "Field N" when there is none. */
  readonly name: string
  /** Unique within the document, existing field names included. */
  readonly formName: string
}

/** Progress after each page. */
export interface DetectProgress {
  readonly pagesDone: number
  readonly pagesTotal: number
}

/**
 * Gives detections their names: the label (or "Field N", N its position in the document) and a
 * machine name unique among `existing` names and each other.
 */
export const name = (detections: ReadonlyArray<PageDetection>, existing: Iterable<string> = []): Array<DetectedField> => {
  const used = new Set(existing)
  return detections.map((d, i) => {
    const human = d.label ?? `Field ${i + 1}`
    return { ...d, name: human, formName: Labels.uniqueName(Labels.machineName(human), used) }
  })
}

/** The names of fields already in the document, so new names never collide with them. */
const existingFieldNames = (doc: PDFDocumentProxy): Effect.Effect<Array<string>> =>
  Effect.tryPromise(() => doc.getFieldObjects()).pipe(
    Effect.map((objects) => [...(objects?.keys() ?? [])]),
    Effect.orElseSucceed(() => [])
  )

/** A page with this many text runs or more reads as vector text, whatever its images: no scan. */
const SCAN_MAX_RUNS = 200
/** The render size of a scanned page when the caller names none: the contract's default `resolution`. */
const DEFAULT_RESOLUTION = 1600

/** Whether a page is a scan (PageKind's rule); an unreadable page is not. */
const isScanned = (doc: PDFDocumentProxy, pageNumber: number): Effect.Effect<boolean> =>
  PageKind.measurePage(doc, pageNumber).pipe(
    Effect.map((m) => !m.tooMuchText && PageKind.kindOf(m.stats) === "scanned"),
    Effect.catchCause(() => Effect.succeed(false))
  )

/** The result of detecting on a whole document. */
export interface Detection {
  readonly fields: ReadonlyArray<DetectedField>
  /** Pages examined (the selected pages that exist). */
  readonly pagesTotal: number
  /**
   * The text of every page, as `PageText.read` gives it, when every page was selected and read
   * whole (none past the text limit, none unreadable): what reading the output again would find.
   */
  readonly text?: ReadonlyArray<PageText> | undefined
}

/**
 * Detects fields on the selected pages of `bytes`, page by page, reporting progress after each.
 * Fails only when pdf.js cannot open the document; an unreadable page yields no fields.
 */
export const detect = Effect.fn("FieldDetector.detect")(function* (
  bytes: Uint8Array,
  options: DetectOptions,
  onProgress: (progress: DetectProgress) => Effect.Effect<void> = () => Effect.void
): Effect.fn.Return<Detection, PdfUnusable | PdfRejected> {
  return yield* PdfJs.use(bytes, (doc) =>
    Effect.gen(function* () {
      yield* PdfLimits.checkPages(doc.numPages)
      const all = Array.from({ length: doc.numPages }, (_, i) => i + 1)
      const selected = options.pages === undefined ? all : all.filter((n) => options.pages!.includes(n))
      const existing = yield* existingFieldNames(doc)
      const found: Array<PageDetection> = []
      // The text of the pages with detections, for naming them as uploaded forms are named.
      const texts: Array<PageText> = []
      // Pages with nothing to read in vectors: scans, or blank.
      const unread: Array<number> = []
      // Every page's text while every page is read whole; undefined once one is not.
      let allText: Array<PageText> | undefined = selected.length === doc.numPages ? [] : undefined
      let done = 0
      for (const pageNumber of selected) {
        const input = yield* PageReader.read(doc, pageNumber)
        const pageText: PageText = { page: pageNumber, width: input.view[2] - input.view[0], height: input.view[3] - input.view[1], runs: input.runs }
        if (input.skipped === undefined) allText?.push(pageText)
        else allText = undefined
        const vector = Pipeline.detectPage(input, options)
        // A page with nothing to read in vectors may be a scan, measured below. (A page skipped
        // for its text, or unreadable, is not read again.)
        if (vector.length === 0 && input.skipped === undefined && input.runs.length < SCAN_MAX_RUNS) {
          unread.push(pageNumber)
          continue
        }
        found.push(...vector)
        if (vector.length > 0) {
          texts.push(pageText)
        }
        yield* onProgress({ pagesDone: ++done, pagesTotal: selected.length })
      }
      // The vector pass reads no images, so a page it found nothing on is measured from the
      // document opened with them: a page that is mostly image is a scan, its fields in its pixels.
      const scanned: Array<number> = []
      if (unread.length > 0) {
        yield* PdfJs.use(bytes, (withImages) =>
          Effect.forEach(unread, (pageNumber) =>
            Effect.gen(function* () {
              if (yield* isScanned(withImages, pageNumber)) scanned.push(pageNumber)
              else yield* onProgress({ pagesDone: ++done, pagesTotal: selected.length })
            }), { discard: true }))
      }
      // Scans are drawn from a document opened to be drawn (standard fonts, image decoders),
      // which vector pages do without; they are named from their OCR words by the pipeline.
      if (scanned.length > 0) {
        yield* PdfJs.use(bytes, (drawable) =>
          Effect.gen(function* () {
            for (const pageNumber of scanned) {
              found.push(...(yield* RasterDetector.detectPage(drawable, pageNumber, { ...options, resolution: options.resolution ?? DEFAULT_RESOLUTION }).pipe(
                // A rendered page's pixels are native memory a collection only frees when it
                // runs: run one per scanned page (workers expose it), so a long scan stays
                // within the cap.
                Effect.ensuring(Effect.sync(() => (globalThis as { gc?: () => void }).gc?.()))
              )))
              yield* onProgress({ pagesDone: ++done, pagesTotal: selected.length })
            }
          }), { forRendering: true, maxImagePixels: PagePreview.bounds.maxImagePixels })
      }
      const understood = DetectedNames.labels(found, texts)
      return { fields: name(found.map((d, i) => ({ ...d, label: understood[i] ?? d.label })), existing), pagesTotal: selected.length, text: allText }
    }), { withoutImages: true }
  )
})
