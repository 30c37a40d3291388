/**
 * Request rate limits, as token buckets: kept in this process by default, or shared by every
 * server of a deployment (`Limiters`: on PostgreSQL, a table of buckets):
 * - an optional limit per user (FORMWRIGHT_RATE_LIMIT requests a minute), counted by the
 *   Authorization middleware once a request is authenticated, so it is the user the key belongs
 *   to that is counted, whichever header carried the key and however the path was spelled;
 * - a limit of failed authentications per client address (FORMWRIGHT_AUTH_FAILURE_LIMIT a
 *   minute, on by default), counted by the Edge from the 401s it sends: an address over it gets
 *   429 on every route that needs a key, valid keys included, until its budget refills, so
 *   guessing keys costs time whatever the guesses are.
 */
import { Context, Effect } from "effect"

/** A rate limit's buckets, wherever they are kept. */
export interface RateLimiter {
  /** Takes one token for `client`: undefined when allowed, else seconds to wait. */
  readonly take: (client: string) => Effect.Effect<number | undefined>
  /** Seconds until `client` has a token, without taking one; undefined when it has one now. */
  readonly wait: (client: string) => Effect.Effect<number | undefined>
}

/** The buckets of one process, answered at once. */
export interface LocalRateLimiter {
  readonly take: (client: string) => number | undefined
  readonly wait: (client: string) => number | undefined
}

/**
 * Makes the limiter named `name` (`requests`, `auth-failures`) allowing `perMinute` a minute per
 * client. By default its buckets are in this process (`inProcess`).
 */
export class Limiters extends Context.Reference<(name: string, perMinute: number) => RateLimiter>("@formwright/http-node/Limiters", {
  defaultValue: () => (_name, perMinute) => inProcess(perMinute)
}) {}

/** `perMinute` tokens a minute per client, in this process. */
export const inProcess = (perMinute: number): RateLimiter => {
  const local = make(perMinute)
  return {
    take: (client) => Effect.sync(() => local.take(client)),
    wait: (client) => Effect.sync(() => local.wait(client))
  }
}

/** The per-user request limit in force; by default none. */
export class CurrentRateLimiter extends Context.Reference<RateLimiter | undefined>("@formwright/http-node/RateLimiter", {
  defaultValue: () => undefined
}) {}

/**
 * Failed authentications a minute per client address before 429, unless configured. Twenty
 * leaves room for a person mistyping a key or a script retrying with an old one, and holds a
 * guesser to one try every three seconds.
 */
export const defaultAuthFailuresPerMinute = 20

/** Failed authentications a minute per address (FORMWRIGHT_AUTH_FAILURE_LIMIT); 0 turns the limit off. */
export class AuthFailureLimit extends Context.Reference<number>("@formwright/http-node/AuthFailureLimit", {
  defaultValue: () => defaultAuthFailuresPerMinute
}) {}

/** `perMinute` tokens a minute, with bursts up to the same number. */
export const make = (perMinute: number, now: () => number = Date.now): LocalRateLimiter => {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const refillPerMs = perMinute / 60_000
  let lastSweep = now()
  const bucketOf = (client: string, time: number) => {
    // Full buckets carry no information: drop them now and then so the map stays small.
    if (time - lastSweep > 60_000) {
      for (const [key, bucket] of buckets) if (bucket.tokens + (time - bucket.at) * refillPerMs >= perMinute) buckets.delete(key)
      lastSweep = time
    }
    const bucket = buckets.get(client) ?? { tokens: perMinute, at: time }
    bucket.tokens = Math.min(perMinute, bucket.tokens + (time - bucket.at) * refillPerMs)
    bucket.at = time
    return bucket
  }
  const secondsToNext = (tokens: number) => Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000))
  return {
    take: (client) => {
      const time = now()
      const bucket = bucketOf(client, time)
      buckets.set(client, bucket)
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return undefined
      }
      return secondsToNext(bucket.tokens)
    },
    wait: (client) => {
      if (!buckets.has(client)) return undefined
      const bucket = bucketOf(client, now())
      return bucket.tokens >= 1 ? undefined : secondsToNext(bucket.tokens)
    }
  }
}
