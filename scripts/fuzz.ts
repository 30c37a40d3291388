/**
 * The long fuzz run of issue 6 ("no upload can hurt the server"): mutated corpus PDFs, with the
 * generated hostile documents mixed in, sent to a real `formwright serve` on loopback through
 * `POST /v1/forms/upload` and `POST /v1/utils/convert` (each conversion followed to its end).
 *
 *   npm run fuzz -- --cases 10000 [--seed N] [--concurrency 4]
 *
 * Options (all optional):
 *   --cases N            cases to run (1000)
 *   --from N             run cases N to --cases - 1 of the run (0), to replay the cases around a failure
 *   --seed N             run seed (1); case i uses HostileFixtures.caseSeed(seed, i)
 *   --concurrency N      cases at once (4)
 *   --convert-every N    also convert every Nth case (1: all; 0: never)
 *   --bomb-every N       every Nth case is a generated hostile document instead (250; 0: never)
 *   --corpus DIR         PDFs to mutate (../shared/corpus/pdfs beside the checkout; without it
 *                        the generated fixtures of @formwright/testing)
 *   --max-minutes N      stop starting cases after N minutes (120)
 *   --job-timeout-ms N   a conversion still running after this is counted as stalled (120000)
 *   --replay SEED        run the one mutation case of that case seed (printed with each failure)
 *   --generated TEXT     run the generated hostile documents whose name holds TEXT, once each
 *   --save DIR           write every failing input there as <case seed>.pdf (a temporary directory)
 *   FORMWRIGHT_*         passed to the server (e.g. FORMWRIGHT_PDF_WORKERS=2)
 *
 * It prints the number of cases, a histogram of status codes, 5xx count, crashes (the process
 * exiting) and restarts, unhandled rejections the server logged, the slowest case, the peak RSS,
 * and the latency of `/health` (p50/p99/max), polled every 20 ms all along from a worker thread.
 * Exit code 1 when any 5xx, unanswered request or crash happened (each listed with its case
 * seed, file and mutation, to replay), else 0. Only 127.0.0.1 is contacted.
 *
 * The server is run by `ServerProcess` of @formwright/testing, the same harness as the hostile
 * tests (packages/http-node/test/Hostile.test.ts).
 */
import { Fixtures, FlatFixtures, HostileFixtures, ServerProcess } from "@formwright/testing"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const repoRoot = resolve(import.meta.dirname, "..")
const bin = join(repoRoot, "packages/http-node/src/bin.ts")

// ---------------------------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const at = argv.indexOf(`--${name}`)
  return at >= 0 ? argv[at + 1] : undefined
}
const integer = (name: string, fallback: number, min = 0): number => {
  const raw = option(name)
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min) {
    console.error(`--${name}: expected an integer >= ${min}, got '${raw}'`)
    process.exit(2)
  }
  return value
}
const known = new Set(["cases", "seed", "concurrency", "convert-every", "bomb-every", "corpus", "max-minutes", "job-timeout-ms", "replay", "generated", "save", "from"])
for (const arg of argv) {
  if (arg.startsWith("--") && !known.has(arg.slice(2))) {
    console.error(`unknown option ${arg}; see the top of scripts/fuzz.ts`)
    process.exit(2)
  }
}

const replay = option("replay") === undefined ? undefined : integer("replay", 0)
const generatedOnly = option("generated")
const generated = generatedOnly === undefined
  ? HostileFixtures.catalogue
  : HostileFixtures.catalogue.filter((c) => c.name.toLowerCase().includes(generatedOnly.toLowerCase()))
if (generated.length === 0) {
  console.error(`--generated: no generated document's name holds '${generatedOnly}'; they are:\n${HostileFixtures.catalogue.map((c) => `  ${c.name}`).join("\n")}`)
  process.exit(2)
}
const single = replay !== undefined || generatedOnly !== undefined
const cases = replay !== undefined ? 1 : generatedOnly !== undefined ? generated.length : integer("cases", 1000, 1)
const seed = integer("seed", 1)
const from = single ? 0 : integer("from", 0)
const concurrency = single ? 1 : integer("concurrency", 4, 1)
const convertEvery = integer("convert-every", 1)
const bombEvery = replay !== undefined ? 0 : generatedOnly !== undefined ? 1 : integer("bomb-every", 250)
const maxMinutes = integer("max-minutes", 120, 1)
const jobTimeoutMs = integer("job-timeout-ms", 120_000, 1000)
const corpusDir = resolve(option("corpus") ?? join(repoRoot, "../shared/corpus/pdfs"))
const saveDir = option("save") ?? mkdtempSync(join(tmpdir(), "formwright-fuzz-failures-"))

