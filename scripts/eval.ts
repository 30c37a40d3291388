/**
 * The quality figures of the engines, in one command. Two parts, each with its own section of
 * eval/baseline.json:
 *
 *   npm run eval [-- autofill] [--check | --update] [--jobs N]
 *   npm run eval -- detect [--raster] [--check | --update] [--only SUBSTR]
 *
 * `autofill` (the default): autofill precision, recall and invented values through a real server
 * (the labelled set of ../shared/eval/autofill, both input modes), and the token F1 of inferred
 * labels against the hidden /TU of the corpus (scripts/eval-labels.ts).
 *
 * `detect`: flat-to-fillable conversion through a real server, scored by
 * ../shared/eval/detect/run-eval.mjs (the corpus forms with their fields removed; typed F1,
 * precision and recall at IoU 0.5 and 0.2, box F1, median seconds per page, failed files).
 * `--raster` renders every flat PDF to images at 150 dpi (`--dpi N`) and wraps them as an
 * image-only PDF with the same page geometry (../shared/eval/detect/make-raster.mjs), so the
 * raster path is measured against the same truth; the figures go to `detect.raster` rather than
 * `detect.vector`.
 *
 * Options:
 *   --check      compare with eval/baseline.json and exit 1 naming the figure that regressed:
 *                autofill: the precision or recall of either mode more than 0.02 below it, the
 *                invented values of either mode above it, or the label (name) token F1 more than
 *                0.02 below it; detect: typed F1 at IoU 0.5 more than 0.02 below it
 *   --update     write the figures of this run to the part's section of eval/baseline.json (with
 *                the date and commit); the other sections are kept as they are
 *   --jobs N     forms the autofill evaluation runs at once (1)
 *   --only S     detect: only the corpus forms whose name contains S (not with --check/--update)
 *
 * The server is started by `ServerProcess` of @formwright/testing on a free loopback port, with a
 * fresh temporary data directory and the key `ka_test_key_1` of user `alice` that the
 * evaluations send, and is stopped at the end whatever happened. The progress of an evaluation
 * goes to stderr, the table of figures to stdout. Without ../shared (the evaluation and the
 * corpus beside the checkout) nothing is measured: it says so and exits 0.
 */
import { ServerProcess } from "@formwright/testing"
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { parseArgs } from "node:util"
import { compareDetect, type DetectBaseline, detectTable, measureDetect, stopDetect } from "./eval-detect.ts"

const repoRoot = resolve(import.meta.dirname, "..")
const sharedDir = resolve(repoRoot, "../shared")
const evalScript = join(sharedDir, "eval/autofill/autofill-eval.mjs")
const corpusDir = join(sharedDir, "corpus")
const formsDir = join(corpusDir, "pdfs")
const baselinePath = join(repoRoot, "eval/baseline.json")
const bin = join(repoRoot, "packages/http-node/src/bin.ts")
const apiKey = "ka_test_key_1"

/** How far below the baseline precision and recall may fall before `--check` fails. */
const tolerance = 0.02

const usage = (message: string): never => {
  console.error(`${message}; see the top of scripts/eval.ts`)
  process.exit(2)
}

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        check: { type: "boolean", default: false },
        update: { type: "boolean", default: false },
        jobs: { type: "string" },
        raster: { type: "boolean", default: false },
        dpi: { type: "string" },
        only: { type: "string" }
      },
      strict: true,
      allowPositionals: true
    })
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e))
  }
})()
const parts = ["autofill", "detect"] as const
if (parsed.positionals.length > 1) usage(`one part at a time (${parts.join(" or ")}), got '${parsed.positionals.join(" ")}'`)
const part = (parsed.positionals[0] ?? "autofill") as (typeof parts)[number]
if (!parts.includes(part)) usage(`unknown part '${part}' (${parts.join(", ")})`)
const options = parsed.values
if (options.check && options.update) usage("--check and --update exclude each other")
if (part === "autofill" && (options.raster || options.dpi !== undefined || options.only !== undefined)) {
  usage("--raster, --dpi and --only belong to the detect part (npm run eval -- detect ...)")
}
if (part === "detect" && options.jobs !== undefined) usage("--jobs belongs to the autofill part")
if (options.dpi !== undefined && !options.raster) usage("--dpi is the resolution of --raster")
if (options.only !== undefined && (options.check || options.update)) usage("--only measures a subset: not with --check or --update")
const jobs = Number(options.jobs ?? "1")
if (!Number.isInteger(jobs) || jobs < 1) usage(`--jobs: expected an integer >= 1, got '${options.jobs}'`)
const dpi = Number(options.dpi ?? "150")
if (!Number.isInteger(dpi) || dpi < 50 || dpi > 600) usage(`--dpi: expected an integer from 50 to 600, got '${options.dpi}'`)
const detectMode = options.raster ? "raster" : "vector"

