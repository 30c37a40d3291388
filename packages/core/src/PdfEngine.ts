/**
 * The PdfEngine port: every piece of PDF work the services do (reading a form, filling it,
 * reading a source document, counting pages, converting a flat PDF) behind one service, so it
 * can run away from the caller's event loop.
 *
 * `layerWorkers` (the default) runs the work in a pool of worker processes, each under a heap cap
 * and a wall-clock budget: a hostile PDF costs at most one worker, which is replaced, and the
 * server keeps answering meanwhile. `layerInline` runs the same work in the calling thread, for
 * programs that want no threads; it applies the same limits but cannot stop a runaway task.
 */
import { Context, Effect, Layer, Queue } from "effect"
import { availableParallelism, tmpdir } from "node:os"
import type { ConversionOptions, ConversionProgress, ConvertedPdf, ConverterError } from "./Converter.ts"
import type * as FlatCheck from "./detect/FlatCheck.ts"
import type { Assignment, FillOptions, FillResult } from "./pdf/FormFiller.ts"
import type { ParsedForm } from "./pdf/FormReader.ts"
import type { FormField } from "./FormField.ts"
import type { Mark as PreviewMark, Input as PreviewInput, Preview } from "./pdf/PagePreview.ts"
import { PdfRejected, type PdfUnusable } from "./pdf/PdfError.ts"
import * as PdfLimits from "./pdf/PdfLimits.ts"
// Types only: the PDF libraries load where the work runs (a worker, or `layerInline`'s first
// task), never in a server process that hands the work off.
import type * as PdfTasks from "./pdf/PdfTasks.ts"
import * as Spill from "./pdf/Spill.ts"
import * as TaskError from "./pdf/TaskError.ts"
import * as WorkerPool from "./pdf/WorkerPool.ts"

export type { DocumentContent } from "./pdf/PdfTasks.ts"
export type { Mark as PreviewMark, Preview } from "./pdf/PagePreview.ts"

/** What the review picture draws of a field: only these members cross to the PDF worker. */
export const previewMark = (field: FormField): PreviewMark => ({
  name: field.name,
  form_name: field.form_name,
  form_type: field.form_type,
  page: field.page,
  rect: field.rect,
  ...(field.confidence !== undefined ? { confidence: field.confidence } : {})
})
export type { Lane } from "./pdf/WorkerPool.ts"
export type { Limits } from "./pdf/PdfLimits.ts"

export type PdfFailure = PdfUnusable | PdfRejected

export interface PdfEngineShape {
  /** The form's fields and text. `lane` says who waits: a request (the default) or a background job. */
  readonly readForm: (bytes: Uint8Array, lane?: WorkerPool.Lane) => Effect.Effect<ParsedForm, PdfFailure>
  /** Fills the form in `pdf` (background work: sessions); `options.flatten` leaves no form behind. */
  readonly fill: (pdf: Uint8Array, assignments: ReadonlyArray<Assignment>, options?: FillOptions) => Effect.Effect<FillResult, PdfFailure>
  /** The page count, refused past the page limit. */
  readonly pageCount: (bytes: Uint8Array) => Effect.Effect<number, PdfFailure>
  /** A source document's filled fields and text lines (background work: sessions). */
  readonly readDocument: (bytes: Uint8Array) => Effect.Effect<PdfTasks.DocumentContent, PdfFailure>
  /** A PNG of one page with the given fields outlined, or the page count when the page is past the end. */
  readonly preview: (input: PreviewInput) => Effect.Effect<Preview, PdfFailure>
  /** Detects fields in a flat PDF and writes them in (background work: conversions). */
  readonly convert: (
    pdf: Uint8Array,
    options: ConversionOptions,
    onProgress: (progress: ConversionProgress) => Effect.Effect<void>
  ) => Effect.Effect<ConvertedPdf, PdfFailure | ConverterError>
  /** What a PDF holds before conversion: its fields, the kind of each page, the fields a conversion would likely find. */
  readonly checkFlat: (pdf: Uint8Array, options: FlatCheck.CheckOptions) => Effect.Effect<FlatCheck.FlatCheck, PdfFailure>
}

export class PdfEngine extends Context.Service<PdfEngine, PdfEngineShape>()("@formwright/core/PdfEngine") {}

/** How a caller runs one task: by name, with its lane, reporting progress. */
type Runner = <T extends PdfTasks.TaskName>(
  name: T,
  input: PdfTasks.Input<T>,
  lane: WorkerPool.Lane,
  onProgress?: (value: unknown) => void
) => Effect.Effect<PdfTasks.Output<T>, PdfTasks.TaskError>

