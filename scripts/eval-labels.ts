/**
 * Measures label inference on the corpus: for every field that has a /TU, the /TU is hidden, the
 * field's name (`FormField.name`: its accessible name, inferred from page text and geometry
 * alone) is inferred, and the two are compared by token F1 (lower-cased word tokens,
 * punctuation stripped), micro-averaged per form and overall; also over the /TU of at most 8
 * words, which are mostly the printed label itself rather than instructions.
 *
 *   node scripts/eval-labels.ts [--form <substring>] [--worst N] [--worst-span N] [--all] [--printed] [--semantic N] [--json out.json]
 *
 * The corpus is ../shared/corpus beside the checkout (or FORMWRIGHT_CORPUS). Prints per form:
 * fields with a /TU, F1, F1 on short /TU; then the worst short-/TU cases and a sample of the
 * semantic types and roles assigned (with the /TU in use, as upload gives them).
 *
 * The name is the printed label, with (on a form set out in numbered parts) the part, heading
 * and item number before it, and for a check box of a group its question: the /TU a careful
 * author writes. Added figures measure the printed label alone (`semantic.label`, else the
 * name), against the whole /TU and against the contiguous run of the /TU's sentences it matches
 * best ("best-matching /TU span"): accessible forms write /TU as a path ("Part 1. ... Mailing
 * Address. 3. D. Enter City or Town.") with instructions printed nowhere, which no printed label
 * can match as a whole.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { Effect } from "effect"
import * as FormReader from "../packages/core/src/pdf/FormReader.ts"
import * as PageText from "../packages/core/src/pdf/PageText.ts"
import * as PdfLib from "../packages/core/src/pdf/PdfLib.ts"
import * as Understanding from "../packages/core/src/understand/Understanding.ts"

interface ManifestEntry {
  readonly name: string
  readonly category: string
  readonly n_fields: number
  readonly tu_count: number
  readonly lang?: string
}

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(name)
const option = (name: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

const corpusDir = process.env["FORMWRIGHT_CORPUS"] ?? resolve(import.meta.dirname, "../../shared/corpus")
const manifestPath = join(corpusDir, "manifest.json")
if (!existsSync(manifestPath)) {
  console.error(`No corpus at ${corpusDir} (set FORMWRIGHT_CORPUS)`)
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { readonly files: ReadonlyArray<ManifestEntry> }

/** Word tokens: lower case, accents kept, punctuation dropped; CJK characters one token each. */
export const tokens = (text: string): Array<string> =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu, " $1 ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)

interface Counts {
  tp: number
  predicted: number
  reference: number
  fields: number
}

const zero = (): Counts => ({ tp: 0, predicted: 0, reference: 0, fields: 0 })

const overlap = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const bag = new Map<string, number>()
  for (const t of b) bag.set(t, (bag.get(t) ?? 0) + 1)
  let n = 0
  for (const t of a) {
    const left = bag.get(t) ?? 0
    if (left > 0) {
      n++
      bag.set(t, left - 1)
    }
  }
  return n
}

const add = (c: Counts, predicted: ReadonlyArray<string>, reference: ReadonlyArray<string>) => {
  c.tp += overlap(predicted, reference)
  c.predicted += predicted.length
  c.reference += reference.length
  c.fields++
}

const f1 = (c: Counts): number => {
  const p = c.predicted === 0 ? 0 : c.tp / c.predicted
  const r = c.reference === 0 ? 0 : c.tp / c.reference
  return p + r === 0 ? 0 : (2 * p * r) / (p + r)
}

const fieldF1 = (predicted: ReadonlyArray<string>, reference: ReadonlyArray<string>) => {
  const c = zero()
  add(c, predicted, reference)
  return f1(c)
}

const SHORT = 8

/**
 * The /TU's sentences (item numbers such as "3. A." come out as sentences of their own, which a
 * span may leave out: labels are read without their numbers). Accessible forms write /TU as the
 * path to the field: part, section, item number, label, then instructions that are printed
 * nowhere ("Enter as 2-digit Month..."); see `bestSpan`.
 */
const sentences = (tooltip: string): Array<Array<string>> =>
  tooltip.split(/(?<=[.?!:;])\s+/u).map(tokens).filter((t) => t.length > 0)

/**
 * The contiguous run of the /TU's sentences that the inferred label matches best (by F1): what
 * the label can honestly be compared with when the /TU is a path plus unprinted instructions.
 * A short /TU is one sentence or a few, so there this is close to the plain comparison.
 */
