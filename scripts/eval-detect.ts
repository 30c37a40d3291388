/**
 * The detection part of `npm run eval` (scripts/eval.ts): flat-to-fillable conversion through a
 * real server, scored by ../shared/eval/detect/run-eval.mjs against the widgets of the corpus
 * forms it flattened. Vector pages as the instrument makes them, or (`raster`) the same flat pages
 * rendered to images and wrapped as an image-only PDF, so the raster path meets the same truth.
 */
import { ServerProcess } from "@formwright/testing"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join, relative } from "node:path"
import { pathToFileURL } from "node:url"

export const detectModes = ["vector", "raster"] as const
export type DetectMode = (typeof detectModes)[number]

/** Precision, recall and F1 of one way of matching, with the counts they come from. */
export interface Scores {
  readonly precision: number
  readonly recall: number
  readonly f1: number
  readonly tp: number
  readonly fp: number
  readonly fn: number
}

export interface DetectFigures {
  /** Forms scored, converted, failed (their cue widgets count as missed) and skipped by the instrument. */
  readonly files: number
  readonly converted: number
  readonly failed: number
  readonly skipped: number
  readonly failed_files: ReadonlyArray<string>
  /** Typed matching (same class) at IoU 0.5: the headline figure. */
  readonly typed_iou50: Scores
  /** The same at IoU 0.2: how much is lost to loose boxes. */
  readonly typed_iou20: Scores
  /** Box F1: untyped matching at IoU 0.5. */
  readonly untyped_iou50: Scores
  readonly median_seconds_per_page: number
}

export interface DetectBaseline extends DetectFigures {
  readonly date: string
  readonly commit: string
  /** Raster mode: the render resolution of the image-only PDFs. */
  readonly dpi?: number
}

export interface DetectOptions {
  readonly mode: DetectMode
  readonly dpi: number
  readonly only: string | undefined
  readonly repoRoot: string
  readonly sharedDir: string
  readonly bin: string
  readonly apiKey: string
}

/** How far below the baseline typed F1 may fall before `--check` fails. */
export const detectTolerance = 0.02

const running = new Set<ChildProcess>()
let stopServer: (() => Promise<void>) | undefined

/** Stops what a detection run started (an interrupted `npm run eval`). */
export const stopDetect = async (): Promise<void> => {
  for (const child of running) child.kill("SIGTERM")
  await stopServer?.()
}

/** Runs `node args...`, showing each line of its stdout on stderr as it comes. */
const runNode = (args: ReadonlyArray<string>, cwd: string, env: Record<string, string>): Promise<void> =>
  new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] })
    running.add(child)
    let partial = ""
    child.stdout!.on("data", (data: Buffer) => {
      const lines = (partial + data.toString("utf8")).split("\n")
      partial = lines.pop() ?? ""
      for (const line of lines) if (line.trim() !== "") console.error(`  ${line}`)
    })
    child.once("error", reject)
    child.once("exit", (code, signal) => {
      running.delete(child)
      if (partial.trim() !== "") console.error(`  ${partial}`)
      if (code === 0) resolveRun()
      else reject(new Error(`node ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}`))
    })
  })

interface ManifestEntry {
  readonly name: string
  readonly category: string
  readonly n_fields: number
}

/** The forms run-eval.mjs scores: the manifest's forms that have fields, as it chooses them. */
const evaluatedForms = (manifest: string, only: string | undefined): ReadonlyArray<ManifestEntry> =>
  (JSON.parse(readFileSync(manifest, "utf8")) as { files: ReadonlyArray<ManifestEntry> }).files
    .filter((f) => f.category === "form" && f.n_fields > 0 && (only === undefined || f.name.includes(only)))

/**
 * A cache laid out as run-eval.mjs reads its own (`<sha256 of the original>/flat.pdf` and
 * `truth.json`), whose `flat.pdf` is the image-only version of the flat PDF. Given to run-eval as
 * `DETECT_EVAL_CACHE`, it makes run-eval post the raster PDFs and score them against the truth of
 * the vector ones. Entries are rebuilt when the truth format, the raster output or the
 * resolution change; a form the instrument cannot flatten is left out, and run-eval skips it.
 */
