/**
 * The Converter port: turns a flat PDF into a fillable one by detecting where fields go.
 * The embedded adapter (`EmbeddedConverter`) runs the in-process detector; a remote adapter
 * may call an external detection service, whose non-200 answers surface as `ConverterError`
 * with that service's status so the edge can repeat it.
 */
import { Context, Effect, Schema } from "effect"
import type { PdfRejected, PdfUnusable } from "./pdf/PdfError.ts"

/** Validated conversion options (query parameters of the convert routes). */
export interface ConversionOptions {
  /** 1-based page numbers to convert, ascending; undefined means every page. */
  readonly pages?: ReadonlyArray<number> | undefined
  /** Detections below this confidence are dropped. */
  readonly confidence: number
  /** Render resolution (long side, px) for image-based detectors; vector detectors may ignore it. */
  readonly resolution: number
  readonly allowCheckboxes: boolean
}

export interface ConversionProgress {
  readonly pagesDone: number
  readonly pagesTotal: number
}

/** A field the converter placed, keyed by the unique `form_name` it gave the widget. */
export interface Detection {
  readonly formName: string
  /** Human-readable name inferred from the nearest label. */
  readonly name: string
  readonly confidence: number
}

export interface ConvertedPdf {
  /** The fillable PDF (AcroForm widgets added). */
  readonly pdf: Uint8Array
  readonly detections: ReadonlyArray<Detection>
}

/** The converter failed; `status` is the remote service's HTTP status when there is one. */
export class ConverterError extends Schema.TaggedError<ConverterError>()("ConverterError", {
  message: Schema.String,
  status: Schema.optional(Schema.Finite),
  cause: Schema.optional(Schema.Defect())
}) {}

export interface ConverterShape {
  readonly convert: (
    pdf: Uint8Array,
    options: ConversionOptions,
    onProgress: (progress: ConversionProgress) => Effect.Effect<void>
  ) => Effect.Effect<ConvertedPdf, ConverterError | PdfUnusable | PdfRejected>
}

export class Converter extends Context.Service<Converter, ConverterShape>()("@formwright/core/Converter") {}