// ---------------------------------------------------------------------------------------------
// Figures

const modes = ["profile", "text"] as const
type Mode = (typeof modes)[number]

interface AutofillFigures {
  readonly precision: number
  readonly recall: number
  readonly labelled: number
  readonly invented: number
  /** Forms whose run failed (their labelled fields count as missed). */
  readonly failed_forms: number
}

interface LabelFigures {
  readonly fields: number
  readonly f1: number
}

interface Figures {
  readonly autofill: Record<Mode, AutofillFigures>
  readonly labels: {
    /** The field's name (its accessible name, inferred with the /TU hidden) against the /TU. */
    readonly all_tu: LabelFigures
    readonly short_tu: LabelFigures
    /** The printed label alone (`semantic.label`, else the name) against the /TU; absent from older baselines. */
    readonly printed?: LabelFigures | undefined
  }
}

/** eval/baseline.json: the autofill part at the top (as it has always been), detection beside it. */
interface Baseline extends Figures {
  readonly date: string
  readonly commit: string
  readonly detect?: { readonly vector?: DetectBaseline; readonly raster?: DetectBaseline }
}

/** Runs `node args...` in the checkout; its stdout, with each line also shown on stderr. */
const running = new Set<ChildProcess>()
const runNode = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<string> =>
  new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    running.add(child)
    let out = ""
    let partial = ""
    child.stdout!.on("data", (data: Buffer) => {
      const text = data.toString("utf8")
      out += text
      partial += text
      const lines = partial.split("\n")
      partial = lines.pop() ?? ""
      for (const line of lines) if (line.trim() !== "") console.error(`  ${line}`)
    })
    child.stderr!.on("data", (data: Buffer) => process.stderr.write(data))
    child.once("error", reject)
    child.once("exit", (code, signal) => {
      running.delete(child)
      if (partial.trim() !== "") console.error(`  ${partial}`)
      if (code === 0) resolveRun(out)
      else reject(new Error(`node ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}`))
    })
  })

/** Token F1 of inferred labels, from the summary lines of scripts/eval-labels.ts. */
const measureLabels = async (): Promise<Figures["labels"]> => {
  console.error("label inference (scripts/eval-labels.ts):")
  const out = await runNode(["scripts/eval-labels.ts", "--worst", "0", "--semantic", "0"], { FORMWRIGHT_CORPUS: corpusDir })
  const figure = (pattern: RegExp, what: string): LabelFigures => {
    const match = pattern.exec(out)
    if (!match) throw new Error(`scripts/eval-labels.ts printed no ${what} line`)
    return { fields: Number(match[1]), f1: Number(match[2]) }
  }
  return {
    all_tu: figure(/^overall: (\d+) fields with a \/TU, token F1 ([\d.]+)/m, "overall"),
    short_tu: figure(/^short \/TU \(<= \d+ words\): (\d+) fields, token F1 ([\d.]+)/m, "short /TU"),
    printed: figure(/^printed label alone against \/TU: (\d+) fields, token F1 ([\d.]+)/m, "printed label")
  }
}

/** Autofill figures of both modes against a fresh server, from the evaluation's summary lines. */
const measureAutofill = async (): Promise<Figures["autofill"]> => {
  console.error("starting a server (packages/http-node/src/bin.ts serve)")
  const server = await ServerProcess.start({ entry: bin, apiKeys: { alice: apiKey } })
  stopServer = () => server.stop()
  try {
    console.error(`autofill evaluation against ${server.url} (${relative(repoRoot, evalScript)}, --mode both):`)
    const out = await runNode([
      evalScript,
      server.url,
      "--forms-dir",
      formsDir,
      "--mode",
      "both",
      "--key",
      apiKey,
      "--jobs",
      String(jobs)
    ])
    const crashes = server.exits().filter((exit) => !exit.expected)
    if (crashes.length > 0 || !server.alive()) {
      throw new Error(`the server died during the evaluation:\n${server.output().slice(-4000)}`)
    }
    const figures = {} as Record<Mode, AutofillFigures>
    for (const mode of modes) {
      const summary = new RegExp(
        `^autofill ${mode}: precision ([\\d.]+), recall ([\\d.]+) over (\\d+) labelled fields, (\\d+) invented values`,
        "m"
      ).exec(out)
      if (!summary) throw new Error(`the autofill evaluation printed no summary line for mode ${mode}`)
      const failed = new RegExp(`^${mode}: (\\d+) of \\d+ forms failed`, "m").exec(out)
      figures[mode] = {
        precision: Number(summary[1]),
        recall: Number(summary[2]),
        labelled: Number(summary[3]),
        invented: Number(summary[4]),
        failed_forms: failed ? Number(failed[1]) : 0
      }
    }
    return figures
  } finally {
    stopServer = undefined
    await server.stop()
  }
}

