/**
 * Success bodies written as they are, without the framework's encoding pass, for the hot read
 * routes and the routes answering with a whole form (upload, update): their answers are built
 * from the core's own records, decoded when read or typed when made, and walking every field of a
 * form again cost about a sixth of a read (bench/http-routes.ts) and held the event loop for 60 ms
 * on a 5,000-field upload. The schema argument keeps each body type-checked against the contract;
 * tests compare these answers with what a read of the same form gives.
 */
import type { Schema } from "effect"
import { HttpServerResponse } from "effect/http"

/** `body`, which the compiler has checked is `schema`'s encoded form, as a JSON answer. */
export const trusted = <S extends Schema.Top>(_schema: S, body: S["Encoded"]): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(body)

/**
 * `trusted` for answers made from a record, with each record object's body encoded once: a read
 * through a cache (FormsReadCache.ts) hands out the same record object for the cache's lifetime,
 * and encoding a form again on every read cost about 15% of the route (bench/http-routes.ts).
 * A changed record is a new object, so it is encoded afresh; the body is never stale.
 */
export const perRecord = <S extends Schema.Top, A extends object>(_schema: S, body: (record: A) => S["Encoded"]) => {
  const encoded = new WeakMap<A, Uint8Array>()
  return (record: A): HttpServerResponse.HttpServerResponse => {
    let bytes = encoded.get(record)
    if (bytes === undefined) encoded.set(record, bytes = Buffer.from(JSON.stringify(body(record))))
    return HttpServerResponse.uint8Array(bytes, { contentType: "application/json" })
  }
}