const prepareRasterCache = async (options: DetectOptions, forms: ReadonlyArray<ManifestEntry>, formsDir: string): Promise<string> => {
  const detectDir = join(options.sharedDir, "eval/detect")
  const flatModule = await import(pathToFileURL(join(detectDir, "make-flat.mjs")).href)
  const rasterModule = await import(pathToFileURL(join(detectDir, "make-raster.mjs")).href)
  const vectorCache = process.env["DETECT_EVAL_CACHE"] ?? "/tmp/detect-eval-cache"
  const rasterCache = join(tmpdir(), "detect-eval-raster-cache", `${options.dpi}dpi`)
  const stamp = { truth_version: flatModule.TRUTH_VERSION, raster_version: rasterModule.RASTER_VERSION, dpi: options.dpi }
  const write = (path: string, data: string | Uint8Array) => {
    writeFileSync(`${path}.tmp`, data)
    renameSync(`${path}.tmp`, path)
  }
  console.error(`rendering the flat PDFs at ${options.dpi} dpi into image-only PDFs (${rasterCache}):`)
  for (const form of forms) {
    const original = readFileSync(join(formsDir, form.name))
    const key: string = flatModule.sha256(original)
    const dir = join(rasterCache, key)
    const stampPath = join(dir, "raster.json")
    if (existsSync(stampPath) && existsSync(join(dir, "flat.pdf")) && readFileSync(stampPath, "utf8") === JSON.stringify(stamp)) continue
    // The flat PDF and truth run-eval.mjs made (or makes) for the vector mode.
    const vectorDir = join(vectorCache, key)
    let flat: Uint8Array
    let truth: { version: number; source: { name: string } }
    try {
      truth = JSON.parse(readFileSync(join(vectorDir, "truth.json"), "utf8"))
      if (truth.version !== flatModule.TRUTH_VERSION) throw new Error("stale")
      flat = readFileSync(join(vectorDir, "flat.pdf"))
    } catch {
      try {
        ;({ flat, truth } = await flatModule.makeFlat(original))
      } catch (error) {
        console.error(`  skip ${form.name}: make-flat failed (${error instanceof Error ? error.message : String(error)})`)
        continue
      }
      truth.source.name = basename(form.name)
      mkdirSync(vectorDir, { recursive: true })
      write(join(vectorDir, "flat.pdf"), flat)
      write(join(vectorDir, "truth.json"), JSON.stringify(truth))
    }
    // A form that cannot be rendered must not fall back to its vector PDF in run-eval.
    const raster = await rasterModule.rasterize(flat, { dpi: options.dpi }) as { pdf: Uint8Array; pages: number; ms: number }
    mkdirSync(dir, { recursive: true })
    write(join(dir, "flat.pdf"), raster.pdf)
    write(join(dir, "truth.json"), JSON.stringify(truth))
    write(stampPath, JSON.stringify(stamp))
    console.error(`  ${form.name}: ${raster.pages} pages, ${(raster.pdf.byteLength / 1024 / 1024).toFixed(1)} MiB, ${raster.ms} ms`)
  }
  return rasterCache
}

interface RunEvalOutput {
  readonly summary: {
    readonly files: number
    readonly converted: number
    readonly failed: number
    readonly skipped: number
    readonly typed_iou50: Scores
    readonly typed_iou20: Scores
    readonly untyped_iou50: Scores
    readonly median_seconds_per_page: number | null
  }
  readonly files: ReadonlyArray<{ readonly file: string; readonly status: string; readonly error?: string }>
}

