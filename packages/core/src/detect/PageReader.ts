/**
 * Reads one page for the detector (text, drawing, existing widgets) with pdf.js and releases the
 * page's resources, so memory stays bounded by the largest page.
 */
import { Cause, Effect } from "effect"
import * as PageText from "../pdf/PageText.ts"
import type { PDFDocumentProxy } from "../pdf/PdfJs.ts"
import type { PageInput } from "./Candidate.ts"
import { EMPTY_GRAPHICS } from "./Pipeline.ts"
import * as VectorLines from "./VectorLines.ts"
import type { Rect } from "./VectorLines.ts"

const asRect = (r: unknown): Rect | undefined => {
  if (!Array.isArray(r) || r.length < 4 || !r.slice(0, 4).every((n) => typeof n === "number" && Number.isFinite(n))) return undefined
  const [a, b, c, d] = r as [number, number, number, number]
  return { x1: Math.min(a, c), y1: Math.min(b, d), x2: Math.max(a, c), y2: Math.max(b, d) }
}

/** Reads one page's text, drawing and widgets. An unreadable page reads as empty. */
export const read = (doc: PDFDocumentProxy, pageNumber: number): Effect.Effect<PageInput> =>
  Effect.gen(function* () {
    const { text, truncated } = yield* PageText.ofPageWithLimit(doc, pageNumber)
    // A page that draws more text items than the limit is no page a person fills in (nested
    // forms drawing each other, say); its drawing would be as large, so it is not analysed.
    if (truncated) {
      yield* Effect.logWarning(`FieldDetector: page ${pageNumber} draws more text than the limit, so it was not analysed for fields`)
      return { page: pageNumber, view: [0, 0, text.width, text.height] as const, runs: [], graphics: EMPTY_GRAPHICS, widgets: [], skipped: "tooMuchText" as const }
    }
    const page = yield* Effect.tryPromise({ try: () => doc.getPage(pageNumber), catch: (error) => error })
    return yield* Effect.gen(function* () {
      const graphics = yield* VectorLines.ofPage(page)
      const annotations = yield* Effect.tryPromise(() => page.getAnnotations()).pipe(Effect.orElseSucceed(() => []))
      const widgets = annotations.flatMap((a: { subtype?: string; rect?: unknown }) => {
        const rect = a.subtype === "Widget" ? asRect(a.rect) : undefined
        return rect ? [rect] : []
      })
      const [x1, y1, x2, y2] = page.view as [number, number, number, number]
      return { page: pageNumber, view: [x1, y1, x2, y2] as const, runs: text.runs, graphics, widgets }
    }).pipe(Effect.ensuring(Effect.sync(() => page.cleanup())))
  }).pipe(
    Effect.catchCause((cause) => {
      const error = Cause.squash(cause)
      return Effect.logWarning(`FieldDetector: page ${pageNumber} could not be read, so no fields were detected on it`).pipe(
        Effect.annotateLogs({ reason: error instanceof Error ? error.message : String(error) }),
        Effect.as({ page: pageNumber, view: [0, 0, 0, 0] as const, runs: [], graphics: EMPTY_GRAPHICS, widgets: [], skipped: "unreadable" as const })
      )
    })
  )
