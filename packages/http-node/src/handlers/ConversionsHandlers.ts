/**
 * Handlers of the conversion group: both route families share one implementation.
 */
import { Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Conversions, Converter, PdfLimits } from "@formwright/core"
import { Api, CurrentUser } from "@formwright/api"
import { pdfUpload } from "./FormsHandlers.ts"
import { ConverterAnswered } from "./Edge.ts"
import * as InvalidRequest from "./InvalidRequest.ts"
import * as Query from "./Query.ts"
import * as WireErrors from "./WireErrors.ts"

const family = "conversion" as const

/** The job's options: the query as decoded by the contract, with the defaults filled in. */
const options = (query: { readonly pages?: string | undefined; readonly confidence?: number | undefined; readonly resolution?: number | undefined; readonly allow_checkboxes?: boolean | undefined }) =>
  Effect.gen(function*() {
    // No document with more pages than the PDF limit is accepted, so neither is a longer selection.
    const limits = yield* PdfLimits.PdfLimits
    const pages = yield* Query.pages(family, query.pages, limits.maxPages)
    return {
      ...(pages ? { pages } : {}),
      confidence: query.confidence ?? 0.1,
      resolution: query.resolution ?? 1600,
      allow_checkboxes: query.allow_checkboxes ?? true
    }
  })

/**
 * A converter service's non-200 answer, worded as interface.md words it for the route (its status
 * is kept), and marked so that the edge does not take the converter's 401 for the client's.
 */
const converterSays = (message: string) => <A, E extends { readonly _tag: string }, R>(self: Effect.Effect<A, E, R>) =>
  self.pipe(Effect.catchIf(
    (error): error is Extract<E, { readonly _tag: "ConverterError" }> => error._tag === "ConverterError",
    (error) =>
      Effect.gen(function*() {
        const answered = yield* ConverterAnswered
        if (answered !== undefined) answered.status = (error as unknown as Converter.ConverterError).status
        return yield* Effect.fail(new Converter.ConverterError({ ...(error as unknown as Converter.ConverterError), message }))
      })
  ))

/** Where the review picture of a converted form's first page is. */
export const previewPath = (formId: string) => `/v1/forms/${encodeURIComponent(formId)}/preview?page=1`

export const ConversionsHandlers = HttpApiBuilder.group(Api, "conversions", (handlers) =>
  Effect.gen(function*() {
    const conversions = yield* Conversions.Conversions

    // Raw: the PDF is read as a stream within the limit (FormsHandlers.pdfUpload says why).
    const start = (request: HttpServerRequest.HttpServerRequest, query: Parameters<typeof options>[0]) =>
      WireErrors.conversion(Effect.gen(function*() {
        const user = yield* CurrentUser
        const upload = yield* pdfUpload(request, family)
        const jobOptions = yield* options(query)
        const job = yield* conversions.start({ owner: user.id, bytes: upload.bytes, fileName: upload.fileName, options: jobOptions }).pipe(
          converterSays("Error when starting conversion.")
        )
        return { job_id: job.id }
      }))

    const status = (jobId: string) =>
      WireErrors.conversion(Effect.gen(function*() {
        const user = yield* CurrentUser
        const { job, pdf } = yield* conversions.status(user.id, jobId).pipe(converterSays("Error when fetching conversion status."))
        return {
          status: job.status,
          ...((job.status === "pending" || job.status === "processing") && job.progress !== undefined ? { progress: job.progress } : {}),
          ...(job.status === "failed" ? { error_message: job.error_message ?? "The conversion failed." } : {}),
          ...(job.status === "completed"
            ? {
              ...(job.form_id !== undefined ? { form_id: job.form_id } : {}),
              base64: pdf ? Buffer.from(pdf).toString("base64") : "",
              // The review picture of the new form's first page (GET it with the same key; `page=N` for the others).
              ...(job.form_id !== undefined ? { preview_url: previewPath(job.form_id) } : {})
            }
            : {})
        }
      }))

    return handlers
      .handleRaw("startForms", ({ query, request }) => start(request, query))
      .handleRaw("startUtils", ({ query, request }) => start(request, query))
      .handle("statusForms", ({ params }) => status(params.job_id))
      .handle("statusUtils", ({ params }) => status(params.job_id))
  })).pipe(Layer.provide(InvalidRequest.layer))