// ---------------------------------------------------------------------------------------------
// Baseline

const commitOf = (): string => {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()
  } catch {
    return "unknown"
  }
}

const readBaseline = (): Baseline => {
  if (!existsSync(baselinePath)) {
    throw new Error(`no baseline at ${relative(repoRoot, baselinePath)}; write one with npm run eval -- --update`)
  }
  return JSON.parse(readFileSync(baselinePath, "utf8")) as Baseline
}

/** One line per gated figure; the failed ones start with FAIL. */
const compare = (figures: Figures, baseline: Baseline): { readonly lines: Array<string>; readonly failed: number } => {
  const lines: Array<string> = []
  let failed = 0
  // The figures are printed with three decimals; the epsilon keeps exactly 0.02 below a pass.
  const epsilon = 1e-9
  /** A figure that may drop by the tolerance at most. */
  const withinTolerance = (what: string, now: number, then: number) => {
    const floor = then - tolerance
    const ok = now >= floor - epsilon
    if (!ok) failed++
    lines.push(`${ok ? "ok  " : "FAIL"}  ${what} ${now.toFixed(3)} ${ok ? ">=" : "<"} ${floor.toFixed(3)} (baseline ${then.toFixed(3)} - ${tolerance})`)
  }
  for (const mode of modes) {
    const now = figures.autofill[mode]
    const then = baseline.autofill[mode]
    if (now.labelled !== then.labelled) {
      lines.push(`note  ${mode}: ${now.labelled} labelled fields now, ${then.labelled} in the baseline (the labels changed)`)
    }
    for (const name of ["precision", "recall"] as const) withinTolerance(`${mode} ${name}`, now[name], then[name])
    const ok = now.invented <= then.invented
    if (!ok) failed++
    lines.push(`${ok ? "ok  " : "FAIL"}  ${mode} invented ${now.invented} ${ok ? "<=" : ">"} ${then.invented} (baseline)`)
  }
  withinTolerance("label token F1", figures.labels.all_tu.f1, baseline.labels.all_tu.f1)
  return { lines, failed }
}

// ---------------------------------------------------------------------------------------------
// Output

const table = (figures: Figures, baseline: Baseline | undefined): string => {
  const rows: Array<[string, string, string]> = [["figure", "value", baseline ? "baseline" : ""]]
  const fixed = (n: number) => n.toFixed(3)
  for (const mode of modes) {
    const now = figures.autofill[mode]
    const then = baseline?.autofill[mode]
    rows.push([`autofill ${mode}: precision`, fixed(now.precision), then ? fixed(then.precision) : ""])
    rows.push([`autofill ${mode}: recall`, fixed(now.recall), then ? fixed(then.recall) : ""])
    rows.push([`autofill ${mode}: invented values`, String(now.invented), then ? String(then.invented) : ""])
  }
  const { all_tu, short_tu } = figures.labels
  rows.push([`label (name) token F1: all /TU (${all_tu.fields} fields)`, fixed(all_tu.f1), baseline ? fixed(baseline.labels.all_tu.f1) : ""])
  rows.push([`label (name) token F1: /TU <= 8 words (${short_tu.fields})`, fixed(short_tu.f1), baseline ? fixed(baseline.labels.short_tu.f1) : ""])
  const printed = figures.labels.printed
  const printedThen = baseline?.labels.printed
  if (printed) {
    rows.push([`printed label alone token F1: all /TU (${printed.fields})`, fixed(printed.f1), printedThen ? fixed(printedThen.f1) : ""])
  }
  const width = Math.max(...rows.map((row) => row[0].length))
  const lines = rows.map(([name, value, then]) => `${name.padEnd(width)}  ${value.padStart(6)}  ${then.padStart(8)}`.trimEnd())
  const labelled = modes.map((mode) => `${figures.autofill[mode].labelled} labelled fields (${mode})`).join(", ")
  const failedForms = modes.filter((mode) => figures.autofill[mode].failed_forms > 0)
    .map((mode) => `${figures.autofill[mode].failed_forms} forms failed in mode ${mode}`)
  return [...lines, `over ${labelled}${failedForms.length > 0 ? `; ${failedForms.join(", ")}` : ""}`].join("\n")
}

// ---------------------------------------------------------------------------------------------
// Main

let stopServer: (() => Promise<void>) | undefined

const interrupted = (signal: NodeJS.Signals) => {
  console.error(`\n${signal}: stopping`)
  for (const child of running) child.kill("SIGTERM")
  const stopping = Promise.all([stopServer?.(), stopDetect()])
  stopping.finally(() => process.exit(130))
}
process.once("SIGINT", interrupted)
process.once("SIGTERM", interrupted)

