/**
 * `formwright convert flat.pdf --out fillable.pdf`: a flat PDF made fillable offline, by the
 * embedded converter in a PDF worker, as `POST /v1/utils/convert` does with its defaults. Pages
 * done are shown on stderr as they come.
 */
import { Effect, Layer, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { basename } from "node:path"
import { UsageError } from "./Failures.ts"
import { core, pdfFailure, plural, readBytes, writeBytes } from "./Pdf.ts"

/** Progress on one line of a terminal; a line per page where stderr is a file or a pipe. */
const progress = (done: number, total: number) =>
  Effect.sync(() => {
    if (process.stderr.isTTY) process.stderr.write(`\rConverting: page ${done} of ${total}${done === total ? "\n" : ""}`)
    else process.stderr.write(`Converting: page ${done} of ${total}\n`)
  })

export const command = Command.make(
  "convert",
  {
    input: Argument.String("flat.pdf").pipe(Argument.withDescription("The flat PDF to make fillable.")),
    out: Flag.String("out").pipe(Flag.withDescription("The fillable PDF to write (default: <input>.fillable.pdf, here)."), Flag.optional),
    confidence: Flag.Finite("confidence").pipe(
      Flag.withDescription("Leave out detections below this confidence, 0 to 1."),
      Flag.withDefault(0.1)
    )
  },
  (args) =>
    Effect.gen(function*() {
      if (!(args.confidence >= 0 && args.confidence <= 1)) {
        return yield* new UsageError({ message: `--confidence needs a number from 0 to 1, got ${args.confidence}.` })
      }
      const out = Option.getOrElse(args.out, () => `${basename(args.input).replace(/\.pdf$/i, "")}.fillable.pdf`)
      const { Converter } = yield* core
      const pdf = yield* readBytes(args.input)
      const converter = yield* Converter.Converter
      // The API's defaults (interface.md): the converter's resolution, and checkboxes allowed.
      const converted = yield* converter.convert(
        pdf,
        { confidence: args.confidence, resolution: 1600, allowCheckboxes: true },
        (p) => progress(p.pagesDone, p.pagesTotal)
      )
      yield* writeBytes(out, converted.pdf)
      yield* Effect.sync(() => {
        for (const d of converted.detections) process.stdout.write(`${d.name}  (${d.confidence.toFixed(2)})\n`)
        process.stderr.write(`Wrote ${out}: ${plural(converted.detections.length, "field")} detected.\n`)
      })
    }).pipe(
      Effect.catchTags({ PdfUnusable: pdfFailure(args.input), PdfRejected: pdfFailure(args.input), ConverterError: pdfFailure(args.input) }),
      Effect.provide(
        Layer.unwrap(Effect.map(core, ({ EmbeddedConverter, PdfEngine }) =>
          EmbeddedConverter.layer.pipe(Layer.provide(PdfEngine.layerWorkers({ workers: 1 })))))
      )
    )
).pipe(Command.withDescription("Make a flat PDF fillable offline: detect its fields and add them (progress on stderr)."))
