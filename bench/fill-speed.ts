/**
 * Filling 50 text fields and saving, through core's `FormFiller` against @cantoo/pdf-lib doing
 * the same fill and save itself (the baseline), on the same files in one run and one process:
 *
 *   node bench/fill-speed.ts [runs]          (default 7; `npm run bench -- fill [runs]`)
 *
 * Per form, 50 writable text fields (the first in document order; each value cut to the field's
 * /MaxLen, the same for both sides) get values in Latin, Greek and Cyrillic, and then, `runs`
 * times, alternating:
 * (a) ours: `FormFiller.fillForm(bytes, assignments)`, which loads, fills, draws appearances in
 *     the fonts the values need and saves;
 * (b) pdf-lib alone: `PDFDocument.load`, `getForm().getTextField(name).setText(value)` for each,
 *     appearances drawn in Noto Sans embedded as a subset (the standard fonts have no Greek or
 *     Cyrillic, so pdf-lib's default save would throw), `save()`.
 * (c) pdf-lib's floor: the same values set and saved with no appearance drawn at all
 *     (`save({ updateFieldAppearances: false })`), which no viewer shows without regenerating;
 *     printed to show what drawing costs, not a target.
 * It prints the median and p90 of each and the ratio of the medians of (a) to (b) (the target of
 * issue 11: at most 1.5x) and to (c). Every output is read back with pdf-lib and must hold every
 * value.
 *
 * Forms: the corpus's IRS 1040 (2010) and USCIS I-140 when `../shared/corpus` is beside the
 * checkout; BENCH_PDF=path measures that PDF instead.
 */
import fontkit from "@cantoo/fontkit"
import { PDFDocument, PDFTextField } from "@cantoo/pdf-lib"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Fonts from "../packages/core/src/pdf/Fonts.ts"
import * as FormFiller from "../packages/core/src/pdf/FormFiller.ts"
import * as IssueForms from "./support/IssueForms.ts"

const runs = IssueForms.runs(7)
const forms = () => IssueForms.forms(["IRS 1040 (2010)", "USCIS I-140"])

const values = [
  "Zoë Papadopoulou",
  "Ζωή Παπαδοπούλου",
  "Анна Сергеевна Иванова",
  "12 Adrianou Street",
  "Οδός Αδριανού 12, Αθήνα",
  "ул. Тверская, д. 7, Москва",
  "François Müller-Løkke",
  "Θεσσαλονίκη 54624",
  "Санкт-Петербург 190000",
  "+30 210 555 0199"
]

const loadOptions = { password: "", ignoreEncryption: true, updateMetadata: false } as const

// pdf-lib says so on every load of a hybrid form (the I-140); both sides drop the XFA alike.
const warn = console.warn
console.warn = (...args: Array<unknown>) => {
  if (typeof args[0] === "string" && args[0].startsWith("Removing XFA form data")) return
  warn(...args)
}

/** The first 50 writable, ordinary text fields, each with a value cut to its /MaxLen. */
const chooseAssignments = async (bytes: Uint8Array): Promise<ReadonlyArray<{ readonly formName: string; readonly value: string }>> => {
  const doc = await PDFDocument.load(bytes, loadOptions)
  const chosen: Array<{ formName: string; value: string }> = []
  for (const field of doc.getForm().getFields()) {
    if (chosen.length === 50) break
    if (!(field instanceof PDFTextField) || field.isReadOnly() || field.isPassword() || field.isFileSelector()) continue
    const max = field.getMaxLength()
    const value = Array.from(values[chosen.length % values.length]!).slice(0, max ?? Infinity).join("")
    if (value.trim() === "") continue
    chosen.push({ formName: field.getName(), value })
  }
  return chosen
}

const notoSans = new Uint8Array(Fs.readFileSync(Fonts.path("notoSans")))

const pdfLibAlone = async (bytes: Uint8Array, assignments: ReadonlyArray<{ formName: string; value: string }>) => {
  const doc = await PDFDocument.load(bytes, loadOptions)
  doc.registerFontkit(fontkit)
  const font = await doc.embedFont(notoSans, { subset: true })
  const form = doc.getForm()
  for (const { formName, value } of assignments) form.getTextField(formName).setText(value)
  form.updateFieldAppearances(font)
  return doc.save()
}

