/**
 * The Authorization middleware: resolves the API key to its user, or answers 401; with
 * FORMWRIGHT_RATE_LIMIT, counts the user's requests and answers 429 past the limit.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerResponse } from "effect/http"
import type { HttpApiGroup } from "effect/http-api"
import { ApiKeys, Id } from "@formwright/core"
import { Authorization, CurrentUser, UnauthorizedError } from "../api/Authorization.ts"
import * as KeyCache from "../KeyCache.ts"
import { CurrentRateLimiter } from "./RateLimit.ts"
import { error, type Family, familyOf } from "./Respond.ts"

/** The message of every 401 (Edge re-shapes it to `{error_message}` on the conversion routes). */
export const unauthorizedMessage = "Missing or invalid API key. Send 'Authorization: Bearer <key>' or 'x-api-key: <key>'."

const unauthorized = () =>
  new UnauthorizedError({
    id: Id.make("error"),
    created: new Date().toISOString(),
    object: "error",
    error_message: unauthorizedMessage
  })

export const layer: Layer.Layer<Authorization, never, ApiKeys.ApiKeys> = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    // Lookups are remembered for a few seconds (KeyCache.ts has the revocation bound).
    const keys = yield* KeyCache.make(yield* ApiKeys.ApiKeys)
    const limiter = yield* CurrentRateLimiter
    const check = <E, R>(
      httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
      credential: Redacted.Redacted<string>,
      group: HttpApiGroup.Top
    ) =>
      Effect.gen(function*() {
        const key = Redacted.value(credential).trim()
        if (key === "") return yield* Effect.fail(unauthorized())
        const user = yield* keys.authenticate(key).pipe(
          Effect.catchCause((cause) => Effect.logError("API key lookup failed", cause).pipe(Effect.as(Option.none())))
        )
        if (Option.isNone(user)) return yield* Effect.fail(unauthorized())
        // Counted here, once the key is known good: the user is counted, not whatever else the
        // request carried (a junk bearer next to a valid x-api-key is this user's request).
        const wait = limiter?.take(`user:${user.value}`)
        if (wait !== undefined) return tooManyRequests(familyOf(group.identifier), wait)
        return yield* Effect.provideService(httpEffect, CurrentUser, { id: user.value })
      })
    return Authorization.of({
      bearer: (httpEffect, { credential, group }) => check(httpEffect, credential, group),
      apiKey: (httpEffect, { credential, group }) => check(httpEffect, credential, group)
    })
  })
)

/** The 429 of a rate limit, in the family's error shape, with the seconds to wait. */
export const tooManyRequests = (family: Family, wait: number) =>
  HttpServerResponse.setHeader(error(family, 429, `Too many requests; retry in ${wait} s.`), "retry-after", String(wait))
