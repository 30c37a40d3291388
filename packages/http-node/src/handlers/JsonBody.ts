/**
 * The JsonBody middleware (declared in `@formwright/api`): a JSON route takes `application/json`
 * within the body limit. The framework then reads and decodes the body; its read is bounded by
 * the same limit, and a body over it (sent without a Content-Length) or cut short by the client
 * is answered here rather than escaping as a defect.
 */
import { ByteSize, type Cause, Effect, Layer, type Types } from "effect"
import { HttpIncomingMessage, HttpServerRequest } from "effect/http"
import { Errors, JsonBody } from "@formwright/api"
import { Id } from "@formwright/core"
import * as Body from "./Body.ts"

const stamp = () => ({ id: Id.make("error"), created: new Date().toISOString(), object: "error" as const })

/** The reason a body read failed, when it did: over the limit, or the connection broke. */
const bodyReadFailure = (cause: Cause.Cause<unknown>): "too-large" | "broken" | undefined => {
  for (const reason of cause.reasons) {
    if (reason._tag !== "Die") continue
    const defect = reason.defect as { _tag?: string; reason?: { _tag?: string; cause?: { _tag?: string } } }
    if (defect?._tag !== "HttpServerError" || defect.reason?._tag !== "RequestParseError") continue
    return defect.reason.cause?._tag === "MaxBytesError" ? "too-large" : "broken"
  }
  return undefined
}

export const layer = Layer.effect(
  JsonBody,
  Effect.gen(function*() {
    const limit = yield* Body.MaxUploadBytes
    const maxBodySize = ByteSize.bytes(limit)
    const tooLarge = () => new Errors.PayloadTooLarge({ ...stamp(), error_message: `The body is larger than the limit of ${limit} bytes.` })
    return JsonBody.of((httpEffect) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (Body.mediaType(request) !== "application/json") {
          return yield* Effect.fail(new Errors.UnsupportedMediaType({ ...stamp(), error_message: "Expected application/json" }))
        }
        const declared = Number(request.headers["content-length"] ?? Number.NaN)
        if (Number.isFinite(declared) && declared > limit) return yield* Effect.fail(tooLarge())
        return yield* httpEffect.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize),
          Effect.catchCause((cause): Effect.Effect<never, Errors.PayloadTooLarge | Errors.BadRequest | Types.unhandled> => {
            const failure = bodyReadFailure(cause)
            if (failure === "too-large") return Effect.fail(tooLarge())
            // A client that disconnects mid-body: a 400 that nobody receives; nothing was stored.
            if (failure === "broken") {
              return Effect.fail(new Errors.BadRequest({ ...stamp(), error_message: "The request body could not be read: the connection closed before it ended." }))
            }
            return Effect.failCause(cause)
          })
        )
      })
    )
  })
)
