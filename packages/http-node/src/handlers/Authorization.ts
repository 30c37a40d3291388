/**
 * The Authorization middleware: resolves the API key to its user, or answers 401.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { ApiKeys, Id } from "@formwright/core"
import { Authorization, CurrentUser, UnauthorizedError } from "../api/Authorization.ts"

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
    const keys = yield* ApiKeys.ApiKeys
    const check = <A, E, R>(httpEffect: Effect.Effect<A, E, R>, credential: Redacted.Redacted<string>) =>
      Effect.gen(function*() {
        const key = Redacted.value(credential).trim()
        if (key === "") return yield* Effect.fail(unauthorized())
        const user = yield* keys.authenticate(key).pipe(
          Effect.catchCause((cause) => Effect.logError("API key lookup failed", cause).pipe(Effect.as(Option.none())))
        )
        if (Option.isNone(user)) return yield* Effect.fail(unauthorized())
        return yield* Effect.provideService(httpEffect, CurrentUser, { id: user.value })
      })
    return Authorization.of({
      bearer: (httpEffect, { credential }) => check(httpEffect, credential),
      apiKey: (httpEffect, { credential }) => check(httpEffect, credential)
    })
  })
)
