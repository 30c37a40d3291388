/**
 * One place that opens a PDF with pdf.js (the reader of page text and geometry), with the
 * options a server needs: no eval, no font loading into a DOM, errors only in the log,
 * and the document always destroyed so its memory is released.
 */
import { Effect } from "effect"
import { createRequire } from "node:module"
import { dirname, join, sep } from "node:path"
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs"
import type { PDFDocumentProxy } from "pdfjs-dist"
import { unusable, type PdfUnusable } from "./PdfError.ts"

export type { PDFDocumentProxy }

/** pdf.js calls a truncated PDF "invalid" too: only a body without a PDF header is not a PDF. */
const classify = (bytes: Uint8Array) => (error: unknown): PdfUnusable => {
  const name = (error as { name?: string })?.name ?? ""
  if (bytes.byteLength === 0) return unusable("Empty")
  if (name === "PasswordException") return unusable("UserPassword")
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024))
  return head.includes("%PDF-") ? unusable("Damaged") : unusable("NotPdf")
}

/** What drawing pages needs beyond reading them: the standard fonts a PDF may name without embedding, and the image decoders. */
export interface OpenOptions {
  readonly forRendering?: boolean | undefined
  /** Images of more pixels than this are left undrawn (rendering only). */
  readonly maxImagePixels?: number | undefined
  /**
   * Leaves every image out of the pages' operator lists: readers of text and vector geometry
   * alone skip decoding pixels they never look at (and copying them between pdf.js's threads).
   */
  readonly withoutImages?: boolean | undefined
}

const pdfjsRoot = () => dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"))

const renderingResources = () => {
  const root = pdfjsRoot()
  return { standardFontDataUrl: join(root, "standard_fonts") + sep, wasmUrl: join(root, "wasm") + sep }
}

/**
 * The predefined CMaps pdf.js ships (UniJIS-UCS2-H, UniKS-UCS2-H, ...). Without them a CID font
 * that names one has no Unicode: Chinese, Japanese and Korean forms would read as no text at all,
 * for labels and detection as much as for drawing. Read from disk only when a font names one.
 */
const characterMaps = () => ({ cMapUrl: join(pdfjsRoot(), "cmaps") + sep, cMapPacked: true })

/**
 * Opens `bytes` with pdf.js for the lifetime of the surrounding scope. pdf.js takes ownership
 * of the buffer it is given, so it gets a copy and the caller's bytes stay intact.
 */
export const open = (bytes: Uint8Array, options: OpenOptions = {}): Effect.Effect<PDFDocumentProxy, PdfUnusable, import("effect").Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() =>
      getDocument({
        data: bytes.slice(),
        verbosity: VerbosityLevel.ERRORS,
        disableFontFace: true,
        useSystemFonts: false,
        stopAtErrors: false,
        ...characterMaps(),
        ...(options.forRendering ? renderingResources() : {}),
        // pdf.js drops an image of more than `maxImageSize` pixels before decoding it.
        ...(options.withoutImages ? { maxImageSize: 0 } : options.maxImagePixels !== undefined ? { maxImageSize: options.maxImagePixels } : {})
      })
    ),
    (task) => Effect.promise(() => task.destroy())
  ).pipe(Effect.flatMap((task) => Effect.tryPromise({ try: () => task.promise, catch: classify(bytes) })))

/** Runs `f` with the document open, closing it afterwards whatever happens. */
export const use = <A, E, R>(
  bytes: Uint8Array,
  f: (doc: PDFDocumentProxy) => Effect.Effect<A, E, R>,
  options: OpenOptions = {}
): Effect.Effect<A, E | PdfUnusable, R> => Effect.scoped(Effect.flatMap(open(bytes, options), f))
