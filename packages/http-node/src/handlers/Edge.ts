/**
 * The outermost middleware: request ids, one structured log line per request, JSON bodies for
 * unknown routes, `WWW-Authenticate` on 401, the limit on failed authentications per address,
 * the headers every response carries, and a last net for anything unexpected.
 */
import { Cause, Context, Effect, type Types } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { Id } from "@formwright/core"
import { tooManyRequests } from "./Authorization.ts"
import * as Client from "./Client.ts"
import * as InvalidRequest from "./InvalidRequest.ts"
import * as RateLimit from "./RateLimit.ts"
import * as WireErrors from "./WireErrors.ts"

const conversionPath = /^\/v1\/(forms|utils)\/convert(\/|$)/

/**
 * Set by a conversion route that passes on a converter service's answer: its 401 is the
 * converter refusing this server, not the client failing to authenticate, so it is not counted
 * against the client's address (nor told to authenticate).
 */
export class ConverterAnswered extends Context.Reference<{ status: number | undefined } | undefined>(
  "@formwright/http-node/ConverterAnswered",
  { defaultValue: () => undefined }
) {}

/** Routes anyone may call; every other route needs a key (contract.md: auth on every /v1 route). */
const publicPath = /^\/(health|openapi\.json|docs)(\/|$)/

/**
 * The path as the router matches it, so that what the edge decides by path (the route family,
 * whether a key is needed) holds for every spelling that reaches a route. The router takes the
 * absolute form (`http://host/path`), ends the path at `?`, `;` or `#`, decodes escapes,
 * collapses repeated slashes, ignores a trailing one and ignores case: `//V1/%66orms/` is
 * `/v1/forms`.
 */
export const routePath = (url: string): string => {
  let path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
  path = path.split(/[?;#]/, 1)[0] ?? ""
  try {
    path = decodeURI(path)
  } catch {
    // Left as sent; the router cannot match it either.
  }
  path = path.replace(/\/{2,}/g, "/")
  if (path.length > 1) path = path.replace(/\/$/, "")
  return path.toLowerCase()
}

const contentTypeOf = (response: HttpServerResponse.HttpServerResponse) =>
  (response.headers["content-type"] ?? ("contentType" in response.body ? response.body.contentType : undefined) ?? "").split(";")[0]!.trim().toLowerCase()

/**
 * Headers for every response: no content sniffing anywhere; API answers are never stored by a
 * cache (they hold a user's data), PDF downloads only never by a shared one; and the docs page
 * cannot be framed by another site (clickjacking).
 */
const withSecurityHeaders = (response: HttpServerResponse.HttpServerResponse, path: string) => {
  let out = HttpServerResponse.setHeader(response, "x-content-type-options", "nosniff")
  const type = contentTypeOf(response)
  if (out.headers["cache-control"] === undefined) {
    if (type === "application/pdf") out = HttpServerResponse.setHeader(out, "cache-control", "private, no-store")
    else if (type === "application/json" || type.endsWith("+json")) out = HttpServerResponse.setHeader(out, "cache-control", "no-store")
  }
  if (/^\/docs(\/|$)/.test(path)) {
    out = HttpServerResponse.setHeaders(out, { "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" })
  }
  return out
}

/** A decoding failure that escaped a group's InvalidRequest middleware is still the client's 400. */
const requestSchemaError = (cause: Cause.Cause<unknown>) => {
  for (const reason of cause.reasons) {
    const value = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    if (HttpApiError.HttpApiSchemaError.is(value) && InvalidRequest.isRequestError(value)) return value
  }
  return undefined
}

/**
 * The answer recorded for a request whose client went away before it was answered; nginx's 499
 * ("client closed request"), so the request log tells it apart from the server's failures.
 */
const clientGone = HttpServerResponse.empty({ status: 499 })

export const layer = HttpRouter.middleware(
  // Settings are read once, where the layer is built; the function below runs per request.
  Effect.gen(function*() {
    const trustProxy = yield* Client.TrustProxy
    const perMinute = yield* RateLimit.AuthFailureLimit
    const limiter = yield* RateLimit.Limiters
    const failures = perMinute > 0 ? limiter("auth-failures", perMinute) : undefined
    return (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>) =>
      // Every failure is answered here; the type keeps the router's `unhandled` marker.
      (Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const requestId = request.headers["x-request-id"]?.slice(0, 128) || Id.make("request")
        const started = Date.now()
        const path = request.url.split("?")[0] ?? request.url
        const route = routePath(request.url)
        const family: WireErrors.Family = conversionPath.test(route) ? "conversion" : "standard"
        const address = `address:${Client.address(request, trustProxy)}`
        // An address that failed to authenticate too often is not heard on keyed routes until its
        // budget refills, whatever key it sends now.
        const wait = publicPath.test(route) || failures === undefined ? undefined : yield* failures.wait(address)
        const converter: { status: number | undefined } = { status: undefined }
        let response = wait !== undefined
          ? tooManyRequests(family, wait)
          : yield* httpEffect.pipe(
            Effect.provideService(ConverterAnswered, converter),
            Effect.catchCause((cause) => {
              const failure = Cause.findErrorOption(cause)
              const value = failure._tag === "Some" ? (failure.value as { _tag?: string; reason?: { _tag?: string } }) : undefined
              if (value?._tag === "RouteNotFound" || value?.reason?._tag === "RouteNotFound") {
                return Effect.succeed(WireErrors.response(family, 404, `No route for ${request.method} ${path}.`))
              }
              const invalid = requestSchemaError(cause)
              if (invalid !== undefined) return Effect.succeed(InvalidRequest.response(family, invalid, request))
              // The client closed the connection and the request was interrupted: nobody to answer
              // and nothing wrong with the server (the work in flight undoes its own writes).
              if (Cause.hasInterruptsOnly(cause)) return Effect.succeed(clientGone)
              const traceId = Id.make("error")
              return Effect.logError("unhandled failure", cause).pipe(
                Effect.annotateLogs({ trace_id: traceId }),
                Effect.as(WireErrors.response(family, 500, `Internal error (trace id ${traceId}).`))
              )
            })
          )
        if (response.status === 401 && converter.status !== 401) {
          if (failures !== undefined) yield* failures.take(address)
          response = HttpServerResponse.setHeader(response, "www-authenticate", 'Bearer realm="formwright"')
        }
        response = withSecurityHeaders(HttpServerResponse.setHeader(response, "x-request-id", requestId), route)
        yield* Effect.logInfo("request").pipe(
          Effect.annotateLogs({ request_id: requestId, method: request.method, path, status: response.status, ms: Date.now() - started })
        )
        return response
      }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest>)
  }),
  { global: true }
)
