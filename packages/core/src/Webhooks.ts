/**
 * Webhooks: an Events adapter that keeps the in-process behaviour (`Events.layerInProcess`: the
 * `EventBus` PubSub and a log line per event) and also POSTs every event to a configured URL.
 *
 * Each delivery is a `POST` with `content-type: application/json` whose body is the event,
 * `{id, type, owner, created, data}`, and these headers:
 *
 * - `x-formwright-event`: the event type, e.g. `session.completed`
 * - `x-formwright-delivery`: the event id (`evt_...`), the same on every attempt: receivers use it
 *   to ignore a delivery they have already processed
 * - `x-formwright-timestamp`: when the attempt was signed, in unix seconds
 * - `x-formwright-signature`: `sha256=<hex>`, the HMAC-SHA256 of `<timestamp>.<body>` with the secret
 *
 * A receiver verifies a delivery by computing the HMAC-SHA256 of the timestamp header, a `.`, and
 * the raw request body (the bytes as received, before any JSON parsing) with the shared secret,
 * comparing it with the signature header in constant time, and refusing timestamps more than a few
 * minutes from its own clock, so that a captured delivery cannot be replayed later.
 *
 * Delivery happens in the background: `publish` puts the event on a bounded in-memory queue and
 * returns; it never waits on the network and never fails. A fiber living as long as the layer
 * drains the queue (a few deliveries at once, so the order of arrival is not guaranteed), and
 * retries an answer other than 2xx (redirects included), a network error or a timeout with
 * exponential back-off and jitter, up to `maxAttempts` attempts. Each failed attempt is logged as
 * a warning and giving up as an error; the logs name the URL's origin only, never its path, query
 * or the secret. On shutdown, queued deliveries get a short bounded time to finish.
 *
 * Events live in memory only: deliveries not yet made when the process crashes (or still queued
 * when the shutdown grace time runs out) are lost. Receivers that must not miss an outcome also
 * poll the status routes.
 */
import { Cause, Clock, Duration, Effect, Fiber, Layer, Option, Queue, Schedule, Schema, Stream } from "effect"
import * as Events from "./Events.ts"
import * as Hex from "./Hex.ts"

export interface Options {
  /** Where events are POSTed (http or https). */
  readonly url: string
  /** The HMAC-SHA256 key of the `x-formwright-signature` header. */
  readonly secret: string
  /** Attempts per event, the first included (default 6). */
  readonly maxAttempts?: number | undefined
  /** Delay before the first retry; it doubles on each retry, with jitter, up to a minute (default 500). */
  readonly initialDelayMs?: number | undefined
  /** Time allowed for one attempt, answer included (default 10000). */
  readonly timeoutMs?: number | undefined
  /** Events waiting for delivery at most; more are dropped with a warning (default 10000). */
  readonly capacity?: number | undefined
  /** Deliveries in flight at once (default 4). */
  readonly concurrency?: number | undefined
  /** On shutdown, how long queued deliveries may still take (default 5000). */
  readonly shutdownTimeoutMs?: number | undefined
}

/** The headers a delivery carries. */
export const headers = {
  event: "x-formwright-event",
  delivery: "x-formwright-delivery",
  timestamp: "x-formwright-timestamp",
  signature: "x-formwright-signature"
} as const

/** One attempt that did not get a 2xx answer. */
export class AttemptFailed extends Schema.TaggedError<AttemptFailed>()("AttemptFailed", { reason: Schema.String }) {}

const maxDelay = Duration.minutes(1)

const encoder = new TextEncoder()

/** The body of a delivery: the event with its members in a fixed order. */
export const body = (event: Events.Event): string =>
  JSON.stringify({ id: event.id, type: event.type, owner: event.owner, created: event.created, data: event.data })

/** Why a request failed, without the URL (whose path or query may hold a token). */
const describeFailure = (error: unknown, timeoutMs: number): string => {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return `no answer within ${timeoutMs} ms`
    const cause: unknown = error.cause
    if (cause instanceof Error) {
      const code = (cause as { code?: unknown }).code
      return typeof code === "string" ? `${error.message} (${code})` : `${error.message} (${cause.message})`
    }
    return error.message
  }
  return String(error)
}

const positive = (value: number | undefined, fallback: number, min: number) =>
  value === undefined || !Number.isFinite(value) ? fallback : Math.max(min, Math.floor(value))

/** One delivery attempt of an event: signed now, POSTed, failed unless answered 2xx. */
export interface Sender {
  readonly attempt: (event: Events.Event) => Effect.Effect<void, AttemptFailed>
  /** The URL's origin, what logs name (never its path, query or the secret). */
  readonly origin: string
  /** The time allowed for one attempt, answer included, in milliseconds. */
  readonly timeoutMs: number
}

/**
 * The sender of `options`. A URL that is not http(s) or holds credentials, or an empty secret, is
 * a defect: validate configuration before.
 */
