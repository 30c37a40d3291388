/**
 * The contract's wire errors (`@formwright/api` Errors) on the server side: core errors become the
 * declared error of their status, which the framework encodes; the edge and the middleware that
 * answer outside a handler build the same bodies. The types follow the mapping, so a handler
 * that may raise an error its endpoint does not declare does not compile. Anything else is the
 * server's own failure: logged with a trace id and answered with a 500 that names only that id.
 */
import { Cause, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { Errors } from "@formwright/api"
import { Id } from "@formwright/core"

/** Which error body a route family answers with: the error object, or `{error_message}` alone. */
export type Family = "standard" | "conversion"

/** The family of an HttpApi group's routes: the conversion group answers `{error_message}` alone. */
export const familyOf = (groupIdentifier: string): Family => (groupIdentifier === "conversions" ? "conversion" : "standard")

const standardClasses = {
  400: Errors.BadRequest,
  401: Errors.Unauthorized,
  403: Errors.Forbidden,
  404: Errors.NotFound,
  409: Errors.Conflict,
  413: Errors.PayloadTooLarge,
  415: Errors.UnsupportedMediaType,
  422: Errors.Unprocessable,
  429: Errors.TooManyRequests,
  500: Errors.Internal,
  503: Errors.ServiceUnavailable,
  507: Errors.InsufficientStorage
} as const

const conversionClasses = {
  400: Errors.ConversionBadRequest,
  401: Errors.ConversionUnauthorized,
  404: Errors.ConversionNotFound,
  413: Errors.ConversionPayloadTooLarge,
  415: Errors.ConversionUnsupportedMediaType,
  422: Errors.ConversionUnprocessable,
  429: Errors.ConversionTooManyRequests,
  500: Errors.ConversionInternal,
  502: Errors.ConversionBadGateway,
  503: Errors.ConversionServiceUnavailable,
  507: Errors.ConversionInsufficientStorage
} as const

type Classes<F extends Family> = F extends "conversion" ? typeof conversionClasses : typeof standardClasses

/** The statuses a family has a wire error for. */
export type Status<F extends Family> = keyof Classes<F>

/** The wire error of a family and status. */
export type WireError<F extends Family, S extends Status<F> = Status<F>> = Classes<F>[S] extends abstract new(...args: any) => infer I ? I : never

type AnyWireError = WireError<"standard"> | WireError<"conversion">

const allClasses: ReadonlyArray<new(...args: any) => unknown> = [...Object.values(standardClasses), ...Object.values(conversionClasses)]
const isWireError = (e: unknown): e is AnyWireError => allClasses.some((Class) => e instanceof Class)

/** A wire error of the family with `status` and `message`. */
export const make = <F extends Family, S extends Status<F>>(family: F, status: S, message: string): WireError<F, S> => {
  if (family === "conversion") {
    const Class = conversionClasses[status as keyof typeof conversionClasses]
    return new Class({ error_message: message }) as WireError<F, S>
  }
  const Class = standardClasses[status as keyof typeof standardClasses]
  return new Class({ id: Id.make("error"), created: new Date().toISOString(), object: "error", error_message: message }) as WireError<F, S>
}

/** Fails with the wire error of the family with `status` and `message`. */
export const fail = <F extends Family, S extends Status<F>>(family: F, status: S, message: string): Effect.Effect<never, WireError<F, S>> =>
  Effect.fail(make(family, status, message))

/** A 400 of a standard route. */
export const badRequest = (message: string) => make("standard", 400, message)

/** The same body as a response, for what answers outside a handler (the edge, the middleware). */
export const response = <F extends Family>(family: F, status: Status<F>, message: string) =>
  HttpServerResponse.jsonUnsafe(make(family, status, message), { status: status as number })

/** The message of a 507. */
export const storageFull = "The server's storage is full; try again later."

/** The message of a 503 when the records' database cannot be reached. */
export const storageUnavailable = "The server's database cannot be reached right now; nothing was changed. Try again later."

const forbiddenForm = "Forbidden. Form doesn't belong to the user."

/** The wire error of a standard route for error `E` (a core error, or a wire error already). */
export type StandardOf<E> = E extends AnyWireError ? E
  : E extends { readonly _tag: "FormNotFound" | "ProfileNotFound" | "SessionNotFound" | "JobNotFound" } ? Errors.NotFound
  : E extends { readonly _tag: "FormForbidden" } ? Errors.Forbidden
  : E extends { readonly _tag: "InvalidInput" } ? Errors.BadRequest
  : E extends { readonly _tag: "SessionNotReady" } ? Errors.Conflict
  : E extends { readonly _tag: "PdfUnusable" | "PdfRejected" } ? Errors.Unprocessable
  : E extends { readonly _tag: "StorageError" } ? Errors.InsufficientStorage | Errors.ServiceUnavailable
  : never

/** The wire error of a conversion route (`{error_message}` alone) for error `E`. */
export type ConversionOf<E> = E extends AnyWireError ? E
  : E extends { readonly _tag: "JobNotFound" } ? Errors.ConversionNotFound
  : E extends { readonly _tag: "InvalidInput" } ? Errors.ConversionBadRequest
  : E extends { readonly _tag: "PdfUnusable" | "PdfRejected" } ? Errors.ConversionUnprocessable
  : E extends { readonly _tag: "StorageError" } ? Errors.ConversionInsufficientStorage | Errors.ConversionServiceUnavailable
  // A converter service's own answer, passed on with its status.
  : E extends { readonly _tag: "ConverterError" } ?
    | Errors.ConversionBadRequest
    | Errors.ConversionUnauthorized
    | Errors.ConversionPayloadTooLarge
    | Errors.ConversionUnsupportedMediaType
    | Errors.ConversionUnprocessable
    | Errors.ConversionInternal
    | Errors.ConversionBadGateway
    | Errors.ConversionServiceUnavailable
    | Errors.ConversionInsufficientStorage
  : never

type Tagged = { readonly _tag: string } & Record<string, any>

/** The status and message the contract gives a core error; undefined when it is not the client's doing. */
const describe = (e: Tagged): { readonly status: number; readonly message: string } | undefined => {
  switch (e._tag) {
    case "FormNotFound":
      return { status: 404, message: `Form '${e.formId}' not found.` }
    case "FormForbidden":
      return { status: 403, message: forbiddenForm }
    case "ProfileNotFound":
      return { status: 404, message: `Profile '${e.profileId}' not found.` }
    case "SessionNotFound":
      // The creation answer's own `id` (cs_...) is what newcomers poll first.
      return {
        status: 404,
        message: e.sessionId.startsWith(`${Id.prefixes.sessionCreated}_`)
          ? `Session '${e.sessionId}' not found: '${e.sessionId}' is the id of the creation response; poll its session_id (ses_...).`
          : `Session '${e.sessionId}' not found.`
      }
    case "SessionNotReady":
      return { status: 409, message: `Session '${e.sessionId}' is ${e.status}; the filled PDF exists once it is completed.` }
    case "JobNotFound":
      return { status: 404, message: `Conversion job '${e.jobId}' not found.` }
    case "InvalidInput":
      return { status: 400, message: `Invalid ${e.field}: ${e.message}` }
    case "PdfUnusable":
    case "PdfRejected":
      return { status: 422, message: e.message }
    case "StorageError":
      // Out of space, or a database that cannot be reached, is a state of the server the client
      // can wait out; other storage failures are the server's to log (a 500).
      return e.reason === "Full"
        ? { status: 507, message: storageFull }
        : e.reason === "Unavailable"
        ? { status: 503, message: storageUnavailable }
        : undefined
    case "ConverterError":
      // A converter service's answer: its status is the route's (interface.md), 500 included.
      return typeof e.status === "number" && e.status !== 200 ? { status: e.status, message: e.message } : undefined
    default:
      return undefined
  }
}

const toWire = <F extends Family>(family: F, cause: Cause.Cause<unknown>): Effect.Effect<never, WireError<F>> => {
  // The client went away: nobody to answer (the edge records it as such).
  if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
  const failure = Cause.findErrorOption(cause)
  if (failure._tag === "Some") {
    const value = failure.value as Tagged
    if (isWireError(value)) return Effect.fail(value as WireError<F>)
    const known = describe(value)
    const classes: Record<number, unknown> = family === "conversion" ? conversionClasses : standardClasses
    if (known !== undefined && classes[known.status] !== undefined) {
      const error = make(family, known.status as Status<F>, known.message)
      // A full or unreachable store is answered (507, 503) and also logged: it is the operator
      // who can fix it.
      return known.status === 507
        ? Effect.andThen(Effect.logWarning(`storage is full: ${String(value.message)}`), Effect.fail(error))
        : value._tag === "StorageError" && known.status === 503
        ? Effect.andThen(Effect.logWarning(`storage is unavailable: ${String(value.message)}`), Effect.fail(error))
        : Effect.fail(error)
    }
  }
  const traceId = Id.make("error")
  return Effect.logError("request failed", cause).pipe(
    Effect.annotateLogs({ trace_id: traceId }),
    Effect.andThen(Effect.fail(make(family, 500 as Status<F>, `Internal error (trace id ${traceId}).`)))
  )
}

/** A standard route's handler body with its failures as wire errors. */
export const standard = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, StandardOf<E> | Errors.Internal, R> =>
  Effect.catchCause(body, (cause) => toWire("standard", cause) as Effect.Effect<never, StandardOf<E> | Errors.Internal>)

/** A conversion route's handler body with its failures as `{error_message}` wire errors. */
export const conversion = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, ConversionOf<E> | Errors.ConversionInternal, R> =>
  Effect.catchCause(body, (cause) => toWire("conversion", cause) as Effect.Effect<never, ConversionOf<E> | Errors.ConversionInternal>)