const bestSpan = (predicted: ReadonlyArray<string>, tooltip: string): Array<string> => {
  const list = sentences(tooltip)
  let best: Array<string> = list.flat()
  let bestF1 = -1
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j <= list.length; j++) {
      const span = list.slice(i, j).flat()
      const score = fieldF1(predicted, span)
      if (score > bestF1) {
        bestF1 = score
        best = span
      }
    }
  }
  return best
}

/**
 * A /TU that names nothing a person reads: "undefined", the field's own machine name
 * ("YY_FECHA", "GoalBox3"), or an identifier without spaces. Counted apart so that the figure
 * on meaningful tooltips is not dragged down by comparing with junk.
 */
const machineTooltip = (tooltip: string, formName: string): boolean => {
  const t = tooltip.trim()
  const partial = (formName.split(".").pop() ?? formName).replace(/\[\d*\]/g, "")
  const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")
  return /^(undefined|null|none|text\d*|field\d*)$/i.test(t) || squash(t) === squash(partial) ||
    (!/\s/.test(t) && (/[_]/.test(t) || /\p{Ll}\p{Lu}/u.test(t) || /\p{L}\d/u.test(t)))
}

interface Case {
  readonly form: string
  readonly formName: string
  readonly type: string
  readonly page: number
  readonly tooltip: string
  readonly inferred: string
  readonly source: string
  readonly position: string | undefined
  readonly f1: number
  /** F1 against the best-matching span of the /TU's sentences (see `bestSpan`). */
  readonly spanF1: number
}

const filter = option("--form")
// --printed: the cases listed show (and are scored by) the printed label instead of the name.
const showPrinted = flag("--printed")
const entries = manifest.files.filter((e) =>
  e.tu_count > 0 && (e.category === "form" || e.category === "tricky") && (filter === undefined || e.name.includes(filter))
)

const overall = zero()
const overallShort = zero()
const overallMeaningful = zero()
const overallMeaningfulShort = zero()
const overallSpan = zero()
const overallSpanMeaningful = zero()
const overallPrinted = zero()
const overallPrintedShort = zero()
const cases: Array<Case> = []
const semantics: Array<{ form: string; name: string; semantic: unknown }> = []
const rows: Array<string> = []

/** A corpus form's fields as upload reads them, and its page text (none when pdf.js cannot read it). */
const fieldsAndText = (bytes: Uint8Array) =>
  Effect.gen(function*() {
    const doc = yield* PdfLib.load(bytes)
    const inputs = FormReader.readFields(doc)
    const text = yield* PageText.read(bytes).pipe(Effect.orElseSucceed(() => []))
    return { inputs, text }
  })

for (const entry of entries) {
  const bytes = new Uint8Array(readFileSync(join(corpusDir, "pdfs", entry.name)))
  const read = await Effect.runPromise(fieldsAndText(bytes).pipe(Effect.result))
  if (read._tag === "Failure") {
    rows.push(`${entry.name.padEnd(58)} unreadable`)
    continue
  }
  const { inputs, text } = read.success
  const blind = Understanding.understand(inputs, text, { useTooltips: false })
  const counts = zero()
  const short = zero()
  const printedCounts = zero()
  inputs.forEach((input, i) => {
    if (input.tooltip === undefined || input.field.form_type === "PushButton") return
    const reference = tokens(input.tooltip)
    if (reference.length === 0) return
    const u = blind[i]!
    const predicted = tokens(u.name)
    add(counts, predicted, reference)
    add(overall, predicted, reference)
    const printed = tokens(u.label)
    add(printedCounts, printed, reference)
    add(overallPrinted, printed, reference)
    if (reference.length <= SHORT) {
      add(short, predicted, reference)
      add(overallShort, predicted, reference)
      add(overallPrintedShort, printed, reference)
    }
    const span = bestSpan(printed, input.tooltip)
    add(overallSpan, printed, span)
    if (!machineTooltip(input.tooltip, input.field.form_name)) {
      add(overallMeaningful, predicted, reference)
      add(overallSpanMeaningful, printed, span)
      if (reference.length <= SHORT) add(overallMeaningfulShort, predicted, reference)
    }
    cases.push({
      form: entry.name,
      formName: input.field.form_name,
      type: input.field.form_type,
      page: input.field.page,
      tooltip: input.tooltip,
      inferred: showPrinted ? u.label : u.name,
      source: u.source,
      position: u.position,
      f1: fieldF1(showPrinted ? printed : predicted, reference),
      spanF1: fieldF1(printed, span)
    })
  })
  if (counts.fields === 0) continue
  rows.push(
    `${entry.name.padEnd(58)} ${String(counts.fields).padStart(4)}  F1 ${f1(counts).toFixed(3)}   short ${String(short.fields).padStart(4)}  F1 ${
      short.fields > 0 ? f1(short).toFixed(3) : "  -  "
    }   printed label F1 ${f1(printedCounts).toFixed(3)}`
  )
}

