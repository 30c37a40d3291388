/**
 * How long an autofill session takes once a worker picks it up, against the fill alone (the
 * baseline), in one run:
 *
 *   node bench/autofill-session.ts [runs]          (default 20 runs per form; `npm run bench -- autofill [runs]`)
 *
 * It starts `formwright serve` as a child process on a fresh data directory, uploads each form,
 * creates a profile of a persona, and then, `runs` times per form:
 * (a) creates a session with the profile and the persona's prose paragraph in `text_info`, polls
 *     it tightly, and takes the time from pick-up (the session's `updated` when first seen
 *     `processing`; its `created` when the poll never saw that state) to completion (its
 *     `updated` when `completed`): the server's own clock, so polling adds nothing;
 * (b) fills the same fields with the same values through core's `FormFiller` directly, in this
 *     process: the fill alone, the floor under (a).
 * It prints the median and p90 of both side by side, and whether sessions complete within 1 s of
 * pick-up (the target of issue 7).
 *
 * Forms: a generated two-page form with a field of every kind (`Fixtures.formWithEveryFieldType`)
 * and, when `../shared/corpus` is beside the checkout, the two-page IRS Form 1040 (2010, 236
 * fields) of the corpus, filled for the `us-family` persona of `../shared/eval/autofill`.
 * BENCH_PDF=path measures that PDF instead (with the built-in persona).
 */
import { Fixtures, ServerProcess } from "@formwright/testing"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as FormFiller from "../packages/core/src/pdf/FormFiller.ts"