/** Writes the baseline with `change` applied; the sections it does not touch stay as they were. */
const writeBaseline = (change: (current: Partial<Baseline>) => Baseline) => {
  const current: Partial<Baseline> = existsSync(baselinePath) ? readBaseline() : {}
  mkdirSync(dirname(baselinePath), { recursive: true })
  writeFileSync(baselinePath, JSON.stringify(change(current), null, 2) + "\n")
  console.log(`wrote ${relative(repoRoot, baselinePath)}`)
}

const today = () => new Date().toISOString().slice(0, 10)

const runAutofill = async (): Promise<number> => {
  if (spawnSync("qpdf", ["--version"]).error) {
    console.error("qpdf is not on PATH: the autofill evaluation reads the filled PDFs with it (apt-get install qpdf)")
    return 1
  }
  const baseline = options.check ? readBaseline() : existsSync(baselinePath) ? readBaseline() : undefined

  const started = Date.now()
  const labels = await measureLabels()
  const autofill = await measureAutofill()
  const figures: Figures = { autofill, labels }

  console.log(`\nevaluation (${((Date.now() - started) / 60_000).toFixed(1)} min)`)
  console.log(table(figures, baseline))
  if (baseline) console.log(`baseline: ${relative(repoRoot, baselinePath)}, ${baseline.date}, commit ${baseline.commit.slice(0, 12)}`)

  if (options.update) {
    writeBaseline((current) => ({ ...current, date: today(), commit: commitOf(), ...figures }))
  }
  if (options.check && baseline) {
    const { failed, lines } = compare(figures, baseline)
    console.log(`\ncheck against the baseline (precision, recall and label token F1 may drop ${tolerance}, invented values may not rise):`)
    for (const line of lines) console.log(`  ${line}`)
    if (failed > 0) {
      console.log(`${failed} figure${failed === 1 ? "" : "s"} regressed`)
      return 1
    }
    console.log("no regression")
  }
  return 0
}

const runDetect = async (): Promise<number> => {
  if (spawnSync("qpdf", ["--version"]).error) {
    console.error("qpdf is not on PATH: the detection evaluation flattens the corpus forms with it (apt-get install qpdf)")
    return 1
  }
  if (detectMode === "raster" && spawnSync("pdftoppm", ["-v"]).error) {
    console.error("pdftoppm is not on PATH: --raster renders the flat PDFs with it (apt-get install poppler-utils)")
    return 1
  }
  const stored = existsSync(baselinePath) ? readBaseline() : undefined
  const baseline = stored?.detect?.[detectMode]
  if (options.check && !baseline) {
    throw new Error(`eval/baseline.json has no detect.${detectMode} section; write one with npm run eval -- detect${options.raster ? " --raster" : ""} --update`)
  }

  const started = Date.now()
  const figures = await measureDetect({
    mode: detectMode,
    dpi,
    only: options.only,
    repoRoot,
    sharedDir,
    bin,
    apiKey
  })
  console.log(`\ndetection evaluation, ${detectMode}${detectMode === "raster" ? ` at ${dpi} dpi` : ""} (${((Date.now() - started) / 60_000).toFixed(1)} min)`)
  console.log(detectTable(detectMode, figures, baseline))
  if (baseline) console.log(`baseline: ${relative(repoRoot, baselinePath)} detect.${detectMode}, ${baseline.date}, commit ${baseline.commit.slice(0, 12)}`)

  if (options.update) {
    const entry: DetectBaseline = { date: today(), commit: commitOf(), ...(detectMode === "raster" ? { dpi } : {}), ...figures }
    writeBaseline((current) => ({ ...current, detect: { ...current.detect, [detectMode]: entry } }) as Baseline)
  }
  if (options.check && baseline) {
    const { line, failed } = compareDetect(detectMode, figures, baseline)
    console.log(`\ncheck against the baseline (typed F1 may drop 0.02):`)
    console.log(`  ${line}`)
    if (failed) {
      console.log("1 figure regressed")
      return 1
    }
    console.log("no regression")
  }
  return 0
}

const main = async (): Promise<number> => {
  const needs = part === "autofill"
    ? [evalScript, formsDir, join(corpusDir, "manifest.json")]
    : [join(sharedDir, "eval/detect/run-eval.mjs"), formsDir, join(corpusDir, "manifest.json")]
  const missing = needs.filter((path) => !existsSync(path))
  if (missing.length > 0) {
    console.log(`evaluation skipped: ${missing.map((path) => relative(repoRoot, path)).join(", ")} not found (../shared beside the checkout)`)
    return 0
  }
  return part === "autofill" ? runAutofill() : runDetect()
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(`eval: ${error instanceof Error ? error.message : String(error)}`)
    await Promise.all([stopServer?.(), stopDetect()])
    process.exit(1)
  }
)