/**
 * The service from a way of running tasks; conversion progress is reported in order as it comes.
 * A flat check's own time budget is two thirds of `requestTimeoutMs`, when there is one, so it
 * answers with what it found before the worker's limit would stop it with nothing.
 */
const fromRunner = (run: Runner, requestTimeoutMs?: number): PdfEngineShape => ({
  readForm: (bytes, lane = "request") => run("readForm", bytes, lane) as Effect.Effect<ParsedForm, PdfFailure>,
  fill: (pdf, assignments, options) =>
    run("fill", { pdf, assignments, ...(options ? { options } : {}) }, "background") as Effect.Effect<FillResult, PdfFailure>,
  pageCount: (bytes) => run("pageCount", bytes, "request") as Effect.Effect<number, PdfFailure>,
  readDocument: (bytes) => run("readDocument", bytes, "background") as Effect.Effect<PdfTasks.DocumentContent, PdfFailure>,
  preview: (input) => run("preview", input, "request") as Effect.Effect<Preview, PdfFailure>,
  convert: (pdf, options, onProgress) =>
    Effect.scoped(Effect.gen(function*() {
      const progress = yield* Queue.unbounded<ConversionProgress>()
      yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(progress), onProgress)))
      // Only progress forward: a conversion the pool runs again on a fresh worker (its used one
      // ran out of memory) reports its first pages a second time.
      let pagesDone = 0
      const result = yield* run("convert", { pdf, options }, "background", (value) => {
        const reported = value as ConversionProgress
        if (reported.pagesDone <= pagesDone) return
        pagesDone = reported.pagesDone
        Queue.offerUnsafe(progress, reported)
      })
      // The last page's progress is reported before the result is.
      for (const value of yield* Queue.clear(progress)) yield* onProgress(value)
      return result
    })),
  checkFlat: (pdf, options) => {
    const budgetMs = options.budgetMs ?? (requestTimeoutMs !== undefined ? Math.round((2 * requestTimeoutMs) / 3) : undefined)
    return run("checkFlat", { pdf, options: { ...options, budgetMs } }, "request") as Effect.Effect<FlatCheck.FlatCheck, PdfFailure>
  }
})

export interface InlineOptions {
  readonly limits?: Partial<PdfLimits.Limits> | undefined
}

/** The work in the calling thread: the same limits, but no isolation and no time budget. */
export const layerInline = (options: InlineOptions = {}): Layer.Layer<PdfEngine> => {
  const limits = { ...PdfLimits.defaults, ...options.limits }
  return Layer.succeed(
    PdfEngine,
    PdfEngine.of(fromRunner((name, input, _lane, onProgress) =>
      Effect.flatMap(
        Effect.promise(async () => (await import("./pdf/PdfTasks.ts")).run(name, input, limits, onProgress ?? (() => undefined))),
        (exit) => exit as Effect.Effect<PdfTasks.Output<typeof name>, PdfTasks.TaskError>
      )
    ))
  )
}

export interface WorkersOptions {
  /** Worker processes at most (default: the cores available, at least 2, at most 4). */
  readonly workers?: number | undefined
  /**
   * Memory cap of each worker in MiB (default 384): its resident memory, watched where the
   * system shows it (Linux), and its V8 heap cap, which is this less 128 MiB for the code and
   * data outside the heap. Past either, the task fails with `OutOfMemory` (an idle worker past
   * it is replaced).
   */
  readonly memoryMb?: number | undefined
  /** The V8 heap cap alone, in MiB (default `memoryMb` less 128; for tests). */
  readonly maxHeapMb?: number | undefined
  /** Budget of a task a request waits on, in ms (default 30 s). */
  readonly requestTimeoutMs?: number | undefined
  /** Budget of a background task (a fill, a source document), and of each page of a conversion, in ms (default 2 min). */
  readonly backgroundTimeoutMs?: number | undefined
  readonly limits?: Partial<PdfLimits.Limits> | undefined
  /**
   * Where a directory for large PDFs on their way to and from the workers is made (default: the
   * system's temporary directory, `TMPDIR`); it is removed when the engine stops.
   */
  readonly tempDir?: string | undefined
}

export const defaultWorkers = () => Math.min(4, Math.max(2, availableParallelism()))

export const workerDefaults = {
  memoryMb: 384,
  /** What a worker holds outside its V8 heap: code, the libraries' native parts, buffers. */
  outsideHeapMb: 128,
  requestTimeoutMs: 30_000,
  backgroundTimeoutMs: 2 * 60_000
} as const

