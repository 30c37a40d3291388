/**
 * Page text with geometry, as pdf.js reads it: the raw material for `as_text`, for naming
 * fields after nearby labels, for placing detected fields, and for facts in uploaded documents.
 */
import { Effect } from "effect"
import type { PDFDocumentProxy } from "./PdfJs.ts"
import * as PdfJs from "./PdfJs.ts"
import type { PdfUnusable } from "./PdfError.ts"

/** A run of text on one line, in PDF user space (origin bottom-left). */
export interface TextRun {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export interface PageText {
  /** 1-based. */
  readonly page: number
  readonly width: number
  readonly height: number
  readonly runs: ReadonlyArray<TextRun>
}

/** The text runs of one page; pages pdf.js cannot read yield no runs rather than failing. */
export const ofPage = (doc: PDFDocumentProxy, pageNumber: number): Effect.Effect<PageText> =>
  Effect.promise(async () => {
    const page = await doc.getPage(pageNumber)
    const [x0, y0, x1, y1] = page.view
    try {
      const content = await page.getTextContent()
      const runs: Array<TextRun> = []
      for (const item of content.items) {
        if (!("str" in item) || item.str.trim() === "") continue
        const [a, b, , d, e, f] = item.transform as Array<number>
        const size = Math.hypot(a, b) || Math.abs(d) || item.height
        runs.push({ text: item.str, x: e, y: f, width: item.width, height: size })
      }
      return { page: pageNumber, width: x1 - x0, height: y1 - y0, runs }
    } catch {
      return { page: pageNumber, width: x1 - x0, height: y1 - y0, runs: [] }
    } finally {
      page.cleanup()
    }
  }).pipe(Effect.catchDefect(() => Effect.succeed({ page: pageNumber, width: 0, height: 0, runs: [] })))

/** The text of every page of `bytes`. */
export const read = (bytes: Uint8Array): Effect.Effect<ReadonlyArray<PageText>, PdfUnusable> =>
  PdfJs.use(bytes, (doc) => Effect.forEach(Array.from({ length: doc.numPages }, (_, i) => i + 1), (n) => ofPage(doc, n)))

/** Joins runs into lines in reading order (top to bottom, then left to right). */
export const toLines = (page: PageText): ReadonlyArray<string> => {
  const sorted = [...page.runs].sort((p, q) => q.y - p.y || p.x - q.x)
  const lines: Array<{ y: number; runs: Array<TextRun> }> = []
  for (const run of sorted) {
    const line = lines.find((l) => Math.abs(l.y - run.y) <= Math.max(2, run.height * 0.4))
    if (line) line.runs.push(run)
    else lines.push({ y: run.y, runs: [run] })
  }
  return lines
    .sort((p, q) => q.y - p.y)
    .map((l) => l.runs.sort((p, q) => p.x - q.x).map((r) => r.text).join(" ").replace(/\s+/g, " ").trim())
    .filter((l) => l.length > 0)
}
