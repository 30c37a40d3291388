/**
 * Rate limits shared by every server of a deployment: token buckets in a PostgreSQL table
 * (`formwright_rate_limits`), so a client is counted once across all servers.
 *
 * The buckets behave exactly as the in-process ones: `perMinute` tokens, refilled continuously at
 * `perMinute` a minute, bursts up to `perMinute`. Taking a token is one statement (an upsert that
 * refills the bucket by the time since its last use, then takes one if it can), so concurrent
 * requests on several servers never take the same token; time is the database's clock, so the
 * servers' clocks do not matter. A bucket untouched for a minute is full again and carries no
 * information: such rows are deleted now and then.
 *
 * When the database cannot answer, the request is let through and a warning logged: a limit is
 * not worth refusing service over, and the request's own work needs the database anyway.
 */
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import { PgClient } from "@effect/sql-pg"
import { Storage } from "@formwright/core"
import * as PgStorage from "./PgStorage.ts"

/** One limit's buckets. */
export interface RateLimiter {
  /** Takes one token for `client`: undefined when allowed, else seconds to wait. */
  readonly take: (client: string) => Effect.Effect<number | undefined>
  /** Seconds until `client` has a token, without taking one; undefined when it has one now. */
  readonly wait: (client: string) => Effect.Effect<number | undefined>
}

/** Seconds until a bucket holding `tokens` has one, as the in-process limiter counts them. */
const secondsToNext = (tokens: number, perMinute: number) => Math.max(1, Math.ceil(((1 - tokens) * 60) / perMinute))

/**
 * A maker of limiters on the SqlClient in context (migrating `schema` first): `limiter(name,
 * perMinute)` is the limit `name`, its buckets keyed by name and client.
 */
export const make = (options: { readonly schema?: string | undefined } = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const schema = options.schema ?? "public"
    yield* PgStorage.migrate(schema).pipe(
      Effect.mapError((error) => new Storage.StorageError({ message: `PostgreSQL: the rate-limit table could not be prepared: ${error.message}`, cause: error }))
    )
    const table = sql(`${schema}.${PgStorage.rateLimitsTable}`)
    let lastSweep = Date.now()

    const sweep = Effect.suspend(() => {
      if (Date.now() - lastSweep < 60_000) return Effect.void
      lastSweep = Date.now()
      return sql`DELETE FROM ${table} WHERE at < now() - interval '1 minute'`.pipe(
        Effect.catchCause((cause) => Effect.logWarning("rate limits: could not drop full buckets", cause)),
        Effect.asVoid
      )
    })

    const failOpen = (what: string) => (effect: Effect.Effect<number | undefined, unknown>) =>
      effect.pipe(Effect.catchCause((cause) => Effect.logWarning(`rate limits: could not ${what}; the request is let through`, cause).pipe(Effect.as(undefined))))

    return (name: string, perMinute: number): RateLimiter => {
      const perSecond = perMinute / 60
      // The refilled level of the stored bucket, as of this statement.
      const refilled = sql`least(${perMinute}::double precision, b.tokens + extract(epoch FROM now() - b.at)::double precision * ${perSecond}::double precision)`
      return {
        take: (client) =>
          sql<{ tokens: number; taken: boolean }>`
            INSERT INTO ${table} AS b (bucket, tokens, at, taken)
            VALUES (${`${name}:${client}`}, ${perMinute - 1}, now(), true)
            ON CONFLICT (bucket) DO UPDATE SET
              tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
              taken = ${refilled} >= 1,
              at = now()
            RETURNING tokens, taken`.pipe(
            Effect.map(([row]) => (row === undefined || row.taken ? undefined : secondsToNext(row.tokens, perMinute))),
            Effect.tap(() => sweep),
            failOpen("count a request")
          ),
        wait: (client) =>
          sql<{ tokens: number }>`SELECT ${refilled} AS tokens FROM ${table} b WHERE bucket = ${`${name}:${client}`}`.pipe(
            Effect.map(([row]) => (row === undefined || row.tokens >= 1 ? undefined : secondsToNext(row.tokens, perMinute))),
            failOpen("read a bucket")
          )
      }
    }
  })

/**
 * `make` on a small pool of its own to `url`, living as long as the scope. Fails with a
 * StorageError when the database cannot be reached or migrated.
 */
export const makeWithPool = (options: { readonly url: Redacted.Redacted | string; readonly schema?: string | undefined }) =>
  make({ schema: options.schema }).pipe(
    Effect.provideServiceEffect(
      SqlClient.SqlClient,
      PgClient.make({
        url: Redacted.isRedacted(options.url) ? options.url : Redacted.make(options.url),
        maxConnections: 3,
        applicationName: "formwright-rate-limits"
      }).pipe(
        Effect.provide(Reactivity.layer),
        Effect.mapError((error) => new Storage.StorageError({ message: `PostgreSQL (rate limits): ${error.message}`, cause: error }))
      )
    )
  )
