/**
 * The embedded Converter: the field detector of this package, run by the PdfEngine (in its
 * worker processes by default), writing the detected fields into the PDF. Suits one machine; a
 * remote adapter can replace it behind the same port.
 */
import { Effect, Layer } from "effect"
import { Converter } from "./Converter.ts"
import { PdfEngine } from "./PdfEngine.ts"

/**
 * The Converter port backed by the in-process detector. A PDF pdf.js cannot read fails with
 * `PdfUnusable`, one over a limit with `PdfRejected`; any other failure becomes
 * `ConverterError` with a message safe to show a client. With nothing detected, the PDF comes
 * back unchanged.
 */
export const layer: Layer.Layer<Converter, never, PdfEngine> = Layer.effect(
  Converter,
  Effect.map(Effect.service(PdfEngine), (engine) =>
    Converter.of({
      submit: () => Effect.succeed({}),
      convert: (pdf, options, onProgress) => engine.convert(pdf, options, onProgress),
      check: () => Effect.void
    }))
)
