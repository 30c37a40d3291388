/**
 * The work of `formwright preview <in.pdf> [--page N] [--out page.png] [--detect]` (its command
 * line is cli/PreviewCommand.ts): the review picture of
 * `GET /v1/forms/{id}/preview`, from a local PDF and without a server. The fields are the PDF's
 * own, named as an upload names them; with `--detect` the PDF is converted first (as
 * `POST /v1/utils/convert` would, with its defaults) and the fields it would get are drawn with
 * their confidence. The PDF work runs in one PDF worker, under the server's limits.
 */
import { Effect } from "effect"
import { readFile, writeFile } from "node:fs/promises"
import { PdfEngine } from "@formwright/core"

export interface PreviewArgs {
  readonly input: string
  readonly page: number
  readonly out: string
  readonly detect: boolean
}

/** The conversion defaults of the API (interface.md's query parameters). */
const conversionDefaults = { confidence: 0.1, resolution: 1600, allowCheckboxes: true } as const

/** Why the command stopped, in words for the terminal; `usage` says whether the command line was at fault. */
export class PreviewFailed {
  readonly message: string
  readonly usage: boolean
  constructor(message: string, usage = false) {
    this.message = message
    this.usage = usage
  }
}

/** Draws the page and writes the PNG; says on stderr what it wrote. */
export const run = (args: PreviewArgs) =>
  Effect.gen(function*() {
    const engine = yield* PdfEngine.PdfEngine
    const original = yield* Effect.tryPromise({
      try: () => readFile(args.input),
      catch: (error) => new PreviewFailed(`Cannot read '${args.input}': ${(error as NodeJS.ErrnoException).code ?? String(error)}.`)
    })
    let pdf = new Uint8Array(original.buffer, original.byteOffset, original.byteLength)
    let detections: ReadonlyMap<string, { readonly name: string; readonly confidence: number }> = new Map()
    if (args.detect) {
      const converted = yield* engine.convert(pdf, conversionDefaults, () => Effect.void)
      pdf = new Uint8Array(converted.pdf)
      detections = new Map(converted.detections.map((d) => [d.formName, d] as const))
    }
    const form = yield* engine.readForm(pdf)
    // As a converted form is stored: the detector's name and confidence for the fields it placed.
    const fields = form.fields.map((field) => {
      const detection = detections.get(field.form_name)
      return detection ? { ...field, name: detection.name, confidence: detection.confidence } : field
    })
    if (args.page > form.pages) {
      return yield* Effect.fail(new PreviewFailed(`The PDF has ${form.pages} page${form.pages === 1 ? "" : "s"}; there is no page ${args.page}.`, true))
    }
    const preview = yield* engine.preview({ pdf, page: args.page, fields: fields.map(PdfEngine.previewMark) })
    if (preview._tag === "PastEnd") return yield* Effect.fail(new PreviewFailed(`The PDF has ${preview.pages} pages; there is no page ${args.page}.`, true))
    yield* Effect.tryPromise({
      try: () => writeFile(args.out, preview.png),
      catch: (error) => new PreviewFailed(`Cannot write '${args.out}': ${(error as NodeJS.ErrnoException).code ?? String(error)}.`)
    })
    const onPage = fields.filter((f) => f.page === args.page).length
    yield* Effect.sync(() =>
      process.stderr.write(
        `Wrote ${args.out} (${preview.width} x ${preview.height} px): page ${args.page} of ${preview.pages}, ${onPage} field${onPage === 1 ? "" : "s"}${args.detect ? ` (${detections.size} detected in the document)` : ""}.\n`
      )
    )
  }).pipe(
    // A PDF the engine cannot use or refuses is the user's input, told as such.
    Effect.catchTags({
      PdfUnusable: (error) => Effect.fail(new PreviewFailed(`${args.input}: ${error.message}`)),
      PdfRejected: (error) => Effect.fail(new PreviewFailed(`${args.input}: ${error.message}`)),
      ConverterError: (error) => Effect.fail(new PreviewFailed(`${args.input}: the conversion failed: ${error.message}`))
    }),
    Effect.provide(PdfEngine.layerWorkers({ workers: 1 }))
  )
