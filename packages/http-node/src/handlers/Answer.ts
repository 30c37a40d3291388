/**
 * Success bodies written as they are, without the framework's encoding pass, for the hot read
 * routes: their answers are built from the core's own records, which were decoded when they were
 * read, and walking every field of a form again cost about a sixth of such a request
 * (bench/http-routes.ts). The schema argument keeps each body type-checked against the contract.
 */
import type { Schema } from "effect"
import { HttpServerResponse } from "effect/http"

/** `body`, which the compiler has checked is `schema`'s encoded form, as a JSON answer. */
export const trusted = <S extends Schema.Top>(_schema: S, body: S["Encoded"]): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(body)
