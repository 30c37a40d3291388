/**
 * Webhooks through a durable outbox: an Events adapter for a many-server deployment that keeps the
 * in-process behaviour (`Events.layerInProcess`) and writes every event to a table before
 * `publish` returns, and a sender on each server that delivers the table's rows.
 *
 * - A delivery is a row (`formwright_webhook_outbox`) from the moment the event is published: a
 *   crash of any server after that loses nothing.
 * - Senders claim due rows with `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`): two
 *   servers never take the same row at once, and a row claimed by a server that died is due again
 *   once its lease has run out.
 * - Each attempt is signed and sent exactly as `Webhooks.layer` sends it, with the event id in
 *   `x-formwright-delivery` on every attempt (at-least-once: receivers drop what they have seen).
 * - A failed attempt (not 2xx, network error, time-out) is due again after an exponential back-off
 *   with jitter, up to a minute; after `maxAttempts` the row is kept with `failed_at` and the last
 *   error, and logged. A delivered row is deleted.
 * - On shutdown the rows this server holds are released for the others at once.
 */
import { Effect, Fiber, Layer, Redacted, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { PgClient } from "@effect/sql-pg"
import { Events, Storage, Webhooks } from "@formwright/core"
import * as PgStorage from "./PgStorage.ts"

/** The database of the outbox and the webhook its rows go to. */
export interface Options {
  /** The database, `postgres://...`: the one the records are in. */
  readonly url: Redacted.Redacted | string
  /** The records' PostgreSQL schema (default `public`); the outbox table is created there. */
  readonly schema?: string | undefined
  /** Where events are POSTed, and how (`maxAttempts`, `initialDelayMs`, `timeoutMs`, `concurrency`). */
  readonly webhook: Webhooks.Options
  /** How often a sender looks for due rows when it was not woken by a publish (default 1000). */
  readonly pollMs?: number | undefined
  /** How long a claim holds a row; after it, a row whose sender died is due again (default 30). */
  readonly leaseSeconds?: number | undefined
}

/** An event as it travels: its body, parsed back to the event when it is sent. */
const StoredEvent = Schema.Struct({
  id: Schema.String,
  type: Events.EventType,
  owner: Schema.String,
  created: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown)
})
const decodeEvent = Schema.decodeUnknownEffect(Schema.fromJsonString(StoredEvent))

const positive = (value: number | undefined, fallback: number, min: number) =>
  value === undefined || !Number.isFinite(value) ? fallback : Math.max(min, Math.floor(value))

interface Claimed {
  readonly event_id: string
  readonly body: string
  readonly attempts: number
}

/**
 * The outbox on the SqlClient in context (migrating the schema first): `publish` writes the row,
 * and a sender fiber living as long as the scope delivers rows.
 */
