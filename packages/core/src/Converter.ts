/**
 * The Converter port: turns a flat PDF into a fillable one by detecting where fields go.
 * The embedded adapter (`EmbeddedConverter`) runs the in-process detector; the remote adapter
 * (`@formwright/http-node`'s `RemoteConverter`) hands the work to a converter service, whose
 * non-200 answers surface as `ConverterError` with that service's status so the edge can repeat
 * it. A conversion is handed over when it is started (`submit`, so a service that refuses it is
 * told to the client at once), run or followed to its end by a background job (`convert`), and
 * asked about while a client polls (`check`).
 */
import { Context, Effect, Schema } from "effect"
import type { PdfRejected, PdfUnusable } from "./pdf/PdfError.ts"
import type { ParsedForm } from "./pdf/FormReader.ts"

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
  /**
   * The fillable PDF as `FormReader.readForm` reads it, when the converter read it on the way
   * (the embedded one does, from the document and page text it already holds); otherwise the
   * form is read from `pdf`.
   */
  readonly form?: ParsedForm | undefined
}

/** The converter failed; `status` is the remote service's HTTP status when there is one. */
export class ConverterError extends Schema.TaggedError<ConverterError>()("ConverterError", {
  message: Schema.String,
  status: Schema.optional(Schema.Finite),
  /** A failure that may pass (a converter service unreachable or restarting): the job is tried again. */
  transient: Schema.optional(Schema.Boolean),
  cause: Schema.optional(Schema.Defect())
}) {}

/**
 * What a converter gave back when a conversion was handed to it: a remote service's job id. The
 * embedded converter has nothing to give (it runs the job when `convert` is called).
 */
export interface Ticket {
  readonly remoteJobId?: string | undefined
}

export interface ConverterShape {
  /**
   * Hands a conversion over as it is started. A remote service that refuses it (its queue is
   * full, the file is too large) fails with its status; the embedded converter accepts anything.
   */
  readonly submit: (pdf: Uint8Array, options: ConversionOptions) => Effect.Effect<Ticket, ConverterError>
  /**
   * Runs the conversion (embedded) or follows the submitted one to its end (remote; a service
   * that lost the job, say by a restart, is given it again), reporting progress on the way.
   */
  readonly convert: (
    pdf: Uint8Array,
    options: ConversionOptions,
    onProgress: (progress: ConversionProgress) => Effect.Effect<void>,
    ticket?: Ticket | undefined
  ) => Effect.Effect<ConvertedPdf, ConverterError | PdfUnusable | PdfRejected>
  /**
   * Asks the service about a submitted conversion while a client polls it: a non-200 answer fails
   * with that status. Nothing to ask of the embedded converter.
   */
  readonly check: (ticket: Ticket) => Effect.Effect<void, ConverterError>
}

export class Converter extends Context.Service<Converter, ConverterShape>()("@formwright/core/Converter") {}
