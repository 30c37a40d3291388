/**
 * Handlers of the conversion group: both route families share one implementation.
 */
import { Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Conversions, PdfLimits } from "@formwright/core"
import { Api, CurrentUser } from "@formwright/api"
import { pdfUpload } from "./FormsHandlers.ts"
import * as InvalidRequest from "./InvalidRequest.ts"
import * as Query from "./Query.ts"
import { handle, json } from "./Respond.ts"
import * as WireErrors from "./WireErrors.ts"

const family = "conversion" as const

const options = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const params = new URL(request.url, "http://x").searchParams
    const get = (name: string) => Query.single(family, params, name)
    // No document with more pages than the PDF limit is accepted, so neither is a longer selection.
    const limits = yield* PdfLimits.PdfLimits
    const pages = yield* Query.pages(family, yield* get("pages"), limits.maxPages)
    return {
      ...(pages ? { pages } : {}),
      confidence: yield* Query.number(family, "confidence", yield* get("confidence"), 0.1, 0, 1),
      resolution: yield* Query.integer(family, "resolution", yield* get("resolution"), 1600, 256, 4096),
      allow_checkboxes: yield* Query.boolean(family, "allow_checkboxes", yield* get("allow_checkboxes"), true)
    }
  })

/** Where the review picture of a converted form's first page is. */
export const previewPath = (formId: string) => `/v1/forms/${encodeURIComponent(formId)}/preview?page=1`

export const ConversionsHandlers = HttpApiBuilder.group(Api, "conversions", (handlers) =>
  Effect.gen(function*() {
    const conversions = yield* Conversions.Conversions

    const start = (request: HttpServerRequest.HttpServerRequest, allowMultipart: boolean) =>
      handle(family, Effect.gen(function*() {
        const user = yield* CurrentUser
        const upload = yield* pdfUpload(request, {
          family,
          allowMultipart,
          unsupportedMessage: allowMultipart ? "Expected octet-stream or pdf or multipart/form-data" : "Expected octet-stream or pdf"
        })
        const jobOptions = yield* options(request)
        const job = yield* conversions.start({ owner: user.id, bytes: upload.bytes, fileName: upload.fileName, options: jobOptions })
        return json(200, { job_id: job.id })
      }))

    const status = (jobId: string) =>
      WireErrors.conversion(Effect.gen(function*() {
        const user = yield* CurrentUser
        const { job, pdf } = yield* conversions.status(user.id, jobId)
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
      .handleRaw("startForms", ({ request }) => start(request, false))
      .handleRaw("startUtils", ({ request }) => start(request, true))
      .handle("statusForms", ({ params }) => status(params.job_id))
      .handle("statusUtils", ({ params }) => status(params.job_id))
  })).pipe(Layer.provide(InvalidRequest.layer))
