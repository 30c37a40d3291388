/**
 * Forms: upload, read, update, delete (interface.md route 1 and 6, contract.md's additions).
 */
import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import { ContentType, UnsupportedMessage } from "./ContentType.ts"
import { FormOwner } from "./FormOwner.ts"
import { InvalidRequest } from "./InvalidRequest.ts"
import { JsonBody } from "./JsonBody.ts"
import * as Errors from "./Errors.ts"
import * as Params from "./Params.ts"
import * as Wire from "./Wire.ts"

/** A PDF body: raw bytes as `application/pdf` or `application/octet-stream`. */
export const pdfBody = [
  Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
  Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/octet-stream" }))
] as const

/**
 * A PDF in a multipart form field named `file`. The route reads the part's bytes itself; the
 * schema is the framework's file part, which the OpenAPI description declares `format: binary`.
 * Routes that take it list it first: the docs page (`/docs`) opens a route's "Test Request" on its
 * first media type, and multipart gives a file picker there, where a raw body is typed as text.
 */
export const multipartFile = Schema.Struct({ file: Multipart.PersistedFileSchema }).pipe(HttpApiSchema.asMultipart())

const id = { id: Schema.String }

export class FormsApi extends HttpApiGroup.make("forms")
  .add(
    HttpApiEndpoint.post("upload", "/v1/forms/upload", {
      headers: { "x-file-name": Schema.optional(Schema.String) },
      payload: [multipartFile, ...pdfBody],
      success: Schema.Array(Wire.UploadResult),
      error: [...Errors.common, Errors.PayloadTooLarge, Errors.Unprocessable]
    }).annotate(OpenApi.Summary, "Upload a PDF form").middleware(ContentType)
      .annotate(UnsupportedMessage, "Expected octet-stream or pdf")
      .annotate(OpenApi.Description, "Uploads one PDF form and returns its parsed fields (an array of one result)."),
    HttpApiEndpoint.get("list", "/v1/forms", {
      query: Params.PageQuery,
      success: Wire.FormList,
      error: Errors.common
    }).annotate(OpenApi.Summary, "List forms").annotate(OpenApi.Description, "The caller's forms, newest first, with the total across pages."),
    HttpApiEndpoint.get("get", "/v1/forms/:id", {
      params: id,
      success: Wire.FormDefinition,
      error: [...Errors.common, Errors.Forbidden, Errors.NotFound]
    }).annotate(OpenApi.Summary, "Get a form").annotate(OpenApi.Description, "The stored definition of a form."),
    HttpApiEndpoint.get("pdf", "/v1/forms/:id/pdf", {
      params: id,
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [...Errors.common, Errors.Forbidden, Errors.NotFound]
    }).annotate(OpenApi.Summary, "Download a form's PDF").annotate(OpenApi.Description, "The stored PDF of a form."),
    HttpApiEndpoint.get("preview", "/v1/forms/:id/preview", {
      params: id,
      query: { page: Schema.optional(Params.integer(1, 100_000)).annotate({ description: "1-based page number within the form (default 1)." }) },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "image/png" })),
      error: [...Errors.common, Errors.Forbidden, Errors.NotFound, Errors.Unprocessable]
    }).annotate(OpenApi.Summary, "Preview a page of a form").annotate(
      OpenApi.Description,
      "A PNG of one page of the form with every field outlined in the colour of its type, named, and with its confidence when a conversion placed it."
    ),
    HttpApiEndpoint.put("update", "/v1/forms/:id", {
      params: id,
      payload: Wire.UpdateFormRequest,
      success: Wire.UpdateFormResult,
      error: [...Errors.common, Errors.Forbidden, Errors.NotFound]
    }).annotate(OpenApi.Summary, "Update a form").middleware(JsonBody).middleware(FormOwner).annotate(OpenApi.Description, "Merges the given members into the stored form; absent members are kept."),
    HttpApiEndpoint.delete("delete", "/v1/forms/:id", {
      params: id,
      success: Wire.Deleted,
      error: [...Errors.common, Errors.Forbidden, Errors.NotFound]
    }).annotate(OpenApi.Summary, "Delete a form").annotate(OpenApi.Description, "Deletes a form and its PDF.")
  )
  .middleware(Authorization)
  .middleware(InvalidRequest)
  .annotate(OpenApi.Title, "Forms")
  .annotate(OpenApi.Description, "PDF forms of the caller: upload one, read its fields and definition, download or preview it, update its instructions, delete it.")
{}