const repoRoot = Path.resolve(import.meta.dirname, "..")
const runs = Number(process.argv[2] ?? 20)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a positive whole number, not '${process.argv[2]}'`)
const shared = Path.resolve(repoRoot, "../shared")

interface Persona {
  readonly name: string
  readonly data: Record<string, string>
  readonly text: string
}

/** A person for the generated form: its keys are the form's labels, its prose says the same. */
const builtInPersona: Persona = {
  name: "Zoë Papadopoulou",
  data: {
    "First name": "Zoë",
    "Last name": "Papadopoulou",
    Postcode: "10558",
    Country: "Greece",
    Colour: "Blue",
    Languages: "English, Greek",
    Notes: "Prefers e-mail"
  },
  text: "My name is Zoë Papadopoulou and I was born on 3 March 1990 in Athens. I live at 12 Adrianou Street, 10558 Athens, Greece, " +
    "and you can reach me at zoe.papadopoulou@example.com or +30 210 555 0199. I work as a software engineer."
}

interface Case {
  readonly label: string
  readonly pdf: Uint8Array
  readonly persona: Persona
}

const cases = async (): Promise<ReadonlyArray<Case>> => {
  if (process.env.BENCH_PDF) {
    return [{ label: Path.basename(process.env.BENCH_PDF), pdf: new Uint8Array(Fs.readFileSync(process.env.BENCH_PDF)), persona: builtInPersona }]
  }
  const out: Array<Case> = [{ label: "every-field-type fixture", pdf: await Fixtures.formWithEveryFieldType(), persona: builtInPersona }]
  const f1040 = Path.join(shared, "corpus/pdfs/pdfjs__prefilled_f1040.pdf")
  const persona = Path.join(shared, "eval/autofill/persona-us-family.json")
  if (Fs.existsSync(f1040) && Fs.existsSync(persona)) {
    const us = JSON.parse(Fs.readFileSync(persona, "utf8")) as { profile_name: string; data: Record<string, string>; text: string }
    out.push({ label: "IRS 1040 (2010), corpus", pdf: new Uint8Array(Fs.readFileSync(f1040)), persona: { name: us.profile_name, data: us.data, text: us.text } })
  } else {
    console.error(`(${Path.relative(repoRoot, shared)} not found: the corpus form is skipped)`)
  }
  return out
}

const sorted = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)
const median = (values: ReadonlyArray<number>) => ServerProcess.percentile(sorted(values), 0.5)
const p90 = (values: ReadonlyArray<number>) => ServerProcess.percentile(sorted(values), 0.9)
const ms = (n: number) => `${n.toFixed(0)} ms`

interface SessionBody {
  readonly status: string
  readonly created: string
  readonly updated: string
  readonly error_message?: string
  readonly filled_fields?: ReadonlyArray<{ readonly form_name: string; readonly value: string | boolean | ReadonlyArray<string> }>
  readonly sources?: ReadonlyArray<{ readonly source: string; readonly status: string; readonly facts: number }>
}

interface SessionRun {
  /** Pick-up to completion, by the server's clock. */
  readonly ms: number
  /** Whether the poll saw `processing` (else pick-up is `created`, an upper bound). */
  readonly sawPickup: boolean
  readonly body: SessionBody
}

const main = async () => {
  const forms = await cases()
  const server = await ServerProcess.start({ entry: Path.join(repoRoot, "packages/http-node/src/bin.ts") })
  const json = async <A>(response: Response, expected: number): Promise<A> => {
    if (response.status !== expected) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
    return await response.json() as A
  }

  const sessionOnce = async (formId: string, profileId: string, text: string): Promise<SessionRun> => {
    const created = await json<{ session_id: string }>(
      await server.call("/v1/sessions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ form_id: formId, profile_ids: [profileId], text_info: text })
      }),
      202
    )
    let pickup: string | undefined
    for (;;) {
      const body = await json<SessionBody>(await server.call(`/v1/sessions/${created.session_id}`), 200)
      if (body.status === "processing") pickup ??= body.updated
      if (body.status === "failed") throw new Error(`session failed: ${body.error_message}`)
      if (body.status === "completed") {
        return { ms: Date.parse(body.updated) - Date.parse(pickup ?? body.created), sawPickup: pickup !== undefined, body }
      }
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }

  const fillOnce = async (pdf: Uint8Array, assignments: ReadonlyArray<FormFiller.Assignment>) => {
    const start = performance.now()
    const result = await Effect.runPromise(FormFiller.fillForm(pdf, assignments))
    return { ms: performance.now() - start, applied: result.applied.length }
  }

  const rows: Array<{ label: string; fields: number; filled: number; facts: string; session: ReadonlyArray<SessionRun>; fill: ReadonlyArray<number> }> = []
  try {
    for (const form of forms) {
      const [uploaded] = await json<Array<{ form_id: string; fields: ReadonlyArray<unknown> }>>(
        await server.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(form.pdf) }),
        200
      )
      const profile = await json<{ idInternal: string }>(
        await server.call("/v1/profiles", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: form.persona.name, data: form.persona.data })
        }),
        201
      )
      // One warm-up of each: workers started, fonts and code loaded.
      const warm = await sessionOnce(uploaded!.form_id, profile.idInternal, form.persona.text)
      const assignments = (warm.body.filled_fields ?? []).map((f) => ({ formName: f.form_name, value: f.value as FormFiller.Assignment["value"] }))
      await fillOnce(form.pdf, assignments)

      const session: Array<SessionRun> = []
      const fill: Array<number> = []
      for (let i = 0; i < runs; i++) {
        session.push(await sessionOnce(uploaded!.form_id, profile.idInternal, form.persona.text))
        fill.push((await fillOnce(form.pdf, assignments)).ms)
      }
      rows.push({
        label: form.label,
        fields: uploaded!.fields.length,
        filled: assignments.length,
        facts: (warm.body.sources ?? []).map((s) => `${s.source.split(":")[0]} ${s.facts}`).join(", "),
        session,
        fill
      })
    }
  } catch (error) {
    console.error(server.output())
    throw error
  } finally {
    await server.stop()
  }

  console.log(`autofill session (profile + prose text_info), pick-up to completed, against the fill alone (FormFiller in-process)`)
  console.log(`${runs} runs per form, one at a time, ${Os.cpus().length} cores, Node ${process.version}`)
  console.log("")
  const header = ["form", "fields", "filled", "facts", "session median", "session p90", "fill median", "fill p90", "session/fill", "within 1 s"]
  const lines = rows.map((row) => {
    const times = row.session.map((s) => s.ms)
    const within = times.filter((t) => t <= 1000).length
    return [
      row.label,
      String(row.fields),
      String(row.filled),
      row.facts,
      ms(median(times)),
      ms(p90(times)),
      ms(median(row.fill)),
      ms(p90(row.fill)),
      `${(median(times) / Math.max(1, median(row.fill))).toFixed(1)}x`,
      `${within === times.length ? "yes" : "no"} (${within}/${times.length}, max ${ms(Math.max(...times))})`
    ]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  for (const line of [header, ...lines]) console.log(line.map((cell, i) => (i === 0 || i === 3 || i === 9 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "))
  const missed = rows.flatMap((row) => row.session).filter((s) => !s.sawPickup).length
  if (missed > 0) console.log(`\n(${missed} runs never showed 'processing' to the poll: their pick-up is the session's creation, an upper bound)`)
}

await main()
