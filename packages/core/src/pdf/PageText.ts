/**
 * Page text with geometry, as pdf.js reads it: the raw material for `as_text`, for naming
 * fields after nearby labels, for placing detected fields, and for facts in uploaded documents.
 */
import { Effect } from "effect"
import type { PDFDocumentProxy } from "./PdfJs.ts"
import * as PdfJs from "./PdfJs.ts"
import type { PdfRejected, PdfUnusable } from "./PdfError.ts"
import * as PdfLimits from "./PdfLimits.ts"
import { PdfLimits as CurrentLimits } from "./PdfLimits.ts"

/** A run of text on one line, in PDF user space (origin bottom-left). */
export interface TextRun {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
  /**
   * Set when the text does not run left to right along the page (turned a quarter, upside down):
   * `x`, `y` are its origin and `width` its advance along its own direction, so it takes no
   * horizontal room from `x` to `x + width` on the page.
   */
  readonly turned?: true
  /** Set when the run's font is a bold face (by its name: "Arial-BoldMT", "HelveticaNeueLTStd-Bd"). */
  readonly bold?: true
}

// The weights of a font's name that read as bold on the page: "Bold", "Semibold", "Black",
// "Heavy", "Demi", Adobe's "-Bd", and the names Windows gives bold faces in other languages
// ("Times New Roman Negreta", "Arial Fett").
const BOLD_FACE = /bold|black|heavy|demi|negr[ei]ta|fett|-bd/i

/** Whether a font's name is that of a bold face. */
export const isBoldFace = (fontName: string): boolean => BOLD_FACE.test(fontName)

/**
 * The runs that read along the page. Text turned a quarter in the margin ("Please print or
 * type", "Attach Forms W-2 here") labels no field, and read as horizontal it would cover the
 * boxes beside it; a page whose text is mostly turned keeps it all.
 */
export const alongThePage = (runs: ReadonlyArray<TextRun>): ReadonlyArray<TextRun> => {
  const turned = runs.filter((r) => r.turned).length
  return turned === 0 || 2 * turned >= runs.length ? runs : runs.filter((r) => !r.turned)
}

export interface PageText {
  /** 1-based. */
  readonly page: number
  readonly width: number
  readonly height: number
  readonly runs: ReadonlyArray<TextRun>
}

/** A page's text, and whether its text was cut short at the item limit. */
export interface PageRead {
  readonly text: PageText
  readonly truncated: boolean
}

/**
 * The text runs of one page; a page pdf.js cannot read yields no runs rather than failing. The
 * text is streamed so that a page whose content explodes into millions of items (nested forms
 * drawing each other) stops at the limit instead of filling the memory. The stream is left
 * unread rather than cancelled there: pdf.js goes on producing into a cancelled stream (and
 * throws when it closes it), while an unread one holds it back until the document is destroyed.
 */
const readPage = (doc: PDFDocumentProxy, pageNumber: number): Effect.Effect<PageRead> =>
  Effect.flatMap(Effect.service(CurrentLimits), (limits) =>
    Effect.promise(async (): Promise<PageRead> => {
      const page = await doc.getPage(pageNumber)
      const [x0, y0, x1, y1] = page.view
      const runs: Array<TextRun> = []
      const reader = page.streamTextContent().getReader()
      let items = 0
      // pdf.js names a page's fonts by id; our patch to it adds each font's own name to the
      // styles it sends with the items, so bold text (a block's heading) can be told apart.
      const boldFonts = new Set<string>()
      try {
        while (items <= limits.maxTextItemsPerPage) {
          const chunk = await reader.read()
          if (chunk.done) break
          const { items: chunkItems, styles } = chunk.value as { items: Array<unknown>; styles?: Record<string, { fontFace?: string }> }
          for (const [fontId, style] of Object.entries(styles ?? {})) {
            if (typeof style?.fontFace === "string" && isBoldFace(style.fontFace)) boldFonts.add(fontId)
          }
          for (const item of chunkItems) {
            if (++items > limits.maxTextItemsPerPage) break
            if (typeof item !== "object" || item === null || !("str" in item)) continue
            const text = item as { str: string; transform: Array<number>; width: number; height: number; fontName?: string }
            if (text.str.trim() === "") continue
            const [a, b, , d, e, f] = text.transform
            const size = Math.hypot(a!, b!) || Math.abs(d!) || text.height
            const plain: TextRun = { text: text.str, x: e!, y: f!, width: text.width, height: size }
            const run: TextRun = text.fontName !== undefined && boldFonts.has(text.fontName) ? { ...plain, bold: true } : plain
            runs.push(a! <= 0 || Math.abs(b!) > 0.1 * size ? { ...run, turned: true } : run)
          }
        }
      } catch {
        // What was read before the damage is kept.
      } finally {
        reader.releaseLock()
      }
      const truncated = items > limits.maxTextItemsPerPage
      if (!truncated) page.cleanup()
      return { text: { page: pageNumber, width: x1 - x0, height: y1 - y0, runs }, truncated }
    }).pipe(Effect.catchDefect(() => Effect.succeed({ text: { page: pageNumber, width: 0, height: 0, runs: [] }, truncated: false }))))

/** The text runs of one page (cut at the item limit; see `read`). */
export const ofPage = (doc: PDFDocumentProxy, pageNumber: number): Effect.Effect<PageText> =>
  Effect.map(readPage(doc, pageNumber), (read) => read.text)

/** The text runs of one page, and whether the page passed the item limit (so the runs are cut short). */
export const ofPageWithLimit = (doc: PDFDocumentProxy, pageNumber: number): Effect.Effect<PageRead> => readPage(doc, pageNumber)

/**
 * The text of every page of `bytes`. A page that passes the item limit ends the reading: its
 * text so far is kept, the pages after it are left out, and the document is closed at once,
 * which stops pdf.js working on the rest of it.
 */
export const read = (bytes: Uint8Array): Effect.Effect<ReadonlyArray<PageText>, PdfUnusable | PdfRejected> =>
  PdfJs.use(bytes, (doc) =>
    Effect.gen(function*() {
      yield* PdfLimits.checkPages(doc.numPages)
      const pages: Array<PageText> = []
      for (let n = 1; n <= doc.numPages; n++) {
        const page = yield* readPage(doc, n)
        pages.push(page.text)
        if (page.truncated) {
          yield* Effect.logWarning(`page ${n} has more than the limit of text items; the text after it was not read`)
          break
        }
      }
      return pages
    }))

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