/** The size of the PDF a task's input carries (the bytes themselves, or an object's `pdf`), if any. */
const pdfBytes = (input: unknown): number | undefined =>
  input instanceof Uint8Array
    ? input.byteLength
    : typeof input === "object" && input !== null && (input as { pdf?: unknown }).pdf instanceof Uint8Array
    ? (input as { pdf: Uint8Array }).pdf.byteLength
    : undefined

/**
 * The work in a pool of worker processes, started on first use and stopped with the layer.
 * Background tasks leave one worker free for requests, so an upload never waits behind jobs.
 */
export const layerWorkers = (options: WorkersOptions = {}): Layer.Layer<PdfEngine> =>
  Layer.effect(
    PdfEngine,
    Effect.gen(function*() {
      const limits = { ...PdfLimits.defaults, ...options.limits }
      const memoryMb = options.memoryMb ?? workerDefaults.memoryMb
      const maxHeapMb = options.maxHeapMb ?? Math.max(64, memoryMb - workerDefaults.outsideHeapMb)
      const timeouts: Record<WorkerPool.Lane, number> = {
        request: options.requestTimeoutMs ?? workerDefaults.requestTimeoutMs,
        background: options.backgroundTimeoutMs ?? workerDefaults.backgroundTimeoutMs
      }
      const context = yield* Effect.context<never>()
      const log = (level: "warn" | "error", message: string) =>
        Effect.runForkWith(context)(level === "warn" ? Effect.logWarning(message) : Effect.logError(message))
      // Where large PDFs cross to and from the workers (see `Spill`); removed after the pool stops.
      const spillDir = yield* Effect.acquireRelease(
        Effect.sync(() => Spill.makeDir(options.tempDir ?? tmpdir())),
        (dir) => Effect.sync(() => Spill.removeDir(dir))
      )
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() =>
          WorkerPool.make({
            // The source beside this source in the workspace; the emitted .js beside the emitted .js
            // once built (Node strips no types under node_modules), where tsc cannot rewrite a URL.
            script: new URL(`./pdf/PdfWorker.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`, import.meta.url),
            workerData: { limits, spillDir },
            size: options.workers ?? defaultWorkers(),
            maxHeapMb,
            // A heap cap set alone (tests) leaves resident memory unwatched.
            maxRssMb: options.maxHeapMb !== undefined && options.memoryMb === undefined ? undefined : memoryMb
          }, log)
        ),
        (pool) => Effect.promise(() => pool.close())
      )
      const onPool = (name: PdfTasks.TaskName, input: unknown, options: WorkerPool.RunOptions) =>
        Effect.callback<unknown, PdfTasks.TaskError>((resume) => {
          const task = pool.run(name, input, options)
          task.promise.then(
            (value) => resume(Effect.succeed(value)),
            (error: WorkerPool.TaskFailed) => {
              const serialized = error.error as PdfTasks.SerializedError | undefined
              // A limit, a crash, or a cancelled task (whose fiber no longer listens).
              if (serialized === undefined) return resume(Effect.fail(new PdfRejected({ reason: error.reason ?? "Crashed", message: error.message })))
              if (serialized._tag === "Defect") log("error", `PDF task '${name}' failed unexpectedly: ${serialized.message}`)
              resume(Effect.fail(TaskError.deserialize(serialized)))
            }
          )
          return Effect.sync(task.cancel)
        })
      // A large input goes as a file (in the message when it cannot be written), removed once the
      // task is over; a large result comes back as one, read and removed here.
      return PdfEngine.of(fromRunner((name, input, lane, onProgress) =>
        Effect.acquireUseRelease(
          Effect.promise(() => Spill.spill(input, spillDir).catch((): Spill.Spilled => ({ value: input, files: [] }))),
          (sent) =>
            onPool(name, sent.value, { lane, timeoutMs: timeouts[lane], onProgress, inputBytes: pdfBytes(input) }).pipe(
              Effect.flatMap((value) =>
                Effect.tryPromise({
                  try: () => Spill.restore(value),
                  catch: () => new PdfRejected({ reason: "Crashed", message: "The PDF worker's result could not be read back." })
                })
              )
            ) as Effect.Effect<PdfTasks.Output<typeof name>, PdfTasks.TaskError>,
          (sent) => Effect.promise(() => Spill.removeAll(sent.files))
        ), timeouts.request))
    })
  )
