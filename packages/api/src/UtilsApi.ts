/**
 * Utilities that answer about a PDF without storing it: `POST /v1/utils/check-flat` tells
 * whether a PDF has fields, which of its pages are vector and which scanned, and how many fields
 * a conversion would likely find. Not one of the four conversion routes, so its errors are the
 * error object (contract.md), with the statuses and messages of the conversion start.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import { ContentType, UnsupportedMessage } from "./ContentType.ts"
import { InvalidRequest } from "./InvalidRequest.ts"
import * as Errors from "./Errors.ts"
import * as Params from "./Params.ts"
import { multipartFile, pdfBody } from "./FormsApi.ts"

const CheckFlatQuery = {
  confidence: Schema.optional(Params.number(0, 1)).annotate({ description: "Detection threshold in [0, 1], as for a conversion (default 0.1)." }),
  allow_checkboxes: Schema.optional(Params.boolean).annotate({ description: "`true` or `false`, as for a conversion (default true)." })
}

/** How a page is drawn; `unknown` when the check ran out of time before it or could not read it. */
export const PageKind = Schema.Literals(["vector", "scanned", "unknown"])

export const FlatCheckPage = Schema.Struct({
  page: Schema.Int.annotate({ description: "1-based." }),
  kind: PageKind,
  likely_fields: Schema.NullOr(Schema.Int).annotate({ description: "Fields the detector found on this page; null unless `likely_fields_basis` is `detected`." }),
  likely_fields_basis: Schema.Literals(["detected", "not_examined", "unavailable"]).annotate({
    description: "`detected`: the detector ran on the page. `not_examined`: a vector page left out for time (the total extrapolates it). `unavailable`: a scanned or unknown page, or one drawing more text than PDF work may read (`reason` says which)."
  }),
  reason: Schema.optionalKey(Schema.String).annotate({ description: "Why there is no count for this page." }),
  image_coverage: Schema.optionalKey(Schema.Finite).annotate({ description: "Share of the page that images cover, 0 to 1 (absent for an unknown page)." }),
  visible_glyphs: Schema.optionalKey(Schema.Int).annotate({ description: "Glyphs drawn visibly (an OCR layer's invisible text is not counted)." }),
  path_segments: Schema.optionalKey(Schema.Int).annotate({ description: "Path segments stroked or filled." })
})

export const FlatCheck = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("flat_check"),
  pages: Schema.Int,
  has_fields: Schema.Boolean.annotate({ description: "Whether the PDF already has AcroForm fields." }),
  fields: Schema.Int.annotate({ description: "Its AcroForm fields (terminal fields, as an upload lists them)." }),
  xfa: Schema.Boolean.annotate({ description: "Whether it carries an XFA form." }),
  vector_pages: Schema.Array(Schema.Int),
  scanned_pages: Schema.Array(Schema.Int),
  unknown_pages: Schema.Array(Schema.Int),
  likely_fields: Schema.Int.annotate({
    description: "Fields a conversion with these options would likely add, on the vector pages (scanned pages are not detected yet)."
  }),
  likely_fields_basis: Schema.Literals(["detected", "extrapolated", "unavailable"]).annotate({
    description: "`detected`: every page was classified and every vector page run through the detector. `extrapolated`: pages left out for time are counted at the mean of those examined. `unavailable`: no vector page was examined."
  }),
  page_details: Schema.Array(FlatCheckPage)
})

export class UtilsApi extends HttpApiGroup.make("utils")
  .add(
    HttpApiEndpoint.post("checkFlat", "/v1/utils/check-flat", {
      query: CheckFlatQuery,
      payload: [multipartFile, ...pdfBody],
      success: FlatCheck,
      // Nothing is stored, so no 507.
      error: [Errors.BadRequest, Errors.Unauthorized, Errors.Internal, Errors.PayloadTooLarge, Errors.Unprocessable]
    }).annotate(OpenApi.Summary, "Check whether a PDF is flat").middleware(ContentType).annotate(UnsupportedMessage, "Expected octet-stream or pdf or multipart/form-data").annotate(
      OpenApi.Description,
      "Whether a PDF has fields, which pages are vector and which scanned, and how many fields a conversion would likely find. Raw PDF or multipart (`file`); stores nothing."
    )
  )
  .middleware(Authorization)
  .middleware(InvalidRequest)
  .annotate(OpenApi.Title, "Utilities")
  .annotate(OpenApi.Description, "Answers about a PDF without storing it.")
{}
