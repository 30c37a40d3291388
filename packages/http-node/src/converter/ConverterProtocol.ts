/**
 * What the converter service (`formwright converter`) and its client (`RemoteConverter`) say to
 * each other: paths, the job options as query parameters, and the job's status body. Internal to
 * a deployment; the public /v1 API never shows it.
 *
 *   POST   /v1/jobs?pages=1,3&confidence=0.1&resolution=1600&allow_checkboxes=true   (a PDF body)
 *          200 {job_id} | 400 | 401 | 413 above its upload limit | 415 | 503 when its queue is full
 *   GET    /v1/jobs/{id}          200 JobStatus | 404 (unknown, or forgotten after a restart)
 *   GET    /v1/jobs/{id}/result   200 application/pdf once completed | 404
 *   DELETE /v1/jobs/{id}          204: the client has what it needs
 *   GET    /health                200 {status: "ok", pending, running} (no key)
 *
 * Every route but /health needs `Authorization: Bearer <FORMWRIGHT_CONVERTER_KEY>`; errors are
 * `{error_message}`.
 */
import { Effect, Schema } from "effect"
import { ConversionJob, type Converter } from "@formwright/core"

export const jobsPath = "/v1/jobs"
export const jobPath = (id: string) => `${jobsPath}/${encodeURIComponent(id)}`
export const resultPath = (id: string) => `${jobPath(id)}/result`

/** The options as query parameters (pages as an explicit list: the API server expanded them). */
export const toQuery = (options: Converter.ConversionOptions): Record<string, string> => ({
  ...(options.pages !== undefined ? { pages: options.pages.join(",") } : {}),
  confidence: String(options.confidence),
  resolution: String(options.resolution),
  allow_checkboxes: String(options.allowCheckboxes)
})

/** The options read back from query parameters, checked against the ranges of the public API. */
export const fromQuery = (params: URLSearchParams): Effect.Effect<Converter.ConversionOptions, string> => {
  const number = (name: string) => (params.has(name) ? Number(params.get(name)) : undefined)
  const pages = params.get("pages")
  const raw = {
    ...(pages !== null ? { pages: pages.split(",").map(Number) } : {}),
    confidence: number("confidence") ?? 0.1,
    resolution: number("resolution") ?? 1600,
    allow_checkboxes: params.has("allow_checkboxes") ? params.get("allow_checkboxes") === "true" : true
  }
  return Schema.decodeUnknownEffect(ConversionJob.JobOptions)(raw).pipe(
    Effect.map((o) => ({ pages: o.pages, confidence: o.confidence, resolution: o.resolution, allowCheckboxes: o.allow_checkboxes })),
    Effect.mapError((e) => `Invalid job options: ${e.message}`)
  )
}

export const JobStatus = Schema.Struct({
  job_id: Schema.String,
  status: Schema.Literals(["pending", "processing", "completed", "failed"]),
  progress: Schema.Struct({ pages_done: Schema.Finite, pages_total: Schema.Finite }),
  error_message: Schema.optionalKey(Schema.String),
  /** Once completed: what was placed, keyed by the widget's `form_name`. */
  detections: Schema.optionalKey(Schema.Array(Schema.Struct({ formName: Schema.String, name: Schema.String, confidence: Schema.Finite })))
})
export type JobStatus = typeof JobStatus.Type

export const JobCreated = Schema.Struct({ job_id: Schema.String })
