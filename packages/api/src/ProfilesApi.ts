/**
 * Profiles: the list of interface.md route 7, and contract.md's create/read/update/delete/files.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import { InvalidRequest } from "./InvalidRequest.ts"
import { JsonBody } from "./JsonBody.ts"
import * as Errors from "./Errors.ts"
import * as Params from "./Params.ts"
import * as Wire from "./Wire.ts"
import { multipartFile } from "./FormsApi.ts"

const id = { id: Schema.String }

export class ProfilesApi extends HttpApiGroup.make("profiles")
  .add(
    HttpApiEndpoint.get("list", "/v1/profiles", {
      query: { ...Params.PageQuery, status: Schema.optional(Params.oneOf(["Active", "Inactive"])).annotate({ description: "`Active` or `Inactive`." }) },
      success: Wire.ProfileList,
      error: Errors.common
    }).annotate(OpenApi.Summary, "List profiles").annotate(OpenApi.Description, "The caller's profiles, newest first; `total` counts every match across pages."),
    HttpApiEndpoint.post("create", "/v1/profiles", {
      payload: Wire.CreateProfile,
      success: Wire.Profile.pipe(HttpApiSchema.status(201)),
      error: Errors.common
    }).annotate(OpenApi.Summary, "Create a profile").annotate(OpenApi.Description, "Creates a profile: a person's or company's facts under any keys, used by autofill sessions.").middleware(JsonBody),
    HttpApiEndpoint.get("get", "/v1/profiles/:id", { params: id, success: Wire.Profile, error: [...Errors.common, Errors.NotFound] }).annotate(OpenApi.Summary, "Get a profile").annotate(OpenApi.Description, "A profile of the caller's, with its data and attached files."),
    HttpApiEndpoint.patch("update", "/v1/profiles/:id", {
      params: id,
      payload: Wire.PatchProfile,
      success: Wire.Profile,
      error: [...Errors.common, Errors.NotFound]
    }).annotate(OpenApi.Summary, "Update a profile").middleware(JsonBody).annotate(OpenApi.Description, "Present members replace; `data` merges key by key (a null value removes a key)."),
    HttpApiEndpoint.delete("delete", "/v1/profiles/:id", { params: id, success: Wire.Deleted, error: [...Errors.common, Errors.NotFound] }).annotate(OpenApi.Summary, "Delete a profile").annotate(OpenApi.Description, "Deletes a profile and its attached files."),
    HttpApiEndpoint.post("attachFile", "/v1/profiles/:id/files", {
      params: id,
      headers: { "x-file-name": Schema.optional(Schema.String) },
      payload: [
        multipartFile,
        Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/octet-stream" }))
      ],
      success: Wire.Profile.pipe(HttpApiSchema.status(201)),
      error: [...Errors.common, Errors.NotFound, Errors.PayloadTooLarge, Errors.UnsupportedMediaType]
    }).annotate(OpenApi.Summary, "Attach a document to a profile").annotate(OpenApi.Description, "Attaches a source document (PDF, text or JSON) whose content feeds autofill.")
  )
  .middleware(Authorization)
  .middleware(InvalidRequest)
  .annotate(OpenApi.Title, "Profiles")
  .annotate(OpenApi.Description, "Profiles: a person's or company's facts (and attached documents) that autofill sessions read.")
{}
