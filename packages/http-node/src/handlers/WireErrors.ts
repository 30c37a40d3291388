/**
 * Core errors as the contract's wire errors (`@formwright/api` Errors), for the typed handlers:
 * each core error becomes the declared error of its status, which the framework encodes. The
 * types follow the mapping, so a handler that may raise a core error its endpoint does not
 * declare does not compile. Anything else is the server's own failure: logged with a trace id
 * and answered with a 500 that names only that id.
 */
import { Cause, Effect } from "effect"
import { Errors } from "@formwright/api"
import { Id } from "@formwright/core"

/** The wire error of a standard route for core error `E`. */
export type StandardOf<E> = E extends { readonly _tag: "FormNotFound" | "ProfileNotFound" | "SessionNotFound" | "JobNotFound" } ? Errors.NotFound
  : E extends { readonly _tag: "FormForbidden" } ? Errors.Forbidden
  : E extends { readonly _tag: "InvalidInput" } ? Errors.BadRequest
  : E extends { readonly _tag: "SessionNotReady" } ? Errors.Conflict
  : E extends { readonly _tag: "PdfUnusable" | "PdfRejected" } ? Errors.Unprocessable
  : E extends { readonly _tag: "StorageError" } ? Errors.InsufficientStorage
  : E extends Errors.BadRequest | Errors.Forbidden | Errors.NotFound | Errors.Conflict | Errors.Unprocessable ? E
  : never

/** The wire error of a conversion route (`{error_message}` alone) for core error `E`. */
export type ConversionOf<E> = E extends { readonly _tag: "JobNotFound" } ? Errors.ConversionNotFound
  : E extends { readonly _tag: "InvalidInput" } ? Errors.ConversionBadRequest
  : E extends { readonly _tag: "StorageError" } ? Errors.ConversionInsufficientStorage
  : never

const forbiddenForm = "Forbidden. Form doesn't belong to the user."

/** The message of a 507. */
export const storageFull = "The server's storage is full; try again later."

const stamp = () => ({ id: Id.make("error"), created: new Date().toISOString(), object: "error" as const })

/** A 400 of a standard route. */
export const badRequest = (message: string) => new Errors.BadRequest({ ...stamp(), error_message: message })

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
      // Out of space is a state of the server the client can wait out; other storage failures
      // are the server's to log (a 500).
      return e.reason === "Full" ? { status: 507, message: storageFull } : undefined
    default:
      return undefined
  }
}

const standardClasses: Record<number, new(fields: Errors.ErrorObject) => unknown> = {
  400: Errors.BadRequest,
  403: Errors.Forbidden,
  404: Errors.NotFound,
  409: Errors.Conflict,
  422: Errors.Unprocessable,
  507: Errors.InsufficientStorage
}

const conversionClasses: Record<number, new(fields: { error_message: string }) => unknown> = {
  400: Errors.ConversionBadRequest,
  404: Errors.ConversionNotFound,
  507: Errors.ConversionInsufficientStorage
}

const isWireError = (e: unknown) => e instanceof Errors.BadRequest || e instanceof Errors.Forbidden || e instanceof Errors.NotFound ||
  e instanceof Errors.Conflict || e instanceof Errors.Unprocessable

const toWire = <W, I>(
  cause: Cause.Cause<unknown>,
  wire: (status: number, message: string) => W | undefined,
  internal: (message: string) => I
): Effect.Effect<never, W | I> => {
  // The client went away: nobody to answer (the Edge records it as such).
  if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
  const failure = Cause.findErrorOption(cause)
  if (failure._tag === "Some") {
    const value = failure.value as Tagged
    if (isWireError(value)) return Effect.fail(value as W)
    const known = describe(value)
    const error = known && wire(known.status, known.message)
    if (error !== undefined) {
      // A full store is answered (507) and also logged: it is the operator who can fix it.
      return known!.status === 507
        ? Effect.andThen(Effect.logWarning(`storage is full: ${String(value.message)}`), Effect.fail(error))
        : Effect.fail(error)
    }
  }
  const traceId = Id.make("error")
  return Effect.logError("request failed", cause).pipe(
    Effect.annotateLogs({ trace_id: traceId }),
    Effect.andThen(Effect.fail(internal(`Internal error (trace id ${traceId}).`)))
  )
}

/** A standard route's handler body with its failures as wire errors. */
export const standard = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, StandardOf<E> | Errors.Internal, R> =>
  Effect.catchCause(body, (cause) =>
    toWire(
      cause,
      (status, message) => {
        const Class = standardClasses[status]
        return Class && (new Class({ ...stamp(), error_message: message }) as StandardOf<E>)
      },
      (message) => new Errors.Internal({ ...stamp(), error_message: message })
    ))

/** A conversion route's handler body with its failures as `{error_message}` wire errors. */
export const conversion = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, ConversionOf<E> | Errors.ConversionInternal, R> =>
  Effect.catchCause(body, (cause) =>
    toWire(
      cause,
      (status, message) => {
        const Class = conversionClasses[status]
        return Class && (new Class({ error_message: message }) as ConversionOf<E>)
      },
      (message) => new Errors.ConversionInternal({ error_message: message })
    ))
