/**
 * Handlers of the sessions group.
 */
import { Context, Effect, Layer, Schema, type Stream } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Id, InvalidInput, Sessions } from "@formwright/core"
import { Api, CurrentUser, Wire } from "@formwright/api"
import { parsePublicUrl } from "../ServerConfig.ts"
import * as Body from "./Body.ts"
import * as Client from "./Client.ts"
import * as InvalidRequest from "./InvalidRequest.ts"
import * as WireErrors from "./WireErrors.ts"

/**
 * The origin clients reach this server at, for `filled_form_url` (FORMWRIGHT_PUBLIC_URL); checked
 * when the routes are built, so a server with an unusable one does not start.
 */
export class PublicUrl extends Context.Reference<string | undefined>("@formwright/http-node/PublicUrl", {
  defaultValue: () => undefined
}) {}

const wireNames: Record<string, string> = { formId: "form_id", profileIds: "profile_ids", fileUrls: "file_urls", textInfo: "text_info" }

/** A list field of a multipart form: repeated fields, a comma list, or a JSON array. */
const listField = (form: FormData, name: string): ReadonlyArray<string> =>
  form.getAll(name).concat(form.getAll(`${name}[]`)).flatMap((entry) => {
    if (typeof entry !== "string") return []
    const text = entry.trim()
    if (text.startsWith("[")) {
      try {
        const parsed = JSON.parse(text) as unknown
        if (Array.isArray(parsed)) return parsed.filter((v): v is string => typeof v === "string")
      } catch {
        // Not JSON: read it as a comma list.
      }
    }
    return text.split(",").map((s) => s.trim()).filter((s) => s !== "")
  })

const textField = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === "string" ? value : undefined
}

const decodeJson = Schema.decodeUnknownEffect(Wire.CreateSessionJson)

/**
 * The session's inputs from a JSON or a multipart body (the ContentType middleware has refused
 * any other). Read here rather than decoded by the framework: a multipart body carries files up
 * to the upload limit, refused with 413 as soon as it passes it, parsed a slice at a time, and
 * its list fields take the spellings clients send (repeated, comma lists, JSON arrays).
 */
const parseCreate = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const bytes = yield* Body.read(request, "standard")
    if (Body.mediaType(request) === "application/json") {
      const input = yield* decodeJson(yield* Body.json(bytes, "standard")).pipe(
        Effect.mapError((error) => WireErrors.badRequest(InvalidRequest.bodyMessage(error)))
      )
      return { formId: input.form_id, profileIds: input.profile_ids, fileUrls: input.file_urls, textInfo: input.text_info, files: [], flatten: input.flatten }
    }
    const form = yield* Body.multipart(bytes, request.headers["content-type"] ?? "", "standard")
    const formId = textField(form, "formId") ?? textField(form, "form_id")
    if (formId === undefined || formId.trim() === "") return yield* Effect.fail(WireErrors.badRequest("Invalid formId: the multipart field 'formId' is required."))
    const files = [...yield* Body.fileParts(form, "files"), ...yield* Body.fileParts(form, "files[]")]
    // A multipart field is text: `true` or `false`, as JSON spells them.
    const flatten = textField(form, "flatten")?.trim().toLowerCase()
    if (flatten !== undefined && flatten !== "true" && flatten !== "false") {
      return yield* Effect.fail(WireErrors.badRequest("Invalid flatten: expected true or false."))
    }
    return {
      formId: formId.trim(),
      profileIds: listField(form, "profile_ids"),
      fileUrls: listField(form, "file_urls"),
      textInfo: textField(form, "text_info"),
      files: files.map((f) => ({ fileName: f.name, contentType: f.type, bytes: f.bytes })),
      flatten: flatten === "true"
    }
  })

const wantsPdf = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers.accept ?? "").split(",").some((part) => part.split(";")[0]!.trim().toLowerCase() === "application/pdf")

const pdfResponse = (id: string, stream: Stream.Stream<Uint8Array, unknown>) =>
  HttpServerResponse.stream(stream, {
    contentType: "application/pdf",
    headers: { "content-disposition": `attachment; filename="session-${id}.pdf"` }
  })

export const SessionsHandlers = HttpApiBuilder.group(Api, "sessions", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* Sessions.Sessions
    const publicOrigin = yield* parsePublicUrl(yield* PublicUrl)
    const trustProxy = yield* Client.TrustProxy
    return handlers
      .handleRaw("create", ({ request }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          const input = yield* parseCreate(request)
          const session = yield* sessions.create({ owner: user.id, ...input }).pipe(
            // The core names its inputs in camel case; the client sent the wire's names.
            Effect.catchTag("InvalidInput", (e) =>
              Effect.fail(new InvalidInput.InvalidInput({ field: e.field.replace(/^(formId|profileIds|fileUrls|textInfo)/, (name) => wireNames[name]!), message: e.message })))
          )
          return { id: Id.make("sessionCreated"), object: "session" as const, session_id: session.id }
        })))
      .handle("get", ({ params, request }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          const session = yield* sessions.get(user.id, params.id)
          const status = {
            id: session.id,
            object: "session" as const,
            session_id: session.id,
            form_id: session.form_id,
            status: session.status,
            created: session.created,
            updated: session.updated
          }
          if (session.status !== "completed") return { ...status, ...(session.error_message ? { error_message: session.error_message } : {}) }
          if (wantsPdf(request)) return pdfResponse(session.id, yield* sessions.filledPdfStream(user.id, session.id))
          const pdf = yield* sessions.filledPdf(user.id, session.id)
          return {
            ...status,
            filled_form_base64: Buffer.from(pdf).toString("base64"),
            filled_form_url: `${Client.origin(request, publicOrigin, trustProxy)}/v1/sessions/${session.id}/pdf`,
            filled_fields: session.filled_fields ?? [],
            unfilled_fields: session.unfilled_fields ?? [],
            // Sessions completed before sources and conflicts were recorded have neither.
            ...(session.sources !== undefined ? { sources: session.sources } : {}),
            ...(session.conflicts !== undefined ? { conflicts: session.conflicts } : {})
          }
        })))
      // Streamed rather than encoded as a value: a filled PDF can run to the upload limit.
      .handle("pdf", ({ params }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          return pdfResponse(params.id, yield* sessions.filledPdfStream(user.id, params.id))
        })))
  })).pipe(Layer.provide(InvalidRequest.layer))
