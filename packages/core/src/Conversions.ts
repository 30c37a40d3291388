/**
 * The Conversions service: flat PDFs turned into fillable forms by background jobs that
 * survive a restart (an unfinished job is run again, not lost).
 */
import { Context, Effect, Layer, Option } from "effect"
import * as Clock from "./Clock.ts"
import { ConversionJob, JobOptions, JobNotFound } from "./ConversionJob.ts"
import * as Converter from "./Converter.ts"
import type * as FlatCheck from "./detect/FlatCheck.ts"
import * as Events from "./Events.ts"
import * as FileName from "./FileName.ts"
import * as Forms from "./Forms.ts"
import * as Id from "./Id.ts"
import { InvalidInput, validate } from "./InvalidInput.ts"
import * as JobRunner from "./JobRunner.ts"
import { finalMessage, type PdfRejected, type PdfUnusable } from "./pdf/PdfError.ts"
import * as PdfEngine from "./PdfEngine.ts"
import * as Storage from "./Storage.ts"
import { both, withUndoAll } from "./Undo.ts"

// Types only: the check runs in the PdfEngine's workers, and this module loads in the server.
export type { CheckOptions as FlatCheckOptions, FlatCheck, PageReport as FlatCheckPage } from "./detect/FlatCheck.ts"

export interface StartConversion {
  readonly owner: Id.UserId
  readonly bytes: Uint8Array
  readonly fileName?: string | undefined
  readonly options: JobOptions
}

/** A job as its status route shows it: the record, plus the PDF once completed. */
export interface JobStatus {
  readonly job: ConversionJob
  readonly pdf?: Uint8Array | undefined
}

export interface ConversionsShape {
  /** Checks the PDF and the pages asked for, stores it and schedules the job. */
  readonly start: (
    input: StartConversion
  ) => Effect.Effect<ConversionJob, PdfUnusable | PdfRejected | InvalidInput | Converter.ConverterError | Storage.StorageError>
  /** The job's record (and PDF once completed); a converter service asked about it that answers non-200 fails with `ConverterError`. */
  readonly status: (owner: Id.UserId, id: string) => Effect.Effect<JobStatus, JobNotFound | Converter.ConverterError | Storage.StorageError>
  /**
   * What a PDF holds before it is converted: its fields, which pages are vector and which
   * scanned, and how many fields a conversion with these options would likely find. Stores
   * nothing; refuses what the start of a conversion refuses.
   */
  readonly checkFlat: (bytes: Uint8Array, options: FlatCheck.CheckOptions) => Effect.Effect<FlatCheck.FlatCheck, PdfUnusable | PdfRejected>
}

export class Conversions extends Context.Service<Conversions, ConversionsShape>()("@formwright/core/Conversions") {}

export const keys = {
  job: (owner: string, id: string) => `jobs/${owner}/${id}`,
  input: (owner: string, id: string) => `jobs/${owner}/${id}/input.pdf`,
  output: (owner: string, id: string) => `jobs/${owner}/${id}/output.pdf`
}

const converterOptions = (options: JobOptions): Converter.ConversionOptions => ({
  pages: options.pages,
  confidence: options.confidence,
  resolution: options.resolution,
  allowCheckboxes: options.allow_checkboxes
})

export const layer: Layer.Layer<
  Conversions,
  never,
  Storage.Storage | Forms.Forms | Converter.Converter | JobRunner.JobRunner | Events.Events | PdfEngine.PdfEngine
