/**
 * Formwright without HTTP: upload a form, fill it, and convert a flat PDF, through the core alone.
 * Run it with `node docs/examples/embed.ts [data-dir]` (Node >= 22.19); docs/examples/embed.test.ts
 * runs it in the test suite, and `tsc` type-checks it with the rest of the code.
 */
import { Effect, Layer } from "effect"
import { Conversions, EmbeddedConverter, Forms, Formwright, Id, PdfEngine, Sessions, SourceFetcher } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import { Fixtures, FlatFixtures } from "@formwright/testing"

/** What the example produced, for a caller (or a test) to look at. */
export interface Outcome {
  readonly formId: string
  readonly fieldCount: number
  readonly filledPdf: Uint8Array
  readonly filledFields: number
  readonly convertedFormId: string
  readonly convertedFields: ReadonlyArray<string>
}

export const program = Effect.gen(function*() {
  const forms = yield* Forms.Forms
  const sessions = yield* Sessions.Sessions
  const conversions = yield* Conversions.Conversions
  const owner = Id.UserId.make("alice")

  // 1. Upload: the PDF is parsed and stored; its fields come back with human-readable names.
  const form = yield* forms.upload({ owner, bytes: yield* Effect.promise(() => Fixtures.formWithEveryFieldType()), fileName: "application.pdf" })

  // 2. Fill: a session gathers facts (here free text) and fills matching fields in the background.
  const session = yield* sessions.create({
    owner,
    formId: form.id,
    textInfo: form.fields.filter((f) => f.form_type === "Text").map((f) => `${f.name}: Ζωή Жанна Zoë`).join("\n")
  })
  let filled = yield* sessions.get(owner, session.id)
  while (filled.status === "pending" || filled.status === "processing") {
    yield* Effect.sleep("50 millis")
    filled = yield* sessions.get(owner, session.id)
  }
  const filledPdf = yield* sessions.filledPdf(owner, session.id)

  // 3. Convert: a flat PDF becomes a new fillable form.
  const flat = yield* Effect.promise(() => FlatFixtures.flatApplicationForm())
  const job = yield* conversions.start({
    owner,
    bytes: flat.bytes,
    fileName: "flat.pdf",
    options: { confidence: 0.1, resolution: 1600, allow_checkboxes: true }
  })
  let status = yield* conversions.status(owner, job.id)
  while (status.job.status === "pending" || status.job.status === "processing") {
    yield* Effect.sleep("50 millis")
    status = yield* conversions.status(owner, job.id)
  }
  const converted = yield* forms.get(owner, status.job.form_id!)

  return {
    formId: form.id,
    fieldCount: form.fields.length,
    filledPdf,
    filledFields: filled.filled_fields?.length ?? 0,
    convertedFormId: converted.id,
    convertedFields: converted.fields.map((f) => f.name)
  } satisfies Outcome
})

/**
 * The core on local-directory storage, with the in-process converter, no URL fetching, and PDF
 * work in worker processes (one engine shared by the services and the converter).
 */
export const layer = (directory: string) =>
  Formwright.layer().pipe(
    Layer.provide(Layer.mergeAll(FsStorage.layer({ directory }), EmbeddedConverter.layer, SourceFetcher.layerDisabled)),
    Layer.provide(PdfEngine.layerWorkers())
  )

if (import.meta.main) {
  const outcome = await Effect.runPromise(program.pipe(Effect.provide(layer(process.argv[2] ?? "./data-example"))))
  console.log(
    `uploaded ${outcome.formId} (${outcome.fieldCount} fields), filled ${outcome.filledFields} of them, ` +
      `converted a flat PDF into ${outcome.convertedFormId}: ${outcome.convertedFields.join(", ")}`
  )
}
