/**
 * Formwright over HTTP through the typed client of `@formwright/api`: upload a form, store a
 * profile, fill the form from the profile in a session, and download the filled PDF. Every call
 * is a method checked against the contract; a documented error fails with its wire class.
 *
 * Run it against a running server (Node >= 22.19):
 *   FORMWRIGHT_URL=http://127.0.0.1:8080 FORMWRIGHT_API_KEY=<key> node docs/examples/client.ts form.pdf
 * docs/examples/client.test.ts runs it against a server it starts, and `tsc` type-checks it.
 */
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { Client, Errors } from "@formwright/api"

/** What the example produced, for a caller (or a test) to look at. */
export interface Outcome {
  readonly formId: string
  readonly fieldNames: ReadonlyArray<string>
  readonly profileId: string
  readonly sessionId: string
  readonly filled: ReadonlyArray<{ readonly field: string; readonly value: unknown; readonly source: string }>
  readonly filledPdf: Uint8Array
}

export const program = (options: Client.Options, pdf: Uint8Array, data: Record<string, string>) =>
  Effect.gen(function*() {
    const client = yield* Client.make(options)

    // 1. Upload: the answer lists the form's fields with readable names.
    const [upload] = yield* client.forms.upload({ payload: pdf, headers: { "x-file-name": "application.pdf" } })
    const formId = upload!.form_id

    // 2. A profile: the facts of a person, under any keys.
    const profile = yield* client.profiles.create({ payload: { name: "Example applicant", data } })

    // 3. A session fills the form from the profile in the background. Poll its `session_id`
    //    (the answer's own `id` names the response, not the session).
    const { session_id } = yield* client.sessions.create({ payload: { form_id: formId, profile_ids: [profile.idInternal] } })
    let status = yield* client.sessions.get({ params: { id: session_id } })
    while (!(status instanceof Uint8Array) && (status.status === "pending" || status.status === "processing")) {
      yield* Effect.sleep("100 millis")
      status = yield* client.sessions.get({ params: { id: session_id } })
    }
    if (status instanceof Uint8Array || status.status !== "completed") {
      return yield* Effect.fail(new Error(`The session did not complete: ${status instanceof Uint8Array ? "a PDF" : status.error_message}`))
    }

    // 4. The filled PDF. Documented errors are classes: a session not completed yet would fail
    //    with `Errors.Conflict` (409), an unknown one with `Errors.NotFound` (404).
    const filledPdf = yield* client.sessions.pdf({ params: { id: session_id } }).pipe(
      Effect.catchIf((e) => e instanceof Errors.NotFound, (e) => Effect.fail(new Error(e.error_message)))
    )

    return {
      formId,
      fieldNames: upload!.fields.map((f) => f.name),
      profileId: profile.idInternal,
      sessionId: session_id,
      filled: (status.filled_fields ?? []).map((f) => ({ field: f.form_name, value: f.value, source: f.source })),
      filledPdf
    } satisfies Outcome
  }).pipe(Effect.provide(FetchHttpClient.layer))

if (import.meta.main) {
  const { readFile } = await import("node:fs/promises")
  const [path] = process.argv.slice(2)
  if (!path) throw new Error("usage: node docs/examples/client.ts FORM.pdf (with FORMWRIGHT_URL and FORMWRIGHT_API_KEY set)")
  const outcome = await Effect.runPromise(program(
    { baseUrl: process.env["FORMWRIGHT_URL"] ?? "http://127.0.0.1:8080", apiKey: process.env["FORMWRIGHT_API_KEY"] ?? "" },
    new Uint8Array(await readFile(path)),
    { "First name": "Zoë", "Last name": "Ádám" }
  ))
  console.log(`form ${outcome.formId}: ${outcome.fieldNames.length} fields; session ${outcome.sessionId} filled ${outcome.filled.length}`)
  for (const f of outcome.filled) console.log(`  ${f.field} = ${JSON.stringify(f.value)} (${f.source})`)
}
