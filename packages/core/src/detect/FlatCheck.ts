/**
 * "Is it flat?": what a PDF holds before anyone converts it. Whether it already has fields,
 * which pages are vector and which scanned (`PageKind`), and how many fields a conversion
 * would likely find: the field detector itself run on the vector pages, within a time budget
 * (a client waits for the answer), the pages it had no time for counted by extrapolation.
 * Scanned pages get no estimate: their fields exist only as pixels, and there is no raster
 * detector yet, so a conversion finds nothing there.
 */
import { Clock, Effect } from "effect"
import { type PdfRejected, type PdfUnusable, unusable } from "../pdf/PdfError.ts"
import * as PdfJs from "../pdf/PdfJs.ts"
import type { PDFDocumentProxy } from "../pdf/PdfJs.ts"
import * as PdfLib from "../pdf/PdfLib.ts"
import * as PdfLimits from "../pdf/PdfLimits.ts"
import * as FieldDetector from "./FieldDetector.ts"
import * as PageKind from "./PageKind.ts"

export interface CheckOptions extends Pick<FieldDetector.DetectOptions, "confidence" | "allowCheckboxes"> {
  /**
   * Wall-clock time the check may take, in ms (default `defaultBudgetMs`). Pages are classified
   * within the first 60% of it, and detection runs in what remains; the worker's own time limit
   * stays the hard stop behind it.
   */
  readonly budgetMs?: number | undefined
}

/**
 * Below the request time limit of the PDF workers (30 s by default), with room for a busy
 * machine; `PdfEngine.layerWorkers` passes two thirds of its own limit instead.
 */
export const defaultBudgetMs = 20_000

/** `unknown`: the page was not classified (no time left, or pdf.js could not read it). */
export type Kind = PageKind.Kind | "unknown"

/**
 * Where a page's estimate comes from: the detector ran on it (`detected`), it is a vector page
 * the time budget left out (`not_examined`: the document's total extrapolates it), or there is
 * none (`unavailable`: a scanned or unknown page, or one drawing more text than can be read;
 * `reason` says why).
 */
export type PageBasis = "detected" | "not_examined" | "unavailable"

export interface PageReport {
  /** 1-based. */
  readonly page: number
  readonly kind: Kind
  /** Fields the detector found on the page; undefined unless `basis` is `detected`. */
  readonly likelyFields: number | undefined
  readonly basis: PageBasis
  readonly reason: string | undefined
  /** What the classification went by; undefined for a page not classified. */
  readonly stats: PageKind.PageStats | undefined
}

/**
 * `detected`: every page was classified and every vector page run through the detector.
 * `extrapolated`: pages were left out for time and counted at the mean of those examined (see
 * `estimate`). `unavailable`: no vector page was examined (none, or no time), so the count is 0
 * for want of an estimate.
 */
export type Basis = "detected" | "extrapolated" | "unavailable"

export interface FlatCheck {
  readonly pages: number
  /** Terminal AcroForm fields the PDF already has (what an upload would list). */
  readonly fields: number
  /** The AcroForm carries an XFA form. */
  readonly xfa: boolean
  readonly pageReports: ReadonlyArray<PageReport>
  /** Fields a conversion would likely find on the vector pages, with these options. */
  readonly likelyFields: number
  readonly basis: Basis
}

export const reasons = {
  scanned: "A scanned page: its fields exist only as pixels, and there is no raster detector yet, so a conversion finds none here.",
  unreadable: "pdf.js could not read this page.",
  noTimeToClassify: "Not classified: the check ran out of time before this page.",
  noTimeToDetect: "A vector page the check had no time to run the detector on; the total counts it at the mean of the pages examined.",
  tooMuchText: "The page draws more text than the limit of PDF work allows to read, so it was not examined for fields."
} as const

interface Classified {
  readonly page: number
  readonly stats: PageKind.PageStats | undefined
  /** Why the page gets no estimate whatever its kind (unreadable, too much text). */
  readonly reason: string | undefined
}

/** Classifies pages in order until `deadline` (ms, the clock's time), the rest left unknown. */
const classify = (doc: PDFDocumentProxy, deadline: number): Effect.Effect<Array<Classified>> =>
  Effect.gen(function*() {
    const out: Array<Classified> = []
    for (let n = 1; n <= doc.numPages; n++) {
      if ((yield* Clock.currentTimeMillis) >= deadline) {
        out.push({ page: n, stats: undefined, reason: reasons.noTimeToClassify })
        continue
      }
      const measured = yield* PageKind.measurePage(doc, n).pipe(Effect.catchDefect(() => Effect.succeed(undefined)))
      out.push({
        page: n,
        stats: measured?.stats,
        reason: measured === undefined ? reasons.unreadable : measured.tooMuchText ? reasons.tooMuchText : undefined
      })
    }
    return out
  })

/**
 * The order pages are examined in: first, last, middle, then the quarter points and so on, so
 * that the pages examined before the time runs out are spread over the whole document and the
 * extrapolation does not take the cover pages for the rest.
 */
export const spreadOrder = <A>(items: ReadonlyArray<A>): Array<A> => {
  if (items.length <= 2) return [...items]
  const order = [0, items.length - 1]
  const spans: Array<readonly [number, number]> = [[0, items.length - 1]]
  for (let next = 0; next < spans.length; next++) {
    const [lo, hi] = spans[next]!
    if (hi - lo < 2) continue
    const mid = (lo + hi) >> 1
    order.push(mid)
    spans.push([lo, mid], [mid, hi])
  }
  return order.map((i) => items[i]!)
}