const say = (text: string) => process.stderr.write(`[fuzz] ${text}\n`)

// ---------------------------------------------------------------------------------------------
// Inputs

interface Source {
  readonly name: string
  readonly bytes: Uint8Array
}

const loadSources = async (): Promise<Array<Source>> => {
  if (existsSync(corpusDir)) {
    const names = readdirSync(corpusDir).filter((n) => n.toLowerCase().endsWith(".pdf")).sort()
    if (names.length > 0) return names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(corpusDir, name))) }))
  }
  say(`no PDFs at ${corpusDir}: mutating the generated fixtures of @formwright/testing instead`)
  return [
    { name: "formWithEveryFieldType", bytes: await Fixtures.formWithEveryFieldType() },
    { name: "flatApplicationForm", bytes: (await FlatFixtures.flatApplicationForm()).bytes },
    { name: "flatTwoPageForm", bytes: (await FlatFixtures.flatTwoPageForm()).bytes },
    { name: "flatBoxedForm", bytes: (await FlatFixtures.flatBoxedForm()).bytes },
    { name: "textBomb(3, 3)", bytes: HostileFixtures.textBomb({ fanOut: 3, depth: 3 }) },
    { name: "manyPages(5)", bytes: HostileFixtures.manyPages(5) },
    { name: "objectStreamBomb(64 KiB)", bytes: await HostileFixtures.objectStreamBomb(64 * 1024) }
  ]
}

interface Case {
  readonly index: number
  /** The case seed: `--replay <seed>` runs this case alone. */
  readonly seed: number
  /** What it is, to reproduce it: the source file(s) and the mutation, or the generated document. */
  readonly label: string
  readonly bytes: Uint8Array
}

const makeCase = async (index: number, sources: ReadonlyArray<Source>): Promise<Case> => {
  const caseSeed = replay ?? HostileFixtures.caseSeed(seed, index)
  if (bombEvery > 0 && index % bombEvery === bombEvery - 1) {
    const hostile = generated[Math.floor(index / bombEvery) % generated.length]!
    return { index, seed: caseSeed, label: `generated: ${hostile.name}`, bytes: await hostile.make() }
  }
  const rng = HostileFixtures.random(caseSeed)
  const source = rng.pick(sources)
  const donor = rng.pick(sources)
  const mutation = HostileFixtures.mutate(source.bytes, caseSeed, { donor: donor.bytes })
  const donorNote = mutation.kind === "splice" ? ` (donor ${donor.name})` : ""
  return { index, seed: caseSeed, label: `${source.name}${donorNote}: ${mutation.kind}, ${mutation.detail}`, bytes: mutation.bytes }
}

// ---------------------------------------------------------------------------------------------
// The run

interface Failure {
  readonly what: string
  readonly cases: ReadonlyArray<Case>
  readonly detail: string
}

