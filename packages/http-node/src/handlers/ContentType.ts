/**
 * The ContentType middlewares (declared in `@formwright/api`): a route that reads its body as a
 * stream takes only the media types its endpoint declares a payload for; anything else is a 415
 * with the route's own message, before the body is read.
 */
import { Context, Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { ContentType, ConversionContentType, UnsupportedMessage } from "@formwright/api"
import * as Body from "./Body.ts"
import * as WireErrors from "./WireErrors.ts"

/** What an endpoint accepts and what it answers otherwise, worked out once per endpoint. */
const acceptance = (endpoint: HttpApiEndpoint.Top) => {
  const accepted = new Set(endpoint.payload.keys())
  const message = Context.get(endpoint.annotations, UnsupportedMessage) ?? `Expected ${[...accepted].join(" or ")}`
  return { accepted, message }
}

const guard = <F extends WireErrors.Family>(family: F) => {
  const byEndpoint = new WeakMap<object, ReturnType<typeof acceptance>>()
  return <A, E, R>(httpEffect: Effect.Effect<A, E, R>, { endpoint }: { readonly endpoint: HttpApiEndpoint.Top }) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      let rule = byEndpoint.get(endpoint)
      if (rule === undefined) byEndpoint.set(endpoint, rule = acceptance(endpoint))
      if (!rule.accepted.has(Body.mediaType(request))) return yield* WireErrors.fail(family, 415, rule.message)
      return yield* httpEffect
    })
}

export const layer = Layer.mergeAll(
  Layer.succeed(ContentType, ContentType.of(guard("standard"))),
  Layer.succeed(ConversionContentType, ConversionContentType.of(guard("conversion")))
)
