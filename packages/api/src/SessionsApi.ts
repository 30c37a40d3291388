/**
 * Autofill sessions (interface.md route 2 and the status call).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import { ContentType, UnsupportedMessage } from "./ContentType.ts"
import { InvalidRequest } from "./InvalidRequest.ts"
import * as Errors from "./Errors.ts"
import * as Wire from "./Wire.ts"

const multipartSession = Schema.Struct({
  formId: Schema.String,
  files: Schema.optional(Schema.Array(Schema.Uint8Array)),
  text_info: Schema.optional(Schema.String),
  profile_ids: Schema.optional(Schema.String)
}).pipe(HttpApiSchema.asMultipart())

export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.post("create", "/v1/sessions", {
      payload: [Wire.CreateSessionJson, multipartSession],
      success: Wire.SessionCreated.pipe(HttpApiSchema.status(202)),
      error: [...Errors.common, Errors.Forbidden, Errors.NotFound, Errors.PayloadTooLarge]
    }).middleware(ContentType).annotate(UnsupportedMessage, "Expected application/json or multipart/form-data").annotate(
      OpenApi.Description,
      "Creates an autofill session; it is filled in the background. Poll `GET /v1/sessions/{session_id}` with the answer's `session_id` (`ses_...`); the answer's own `id` (`cs_...`) names the response, not the session."
    ),
    HttpApiEndpoint.get("get", "/v1/sessions/:id", {
      params: { id: Schema.String },
      success: [Wire.SessionStatus, Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" }))],
      error: [...Errors.common, Errors.NotFound, Errors.Conflict]
    }).annotate(OpenApi.Description, "Status of a session; with `Accept: application/pdf` and a completed session, the filled PDF."),
    HttpApiEndpoint.get("pdf", "/v1/sessions/:id/pdf", {
      params: { id: Schema.String },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [...Errors.common, Errors.NotFound, Errors.Conflict]
    }).annotate(OpenApi.Description, "The filled PDF of a completed session (`filled_form_url`).")
  )
  .middleware(Authorization)
  .middleware(InvalidRequest)
  .annotate(OpenApi.Title, "Sessions")
{}
