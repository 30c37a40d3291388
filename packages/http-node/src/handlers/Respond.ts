/**
 * Building responses: the contract's bodies, and the mapping of core errors to status codes.
 * Handlers return responses rather than failing, so every route answers in its own error shape
 * (the error object, or `{error_message}` on the conversion routes) and nothing escapes as a 500
 * that the contract does not foresee.
 */
import { Cause, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { Id } from "@formwright/core"

/** Which error body a route family answers with. */
export type Family = "standard" | "conversion"

/** The family of an HttpApi group's routes: the conversion group answers `{error_message}` alone. */
export const familyOf = (groupIdentifier: string): Family => (groupIdentifier === "conversions" ? "conversion" : "standard")

export const errorObject = (message: string) => ({
  id: Id.make("error"),
  created: new Date().toISOString(),
  object: "error" as const,
  error_message: message
})

export const json = (status: number, body: unknown, headers?: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(body, { status, ...(headers ? { headers } : {}) })

/** An error response in the family's shape. */
export const error = (family: Family, status: number, message: string) =>
  json(status, family === "conversion" ? { error_message: message } : errorObject(message))

/** A failure that is already a response: thrown inside handlers to stop with that answer. */
export class Reply {
  readonly _tag = "Reply"
  readonly response: HttpServerResponse.HttpServerResponse
  constructor(response: HttpServerResponse.HttpServerResponse) {
    this.response = response
  }
}

export const fail = (family: Family, status: number, message: string) => Effect.fail(new Reply(error(family, status, message)))

/**
 * Responses that repeat a converter service's status: its 401 (say) is not the client's failed
 * authentication, so the edge neither rewrites it nor counts it against the client's address.
 */
const converterAnswers = new WeakSet<HttpServerResponse.HttpServerResponse>()
const fromConverter = (response: HttpServerResponse.HttpServerResponse) => {
  converterAnswers.add(response)
  return response
}
export const isConverterAnswer = (response: HttpServerResponse.HttpServerResponse) => converterAnswers.has(response)

/** Messages for core errors that reach clients. */
const forbiddenForm = "Forbidden. Form doesn't belong to the user."
export const storageFull = "The server's storage is full; try again later."

/** The response for a core error, or undefined for one that is not the client's doing. */
export const fromCoreError = (family: Family, e: { readonly _tag: string } & Record<string, any>) => {
  switch (e._tag) {
    case "Reply":
      return (e as unknown as Reply).response
    case "FormNotFound":
      return error(family, 404, `Form '${e.formId}' not found.`)
    case "FormForbidden":
      return error(family, 403, forbiddenForm)
    case "ProfileNotFound":
      return error(family, 404, `Profile '${e.profileId}' not found.`)
    case "SessionNotFound":
      // The creation answer's own `id` (cs_...) is what newcomers poll first.
      return error(
        family,
        404,
        e.sessionId.startsWith(`${Id.prefixes.sessionCreated}_`)
          ? `Session '${e.sessionId}' not found: '${e.sessionId}' is the id of the creation response; poll its session_id (ses_...).`
          : `Session '${e.sessionId}' not found.`
      )
    case "SessionNotReady":
      return error(family, 409, `Session '${e.sessionId}' is ${e.status}; the filled PDF exists once it is completed.`)
    case "JobNotFound":
      return error(family, 404, `Conversion job '${e.jobId}' not found.`)
    case "InvalidInput":
      return error(family, 400, `Invalid ${e.field}: ${e.message}`)
    case "PdfUnusable":
    case "PdfRejected":
      return error(family, 422, e.message)
    case "StorageError":
      // Out of space is a state of the server the client can wait out; other storage failures
      // are the server's to log (a 500).
      return e.reason === "Full" ? error(family, 507, storageFull) : undefined
    case "ConverterError":
      return typeof e.status === "number" && e.status !== 200 ? fromConverter(error(family, e.status, e.message)) : undefined
    default:
      return undefined
  }
}

/**
 * Runs a handler body: known errors become their responses; anything else is logged with a
 * trace id and answered with a 500 that names only that id.
 */
export const handle = <E extends { readonly _tag: string }, R>(
  family: Family,
  body: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  body.pipe(
    Effect.catchCause((cause) => {
      const failure = Cause.findErrorOption(cause)
      if (failure._tag === "Some") {
        const known = fromCoreError(family, failure.value as any)
        // A full store is answered (507) and also logged: it is the operator who can fix it.
        if (known) {
          return known.status === 507
            ? Effect.as(Effect.logWarning(`storage is full: ${String((failure.value as { message?: unknown }).message)}`), known)
            : Effect.succeed(known)
        }
      }
      const traceId = Id.make("error")
      return Effect.logError("request failed", cause).pipe(
        Effect.annotateLogs({ trace_id: traceId }),
        Effect.as(error(family, 500, `Internal error (trace id ${traceId}).`))
      )
    })
  )
