/**
 * The converter as a service (`formwright converter`): the embedded converter, on its own pool of
 * PDF workers, behind the small HTTP API of ConverterProtocol.ts, for API servers that hand their
 * conversions over (FORMWRIGHT_CONVERTER_URL). Jobs live in memory: a restart forgets them, and
 * the API server that handed one over gives it again when it hears 404 (RemoteConverter.ts).
 *
 * It refuses work rather than queueing without end: past `queue` jobs waiting it answers 503, and
 * a body past `maxUploadBytes` gets 413 before it is read.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import { Cause, Effect, Exit, Layer, Scope, Semaphore } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Errors } from "@formwright/api"
import { Converter, EmbeddedConverter, PdfEngine } from "@formwright/core"
import * as Body from "../handlers/Body.ts"
import * as Logging from "../Logging.ts"
import * as Protocol from "./ConverterProtocol.ts"

export interface ConverterServiceOptions {
  readonly port: number
  readonly host: string
  /** The key every client must send as `Authorization: Bearer <key>`. */
  readonly key: string
  /** Jobs that may wait for a worker; one more is refused with 503. */
  readonly queue: number
  readonly maxUploadBytes: number
  /** The PDF workers and their limits; conversions run as many at once as there are workers. */
  readonly pdf?: PdfEngine.WorkersOptions | undefined
  /** How long a finished job is kept for its client to fetch (default 15 minutes). */
  readonly keepFinishedMs?: number | undefined
}

interface Job {
  readonly id: string
  status: Protocol.JobStatus["status"]
  progress: { pages_done: number; pages_total: number }
  input: Uint8Array | undefined
  readonly options: Converter.ConversionOptions
  result?: Converter.ConvertedPdf
  error_message?: string
  finishedAt?: number
}

const reply = (status: number, body: unknown) => HttpServerResponse.jsonUnsafe(body, { status })
const refuse = (status: number, message: string) => reply(status, { error_message: message })

const digest = (text: string) => createHash("sha256").update(text).digest()

/** Compares digests, so the time taken says nothing about how much of the key was right. */
const keyMatches = (expected: Buffer, header: string | undefined) => {
  const sent = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim()
  return sent !== undefined && timingSafeEqual(expected, digest(sent))
}

const statusBody = (job: Job): Protocol.JobStatus => ({
  job_id: job.id,
  status: job.status,
  progress: job.progress,
  ...(job.error_message !== undefined ? { error_message: job.error_message } : {}),
  ...(job.result ? { detections: job.result.detections } : {})
})

