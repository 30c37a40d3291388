/**
 * Wire errors of the /v1 contract. Most routes answer with the error object
 * `{id, created, object: "error", error_message}`; the conversion routes answer with
 * `{error_message}` alone, as interface.md shows them.
 */
import { Schema } from "effect"

/** The error object of contract.md. */
export const ErrorObject = Schema.Struct({
  id: Schema.String,
  created: Schema.String,
  object: Schema.Literal("error"),
  error_message: Schema.String
})
export type ErrorObject = typeof ErrorObject.Type

/** The bare error body of the conversion routes. */
export const ConversionErrorBody = Schema.Struct({ error_message: Schema.String })

/*
 * Each documented error is its own class: encoding picks a union member by class, not by shape,
 * and every error object has the same shape whatever its status.
 */
const fields = ErrorObject.fields
const conversionFields = ConversionErrorBody.fields

/** Documented error responses, for the OpenAPI description of each route. */
export class BadRequest extends Schema.Class<BadRequest>("BadRequest")(fields, { httpApiStatus: 400, description: "Malformed input; the message names the offending field." }) {}
export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(fields, { httpApiStatus: 401, description: "Missing or unknown API key." }) {}
export class Forbidden extends Schema.Class<Forbidden>("Forbidden")(fields, { httpApiStatus: 403, description: "The form belongs to another user." }) {}
export class NotFound extends Schema.Class<NotFound>("NotFound")(fields, { httpApiStatus: 404, description: "No such resource for this user." }) {}
export class Conflict extends Schema.Class<Conflict>("Conflict")(fields, { httpApiStatus: 409, description: "The resource is not in the state the request needs (a session not completed yet)." }) {}
export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(fields, { httpApiStatus: 413, description: "The body is larger than the configured limit." }) {}
export class UnsupportedMediaType extends Schema.Class<UnsupportedMediaType>("UnsupportedMediaType")(fields, { httpApiStatus: 415, description: "The Content-Type is not accepted on this route." }) {}
export class Unprocessable extends Schema.Class<Unprocessable>("Unprocessable")(fields, { httpApiStatus: 422, description: "The body is not a usable PDF (not a PDF, damaged, user password, XFA-only)." }) {}
export class TooManyRequests extends Schema.Class<TooManyRequests>("TooManyRequests")(fields, { httpApiStatus: 429, description: "Over a rate limit; `Retry-After` gives the seconds to wait." }) {}
export class Internal extends Schema.Class<Internal>("Internal")(fields, { httpApiStatus: 500, description: "Unexpected failure; the message carries a trace id, no detail." }) {}
export class ServiceUnavailable extends Schema.Class<ServiceUnavailable>("ServiceUnavailable")(fields, { httpApiStatus: 503, description: "The server's database cannot be reached for now; nothing was changed. Try again later." }) {}
export class InsufficientStorage extends Schema.Class<InsufficientStorage>("InsufficientStorage")(fields, { httpApiStatus: 507, description: "The server's storage is full; nothing was stored. Try again later." }) {}

export class ConversionUnauthorized extends Schema.Class<ConversionUnauthorized>("ConversionUnauthorized")(conversionFields, { httpApiStatus: 401, description: "Missing or unknown API key." }) {}
export class ConversionBadRequest extends Schema.Class<ConversionBadRequest>("ConversionBadRequest")(conversionFields, { httpApiStatus: 400, description: "Malformed input; the message names the offending parameter." }) {}
export class ConversionNotFound extends Schema.Class<ConversionNotFound>("ConversionNotFound")(conversionFields, { httpApiStatus: 404, description: "No such job for this user." }) {}
export class ConversionPayloadTooLarge extends Schema.Class<ConversionPayloadTooLarge>("ConversionPayloadTooLarge")(conversionFields, { httpApiStatus: 413, description: "The body is larger than the configured limit." }) {}
export class ConversionUnsupportedMediaType extends Schema.Class<ConversionUnsupportedMediaType>("ConversionUnsupportedMediaType")(conversionFields, { httpApiStatus: 415, description: "The Content-Type is not accepted on this route." }) {}
export class ConversionUnprocessable extends Schema.Class<ConversionUnprocessable>("ConversionUnprocessable")(conversionFields, { httpApiStatus: 422, description: "The body is not a usable PDF." }) {}
export class ConversionTooManyRequests extends Schema.Class<ConversionTooManyRequests>("ConversionTooManyRequests")(conversionFields, { httpApiStatus: 429, description: "Over a rate limit; `Retry-After` gives the seconds to wait." }) {}
export class ConversionInternal extends Schema.Class<ConversionInternal>("ConversionInternal")(conversionFields, { httpApiStatus: 500, description: "Unexpected failure." }) {}
export class ConversionBadGateway extends Schema.Class<ConversionBadGateway>("ConversionBadGateway")(conversionFields, { httpApiStatus: 502, description: "The converter service could not be reached." }) {}
export class ConversionServiceUnavailable extends Schema.Class<ConversionServiceUnavailable>("ConversionServiceUnavailable")(conversionFields, { httpApiStatus: 503, description: "The converter service is full (its queue) or unavailable, or the server's database cannot be reached for now; try again later." }) {}
export class ConversionInsufficientStorage extends Schema.Class<ConversionInsufficientStorage>("ConversionInsufficientStorage")(conversionFields, { httpApiStatus: 507, description: "The server's storage is full; nothing was stored." }) {}

/** The errors every authenticated route may answer. */
export const common = [BadRequest, Unauthorized, Internal, ServiceUnavailable, InsufficientStorage] as const
export const conversionCommon = [ConversionBadRequest, ConversionInternal, ConversionServiceUnavailable, ConversionInsufficientStorage] as const