export const make = (options: Omit<Options, "url">) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const schema = options.schema ?? "public"
    yield* PgStorage.migrate(schema).pipe(
      Effect.mapError((error) => new Storage.StorageError({ message: `PostgreSQL: the webhook outbox could not be prepared: ${error.message}`, cause: error }))
    )
    const table = sql(`${schema}.${PgStorage.outboxTable}`)
    const sender = yield* Webhooks.makeSender(options.webhook)
    const maxAttempts = positive(options.webhook.maxAttempts, 6, 1)
    const initialDelayMs = positive(options.webhook.initialDelayMs, 500, 1)
    const concurrency = positive(options.webhook.concurrency, 4, 1)
    const pollMs = positive(options.pollMs, 1000, 10)
    // A claim outlives the longest attempt, so a live sender never loses its row mid-send.
    const leaseSeconds = Math.max(positive(options.leaseSeconds, 30, 1), Math.ceil(sender.timeoutMs / 1000) + 1)
    const logged = Effect.annotateLogs({ webhook: sender.origin })

    /** Rows this server holds now, released on shutdown. */
    const held = new Set<string>()
    let wake: (() => void) | undefined

    const write = (event: Events.Event) =>
      sql`INSERT INTO ${table} (event_id, body) VALUES (${event.id}, ${Webhooks.body(event)}) ON CONFLICT (event_id) DO NOTHING`.pipe(
        Effect.tap(() => Effect.sync(() => wake?.())),
        Effect.asVoid
      )

    const claim = Effect.suspend(() =>
      sql<Claimed>`UPDATE ${table} SET claimed_until = now() + ${leaseSeconds} * interval '1 second', attempts = attempts + 1
        WHERE event_id IN (
          SELECT event_id FROM ${table}
          WHERE failed_at IS NULL AND next_attempt <= now() AND (claimed_until IS NULL OR claimed_until < now())
          ORDER BY next_attempt LIMIT ${concurrency} FOR UPDATE SKIP LOCKED)
        RETURNING event_id, body, attempts`
    ).pipe(Effect.tap((rows) => Effect.sync(() => rows.forEach((row) => held.add(row.event_id)))))

    /** The wait before the attempt after `attempts`: doubling, up to a minute, with jitter. */
    const backoffMs = (attempts: number) => {
      const base = Math.min(60_000, initialDelayMs * 2 ** Math.min(attempts - 1, 20))
      return Math.round(base * (0.5 + Math.random()))
    }

    const deliver = (row: Claimed) =>
      Effect.gen(function*() {
        const event = yield* decodeEvent(row.body).pipe(Effect.orDie)
        const outcome = yield* Effect.result(sender.attempt(event))
        if (outcome._tag === "Success") {
          yield* sql`DELETE FROM ${table} WHERE event_id = ${row.event_id}`
          yield* Effect.logDebug(`webhook delivered after ${row.attempts} attempt(s)`)
        } else if (row.attempts >= maxAttempts) {
          yield* sql`UPDATE ${table} SET failed_at = now(), claimed_until = NULL, last_error = ${outcome.failure.reason}
            WHERE event_id = ${row.event_id}`
          yield* Effect.logError(`webhook not delivered: giving up after ${row.attempts} attempt(s); last: ${outcome.failure.reason}`)
        } else {
          yield* sql`UPDATE ${table} SET claimed_until = NULL, last_error = ${outcome.failure.reason},
              next_attempt = now() + ${backoffMs(row.attempts)} * interval '1 millisecond'
            WHERE event_id = ${row.event_id}`
          yield* Effect.logWarning(`webhook delivery attempt ${row.attempts} of ${maxAttempts} failed: ${outcome.failure.reason}`)
        }
      }).pipe(
        Effect.catchCause((cause) => Effect.logError("webhook delivery could not be recorded; it is retried when its claim runs out", cause)),
        Effect.ensuring(Effect.sync(() => held.delete(row.event_id))),
        Effect.annotateLogs({ event_id: row.event_id }),
        logged
      )

    /** Waits for a publish on this server or the poll interval, whichever comes first. */
    const idle = Effect.callback<void>((resume) => {
      const timer = setTimeout(() => resume(Effect.void), pollMs)
      wake = () => resume(Effect.void)
      return Effect.sync(() => {
        clearTimeout(timer)
        wake = undefined
      })
    })

    const loop = Effect.forever(
      Effect.gen(function*() {
        const rows = yield* claim.pipe(
          Effect.catchCause((cause) => Effect.logWarning("webhook outbox: could not claim deliveries", cause).pipe(Effect.as([]), logged))
        )
        if (rows.length > 0) yield* Effect.forEach(rows, deliver, { concurrency, discard: true })
        // A full batch says more may be due: claim again at once.
        if (rows.length < concurrency) yield* idle
      })
    )
    const fiber = yield* Effect.forkScoped(loop)
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        yield* Fiber.interrupt(fiber)
        const ids = [...held]
        if (ids.length === 0) return
        yield* sql`UPDATE ${table} SET claimed_until = NULL WHERE event_id IN ${sql.in(ids)}`.pipe(
          Effect.catchCause((cause) => Effect.logWarning("webhook outbox: claims not released; they run out on their own", cause))
        )
      })
    )

    return {
      /** Writes the event's delivery; fails when the row could not be written. */
      write
    }
  })

/**
 * Events published in process and through the outbox. `publish` never fails: a row that cannot be
 * written (the database is down) is logged as an error with the event id.
 */
export const layer = (options: Options): Layer.Layer<Events.Events | Events.EventBus, Storage.StorageError> =>
  Layer.effect(
    Events.Events,
    Effect.gen(function*() {
      const inProcess = yield* Events.Events
      const outbox = yield* make(options)
      return Events.Events.of({
        publish: (event) =>
          inProcess.publish(event).pipe(
            Effect.andThen(outbox.write(event)),
            Effect.catchCause((cause) =>
              Effect.logError("webhook not queued: the outbox row could not be written", cause).pipe(
                Effect.annotateLogs({ event_id: event.id, event_type: event.type })
              )
            )
          )
      })
    })
  ).pipe(
    Layer.provideMerge(Events.layerInProcess),
    Layer.provide(
      PgClient.layerFrom(
        PgClient.make({
          url: Redacted.isRedacted(options.url) ? options.url : Redacted.make(options.url),
          maxConnections: 3,
          applicationName: "formwright-webhooks"
        }).pipe(Effect.mapError((error) => new Storage.StorageError({ message: `PostgreSQL (webhook outbox): ${error.message}`, cause: error })))
      )
    )
  )