> = Layer.effect(
  Conversions,
  Effect.gen(function*() {
    const storage = yield* Storage.Storage
    const forms = yield* Forms.Forms
    const converter = yield* Converter.Converter
    const runner = yield* JobRunner.JobRunner
    const events = yield* Events.Events
    const engine = yield* PdfEngine.PdfEngine

    const update = (job: ConversionJob, change: Partial<ConversionJob>) =>
      storage.updateJson(ConversionJob, keys.job(job.owner, job.id), (current) =>
        Effect.succeed({ ...current, ...change, updated: Clock.nowIso() } as ConversionJob))

    const convert = (job: ConversionJob) =>
      Effect.gen(function*() {
        const input = yield* storage.getBlob(keys.input(job.owner, job.id))
        if (Option.isNone(input)) return yield* new Converter.ConverterError({ message: "The uploaded PDF of this job is missing." })
        const converted = yield* converter.convert(
          input.value,
          converterOptions(job.options),
          (progress) =>
            update(job, { progress: { pages_done: progress.pagesDone, pages_total: progress.pagesTotal } }).pipe(
              Effect.catchCause((cause) => Effect.logWarning("could not record conversion progress", cause))
            ),
          { remoteJobId: job.converter_job_id }
        )
        // The output and the form are written side by side; the job shows either only once it
        // is completed, and a failure of one takes the other with it.
        const [, form] = yield* both(
          {
            write: storage.putBlob(keys.output(job.owner, job.id), converted.pdf, { contentType: "application/pdf" }),
            undo: () => storage.deleteBlob(keys.output(job.owner, job.id))
          },
          {
            write: forms.createConverted({
              owner: job.owner,
              bytes: converted.pdf,
              fileName: job.file_name,
              detections: converted.detections,
              parsed: converted.form
            }),
            undo: (form) => forms.delete(job.owner, form.id)
          }
        )
        return form
      })

    /** The event of a finished job (see `Events.finalEvent`). */
    const finalEvent = (job: ConversionJob, fields: number): Events.Event =>
      job.status === "completed"
        ? Events.finalEvent(job.id, job.owner, "conversion.completed", { job_id: job.id, form_id: job.form_id, fields })
        : Events.finalEvent(job.id, job.owner, "conversion.failed", { job_id: job.id, error_message: job.error_message ?? "" })

    /** The final event of a job a run before this one finished (its form read for the field count). */
    const finalEventAgain = (job: ConversionJob) =>
      job.status === "completed" && job.form_id !== undefined
        ? forms.get(job.owner, job.form_id).pipe(
          Effect.map((form) => finalEvent(job, form.fields.length)),
          // The form was deleted since: the outcome is still reported, with no field count to give.
          Effect.catchTags({ FormNotFound: () => Effect.succeed(finalEvent(job, 0)), FormForbidden: () => Effect.succeed(finalEvent(job, 0)) })
        )
        : Effect.succeed(finalEvent(job, 0))

    const fail = (job: ConversionJob, message: string) =>
      Effect.gen(function*() {
        yield* update(job, { status: "failed", error_message: message })
        yield* events.publish(finalEvent({ ...job, status: "failed", error_message: message }, 0))
      })

    const process = (item: JobRunner.WorkItem, attempt: JobRunner.Attempt) =>
      Effect.gen(function*() {
        const found = yield* storage.getJson(ConversionJob, keys.job(item.owner, item.id))
        if (Option.isNone(found)) return "done" as const
        const job = found.value.value
        if (job.status === "completed" || job.status === "failed") {
          // A run finished the record and may have died before its event was written: publish
          // it again, under the same id (at least once; receivers drop ids they have seen).
          yield* events.publish(yield* finalEventAgain(job))
          return "done" as const
        }
        // The record shows the job at work while the conversion starts, not before: the
        // conversion does not read it, and the job's outcome is recorded only after both.
        const [, outcome] = yield* Effect.all(
          [update(job, { status: "processing", attempts: job.attempts + 1 }), Effect.result(convert(job))],
          { concurrency: 2 }
        )
        // A crashed worker, a converter service away, or records that cannot be reached.
        const transient = outcome._tag === "Failure" &&
          ((outcome.failure._tag === "PdfRejected" || outcome.failure._tag === "ConverterError") && outcome.failure.transient === true ||
            Storage.isUnavailable(outcome.failure))
        if (transient && !attempt.last) {
          yield* Effect.logWarning(`conversion will be retried: ${outcome.failure.message}`)
          return "retry" as const
        }
        if (outcome._tag === "Success") {
          const form = outcome.success
          yield* update(job, { status: "completed", form_id: form.id })
          yield* events.publish(finalEvent({ ...job, status: "completed", form_id: form.id }, form.fields.length))
        } else {
          const error = outcome.failure
          const message = error._tag === "StorageError" ? "The conversion could not be completed." : finalMessage(error, attempt.number)
          if (error._tag === "StorageError") yield* Effect.logError("conversion failed", error)
          yield* fail(job, message)
        }
        return "done" as const
      }).pipe(
        Effect.catchCause((cause) =>
          Storage.isUnavailable(cause)
            ? Effect.logWarning("conversion will be retried: its records cannot be reached", cause).pipe(Effect.as("retry" as const))
            : Effect.logError("conversion processing crashed", cause).pipe(Effect.as("done" as const))
        ),
        Effect.withSpan("Conversions.process", { attributes: { job_id: item.id } })
      )

    yield* runner.register("conversion", {
      run: process,
      abandon: JobRunner.failUnfinished(
        "conversion",
        (item) => Effect.map(storage.getJson(ConversionJob, keys.job(item.owner, item.id)), Option.map((found) => found.value)),
        fail
      )
    })

    return Conversions.of({
      start: Effect.fn("Conversions.start")(function*(input: StartConversion) {
        const options = yield* validate(JobOptions, input.options, "options")
        const pageCount = yield* engine.pageCount(input.bytes)
        const beyond = options.pages?.find((p) => p > pageCount)
        if (beyond !== undefined) {
          return yield* new InvalidInput({ field: "pages", message: `Page ${beyond} is past the end of the document (${pageCount} ${pageCount === 1 ? "page" : "pages"}).` })
        }
        // A converter service that refuses the job (full, or the file too large) is told now.
        const ticket = yield* converter.submit(input.bytes, converterOptions(options))
        const now = Clock.nowIso()
        const job: ConversionJob = {
          id: Id.JobId.make(Id.make("job")),
          owner: input.owner,
          status: "pending",
          file_name: FileName.choose(input.fileName),
          options,
          progress: { pages_done: 0, pages_total: options.pages?.length ?? pageCount },
          attempts: 0,
          ...(ticket.remoteJobId !== undefined ? { converter_job_id: ticket.remoteJobId } : {}),
          created: now,
          updated: now
        }
        // A job that cannot be recorded or scheduled (a full disk) takes its uploaded PDF and its
        // record with it: nothing is left that would never run.
        // The PDF and the record are written side by side: neither is read before the job is
        // scheduled, and the job is scheduled only once both are in place.
        yield* withUndoAll(
          [
            { write: storage.putBlob(keys.input(job.owner, job.id), input.bytes, { contentType: "application/pdf" }), undo: storage.deleteBlob(keys.input(job.owner, job.id)) },
            { write: storage.insertJson(ConversionJob, keys.job(job.owner, job.id), job), undo: storage.deleteDocument(keys.job(job.owner, job.id), "any") }
          ],
          runner.submit({ kind: "conversion", id: job.id, owner: job.owner })
        )
        return job
      }),
      checkFlat: Effect.fn("Conversions.checkFlat")(function*(bytes: Uint8Array, options: FlatCheck.CheckOptions) {
        return yield* engine.checkFlat(bytes, options)
      }),
      status: Effect.fn("Conversions.status")(function*(owner: Id.UserId, id: string) {
        if (!Id.isSafeSegment(id)) return yield* new JobNotFound({ jobId: id })
        const found = yield* storage.getJson(ConversionJob, keys.job(owner, id))
        if (Option.isNone(found)) return yield* new JobNotFound({ jobId: id })
        const job = found.value.value
        // A job at a converter service: the service is asked while the job runs, so a client
        // polling learns when it stops answering as it should.
        if ((job.status === "pending" || job.status === "processing") && job.converter_job_id !== undefined) {
          yield* converter.check({ remoteJobId: job.converter_job_id })
        }
        if (job.status !== "completed") return { job }
        const pdf = yield* storage.getBlob(keys.output(owner, id))
        return { job, pdf: Option.getOrUndefined(pdf) }
      })
    })
  })
)
