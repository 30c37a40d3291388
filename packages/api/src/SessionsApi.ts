/**
 * Autofill sessions (interface.md route 2 and the status call).
 */
import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import { ContentType, UnsupportedMessage } from "./ContentType.ts"
import { InvalidRequest } from "./InvalidRequest.ts"
import * as Errors from "./Errors.ts"
import * as Wire from "./Wire.ts"

const multipartSession = Schema.Struct({
  formId: Schema.String.annotate({ description: "The form to fill (`form_id` is accepted too)." }),
  files: Schema.optionalKey(Multipart.FilesSchema).annotate({ description: "Source documents (PDF, text or JSON) whose content feeds autofill." }),
  text_info: Schema.optionalKey(Schema.String),
  profile_ids: Schema.optionalKey(Schema.Array(Schema.String)).annotate({ description: "Profiles to fill from: the field repeated, a comma list, or a JSON array." }),
  file_urls: Schema.optionalKey(Schema.Array(Schema.String)).annotate({ description: "http(s) URLs of source documents: the field repeated, a comma list, or a JSON array." }),
  flatten: Schema.optionalKey(Schema.Literals(["true", "false"]).annotate({
    description: "`true` flattens the filled PDF: values drawn into the pages, no form field left. Default `false`."
  }))
}).pipe(HttpApiSchema.asMultipart())

export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.post("create", "/v1/sessions", {
      payload: [Wire.CreateSessionJson, multipartSession],
      success: Wire.SessionCreated.pipe(HttpApiSchema.status(202)),
      error: [...Errors.common, Errors.Forbidden, Errors.NotFound, Errors.PayloadTooLarge]
    }).annotate(OpenApi.Summary, "Create an autofill session").middleware(ContentType).annotate(UnsupportedMessage, "Expected application/json or multipart/form-data").annotate(
      OpenApi.Description,
      "Creates an autofill session; it is filled in the background. Poll `GET /v1/sessions/{session_id}` with the answer's `session_id` (`ses_...`); the answer's own `id` (`cs_...`) names the response, not the session."
    ),
    HttpApiEndpoint.get("get", "/v1/sessions/:id", {
      params: { id: Schema.String },
      success: [Wire.SessionStatus, Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" }))],
      error: [...Errors.common, Errors.NotFound, Errors.Conflict]
    }).annotate(OpenApi.Summary, "Get a session").annotate(OpenApi.Description, "Status of a session; with `Accept: application/pdf` and a completed session, the filled PDF."),
    HttpApiEndpoint.get("pdf", "/v1/sessions/:id/pdf", {
      params: { id: Schema.String },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [...Errors.common, Errors.NotFound, Errors.Conflict]
    }).annotate(OpenApi.Summary, "Download a session's filled PDF").annotate(OpenApi.Description, "The filled PDF of a completed session (`filled_form_url`).")
  )
  .middleware(Authorization)
  .middleware(InvalidRequest)
  .annotate(OpenApi.Title, "Sessions")
  .annotate(OpenApi.Description, "Autofill sessions: a form filled in the background from profiles, documents, URLs and free text; poll the session, then download the filled PDF.")
{}
