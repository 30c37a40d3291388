/**
 * The outermost middleware: request ids, one structured log line per request, JSON bodies for
 * unknown routes, `WWW-Authenticate` on 401, and a last net for anything unexpected.
 */
import { Cause, Effect, type Types } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Id } from "@formwright/core"
import { unauthorizedMessage } from "./Authorization.ts"
import { CurrentRateLimiter } from "./RateLimit.ts"
import { error } from "./Respond.ts"

const conversionPath = /^\/v1\/(forms|utils)\/convert(\/|$)/

export const layer = HttpRouter.middleware(
  // The limiter is read once, where the layer is built; the function below runs per request.
  Effect.map(Effect.service(CurrentRateLimiter), (limiter) => (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>) =>
    // Every failure is answered here; the type keeps the router's `unhandled` marker.
    (Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const requestId = request.headers["x-request-id"]?.slice(0, 128) || Id.make("request")
      const started = Date.now()
      const path = request.url.split("?")[0] ?? request.url
      const family = conversionPath.test(path) ? "conversion" : "standard"
      const wait = path.startsWith("/v1/") ? limiter?.take(request) : undefined
      let response = wait !== undefined
        ? HttpServerResponse.setHeader(error(family, 429, `Too many requests; retry in ${wait} s.`), "retry-after", String(wait))
        : yield* httpEffect.pipe(
        Effect.catchCause((cause) => {
          const failure = Cause.findErrorOption(cause)
          const value = failure._tag === "Some" ? (failure.value as { _tag?: string; reason?: { _tag?: string } }) : undefined
          if (value?._tag === "RouteNotFound" || value?.reason?._tag === "RouteNotFound") {
            return Effect.succeed(error(family, 404, `No route for ${request.method} ${path}.`))
          }
          const traceId = Id.make("error")
          return Effect.logError("unhandled failure", cause).pipe(
            Effect.annotateLogs({ trace_id: traceId }),
            Effect.as(error(family, 500, `Internal error (trace id ${traceId}).`))
          )
        })
      )
      if (response.status === 401) {
        // The auth middleware answers with the error object everywhere; the conversion routes'
        // error bodies hold only `{error_message}` (contract.md).
        if (family === "conversion") response = error(family, 401, unauthorizedMessage)
        response = HttpServerResponse.setHeader(response, "www-authenticate", 'Bearer realm="formwright"')
      }
      response = HttpServerResponse.setHeader(response, "x-request-id", requestId)
      yield* Effect.logInfo("request").pipe(
        Effect.annotateLogs({ request_id: requestId, method: request.method, path, status: response.status, ms: Date.now() - started })
      )
      return response
    }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest>)),
  { global: true }
)