/**
 * Runs the detector on `pages` in batches sized to the time left (by the time pages have taken
 * so far), until they are done or `deadline` passes. Returns the count per page examined.
 */
const detectWithin = (
  bytes: Uint8Array,
  pages: ReadonlyArray<number>,
  options: FieldDetector.DetectOptions,
  deadline: number,
  msPerPageGuess: number
): Effect.Effect<Map<number, number>, PdfUnusable | PdfRejected> =>
  Effect.gen(function*() {
    const counts = new Map<number, number>()
    const queue = spreadOrder(pages)
    let spent = 0
    let taken = 0
    while (taken < queue.length) {
      const started = yield* Clock.currentTimeMillis
      const left = deadline - started
      if (left <= 0) break
      const msPerPage = taken > 0 ? spent / taken : msPerPageGuess
      const size = Math.max(1, Math.floor(left / Math.max(1, msPerPage)))
      const batch = queue.slice(taken, taken + size)
      const detection = yield* FieldDetector.detect(bytes, { ...options, pages: [...batch].sort((a, b) => a - b) })
      for (const page of batch) counts.set(page, 0)
      for (const field of detection.fields) counts.set(field.page, (counts.get(field.page) ?? 0) + 1)
      spent += (yield* Clock.currentTimeMillis) - started
      taken += batch.length
    }
    return counts
  })

/** The pages an estimate is made of. */
export interface EstimateInput {
  /** Vector pages the detector could run on (examined or not). */
  readonly vectorPages: number
  /** Pages classified. */
  readonly classifiedPages: number
  /** Pages the check had no time to classify. */
  readonly unclassifiedPages: number
}

/**
 * The document's estimate from the counts of the vector pages examined (page to count): their
 * sum, plus the vector pages not examined at the mean of those that were, plus the pages not
 * classified at that mean times the share of classified pages that are vector.
 */
export const estimate = (input: EstimateInput, counts: ReadonlyMap<number, number>): { readonly likelyFields: number; readonly basis: Basis } => {
  if (counts.size === 0) return { likelyFields: 0, basis: "unavailable" }
  const found = [...counts.values()].reduce((a, b) => a + b, 0)
  const mean = found / counts.size
  const vectorShare = input.classifiedPages > 0 ? input.vectorPages / input.classifiedPages : 0
  const left = Math.max(0, input.vectorPages - counts.size) + vectorShare * input.unclassifiedPages
  return { likelyFields: found + Math.round(left * mean), basis: left > 0 ? "extrapolated" : "detected" }
}

/**
 * Checks `bytes`: the same refusals as the start of a conversion (`PdfUnusable` for an empty,
 * non-PDF, damaged or user-password file; `PdfRejected` past a limit), then the fields, the
 * kind of every page and the estimate.
 */
export const check = Effect.fn("FlatCheck.check")(function*(
  bytes: Uint8Array,
  options: CheckOptions
): Effect.fn.Return<FlatCheck, PdfUnusable | PdfRejected> {
  const started = yield* Clock.currentTimeMillis
  const budget = options.budgetMs ?? defaultBudgetMs
  const { classified, fields, xfa } = yield* PdfJs.use(bytes, (pdfjs) =>
    Effect.gen(function*() {
      yield* PdfLimits.checkPages(pdfjs.numPages)
      // pdf-lib, as an upload reads fields and a conversion writes them: a file it cannot open
      // is refused here, before any page is read, as the conversion refuses it.
      const doc = yield* PdfLib.load(bytes)
      const { fields, xfa } = yield* Effect.try({
        try: () => ({ fields: PdfLib.terminalFields(doc).length, xfa: PdfLib.hasXfa(doc) }),
        catch: () => unusable("Damaged")
      })
      return { classified: yield* classify(pdfjs, started + 0.6 * budget), fields, xfa }
    }))
  const classifiedAt = yield* Clock.currentTimeMillis

  const kinds = classified.map((c) => (c.stats ? PageKind.kindOf(c.stats) : "unknown" as const))
  // A vector page with a reason (too much text to read) is not examined, and not extrapolated.
  const vectorPages = classified.filter((c, i) => kinds[i] === "vector" && c.reason === undefined).map((c) => c.page)
  const measured = classified.filter((c) => c.stats !== undefined).length
  // Reading the operator lists is most of what detection costs too: the first batch's guess.
  const msPerPageGuess = measured > 0 ? (1.5 * (classifiedAt - started)) / measured : 500
  const counts = yield* detectWithin(
    bytes,
    vectorPages,
    { confidence: options.confidence, allowCheckboxes: options.allowCheckboxes },
    started + budget,
    msPerPageGuess
  )

  const pageReports = classified.map((c, i): PageReport => {
    const kind = kinds[i]!
    const count = counts.get(c.page)
    if (kind === "vector" && c.reason === undefined) {
      return count !== undefined
        ? { page: c.page, kind, likelyFields: count, basis: "detected", reason: undefined, stats: c.stats }
        : { page: c.page, kind, likelyFields: undefined, basis: "not_examined", reason: reasons.noTimeToDetect, stats: c.stats }
    }
    return { page: c.page, kind, likelyFields: undefined, basis: "unavailable", reason: c.reason ?? reasons.scanned, stats: c.stats }
  })
  const unclassifiedPages = classified.filter((c) => c.reason === reasons.noTimeToClassify).length
  const estimated = estimate({ vectorPages: vectorPages.length, classifiedPages: measured, unclassifiedPages }, counts)
  return { pages: classified.length, fields, xfa, pageReports, ...estimated }
})