const main = async () => {
  const sources = await loadSources()
  say(`${cases} case(s), seed ${seed}, ${concurrency} at once, ${sources.length} source PDF(s), conversions every ${convertEvery || "never"}, a generated document every ${bombEvery || "never"}`)

  const histogram = new Map<string, number>()
  const count = (key: string) => histogram.set(key, (histogram.get(key) ?? 0) + 1)
  const failures: Array<Failure> = []
  const unhandled: Array<Failure> = []
  const stalledJobs: Array<string> = []
  const inFlight = new Set<Case>()
  // A crash is noticed a moment after the request it ends: cases finished in the last 3 s are suspects too.
  const recent: Array<{ readonly c: Case; readonly at: number }> = []
  const suspects = () => {
    const now = Date.now()
    while (recent.length > 0 && now - recent[0]!.at > 3_000) recent.shift()
    return [...new Set([...inFlight, ...recent.map((r) => r.c)])]
  }
  let crashes = 0
  let restarts = 0
  let peakRss = 0
  let slowestUpload = { ms: 0, label: "" }
  let slowestConversion = { ms: 0, label: "" }
  const saved = new Set<number>()
  const save = (c: Case) => {
    if (saved.has(c.seed) || c.label.startsWith("generated:")) return
    saved.add(c.seed)
    mkdirSync(saveDir, { recursive: true })
    writeFileSync(join(saveDir, `${c.seed}.pdf`), c.bytes)
  }

  let restarting: Promise<void> | undefined
  const server = await ServerProcess.start({
    entry: bin,
    env: Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.startsWith("FORMWRIGHT_PDF_") && v !== undefined) as Array<[string, string]>),
    onLine: (line) => {
      // bin.ts's net for the main thread, and the PDF worker's own (PdfWorker.ts).
      if (/unhandled promise rejection|rejected with nobody waiting/i.test(line)) {
        const cases = suspects()
        cases.forEach(save)
        unhandled.push({ what: "unhandled rejection logged", cases, detail: line.slice(0, 600) })
      }
    },
    onExit: (exit) => {
      if (exit.expected) return
      crashes++
      const cases = suspects()
      cases.forEach(save)
      failures.push({ what: `crash (exit code ${exit.code}, signal ${exit.signal})`, cases, detail: exit.output.slice(-4000) })
    }
  })
  const probe = ServerProcess.probeHealth(server, { intervalMs: 20 })
  let sampledPeak = 0
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, server.peakRssBytes())
  sampledPeak = Math.max(sampledPeak, server.sampledPeakRssBytes())
    sampledPeak = Math.max(sampledPeak, server.sampledPeakRssBytes())
  }, 1000)

  /** Restarts a dead server once, however many cases notice it. */
  const ensureAlive = async () => {
    if (restarting) await restarting
    if (server.alive()) return
    if (!restarting) {
      restarting = (async () => {
        if (restarts >= 20) throw new Error("the server died 20 times: giving up (a crash loop?)")
        restarts++
        say(`the server died; restarting it (restart ${restarts})`)
        await server.restart()
        probe.retarget(server.url)
      })().finally(() => (restarting = undefined))
    }
    await restarting
  }

  const post = async (path: string, bytes: Uint8Array) => {
    const started = Date.now()
    try {
      const res = await server.call(path, {
        method: "POST",
        headers: { "content-type": "application/pdf" },
        body: bytes as Uint8Array<ArrayBuffer>,
        signal: AbortSignal.timeout(90_000)
      })
      return { status: res.status, text: await res.text(), ms: Date.now() - started }
    } catch (e) {
      return { status: 0, text: e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ""}` : String(e), ms: Date.now() - started }
    }
  }

  const check = (c: Case, route: string, status: number, text: string) => {
    count(`${route} ${status === 0 ? "no answer" : status}`)
    if (status === 0 || status >= 500) {
      save(c)
      failures.push({ what: `${route} ${status === 0 ? "no answer" : status}`, cases: [c], detail: text.slice(0, 600) })
    }
  }

  const runCase = async (c: Case) => {
    inFlight.add(c)
    try {
      const up = await post("/v1/forms/upload", c.bytes)
      check(c, "upload", up.status, up.text)
      if (up.ms > slowestUpload.ms) slowestUpload = { ms: up.ms, label: `seed ${c.seed}, ${c.label}` }
      if (convertEvery === 0 || c.index % convertEvery !== 0) return
      await ensureAlive()
      const started = Date.now()
      const conversion = await post("/v1/utils/convert?pages=1", c.bytes)
      check(c, "convert", conversion.status, conversion.text)
      if (conversion.status !== 200) return
      const jobId = JSON.parse(conversion.text).job_id as string
      let state = "stalled"
      while (Date.now() - started < jobTimeoutMs) {
        await ensureAlive()
        const res = await server.call(`/v1/utils/convert/${jobId}/status`, { signal: AbortSignal.timeout(30_000) }).catch(() => undefined)
        if (res && res.status >= 500) {
          check(c, "status", res.status, await res.text())
          return
        }
        const body: any = res ? await res.json().catch(() => undefined) : undefined
        if (body?.status === "completed" || body?.status === "failed") {
          state = body.status
          break
        }
        await new Promise((r) => setTimeout(r, 250))
      }
      count(`conversion ${state}`)
      const ms = Date.now() - started
      if (ms > slowestConversion.ms) slowestConversion = { ms, label: `seed ${c.seed}, ${c.label}` }
      if (state === "stalled") stalledJobs.push(`seed ${c.seed}, ${c.label}`)
    } finally {
      inFlight.delete(c)
      recent.push({ c, at: Date.now() })
      await ensureAlive()
    }
  }

  const startedAt = Date.now()
  const deadline = startedAt + maxMinutes * 60_000
  let next = from
  let done = 0
  let lastReport = Date.now()
  let aborted: unknown
  const worker = async () => {
    try {
      while (next < cases && Date.now() < deadline && aborted === undefined) {
        const c = await makeCase(next++, sources)
        await runCase(c)
        done++
        if (Date.now() - lastReport > 30_000) {
          lastReport = Date.now()
          say(`${done}/${cases} cases, ${failures.length} failure(s), ${crashes} crash(es), ${((Date.now() - startedAt) / 1000).toFixed(0)} s`)
        }
      }
    } catch (e) {
      aborted ??= e
    }
  }
  // Ctrl-C: finish the cases under way and print the report; a second one ends at once.
  process.once("SIGINT", () => {
    say("interrupted: finishing the cases under way (Ctrl-C again to quit now)")
    aborted ??= new Error("interrupted")
    process.once("SIGINT", () => process.exit(130))
  })
  await Promise.all(Array.from({ length: concurrency }, worker))
  clearInterval(sampler)
  peakRss = Math.max(peakRss, server.peakRssBytes())
  sampledPeak = Math.max(sampledPeak, server.sampledPeakRssBytes())
  const health = await probe.stop()
  await server.stop()

  // -------------------------------------------------------------------------------------------
  // The report

  const seconds = (Date.now() - startedAt) / 1000
  const fiveXX = [...histogram].filter(([k]) => / 5\d\d$/.test(k)).reduce((s, [, n]) => s + n, 0)
  const noAnswer = [...histogram].filter(([k]) => k.endsWith("no answer")).reduce((s, [, n]) => s + n, 0)
  const lines = [
    "",
    `cases:          ${done} of ${cases - from} in ${seconds.toFixed(0)} s (seed ${seed}${replay !== undefined ? `, replay of case seed ${replay}` : ""})${Date.now() >= deadline ? " — stopped at --max-minutes" : ""}`,
    `statuses:       ${[...histogram].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`).join(", ")}`,
    `5xx:            ${fiveXX}${noAnswer > 0 ? `; unanswered requests: ${noAnswer}` : ""}`,
    `crashes:        ${crashes} (restarts: ${restarts})`,
    `unhandled rejections logged: ${unhandled.length}`,
    `stalled jobs:   ${stalledJobs.length} (still running after ${jobTimeoutMs} ms)`,
    `slowest upload: ${slowestUpload.ms} ms (${slowestUpload.label})`,
    `slowest conversion: ${slowestConversion.ms} ms (${slowestConversion.label})`,
    `peak RSS:       ${ServerProcess.formatMiB(sampledPeak)} at once (server and workers, sampled every 50 ms); ${ServerProcess.formatMiB(peakRss)} adding up each process's own peak`,
    `health:         ${ServerProcess.formatHealth(health)}`
  ]
  const describeCases = (cs: ReadonlyArray<Case>) =>
    cs.length === 0
      ? "  (no case in flight)"
      : cs.map((c) => {
        const again = c.label.startsWith("generated: ") ? `--generated "${c.label.slice("generated: ".length)}"` : `--replay ${c.seed}`
        return `  case ${c.index}, case seed ${c.seed} (${again}): ${c.label}`
      }).join("\n")
  const detailed = (f: Failure) => `- ${f.what}\n${describeCases(f.cases)}\n  ${f.detail.split("\n").slice(-25).join("\n  ")}`
  const listed = (title: string, items: ReadonlyArray<Failure>) => {
    if (items.length === 0) return []
    const kinds = new Map<string, number>()
    for (const f of items) kinds.set(f.what, (kinds.get(f.what) ?? 0) + 1)
    const more = items.length > 20 ? [`  ... and ${items.length - 20} more; all of them in ${join(saveDir, "failures.txt")}`] : []
    return [`\n${title} (${[...kinds].map(([k, n]) => `${k}: ${n}`).join(", ")}):`, ...items.slice(0, 20).map(detailed), ...more]
  }
  if (failures.length + unhandled.length > 0) {
    mkdirSync(saveDir, { recursive: true })
    writeFileSync(join(saveDir, "failures.txt"), [...failures, ...unhandled].map(detailed).join("\n\n"))
  }
  console.log([
    ...lines,
    ...listed("failures", failures),
    ...listed("unhandled rejections (the server carried on)", unhandled),
    ...(stalledJobs.length > 0 ? ["\nstalled jobs:", ...stalledJobs.slice(0, 20).map((s) => `- ${s}`)] : []),
    saved.size > 0 ? `\nfailing inputs saved in ${saveDir} as <case seed>.pdf` : ""
  ].join("\n"))
  if (saved.size === 0 && failures.length + unhandled.length === 0 && option("save") === undefined) rmSync(saveDir, { recursive: true, force: true })
  if (aborted) console.error(`the run was cut short: ${aborted instanceof Error ? aborted.message : String(aborted)}`)
  process.exitCode = fiveXX > 0 || noAnswer > 0 || crashes > 0 || aborted ? 1 : 0
}

await main()
