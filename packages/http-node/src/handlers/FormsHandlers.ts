/**
 * Handlers of the forms group.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { type Form, Forms, Id, InvalidInput, PdfEngine } from "@formwright/core"
import { Api, CurrentUser, Wire } from "@formwright/api"
import * as Answer from "./Answer.ts"
import * as Body from "./Body.ts"
import * as InvalidRequest from "./InvalidRequest.ts"
import * as WireErrors from "./WireErrors.ts"

/** The upload route's answer (its success schema in FormsApi), built once rather than per upload. */
const UploadAnswer = Schema.Array(Wire.UploadResult)

/** A form in its wire shape: the record without what only the server keeps (owner, origin, size). */
const definition = (form: Form.Form): typeof Wire.FormDefinition.Encoded => ({
  id: form.id,
  object: "form",
  file_name: form.file_name,
  pages: form.pages,
  processed: form.processed,
  as_text: form.as_text,
  ...(form.form_url !== undefined ? { form_url: form.form_url } : {}),
  fields: form.fields,
  group_instructions: form.group_instructions,
  line_by_line_instructions: form.line_by_line_instructions,
  created: form.created,
  updated: form.updated
})

/** A form read's answer, encoded once per record the read cache hands out. */
const definitionAnswer = Answer.perRecord(Wire.FormDefinition, definition)

/**
 * The PDF of an upload-like request and the client's name for it: raw bytes with
 * `X-File-Name`, or the multipart field `file` with its own name. The ContentType middleware has
 * already refused a media type the route does not declare.
 *
 * Read here rather than decoded by the framework: the body is refused with 413 as soon as it
 * passes the limit (by Content-Length, else while it arrives), a client that disconnects midway
 * leaves nothing behind, and a multipart body is parsed a slice at a time (Body.ts).
 */
export const pdfUpload = <F extends WireErrors.Family>(request: HttpServerRequest.HttpServerRequest, family: F) =>
  Effect.gen(function*() {
    const multipart = Body.mediaType(request) === "multipart/form-data"
    const bytes = yield* Body.read(request, family)
    if (!multipart) {
      const header = request.headers["x-file-name"]
      return { bytes, fileName: header === undefined ? undefined : decodeHeaderName(header) }
    }
    const form = yield* Body.multipart(bytes, request.headers["content-type"] ?? "", family)
    const [file] = yield* Body.fileParts(form, "file")
    if (!file) return yield* WireErrors.fail(family, 400, "Invalid file: the multipart body has no file field named 'file'.")
    return { bytes: file.bytes, fileName: file.name }
  })

/** `X-File-Name` may be percent-encoded to carry non-ASCII names through HTTP headers. */
const decodeHeaderName = (value: string) => {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

export const FormsHandlers = HttpApiBuilder.group(Api, "forms", (handlers) =>
  Effect.gen(function*() {
    const forms = yield* Forms.Forms
    const engine = yield* PdfEngine.PdfEngine
    return handlers
      .handleRaw("upload", ({ request }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          const upload = yield* pdfUpload(request, "standard")
          const form = yield* forms.upload({ owner: user.id, bytes: upload.bytes, fileName: upload.fileName })
          // Written as it is: encoding 5,000 fields again held the event loop for tens of ms.
          return Answer.trusted(UploadAnswer, [{
            id: Id.make("upload"),
            object: "upload_form" as const,
            form_id: form.id,
            file_name: form.file_name,
            pages: form.pages,
            fields: form.fields
          }])
        })))
      .handle("list", ({ query }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          const result = yield* forms.list(user.id, { name: query.name, page: query.page ?? 1, size: query.size ?? 10 })
          return Answer.trusted(Wire.FormList, { id: Id.make("formList"), object: "forms", total: result.total, forms: result.items.map(definition) })
        })))
      .handle("get", ({ params }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          return definitionAnswer(yield* forms.get(user.id, params.id))
        })))
      // Streamed rather than encoded as a value: a form's PDF can run to the upload limit.
      .handle("pdf", ({ params }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          const { form, stream } = yield* forms.pdfStream(user.id, params.id)
          return HttpServerResponse.stream(stream, {
            contentType: "application/pdf",
            headers: { "content-disposition": `attachment; filename="${asciiName(form.file_name)}"` }
          })
        })))
      .handle("preview", ({ params, query }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          // Whose form it is comes before the page: someone else's form is a 403 whatever was asked.
          const form = yield* forms.get(user.id, params.id)
          const page = query.page ?? 1
          const pastEnd = (pages: number) => WireErrors.badRequest(`Invalid page: expected an integer from 1 to ${pages}, got '${page}'.`)
          if (page > form.pages) return yield* Effect.fail(pastEnd(form.pages))
          const { bytes } = yield* forms.pdf(user.id, params.id)
          const preview = yield* engine.preview({ pdf: bytes, page, fields: form.fields.map(PdfEngine.previewMark) })
          if (preview._tag === "PastEnd") return yield* Effect.fail(pastEnd(preview.pages))
          // The picture shows the form's values: kept out of shared caches and off disk, as the PDF is.
          return HttpServerResponse.uint8Array(preview.png, { contentType: "image/png", headers: { "cache-control": "private, no-store" } })
        })))
      // FormOwner has checked, before the body was read, that the form is the caller's.
      .handle("update", ({ params, payload }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          const patch = payload.form
          if (patch.asText !== undefined && patch.as_text !== undefined && patch.asText !== patch.as_text) {
            return yield* Effect.fail(WireErrors.badRequest("Invalid form.as_text: form.asText and form.as_text are the same member and differ."))
          }
          const form = yield* forms.update(user.id, params.id, {
            as_text: patch.asText ?? patch.as_text,
            form_url: patch.form_url,
            fields: patch.fields?.map((f) => f as { id: string }),
            group_instructions: patch.group_instructions,
            line_by_line_instructions: patch.line_by_line_instructions
          }).pipe(
            // The core names the member as it stores it; name it as the client sent it.
            Effect.catchTag("InvalidInput", (e) =>
              Effect.fail(new InvalidInput.InvalidInput({ field: patch.asText !== undefined ? e.field.replace(/^form\.as_text\b/, "form.asText") : e.field, message: e.message }))
            )
          )
          return Answer.trusted(Wire.UpdateFormResult, {
            id: Id.make("updateForm"),
            created: new Date().toISOString(),
            object: "update_form" as const,
            updated: true,
            form: {
              as_text: form.as_text,
              ...(form.form_url !== undefined ? { form_url: form.form_url } : {}),
              fields: form.fields,
              group_instructions: form.group_instructions,
              line_by_line_instructions: form.line_by_line_instructions
            }
          })
        })))
      .handle("delete", ({ params }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          yield* forms.delete(user.id, params.id)
          return { id: params.id, object: "form", deleted: true as const }
        })))
  })).pipe(Layer.provide(InvalidRequest.layer))

/** A file name safe inside a quoted Content-Disposition parameter. */
export const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_")