/** The routes, the job table and the runner; needs a Converter (the embedded one, in `layer`). */
export const routes = (options: ConverterServiceOptions) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const converter = yield* Converter.Converter
    const scope = yield* Scope.Scope
    const router = yield* HttpRouter.HttpRouter
    const workers = options.pdf?.workers ?? PdfEngine.defaultWorkers()
    const running = yield* Semaphore.make(workers)
    const jobs = new Map<string, Job>()
    const expected = digest(options.key)
    const keepFinishedMs = options.keepFinishedMs ?? 15 * 60_000
    let waiting = 0
    let active = 0

    /** Every worker busy and `queue` jobs waiting already. */
    const full = () => waiting + active >= workers + options.queue
    const forget = Effect.sync(() => {
      const now = Date.now()
      for (const [id, job] of jobs) if (job.finishedAt !== undefined && now - job.finishedAt > keepFinishedMs) jobs.delete(id)
    })
    yield* Effect.forkIn(Effect.forever(Effect.andThen(Effect.sleep("1 minute"), forget)), scope)

    const run = (job: Job) =>
      Effect.gen(function*() {
        waiting--
        // Deleted by its client while it waited.
        if (!jobs.has(job.id)) return
        active++
        job.status = "processing"
        const exit = yield* Effect.exit(converter.convert(job.input!, job.options, (p) =>
          Effect.sync(() => void (job.progress = { pages_done: p.pagesDone, pages_total: p.pagesTotal }))))
        active--
        job.input = undefined
        job.finishedAt = Date.now()
        if (Exit.isSuccess(exit)) {
          job.result = exit.value
          job.progress = { ...job.progress, pages_done: job.progress.pages_total }
          job.status = "completed"
          return
        }
        const failure = Cause.findErrorOption(exit.cause)
        if (failure._tag === "None") yield* Effect.logError("conversion crashed", exit.cause)
        job.error_message = failure._tag === "Some" ? failure.value.message : "The conversion failed."
        job.status = "failed"
      }).pipe(running.withPermits(1))

    const authorized = <E, R>(handler: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    (request: HttpServerRequest.HttpServerRequest) =>
      keyMatches(expected, request.headers["authorization"])
        ? handler(request)
        : Effect.succeed(refuse(401, "A valid converter key is needed (Authorization: Bearer <FORMWRIGHT_CONVERTER_KEY>)."))

    const withJob = (f: (job: Job) => Effect.Effect<HttpServerResponse.HttpServerResponse>) =>
      Effect.gen(function*() {
        const id = (yield* HttpRouter.params).id ?? ""
        const job = jobs.get(id)
        return job ? yield* f(job) : refuse(404, `No job '${id}' here (finished jobs are kept ${Math.round(keepFinishedMs / 60_000)} minutes, none across a restart).`)
      })

    const submit = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const type = Body.mediaType(request)
        if (type !== "application/pdf" && type !== "application/octet-stream") return refuse(415, "Expected octet-stream or pdf")
        const parsed = yield* Effect.result(Protocol.fromQuery(new URL(request.url, "http://converter").searchParams))
        if (parsed._tag === "Failure") return refuse(400, parsed.failure)
        if (full()) return refuse(503, `The converter is full (${workers} running, ${options.queue} waiting); try again later.`)
        const bytes = yield* Body.read(request, "conversion").pipe(Effect.provideService(Body.MaxUploadBytes, options.maxUploadBytes))
        // Checked again: other uploads may have filled the queue while this body arrived.
        if (full()) return refuse(503, `The converter is full (${workers} running, ${options.queue} waiting); try again later.`)
        const job: Job = {
          id: crypto.randomUUID(),
          status: "pending",
          progress: { pages_done: 0, pages_total: parsed.success.pages?.length ?? 0 },
          input: bytes,
          options: parsed.success
        }
        jobs.set(job.id, job)
        waiting++
        yield* Effect.forkIn(run(job), scope)
        return reply(200, { job_id: job.id })
      }).pipe(
        // The body past the upload limit (413), or cut short (400).
        Effect.catch((error) => Effect.succeed(refuse(error instanceof Errors.ConversionPayloadTooLarge ? 413 : 400, error.error_message)))
      )

    yield* router.add("GET", "/health", Effect.sync(() => reply(200, { status: "ok", pending: waiting, running: active })))
    yield* router.add("POST", Protocol.jobsPath, authorized(submit))
    yield* router.add("GET", `${Protocol.jobsPath}/:id`, authorized(() => withJob((job) => Effect.succeed(reply(200, statusBody(job))))))
    yield* router.add(
      "GET",
      `${Protocol.jobsPath}/:id/result`,
      authorized(() =>
        withJob((job) =>
          Effect.succeed(job.result ? HttpServerResponse.uint8Array(job.result.pdf, { contentType: "application/pdf" }) : refuse(404, `Job '${job.id}' is ${job.status}.`))
        )
      )
    )
    yield* router.add(
      "DELETE",
      `${Protocol.jobsPath}/:id`,
      authorized(() => withJob((job) => Effect.sync(() => {
        jobs.delete(job.id)
        return HttpServerResponse.empty({ status: 204 })
      })))
    )
  }))

/** The converter service on Node's HTTP server, with the embedded converter on its own PDF workers. */
export const layer = (options: ConverterServiceOptions) => {
  const pdf = PdfEngine.layerWorkers(options.pdf)
  const app = routes(options).pipe(Layer.provide(EmbeddedConverter.layer.pipe(Layer.provide(pdf))))
  return HttpRouter.serve(app).pipe(
    HttpServer.withLogAddress,
    Layer.provide(NodeHttpServer.layer(createServer, { port: options.port, host: options.host })),
    Layer.provide(Logging.layer)
  )
}

