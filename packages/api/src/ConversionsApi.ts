/**
 * Flat-to-fillable conversion: two route families (interface.md routes 3, 4 and 5).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConversionAuthorization } from "./Authorization.ts"
import { ConversionContentType, UnsupportedMessage } from "./ContentType.ts"
import { InvalidRequest } from "./InvalidRequest.ts"
import * as Errors from "./Errors.ts"
import * as Params from "./Params.ts"
import { multipartFile, pdfBody } from "./FormsApi.ts"
import * as Wire from "./Wire.ts"

const ConvertQuery = {
  pages: Schema.optional(Schema.String).annotate({ description: "1-based pages: `1`, `1,3`, `1-5`, `1,3-5` (default: all)." }),
  confidence: Schema.optional(Params.number(0, 1)).annotate({ description: "Detection threshold in [0, 1] (default 0.1)." }),
  resolution: Schema.optional(Params.integer(256, 4096)).annotate({ description: "Inference resolution, 256 to 4096 (default 1600)." }),
  allow_checkboxes: Schema.optional(Params.boolean).annotate({ description: "`true` or `false` (default true)." })
}

/**
 * What a converter service may answer (`FORMWRIGHT_CONVERTER_URL`, docs/converter-service.md):
 * its status is passed on, with `Error when starting conversion.` / `Error when fetching conversion status.`.
 */
// The converter's 503 (full) is conversionCommon's 503, which also says the database is away.
const converterErrors = [Errors.ConversionUnauthorized, Errors.ConversionBadGateway]
const startErrors = [...Errors.conversionCommon, Errors.ConversionPayloadTooLarge, Errors.ConversionUnprocessable, ...converterErrors]
const statusErrors = [...Errors.conversionCommon, Errors.ConversionNotFound, ...converterErrors]
const jobId = { job_id: Schema.String }

export class ConversionsApi extends HttpApiGroup.make("conversions")
  .add(
    HttpApiEndpoint.post("startForms", "/v1/forms/convert", {
      query: ConvertQuery,
      headers: { "x-file-name": Schema.optional(Schema.String) },
      payload: pdfBody,
      success: Wire.ConversionStarted,
      error: startErrors
    }).annotate(OpenApi.Summary, "Convert a flat PDF").middleware(ConversionContentType).annotate(UnsupportedMessage, "Expected octet-stream or pdf").annotate(OpenApi.Description, "Starts converting a flat PDF into a fillable one; poll the status route."),
    HttpApiEndpoint.post("startUtils", "/v1/utils/convert", {
      query: ConvertQuery,
      headers: { "x-file-name": Schema.optional(Schema.String) },
      payload: [multipartFile, ...pdfBody],
      success: Wire.ConversionStarted,
      error: startErrors
    }).annotate(OpenApi.Summary, "Convert a flat PDF (utils route)").middleware(ConversionContentType).annotate(UnsupportedMessage, "Expected octet-stream or pdf or multipart/form-data").annotate(OpenApi.Description, "Same as /v1/forms/convert; also takes multipart (`file`)."),
    HttpApiEndpoint.get("statusForms", "/v1/forms/convert/:job_id/status", {
      params: jobId,
      success: Wire.ConversionStatus,
      error: statusErrors
    }).annotate(OpenApi.Summary, "Get a conversion's status").annotate(OpenApi.Description, "Status of a conversion job; `form_id` and `base64` once completed."),
    HttpApiEndpoint.get("statusUtils", "/v1/utils/convert/:job_id/status", {
      params: jobId,
      success: Wire.ConversionStatus,
      error: statusErrors
    }).annotate(OpenApi.Summary, "Get a conversion's status (utils route)").annotate(OpenApi.Description, "Status of a conversion job; `form_id` and `base64` once completed.")
  )
  .middleware(ConversionAuthorization)
  .middleware(InvalidRequest)
  .annotate(OpenApi.Title, "Conversion")
  .annotate(OpenApi.Description, "Flat-to-fillable conversion: start a job on a flat PDF, poll its status, get the created form. Errors on these routes are `{error_message}` alone.")
{}
