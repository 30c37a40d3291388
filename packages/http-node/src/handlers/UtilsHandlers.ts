/**
 * Handlers of the utils group: `POST /v1/utils/check-flat` reads the PDF like the conversion
 * start does (same content types, size limit and refusals), has the PDF workers check it, and
 * answers at once; nothing is stored.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Conversions, Id } from "@formwright/core"
import { Api } from "@formwright/api"
import { CurrentUser } from "@formwright/api"
import { pdfUpload } from "./FormsHandlers.ts"
import * as InvalidRequest from "./InvalidRequest.ts"
import * as WireErrors from "./WireErrors.ts"

const family = "standard" as const

const pagesOfKind = (check: Conversions.FlatCheck, kind: Conversions.FlatCheckPage["kind"]) =>
  check.pageReports.filter((p) => p.kind === kind).map((p) => p.page)

/** The wire body (`FlatCheck` in UtilsApi.ts): snake_case, with `null` for a page without a count. */
const toWire = (check: Conversions.FlatCheck) => ({
  id: Id.make("flatCheck"),
  object: "flat_check" as const,
  pages: check.pages,
  has_fields: check.fields > 0,
  fields: check.fields,
  xfa: check.xfa,
  vector_pages: pagesOfKind(check, "vector"),
  scanned_pages: pagesOfKind(check, "scanned"),
  unknown_pages: pagesOfKind(check, "unknown"),
  likely_fields: check.likelyFields,
  likely_fields_basis: check.basis,
  page_details: check.pageReports.map((p) => ({
    page: p.page,
    kind: p.kind,
    likely_fields: p.likelyFields ?? null,
    likely_fields_basis: p.basis,
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    ...(p.stats !== undefined
      ? {
        image_coverage: Math.round(p.stats.imageCoverage * 1000) / 1000,
        visible_glyphs: p.stats.visibleGlyphs,
        path_segments: p.stats.pathSegments
      }
      : {})
  }))
})

export const UtilsHandlers = HttpApiBuilder.group(Api, "utils", (handlers) =>
  Effect.gen(function*() {
    const conversions = yield* Conversions.Conversions
    // Raw: the PDF is read as a stream within the limit (FormsHandlers.pdfUpload says why).
    return handlers.handleRaw("checkFlat", ({ query, request }) =>
      WireErrors.standard(Effect.gen(function*() {
        yield* CurrentUser
        const upload = yield* pdfUpload(request, family)
        const check = yield* conversions.checkFlat(upload.bytes, { confidence: query.confidence ?? 0.1, allowCheckboxes: query.allow_checkboxes ?? true })
        return toWire(check)
      })))
  })).pipe(Layer.provide(InvalidRequest.layer))
