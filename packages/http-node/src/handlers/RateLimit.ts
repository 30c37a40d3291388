/**
 * An optional request rate limit per client (FORMWRIGHT_RATE_LIMIT requests a minute): a token
 * bucket per API key, or per address for requests without one. The buckets live in this process,
 * so behind several servers each enforces the limit on its own share of the traffic.
 */
import { Context } from "effect"
import type { HttpServerRequest } from "effect/http"

export interface RateLimiter {
  /** Takes one token for the request's client: undefined when allowed, else seconds to wait. */
  readonly take: (request: HttpServerRequest.HttpServerRequest) => number | undefined
}

/** The limiter in force; by default none. */
export class CurrentRateLimiter extends Context.Reference<RateLimiter | undefined>("@formwright/http-node/RateLimiter", {
  defaultValue: () => undefined
}) {}

const clientOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? "")?.[1]
  const key = bearer ?? request.headers["x-api-key"]
  return key ? `key:${key}` : `address:${request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown"}`
}

/** `perMinute` requests a minute, with bursts up to the same number. */
export const make = (perMinute: number, now: () => number = Date.now): RateLimiter => {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const refillPerMs = perMinute / 60_000
  let lastSweep = now()
  return {
    take: (request) => {
      const time = now()
      // Full buckets carry no information: drop them now and then so the map stays small.
      if (time - lastSweep > 60_000) {
        for (const [client, bucket] of buckets) if (bucket.tokens + (time - bucket.at) * refillPerMs >= perMinute) buckets.delete(client)
        lastSweep = time
      }
      const client = clientOf(request)
      const bucket = buckets.get(client) ?? { tokens: perMinute, at: time }
      bucket.tokens = Math.min(perMinute, bucket.tokens + (time - bucket.at) * refillPerMs)
      bucket.at = time
      buckets.set(client, bucket)
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return undefined
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000))
    }
  }
}