export const makeSender = (options: Pick<Options, "url" | "secret" | "timeoutMs">): Effect.Effect<Sender> =>
  Effect.gen(function*() {
    const url = URL.parse(options.url)
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) {
      return yield* Effect.die(new Error("Webhooks: the url is not an http(s) URL"))
    }
    // fetch refuses them, and its error would show them.
    if (url.username !== "" || url.password !== "") return yield* Effect.die(new Error("Webhooks: the url holds credentials"))
    if (options.secret === "") return yield* Effect.die(new Error("Webhooks: the secret is empty"))
    const target = url.href
    const origin = url.origin
    const timeoutMs = positive(options.timeoutMs, 10_000, 1)

    const key = yield* Effect.promise(() =>
      crypto.subtle.importKey("raw", encoder.encode(options.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    )
    const signature = (timestamp: number, payload: string) =>
      Effect.promise(() => crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${payload}`))).pipe(
        Effect.map((mac) => `sha256=${Hex.fromBytes(mac)}`)
      )

    const post = (event: Events.Event, payload: string, timestamp: number, signed: string) =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = await fetch(target, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              [headers.event]: event.type,
              [headers.delivery]: event.id,
              [headers.timestamp]: String(timestamp),
              [headers.signature]: signed
            },
            body: payload,
            redirect: "manual",
            signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
          })
          // The answer's body is not used; dropping it frees the connection.
          await response.body?.cancel().catch(() => undefined)
          return response.status
        },
        catch: (error) => new AttemptFailed({ reason: describeFailure(error, timeoutMs).replaceAll(target, origin) })
      }).pipe(
        Effect.flatMap((status) =>
          status >= 200 && status < 300 ? Effect.void : Effect.fail(new AttemptFailed({ reason: `answered ${status}` }))
        )
      )

    return {
      origin,
      timeoutMs,
      attempt: (event) =>
        Effect.gen(function*() {
          const payload = body(event)
          const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          yield* post(event, payload, timestamp, yield* signature(timestamp, payload))
        })
    }
  })

/**
 * Events published in process (exactly as `Events.layerInProcess`) and delivered to `options.url`.
 * A URL that is not http(s) or holds credentials, or an empty secret, is a defect: validate
 * configuration before.
 */
export const layer = (options: Options): Layer.Layer<Events.Events | Events.EventBus> =>
  Layer.effect(
    Events.Events,
    Effect.gen(function*() {
      const inProcess = yield* Events.Events
      const sender = yield* makeSender(options)
      const origin = sender.origin
      const maxAttempts = positive(options.maxAttempts, 6, 1)
      const initialDelayMs = positive(options.initialDelayMs, 500, 1)
      const capacity = positive(options.capacity, 10_000, 1)
      const concurrency = positive(options.concurrency, 4, 1)
      const shutdownTimeoutMs = positive(options.shutdownTimeoutMs, 5_000, 0)

      const retries = Schedule.exponential(Duration.millis(initialDelayMs)).pipe(
        Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, maxDelay))),
        Schedule.jittered,
        Schedule.upTo({ times: maxAttempts - 1 })
      )

      /** Event ids queued or being delivered, for the shutdown report. */
      const pending = new Set<string>()

      const deliver = (event: Events.Event) =>
        Effect.gen(function*() {
          let attempt = 0
          const once = Effect.suspend(() => {
            attempt++
            return sender.attempt(event)
          }).pipe(
            Effect.tapError((error) =>
              Effect.logWarning(`webhook delivery attempt ${attempt} of ${maxAttempts} failed: ${error.reason}`)
            )
          )
          yield* once.pipe(
            Effect.retry(retries),
            Effect.matchEffect({
              onSuccess: () => Effect.logDebug(`webhook delivered after ${attempt} attempt(s)`),
              onFailure: (error) =>
                Effect.logError(`webhook not delivered: giving up after ${attempt} attempt(s); last: ${error.reason}`)
            })
          )
        }).pipe(
          // One broken event (data that cannot be serialised, say) must not stop the others.
          Effect.catchDefect((defect) => Effect.logError("webhook delivery crashed", Cause.die(defect))),
          Effect.annotateLogs({ event_id: event.id, event_type: event.type, webhook: origin }),
          Effect.ensuring(Effect.sync(() => pending.delete(event.id)))
        )

      const queue = yield* Queue.dropping<Events.Event, Cause.Done>(capacity)
      const drainer = yield* Stream.fromQueue(queue).pipe(
        Stream.mapEffect(deliver, { concurrency, unordered: true }),
        Stream.runDrain,
        Effect.forkScoped
      )
      let closing = false
      // Added after the fork, so it runs before the drainer is interrupted.
      yield* Effect.addFinalizer(() =>
        Effect.gen(function*() {
          closing = true
          yield* Queue.end(queue)
          if (pending.size === 0) return
          const finished = yield* Fiber.await(drainer).pipe(
            Effect.timeoutOption(Duration.millis(shutdownTimeoutMs)),
            Effect.interruptible
          )
          if (Option.isNone(finished) && pending.size > 0) {
            const ids = [...pending]
            yield* Effect.logError(
              `webhooks: ${ids.length} event(s) not delivered before shutdown: ${ids.slice(0, 20).join(", ")}${ids.length > 20 ? ", ..." : ""}`
            ).pipe(Effect.annotateLogs({ webhook: origin }))
          }
          yield* Fiber.interrupt(drainer)
        })
      )

      const enqueue = (event: Events.Event) =>
        Effect.suspend(() => {
          pending.add(event.id)
          return Queue.offer(queue, event)
        }).pipe(
          Effect.flatMap((queued) => {
            if (queued) return Effect.void
            pending.delete(event.id)
            return Effect.logWarning(
              closing ? "webhook not sent: the server is shutting down" : `webhook not sent: ${capacity} deliveries are already waiting`
            ).pipe(Effect.annotateLogs({ event_id: event.id, event_type: event.type, webhook: origin }))
          })
        )

      return Events.Events.of({
        publish: (event) => inProcess.publish(event).pipe(Effect.andThen(enqueue(event)))
      })
    })
  ).pipe(Layer.provideMerge(Events.layerInProcess))