// Semantics as upload gives them (the /TU in use, the printed label otherwise), on every form.
for (const entry of manifest.files.filter((e) => e.n_fields > 0 && (e.category === "form" || e.category === "tricky"))) {
  if (filter !== undefined && !entry.name.includes(filter)) continue
  const bytes = new Uint8Array(readFileSync(join(corpusDir, "pdfs", entry.name)))
  const read = await Effect.runPromise(
    fieldsAndText(bytes).pipe(Effect.map(({ inputs, text }) => Understanding.understand(inputs, text)), Effect.result)
  )
  if (read._tag === "Failure") continue
  for (const u of read.success) semantics.push({ form: entry.name, name: u.name, semantic: u.semantic })
}

console.log(`${"form".padEnd(58)} TU fields      F1   short-TU fields  F1`)
for (const row of rows) console.log(row)
console.log(
  `\noverall: ${overall.fields} fields with a /TU, token F1 ${f1(overall).toFixed(3)} (P ${(overall.tp / overall.predicted).toFixed(3)}, R ${
    (overall.tp / overall.reference).toFixed(3)
  })`
)
console.log(
  `short /TU (<= ${SHORT} words): ${overallShort.fields} fields, token F1 ${f1(overallShort).toFixed(3)} (P ${
    (overallShort.tp / overallShort.predicted).toFixed(3)
  }, R ${(overallShort.tp / overallShort.reference).toFixed(3)})`
)

const line = (title: string, c: Counts) =>
  console.log(`${title}: ${c.fields} fields, token F1 ${f1(c).toFixed(3)} (P ${(c.tp / c.predicted).toFixed(3)}, R ${(c.tp / c.reference).toFixed(3)})`)
line("meaningful /TU (not a machine name)", overallMeaningful)
line(`meaningful short /TU (<= ${SHORT} words)`, overallMeaningfulShort)
line("printed label alone against /TU", overallPrinted)
line(`printed label alone, short /TU (<= ${SHORT} words)`, overallPrintedShort)
line("printed label, best-matching /TU span (sentences of the /TU)", overallSpan)
line("printed label, meaningful /TU, best-matching /TU span", overallSpanMeaningful)

const worstCount = Number(option("--worst") ?? 25)
// --worst-span N: the worst cases of any length by their best-span F1 (long /TU included).
const worstSpan = option("--worst-span")
const shown = flag("--all")
  ? cases
  : worstSpan !== undefined
  ? cases.filter((c) => !machineTooltip(c.tooltip, c.formName)).sort((a, b) => a.spanF1 - b.spanF1).slice(0, Number(worstSpan))
  : cases.filter((c) => tokens(c.tooltip).length <= SHORT && !machineTooltip(c.tooltip, c.formName)).sort((a, b) => a.f1 - b.f1).slice(0, worstCount)
const shownTitle = flag("--all")
  ? "all cases"
  : worstSpan !== undefined
  ? `worst ${shown.length} meaningful cases by best-span F1`
  : `worst ${shown.length} meaningful short-/TU cases`
console.log(`\n${shownTitle}:`)
for (const c of shown) {
  console.log(
    `  ${c.f1.toFixed(2)}/${c.spanF1.toFixed(2)} ${c.form} p${c.page} ${c.type} [${c.source}${c.position ? `/${c.position}` : ""}] TU=${JSON.stringify(c.tooltip.slice(0, 200))} got=${
      JSON.stringify(c.inferred.slice(0, 200))
    } (${c.formName.slice(-40)})`
  )
}

const sampleCount = Number(option("--semantic") ?? 30)
if (sampleCount > 0) {
  console.log(`\nsemantic sample (every ${Math.max(1, Math.floor(semantics.length / sampleCount))}th field):`)
  const step = Math.max(1, Math.floor(semantics.length / sampleCount))
  for (let i = 0; i < semantics.length; i += step) {
    const s = semantics[i]!
    console.log(`  ${s.form.slice(0, 34).padEnd(34)} ${JSON.stringify(s.name.slice(0, 60)).padEnd(64)} ${JSON.stringify(s.semantic)}`)
  }
}

const out = option("--json")
if (out) writeFileSync(out, JSON.stringify({ cases, semantics }, null, 1))
