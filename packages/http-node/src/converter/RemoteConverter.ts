/**
 * The remote-converter adapter of core's Converter port: an API server hands its conversions to a
 * converter service (`formwright converter`, ConverterService.ts) at FORMWRIGHT_CONVERTER_URL.
 *
 * - `submit` gives the service the PDF as the conversion starts; its non-200 answer (a full queue
 *   503, a file past its limit 413) fails with that status, and one that cannot be reached with 502.
 * - `convert` (the background job) follows the job to its end, reporting progress, then fetches
 *   the result and lets the service forget the job. A service that forgot the job (it restarted)
 *   is given it again; one that stays unreachable fails the attempt as transient, so the job is
 *   retried with back-off and ends `failed` only after its attempts.
 * - `check` (a client polling) asks the service about the job: a non-200 answer other than "I
 *   forgot it" (which `convert` handles) fails with its status. One that cannot be reached is not
 *   the client's concern: the job is still recorded and its runner keeps trying.
 */
import { Duration, Effect, Layer, Schedule, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { Converter } from "@formwright/core"
import * as Protocol from "./ConverterProtocol.ts"

export interface RemoteConverterOptions {
  /** The service's base URL, e.g. `http://10.0.0.5:3001`. */
  readonly url: string
  readonly key: string
  /** How often a running job is asked about (default 500 ms). */
  readonly pollMs?: number | undefined
  /** How long the service may stay unreachable while a job is followed, before the attempt fails (default 60 s). */
  readonly unreachableMs?: number | undefined
}

const unreachable = (error: unknown) =>
  new Converter.ConverterError({ message: "The converter service could not be reached.", status: 502, transient: true, cause: error })

const refused = (response: HttpClientResponse.HttpClientResponse, what: string) =>
  new Converter.ConverterError({
    message: `The converter service answered ${response.status} when ${what}.`,
    status: response.status,
    transient: response.status >= 500 || response.status === 429
  })

export const layer = (options: RemoteConverterOptions): Layer.Layer<Converter.Converter> =>
  Layer.effect(
    Converter.Converter,
    Effect.gen(function*() {
      const client = (yield* HttpClient.HttpClient).pipe(
        HttpClient.mapRequest((request) =>
          request.pipe(HttpClientRequest.prependUrl(options.url.replace(/\/+$/, "")), HttpClientRequest.bearerToken(options.key))
        )
      )
      const pollMs = options.pollMs ?? 500
      const unreachableMs = options.unreachableMs ?? 60_000
      /** One request; transport failures become `unreachable`, and the response is read to its end by the caller. */
      const send = (request: HttpClientRequest.HttpClientRequest) => client.execute(request).pipe(Effect.mapError(unreachable), Effect.scoped)

      const submit = (pdf: Uint8Array, conversion: Converter.ConversionOptions) =>
        Effect.gen(function*() {
          const response = yield* send(
            HttpClientRequest.post(Protocol.jobsPath).pipe(
              HttpClientRequest.setUrlParams(Protocol.toQuery(conversion)),
              HttpClientRequest.bodyUint8Array(pdf, "application/pdf")
            )
          )
          if (response.status !== 200) return yield* refused(response, "a job was handed over")
          const body = yield* response.json.pipe(
            Effect.flatMap(Schema.decodeUnknownEffect(Protocol.JobCreated)),
            Effect.mapError((cause) => new Converter.ConverterError({ message: "The converter service's answer could not be read.", status: 502, cause }))
          )
          return { remoteJobId: body.job_id } satisfies Converter.Ticket
        })

      /** The job's status, or "gone" when the service does not know it (any more). */
      const status = (id: string) =>
        Effect.gen(function*() {
          const response = yield* send(HttpClientRequest.get(Protocol.jobPath(id)))
          if (response.status === 404) return "gone" as const
          if (response.status !== 200) return yield* refused(response, "asked about a job")
          return yield* response.json.pipe(
            Effect.flatMap(Schema.decodeUnknownEffect(Protocol.JobStatus)),
            Effect.mapError((cause) => new Converter.ConverterError({ message: "The converter service's answer could not be read.", status: 502, cause }))
          )
        })

      /** Unreachable for a while is waited out (a restart); past `unreachableMs` the attempt fails. */
      const patiently = <A>(effect: Effect.Effect<A, Converter.ConverterError>) =>
        effect.pipe(Effect.retry({
          while: (e) => e.status === 502 && e.transient === true,
          schedule: Schedule.spaced(Duration.millis(Math.max(pollMs, 250))).pipe(Schedule.upTo({ duration: Duration.millis(unreachableMs) }))
        }))

      /** Lets the service drop a finished job; if that fails it drops it on its own later. */
      const forget = (id: string) => send(HttpClientRequest.make("DELETE")(Protocol.jobPath(id))).pipe(Effect.ignore)

      const result = (id: string, detections: Protocol.JobStatus["detections"]) =>
        Effect.gen(function*() {
          const response = yield* send(HttpClientRequest.get(Protocol.resultPath(id)))
          if (response.status !== 200) return yield* refused(response, "its result was fetched")
          const pdf = new Uint8Array(yield* response.arrayBuffer.pipe(Effect.mapError(unreachable)))
          yield* forget(id)
          return { pdf, detections: detections ?? [] } satisfies Converter.ConvertedPdf
        })

      const convert: Converter.ConverterShape["convert"] = (pdf, conversion, onProgress, ticket) =>
        Effect.gen(function*() {
          let id = ticket?.remoteJobId ?? (yield* patiently(submit(pdf, conversion))).remoteJobId!
          while (true) {
            const now = yield* patiently(status(id))
            if (now === "gone") {
              yield* Effect.logWarning(`the converter service forgot job ${id}; handing it over again`)
              id = (yield* patiently(submit(pdf, conversion))).remoteJobId!
              continue
            }
            yield* onProgress({ pagesDone: now.progress.pages_done, pagesTotal: now.progress.pages_total })
            if (now.status === "completed") return yield* patiently(result(id, now.detections))
            if (now.status === "failed") {
              yield* forget(id)
              return yield* new Converter.ConverterError({ message: now.error_message ?? "The conversion failed." })
            }
            yield* Effect.sleep(Duration.millis(pollMs))
          }
        })

      return Converter.Converter.of({
        submit,
        convert,
        check: (ticket) =>
          ticket.remoteJobId === undefined
            ? Effect.void
            : status(ticket.remoteJobId).pipe(
              Effect.asVoid,
              Effect.catchIf((e) => e.status === 502 && e.transient === true, (e) => Effect.logWarning(`converter service: ${e.message}`))
            )
      })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
