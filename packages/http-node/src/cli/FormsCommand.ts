/**
 * `formwright forms upload|get|fields`: a server's forms, over its /v1 API, with a key from `--key`
 * or FORMWRIGHT_API_KEY. Plain `fetch`: nothing of the server is loaded.
 */
import { Config, Effect, Redacted } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { readFile } from "node:fs/promises"
import { basename } from "node:path"
import { CommandFailed, reasonOf, UsageError } from "./Failures.ts"

const server = Flag.String("server").pipe(
  Flag.withDescription("The server's base URL (or FORMWRIGHT_SERVER)."),
  Flag.withFallbackConfig(Config.String("FORMWRIGHT_SERVER")),
  Flag.withDefault("http://localhost:3000")
)

const key = Flag.Redacted("key").pipe(
  Flag.withDescription("The API key (or FORMWRIGHT_API_KEY; the variable keeps it out of the shell history)."),
  Flag.withFallbackConfig(Config.Redacted("FORMWRIGHT_API_KEY"))
)

const json = Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("The server's JSON on stdout, as it answered."))

interface Target {
  readonly server: string
  readonly key: Redacted.Redacted<string>
}

/** A request to the server; its JSON body on success, the server's own message on failure. */
const call = (target: Target, path: string, init: RequestInit = {}) =>
  Effect.gen(function*() {
    const url = yield* Effect.try({
      try: () => new URL(path, target.server.endsWith("/") ? target.server : `${target.server}/`),
      catch: () => new UsageError({ message: `--server: '${target.server}' is not a URL (http://host:port).` })
    })
    const res = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(url, { ...init, signal, headers: { ...init.headers as Record<string, string>, authorization: `Bearer ${Redacted.value(target.key)}` } }),
      catch: (error) => new CommandFailed({ message: `Cannot reach ${url.origin}: ${reasonOf((error as Error).cause ?? error)}.` })
    })
    const text = yield* Effect.promise(() => res.text())
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    if (!res.ok) {
      const message = (body as { error_message?: unknown } | undefined)?.error_message
      return yield* new CommandFailed({
        message: `The server answered ${res.status}: ${typeof message === "string" ? message : text.slice(0, 300) || res.statusText}`
      })
    }
    if (body === undefined) return yield* new CommandFailed({ message: `The server answered ${res.status} with no JSON: ${text.slice(0, 300)}` })
    return body
  })

const print = (value: unknown) => Effect.sync(() => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`))

const upload = Command.make(
  "upload",
  { file: Argument.String("file.pdf").pipe(Argument.withDescription("The PDF to upload.")), server, key, json },
  (args) =>
    Effect.gen(function*() {
      const bytes = yield* Effect.tryPromise({
        try: () => readFile(args.file),
        catch: (error) => new CommandFailed({ message: `Cannot read '${args.file}': ${reasonOf(error)}.` })
      })
      const answer = yield* call(args, "v1/forms/upload", {
        method: "POST",
        headers: { "content-type": "application/pdf", "x-file-name": encodeURIComponent(basename(args.file)) },
        body: bytes
      })
      if (args.json) return yield* print(answer)
      const [form] = answer as ReadonlyArray<{ form_id: string; file_name: string; pages?: number; fields?: ReadonlyArray<unknown> }>
      yield* Effect.sync(() => {
        process.stdout.write(`${form!.form_id}\n`)
        process.stderr.write(`Uploaded ${form!.file_name} as ${form!.form_id}: ${form!.pages ?? "?"} page(s), ${form!.fields?.length ?? 0} field(s).\n`)
      })
    })
).pipe(Command.withDescription("Upload a PDF; prints the new form's id on stdout."))

const formId = Argument.String("form-id").pipe(Argument.withDescription("The form's id (frm_...)."))

const get = Command.make("get", { formId, server, key }, (args) =>
  Effect.flatMap(call(args, `v1/forms/${encodeURIComponent(args.formId)}`), print)).pipe(
    Command.withDescription("Print a form's definition (GET /v1/forms/{id}) as JSON.")
  )

interface WireField {
  readonly id: string
  readonly name: string
  readonly form_type: string
  readonly page: number
  readonly value?: unknown
  readonly semantic?: { readonly type?: string }
}

const fields = Command.make("fields", { formId, server, key, json }, (args) =>
  Effect.gen(function*() {
    const form = (yield* call(args, `v1/forms/${encodeURIComponent(args.formId)}`)) as { fields: ReadonlyArray<WireField> }
    if (args.json) return yield* print(form.fields)
    const rows = [
      ["ID", "PAGE", "TYPE", "MEANING", "NAME", "VALUE"],
      ...form.fields.map((f) => [f.id, String(f.page), f.form_type, f.semantic?.type ?? "-", f.name, valueText(f.value)])
    ]
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
    yield* Effect.sync(() => {
      for (const row of rows) process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()}\n`)
      process.stderr.write(`${form.fields.length} field(s).\n`)
    })
  })).pipe(Command.withDescription("List a form's fields: id, page, type, meaning, name and value."))

const valueText = (value: unknown): string =>
  value === undefined || value === null || value === "" ? "-" : Array.isArray(value) ? value.join(", ") : String(value)

export const command = Command.make("forms").pipe(
  Command.withDescription("Work with the forms on a server (--server URL, --key KEY or FORMWRIGHT_API_KEY)."),
  Command.withSubcommands([upload, get, fields])
)
