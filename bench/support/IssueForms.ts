/**
 * The corpus forms issue 11 measures its speed targets on (or the one PDF `BENCH_PDF` names),
 * and the run count from the command line, shared by the fill and upload benchmarks.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

export interface BenchForm {
  readonly label: string
  readonly path: string
}

export const repoRoot = Path.resolve(import.meta.dirname, "../..")
const corpus = Path.resolve(repoRoot, "../shared/corpus/pdfs")

/** `argv[2]`, a positive whole number of runs, or `fallback`. */
export const runs = (fallback: number): number => {
  const value = Number(process.argv[2] ?? fallback)
  if (!Number.isInteger(value) || value < 1) throw new Error(`runs must be a positive whole number, not '${process.argv[2]}'`)
  return value
}

/** Of the forms, those `which` labels; none (said on stdout) without the corpus. */
export const forms = (which: ReadonlyArray<string>): ReadonlyArray<BenchForm> => {
  if (process.env.BENCH_PDF) return [{ label: Path.basename(process.env.BENCH_PDF), path: process.env.BENCH_PDF }]
  if (!Fs.existsSync(corpus)) {
    console.log(`(${Path.relative(repoRoot, corpus)} not found: no corpus forms to measure; set BENCH_PDF=path)`)
    return []
  }
  const all: ReadonlyArray<BenchForm> = [
    { label: "IRS 1040 (2010)", path: Path.join(corpus, "pdfjs__prefilled_f1040.pdf") },
    { label: "USCIS I-140", path: Path.join(corpus, "pypdfform__1087.pdf") },
    { label: "Canada B300", path: Path.join(corpus, "pdflib__with_combed_fields.pdf") },
    { label: "DS-11 (6 pages)", path: Path.join(corpus, "pypdfform__ds11_pdf.pdf") }
  ]
  return all.filter((form) => which.includes(form.label))
}
