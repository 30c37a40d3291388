/**
 * The typed client of the /v1 API, derived from the contract by Effect's HttpApiClient: one
 * method per route (`client.profiles.create({ payload })`), whose answers are decoded with the
 * contract's schemas and whose documented errors fail with their wire error classes
 * (`Errors.NotFound`, ...). It needs an `HttpClient` (`FetchHttpClient.layer` from `effect/http`
 * in Node 22+, browsers and Deno).
 */
import { Effect, Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "./Api.ts"

/** The client's type: `client.<group>.<endpoint>(request)`. */
export type Client = HttpApiClient.ForApi<typeof Api>

export interface Options {
  /** The server's origin, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string | URL
  /** An API key, sent as `Authorization: Bearer <key>` on every request. */
  readonly apiKey: string | Redacted.Redacted<string>
}

/** A client for the server at `baseUrl`, authenticated with `apiKey`. */
export const make = (options: Options): Effect.Effect<Client, never, HttpClient.HttpClient> => {
  const key = typeof options.apiKey === "string" ? options.apiKey : Redacted.value(options.apiKey)
  return HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(key))
  })
}