const pdfLibValuesOnly = async (bytes: Uint8Array, assignments: ReadonlyArray<{ formName: string; value: string }>) => {
  const doc = await PDFDocument.load(bytes, loadOptions)
  const form = doc.getForm()
  for (const { formName, value } of assignments) form.getTextField(formName).setText(value)
  return doc.save({ updateFieldAppearances: false })
}

const ours = async (bytes: Uint8Array, assignments: ReadonlyArray<{ formName: string; value: string }>) => {
  const result = await Effect.runPromise(FormFiller.fillForm(bytes, assignments))
  if (result.applied.length !== assignments.length) {
    throw new Error(`FormFiller applied ${result.applied.length} of ${assignments.length}: ${JSON.stringify(result.skipped.slice(0, 3))}`)
  }
  return result.pdf
}

/** Every assigned value reads back from `pdf` (the fill is the same work on both sides). */
const checkFilled = async (label: string, pdf: Uint8Array, assignments: ReadonlyArray<{ formName: string; value: string }>) => {
  // No password: pdf-lib's own save of a decrypted file keeps the stale /Encrypt of its old
  // cross-reference stream, and asked for a password it then refuses the file.
  const form = (await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false })).getForm()
  for (const { formName, value } of assignments) {
    const got = form.getTextField(formName).getText()
    if (got !== value) throw new Error(`${label}: ${formName} reads back '${got}', not '${value}'`)
  }
}

const time = async (f: () => Promise<unknown>) => {
  const t0 = performance.now()
  await f()
  return performance.now() - t0
}

const quantile = (xs: ReadonlyArray<number>, q: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

const rows: Array<ReadonlyArray<string>> = []
for (const form of forms()) {
  const bytes = new Uint8Array(Fs.readFileSync(form.path))
  const assignments = await chooseAssignments(bytes)
  // Warm-up, and the check that both sides fill the same values.
  await checkFilled(`${form.label}, ours`, await ours(bytes, assignments), assignments)
  await checkFilled(`${form.label}, pdf-lib`, await pdfLibAlone(bytes, assignments), assignments)
  await checkFilled(`${form.label}, pdf-lib values only`, await pdfLibValuesOnly(bytes, assignments), assignments)
  const a: Array<number> = []
  const b: Array<number> = []
  const c: Array<number> = []
  for (let i = 0; i < runs; i++) {
    a.push(await time(() => ours(bytes, assignments)))
    b.push(await time(() => pdfLibAlone(bytes, assignments)))
    c.push(await time(() => pdfLibValuesOnly(bytes, assignments)))
  }
  const ratio = quantile(a, 0.5) / quantile(b, 0.5)
  rows.push([
    form.label,
    String(assignments.length),
    `${quantile(a, 0.5).toFixed(0)} ms`,
    `${quantile(a, 0.9).toFixed(0)} ms`,
    `${quantile(b, 0.5).toFixed(0)} ms`,
    `${quantile(b, 0.9).toFixed(0)} ms`,
    `${ratio.toFixed(2)}x ${ratio <= 1.5 ? "(met)" : "(not met)"}`,
    `${quantile(c, 0.5).toFixed(0)} ms`,
    `${(quantile(a, 0.5) / quantile(c, 0.5)).toFixed(2)}x`
  ])
}

if (rows.length > 0) {
  console.log(`fill 50 text fields (Latin, Greek, Cyrillic) and save: FormFiller against @cantoo/pdf-lib alone`)
  console.log(`(pdf-lib: the same fill, appearances in subset Noto Sans; values-only: pdf-lib setting values and saving with no appearances)`)
  console.log(`${runs} runs each, alternating, ${Os.cpus().length} cores, Node ${process.version}; target of issue 11: <= 1.5x`)
  console.log("")
  const header = ["form", "fields", "ours median", "ours p90", "pdf-lib median", "pdf-lib p90", "ours/pdf-lib", "values-only median", "ours/values-only"]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  for (const line of [header, ...rows]) console.log(line.map((cell, i) => (i === 0 || i === 6 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "))
}
