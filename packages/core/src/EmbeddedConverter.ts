/**
 * The embedded Converter: runs the vector field detector in-process and writes the detected
 * fields into the PDF. Suits one machine; a remote adapter can replace it behind the same port.
 */
import { Effect, Layer } from "effect"
import { Converter, ConverterError } from "./Converter.ts"
import type { ConversionOptions, ConversionProgress, ConvertedPdf } from "./Converter.ts"
import * as AddFields from "./detect/AddFields.ts"
import * as FieldDetector from "./detect/FieldDetector.ts"

/**
 * Converts a flat PDF into a fillable one. A PDF pdf.js cannot read fails with `PdfUnusable`;
 * anything else that goes wrong (a pdf-lib failure, a bug) becomes `ConverterError`, never a
 * defect; its message is safe to show a client and its `cause` holds the detail for the log.
 * With nothing detected, the PDF comes back unchanged.
 */
export const convert = Effect.fn("EmbeddedConverter.convert")(function* (
  pdf: Uint8Array,
  options: ConversionOptions,
  onProgress: (progress: ConversionProgress) => Effect.Effect<void>
) {
  const detection = yield* FieldDetector.detect(pdf, options, onProgress)
  if (detection.fields.length === 0) return { pdf, detections: [] } satisfies ConvertedPdf
  const written = yield* AddFields.addFields(pdf, detection.fields).pipe(
    Effect.mapError((error) => new ConverterError({ message: error.message, cause: error.cause }))
  )
  return {
    pdf: written.pdf,
    detections: written.fields.map((f) => ({ formName: f.formName, name: f.name, confidence: f.confidence }))
  } satisfies ConvertedPdf
}, Effect.catchDefect((defect) => Effect.fail(new ConverterError({ message: "Field detection failed unexpectedly.", cause: defect }))))

/** The Converter port backed by the in-process detector. */
export const layer: Layer.Layer<Converter> = Layer.succeed(Converter, { convert })
