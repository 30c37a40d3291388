/**
 * The guard of the routes that read their body as a stream (a PDF, a multipart form): the
 * request's media type must be one the endpoint declares a payload for, else a 415 in the route
 * family's error shape, with the message the route's annotation gives (interface.md spells it
 * per route). It runs after authentication and before the body is read.
 */
import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { ConversionUnsupportedMediaType, UnsupportedMediaType } from "./Errors.ts"

/** The message of an endpoint's 415; by default the declared media types. */
export class UnsupportedMessage extends Context.Reference<string | undefined>("@formwright/api/UnsupportedMessage", {
  defaultValue: () => undefined
}) {}

/** The guard on routes that answer with the error object. */
export class ContentType extends HttpApiMiddleware.Service<ContentType>()("@formwright/api/ContentType", {
  error: UnsupportedMediaType
}) {}

/** The guard on the conversion routes, whose 415 body is `{error_message}` alone. */
export class ConversionContentType extends HttpApiMiddleware.Service<ConversionContentType>()("@formwright/api/ConversionContentType", {
  error: ConversionUnsupportedMediaType
}) {}
