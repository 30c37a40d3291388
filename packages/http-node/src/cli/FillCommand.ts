/**
 * `formwright fill FORM.pdf --profile data.json --text "..." --out filled.pdf`: the autofill of a
 * session, offline: the form's fields read as an upload reads them, the profile and the text
 * through the same pipeline (`Autofill.plan`), the values written by the same filler, in one PDF
 * worker. Prints which fields were filled and from what; with `--explain`, why each other one
 * stays empty; with `--flatten`, the PDF written has no form left.
 */
import { Effect, Layer, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { basename } from "node:path"
import { CommandFailed, UsageError } from "./Failures.ts"
import { core, pdfFailure, plural, readBytes, writeBytes } from "./Pdf.ts"

/** The profile file: any JSON object (nested objects, numbers, booleans, lists), as a profile's `data`. */
const readProfile = (path: string) =>
  Effect.gen(function*() {
    const text = new TextDecoder().decode(yield* readBytes(path, "the profile "))
    const data = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) => new CommandFailed({ message: `The profile '${path}' is not JSON: ${(error as Error).message}` })
    })
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      return yield* new CommandFailed({ message: `The profile '${path}' must hold a JSON object ({"first_name": "Ada", ...}).` })
    }
    return data as Record<string, unknown>
  })

const shown = (value: unknown) => (Array.isArray(value) ? value.join(", ") : typeof value === "string" ? JSON.stringify(value) : String(value))

export const command = Command.make(
  "fill",
  {
    form: Argument.String("form.pdf").pipe(Argument.withDescription("The fillable PDF (convert a flat one first).")),
    profile: Flag.String("profile").pipe(Flag.withDescription("A JSON file with the person's data, any shape."), Flag.optional),
    text: Flag.String("text").pipe(Flag.withDescription("Free text about the person (\"My name is Ada Lovelace, born 10 Dec 1815\")."), Flag.optional),
    out: Flag.String("out").pipe(Flag.withDescription("The filled PDF to write (default: <form>.filled.pdf, here)."), Flag.optional),
    flatten: Flag.Boolean("flatten").pipe(Flag.withDefault(false), Flag.withDescription("Flatten the filled PDF: values drawn into the pages, no form field left.")),
    explain: Flag.Boolean("explain").pipe(Flag.withDefault(false), Flag.withDescription("Also say why each other field stays empty.")),
    json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("The report (filled_fields, unfilled_fields, sources, conflicts) as JSON on stdout."))
  },
  (args) =>
    Effect.gen(function*() {
      if (Option.isNone(args.profile) && Option.isNone(args.text)) {
        return yield* new UsageError({ message: "fill needs something to fill with: --profile data.json, --text \"...\", or both." })
      }
      const out = Option.getOrElse(args.out, () => `${basename(args.form).replace(/\.pdf$/i, "")}.filled.pdf`)
      const { Autofill, PdfEngine } = yield* core
      const pdf = yield* readBytes(args.form)
      const data = Option.isSome(args.profile) ? Option.some(yield* readProfile(args.profile.value)) : Option.none()
      const engine = yield* PdfEngine.PdfEngine
      const form = yield* engine.readForm(pdf)
      if (form.fields.length === 0) {
        return yield* new CommandFailed({ message: `${args.form} has no form fields; make it fillable first: formwright convert ${args.form} --out fillable.pdf` })
      }
      const planned = Autofill.plan({
        fields: form.fields,
        textInfo: Option.getOrUndefined(args.text),
        // No label: the profile's `name` would be offered as a value (a file name is no one's name).
        sources: Option.isSome(data) && Option.isSome(args.profile)
          ? [{ _tag: "Profile", source: `profile:${basename(args.profile.value)}`, name: "", data: data.value }]
          : []
      })
      const written = yield* engine.fill(pdf, planned.matches.map((m) => ({ formName: m.field.form_name, value: m.value })), { flatten: args.flatten })
      const report = Autofill.report(planned, written)
      yield* writeBytes(out, written.pdf)
      yield* Effect.sync(() => {
        if (args.json) {
          process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
        } else {
          for (const f of report.filled_fields) {
            process.stdout.write(`filled  ${f.name} = ${shown(f.value)}  (${f.source}, ${f.confidence.toFixed(2)})\n`)
          }
          if (args.explain) {
            for (const f of report.unfilled_fields) process.stdout.write(`empty   ${f.name}: ${f.reason}: ${f.detail}\n`)
          }
        }
        const fillable = report.filled_fields.length + report.unfilled_fields.length
        process.stderr.write(`Wrote ${out}: ${report.filled_fields.length} of ${plural(fillable, "field")} filled.\n`)
      })
    }).pipe(
      Effect.catchTags({ PdfUnusable: pdfFailure(args.form), PdfRejected: pdfFailure(args.form) }),
      Effect.provide(Effect.map(core, ({ PdfEngine }) => PdfEngine.layerWorkers({ workers: 1 })).pipe(Layer.unwrap))
    )
).pipe(
  Command.withDescription("Fill a PDF form offline from a profile file and/or free text, as a session would; no server needed.")
)
