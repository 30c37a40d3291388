/**
 * The InvalidRequest middleware: a query, path or header the endpoint's schema refuses is a 400 in
 * the route family's error shape, naming the parameter. A repeated query parameter is the usual
 * case (`?page=1&page=2` decodes to an array where one value is declared).
 */
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { type HttpApiError, HttpApiMiddleware } from "effect/http-api"
import { InvalidRequest } from "@formwright/api"
import * as WireErrors from "./WireErrors.ts"

/** What a client sent; `Body` and `ResponseHeaders` are the server's own encoding failures. */
const requestKinds = new Set<HttpApiError.HttpApiSchemaError["kind"]>(["Params", "Headers", "Query", "Payload"])

/** The message for a parameter given more than once. */
export const repeatedMessage = (name: string) => `Invalid ${name}: given more than once.`

const firstPath = (issue: unknown): ReadonlyArray<PropertyKey> => {
  const node = issue as { _tag?: string; path?: ReadonlyArray<PropertyKey>; issue?: unknown; issues?: ReadonlyArray<unknown> }
  if (node._tag === "Pointer") return [...(node.path ?? []), ...firstPath(node.issue)]
  if (node.issue !== undefined) return firstPath(node.issue)
  if (node.issues?.[0] !== undefined) return firstPath(node.issues[0])
  return []
}

/** Whether the failure is about the request (a 400) rather than the server's own response. */
export const isRequestError = (e: HttpApiError.HttpApiSchemaError) => requestKinds.has(e.kind)

/** A member's path as a client writes it: `form.fields[0].id`. */
const pathName = (path: ReadonlyArray<PropertyKey>) =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join("")

/** The framework's message for a body that is not JSON at all. */
const notJson = "Expected a valid JSON body"

/** The message of a body the schema refuses, naming the member: `Invalid form.fields[0]: Expected object`. */
export const bodyMessage = (error: { readonly issue?: unknown; readonly message?: string }) => {
  const path = firstPath(error.issue)
  const detail = (error.message ?? "").split("\n")[0]!.trim().slice(0, 200)
  if (path.length === 0 && detail === notJson) return "The body is not valid JSON."
  return `Invalid ${path.length === 0 ? "body" : pathName(path)}: ${detail === "" ? "malformed." : detail}`
}

/** The 400 for a request decoding failure, naming the parameter (or the body's member). */
export const response = (family: WireErrors.Family, e: HttpApiError.HttpApiSchemaError, request: HttpServerRequest.HttpServerRequest) => {
  const cause = e.cause as { issue?: unknown; message?: string }
  if (e.kind === "Payload") return WireErrors.response(family, 400, bodyMessage(cause))
  const name = String(firstPath(cause.issue)[0] ?? e.kind.toLowerCase())
  if (e.kind === "Query" && new URL(request.url, "http://x").searchParams.getAll(name).length > 1) {
    return WireErrors.response(family, 400, repeatedMessage(name))
  }
  const detail = (cause.message ?? "").split("\n")[0]!.trim().slice(0, 200)
  return WireErrors.response(family, 400, `Invalid ${name}: ${detail === "" ? "malformed." : detail}`)
}

export const layer = HttpApiMiddleware.layerSchemaErrorTransform(InvalidRequest, (e, { group }) =>
  isRequestError(e)
    ? Effect.map(Effect.service(HttpServerRequest.HttpServerRequest), (request) => response(WireErrors.familyOf(group.identifier), e, request))
    : Effect.fail(e))
