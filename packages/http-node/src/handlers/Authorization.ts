/**
 * The Authorization middleware: resolves the API key to its user, or answers 401; with
 * FORMWRIGHT_RATE_LIMIT, counts the user's requests and answers 429 past the limit.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerResponse } from "effect/http"
import { ApiKeys, type Id } from "@formwright/core"
import { Authorization, ConversionAuthorization, CurrentUser } from "@formwright/api"
import * as KeyCache from "../KeyCache.ts"
import { CurrentRateLimiter } from "./RateLimit.ts"
import * as WireErrors from "./WireErrors.ts"

/** The message of every 401. */
export const unauthorizedMessage = "Missing or invalid API key. Send 'Authorization: Bearer <key>' or 'x-api-key: <key>'."

/** A security middleware's implementation, failing with `unauthorized()` for a missing or unknown key. */
const make = <E>(unauthorized: () => E, family: WireErrors.Family) =>
  Effect.gen(function*() {
    // Lookups are remembered for a few seconds (KeyCache.ts has the revocation bound).
    const keys = yield* KeyCache.make(yield* ApiKeys.ApiKeys)
    const limiter = yield* CurrentRateLimiter
    const check = <E2, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E2, R>, credential: Redacted.Redacted<string>) =>
      Effect.gen(function*() {
        const key = Redacted.value(credential).trim()
        if (key === "") return yield* Effect.fail(unauthorized())
        const user = yield* keys.authenticate(key).pipe(
          Effect.map((found): Option.Option<Id.UserId> | "unavailable" => found),
          // A key store that cannot be reached is the server's state, not a wrong key: 503.
          Effect.catchTag("StorageError", (error) =>
            error.reason === "Unavailable"
              ? Effect.logWarning(`API key lookup failed: ${error.message}`).pipe(Effect.as("unavailable" as const))
              : Effect.fail(error)),
          Effect.catchCause((cause) => Effect.logError("API key lookup failed", cause).pipe(Effect.as(Option.none())))
        )
        if (user === "unavailable") return WireErrors.response(family, 503, WireErrors.storageUnavailable)
        if (Option.isNone(user)) return yield* Effect.fail(unauthorized())
        // Counted here, once the key is known good: the user is counted, not whatever else the
        // request carried (a junk bearer next to a valid x-api-key is this user's request).
        const wait = limiter === undefined ? undefined : yield* limiter.take(`user:${user.value}`)
        if (wait !== undefined) return tooManyRequests(family, wait)
        return yield* Effect.provideService(httpEffect, CurrentUser, { id: user.value })
      })
    return {
      bearer: (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, any, any>, { credential }: { readonly credential: Redacted.Redacted<string> }) => check(httpEffect, credential),
      apiKey: (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, any, any>, { credential }: { readonly credential: Redacted.Redacted<string> }) => check(httpEffect, credential)
    }
  })

export const layer: Layer.Layer<Authorization | ConversionAuthorization, never, ApiKeys.ApiKeys> = Layer.merge(
  Layer.effect(Authorization, Effect.map(make(() => WireErrors.make("standard", 401, unauthorizedMessage), "standard"), Authorization.of)),
  Layer.effect(ConversionAuthorization, Effect.map(make(() => WireErrors.make("conversion", 401, unauthorizedMessage), "conversion"), ConversionAuthorization.of))
)

/** The 429 of a rate limit, in the family's error shape, with the seconds to wait. */
export const tooManyRequests = (family: WireErrors.Family, wait: number) =>
  HttpServerResponse.setHeader(WireErrors.response(family, 429, `Too many requests; retry in ${wait} s.`), "retry-after", String(wait))