/** The detection figures of one mode against a fresh server. */
export const measureDetect = async (options: DetectOptions): Promise<DetectFigures> => {
  const detectDir = join(options.sharedDir, "eval/detect")
  const manifest = join(options.sharedDir, "corpus/manifest.json")
  const formsDir = join(options.sharedDir, "corpus/pdfs")
  const forms = evaluatedForms(manifest, options.only)
  if (forms.length === 0) throw new Error(`no corpus form to evaluate${options.only !== undefined ? ` matches '${options.only}'` : ""}`)
  const env: Record<string, string> = {}
  if (options.mode === "raster") env["DETECT_EVAL_CACHE"] = await prepareRasterCache(options, forms, formsDir)

  const scratch = mkdtempSync(join(tmpdir(), "formwright-eval-detect-"))
  const resultsPath = join(scratch, "results.json")
  console.error("starting a server (packages/http-node/src/bin.ts serve)")
  const server = await ServerProcess.start({ entry: options.bin, apiKeys: { alice: options.apiKey } })
  stopServer = () => server.stop()
  try {
    const script = join(detectDir, "run-eval.mjs")
    console.error(`detection evaluation (${options.mode}) against ${server.url} (${relative(options.repoRoot, script)}):`)
    await runNode([
      script,
      server.url,
      manifest,
      formsDir,
      "--key",
      options.apiKey,
      "--out",
      resultsPath,
      ...(options.only !== undefined ? ["--only", options.only] : [])
    ], options.repoRoot, env)
    const crashes = server.exits().filter((exit) => !exit.expected)
    if (crashes.length > 0 || !server.alive()) {
      throw new Error(`the server died during the evaluation:\n${server.output().slice(-4000)}`)
    }
    // run-eval.mjs always exits 0; without its results file it ended before scoring anything.
    if (!existsSync(resultsPath)) throw new Error("run-eval.mjs wrote no results (see its SUMMARY line above)")
    const { summary, files } = JSON.parse(readFileSync(resultsPath, "utf8")) as RunEvalOutput
    if (summary.typed_iou50.f1 === null || summary.median_seconds_per_page === null) {
      throw new Error("run-eval.mjs scored no form (see its lines above)")
    }
    return {
      files: summary.files,
      converted: summary.converted,
      failed: summary.failed,
      skipped: summary.skipped,
      failed_files: files.filter((f) => f.status === "failed").map((f) => f.file),
      typed_iou50: summary.typed_iou50,
      typed_iou20: summary.typed_iou20,
      untyped_iou50: summary.untyped_iou50,
      median_seconds_per_page: summary.median_seconds_per_page
    }
  } finally {
    stopServer = undefined
    await server.stop()
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The table of one mode's figures, beside its baseline when there is one. */
export const detectTable = (mode: DetectMode, figures: DetectFigures, baseline: DetectBaseline | undefined): string => {
  const fixed = (n: number) => n.toFixed(3)
  const rows: Array<[string, string, string]> = [["figure", "value", baseline ? "baseline" : ""]]
  const add = (name: string, now: number, then: number | undefined) => rows.push([name, fixed(now), then === undefined ? "" : fixed(then)])
  add(`detect ${mode}: typed F1 @0.5`, figures.typed_iou50.f1, baseline?.typed_iou50.f1)
  add(`detect ${mode}: typed precision @0.5`, figures.typed_iou50.precision, baseline?.typed_iou50.precision)
  add(`detect ${mode}: typed recall @0.5`, figures.typed_iou50.recall, baseline?.typed_iou50.recall)
  add(`detect ${mode}: typed F1 @0.2`, figures.typed_iou20.f1, baseline?.typed_iou20.f1)
  add(`detect ${mode}: box F1 @0.5`, figures.untyped_iou50.f1, baseline?.untyped_iou50.f1)
  add(`detect ${mode}: median s/page`, figures.median_seconds_per_page, baseline?.median_seconds_per_page)
  const width = Math.max(...rows.map((row) => row[0].length))
  const lines = rows.map(([name, value, then]) => `${name.padEnd(width)}  ${value.padStart(6)}  ${then.padStart(8)}`.trimEnd())
  const { typed_iou50: t } = figures
  lines.push(
    `over ${figures.files} forms (${figures.converted} converted, ${figures.failed} failed, ${figures.skipped} skipped by the instrument); typed @0.5: tp ${t.tp}, fp ${t.fp}, fn ${t.fn}`
  )
  lines.push(figures.failed_files.length > 0 ? `failed files: ${figures.failed_files.join(", ")}` : "failed files: none")
  return lines.join("\n")
}

/** One line for the gated figure, starting with FAIL when typed F1 fell more than the tolerance. */
export const compareDetect = (mode: DetectMode, figures: DetectFigures, baseline: DetectBaseline): { readonly line: string; readonly failed: boolean } => {
  // The figures are printed with three decimals; the epsilon keeps exactly 0.02 below a pass.
  const epsilon = 1e-9
  const then = baseline.typed_iou50.f1
  const now = figures.typed_iou50.f1
  const floor = then - detectTolerance
  const ok = now >= floor - epsilon
  return {
    line: `${ok ? "ok  " : "FAIL"}  detect ${mode} typed F1 @0.5 ${now.toFixed(3)} ${ok ? ">=" : "<"} ${floor.toFixed(3)} (baseline ${then.toFixed(3)} - ${detectTolerance})`,
    failed: !ok
  }
}
