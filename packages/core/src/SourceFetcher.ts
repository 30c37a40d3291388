/**
 * The SourceFetcher port: fetches a document named by a session's `file_urls`.
 * Adapters enforce the safety rules of contract.md (schemes, size limit, timeout, redirects,
 * private addresses); the core only sees bytes or a reason it could not have them.
 */
import { Context, Effect, Layer, Schema } from "effect"

export interface FetchedSource {
  readonly bytes: Uint8Array
  readonly contentType: string
}

/** The URL could not be used as a source; `message` is safe to show the client. */
export class SourceFetchError extends Schema.TaggedError<SourceFetchError>()("SourceFetchError", {
  url: Schema.String,
  message: Schema.String
}) {}

export interface SourceFetcherShape {
  readonly fetch: (url: string) => Effect.Effect<FetchedSource, SourceFetchError>
}

export class SourceFetcher extends Context.Service<SourceFetcher, SourceFetcherShape>()("@formwright/core/SourceFetcher") {}

/** A fetcher for deployments that accept no URLs: every URL is refused. */
export const layerDisabled: Layer.Layer<SourceFetcher> = Layer.succeed(SourceFetcher, {
  fetch: (url) => Effect.fail(new SourceFetchError({ url, message: "Fetching file URLs is not enabled on this server." }))
})
