/**
 * No upload can hurt the server (issue 6): the real `formwright serve` as a process, with its
 * default limits (but a shorter budget per background task, JOB_TIMEOUT_MS), against hostile PDFs made by HostileFixtures (decompression bombs, 100,000
 * pages, a text-extraction bomb, deep nesting, cycles ...) and mutated corpus PDFs, each sent to
 * the three places PDF work happens: an upload, a conversion job and an autofill session whose
 * attached file it is.
 *
 * For every case: a 4xx (422 for an upload past a limit) or a job that ends `failed`/`completed`,
 * never a 5xx, never a dead process; `/health`, polled every 20 ms from a worker thread all along,
 * answers with p99 <= 50 ms; the server's peak RSS stays under its cap (PEAK_RSS_LIMIT, about 1 GiB
 * with 2 workers). Then a job the process is
 * killed in (kill -9) three times, as an input that crashed it would: the server comes up healthy
 * each time and the job ends `failed`, not in a crash loop. Then a bounded fuzz loop of mutated
 * corpus files through the upload route.
 *
 * Figures (status, time, /health p50/p99/max, peak RSS) are printed for every case.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { PdfEngine } from "@formwright/core"
import { Fixtures, HostileFixtures } from "@formwright/testing"
import * as ServerProcess from "./support/ServerProcess.ts"

const MiB = 1024 * 1024
const HEALTH_P99_MS = 50
/**
 * The server process's own share: about 185 MiB at rest when run from source, up to about 270 MiB
 * with the bodies of the three requests of a case in flight (measured).
 */
const SERVER_MB = 300
/**
 * The memory cap as README documents it: the server's share plus the cap of each worker a case can
 * keep busy at once (its three tasks, at most the pool's size). A worker passes its cap by a few
 * MiB before the 25 ms watch stops it, which the server's share covers. Two workers (a 2-core
 * machine): 1,068 MiB. It was 1 GiB, below what the defaults allow: CI saw 1,035 MiB once, two
 * workers at their cap beside a server grown by the suite's earlier cases.
 */
const PEAK_RSS_LIMIT = (SERVER_MB + Math.min(3, PdfEngine.defaultWorkers()) * PdfEngine.workerDefaults.memoryMb) * MiB
/**
 * The server's budget for a background task (a conversion page, a fill, a source document),
 * shortened from the default 2 minutes so that a job that keeps hitting it (3 attempts) fails
 * well within the suite's deadline. Every other limit is the default.
 */
const JOB_TIMEOUT_MS = 20_000
/** A job still running after this long counts as stalled. */
const JOB_DEADLINE_MS = 90_000
/** A request unanswered after this long counts as stalled (the request budget is 30 s). */
const REQUEST_TIMEOUT_MS = 60_000

const corpusDir = fileURLToPath(new URL("../../../../shared/corpus/pdfs", import.meta.url))
const corpusAvailable = existsSync(corpusDir)
/** Corpus files small enough to keep the run short, by name (sorted, so seeds pick the same files). */
const corpusFiles = corpusAvailable
  ? readdirSync(corpusDir).filter((name) => name.endsWith(".pdf") && statSync(join(corpusDir, name)).size <= 1_500_000).sort()
  : []
if (!corpusAvailable) console.warn(`Corpus not found at ${corpusDir}: the mutated-corpus cases and the fuzz loop were skipped.`)

const terminal = (status: unknown) => status === "completed" || status === "failed"
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What one request or job came to: an HTTP status and final state, or why there was none. */
interface Outcome {
  /** HTTP status of the request (0: no answer). */
  readonly status: number
  /** For jobs: the final status (`completed`, `failed`), or `stalled`, or `-` when none started. */
  readonly state: string
  readonly message: string
  readonly ms: number
}

const describeError = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}` : String(e))

interface CaseReport {
  readonly name: string
  readonly bytes: number
  readonly upload: Outcome
  readonly convert: Outcome
  readonly session: Outcome
  readonly health: ServerProcess.HealthStats
  readonly peakRss: number
  readonly alive: boolean
}

const row = (r: CaseReport) =>
  `| ${r.name} | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.upload.status} (${r.upload.ms} ms) | ${r.convert.status} ${r.convert.state} (${r.convert.ms} ms) | ${r.session.status} ${r.session.state} (${r.session.ms} ms) | ${r.health.p50.toFixed(1)} / ${r.health.p99.toFixed(1)} / ${r.health.max.toFixed(1)}${r.health.failures > 0 ? ` (${r.health.failures} failed)` : ""} | ${ServerProcess.formatMiB(r.peakRss)} | ${r.alive ? "yes" : "**no**"} |`

/** A hostile document to send everywhere, with what the server must do with it. */
interface HostileInput {
  readonly name: string
  /** Over a default limit: the upload must be a 422 and a conversion must not complete. */
  readonly overLimits: boolean
  /** Query of the conversion (pages=1 keeps a real multi-page file's conversion short). */
  readonly convertQuery: string
  readonly make: () => Uint8Array | Promise<Uint8Array>
}

/**
 * Mutations `npm run fuzz` found harmful (`--replay <seed>` runs one again): a duplicated chunk
 * that gives an embedded font a `post` table past its end (pdf.js loops until the worker's heap is
 * full, which took the whole process down), and two whose page count leaves pdf.js promises
 * rejected with nobody waiting (XRefEntryException).
 */
const foundByFuzzing: ReadonlyArray<{ readonly file: string; readonly seed: number; readonly what: string }> = [
  { file: "pdfjs__bug1669099.pdf", seed: 3391368958, what: "font post-table loop" },
  { file: "formfyxer__court-3a09aadafc.pdf", seed: 2817090121, what: "XRefEntryException nobody awaits" },
  { file: "pypdfform__illinois-real-estate-power-of-attorney-form.pdf", seed: 2171513806, what: "XRefEntryException nobody awaits" }
]

/** Six mutated corpus files, the same on every run (seed 6, cases 0..5), and those fuzzing found. */
const mutatedInputs = (): Array<HostileInput> =>
  corpusFiles.length === 0
    ? []
    : [
      ...foundByFuzzing.filter((f) => existsSync(join(corpusDir, f.file))).map((f) => ({
        name: `fuzz find: ${f.file} (seed ${f.seed}, ${f.what})`,
        overLimits: false,
        convertQuery: "?pages=1",
        make: () => HostileFixtures.mutate(new Uint8Array(readFileSync(join(corpusDir, f.file))), f.seed).bytes
      })),
      ...Array.from({ length: 6 }, (_, i) => {
      const seed = HostileFixtures.caseSeed(6, i)
      const file = corpusFiles[seed % corpusFiles.length]!
      const kind = HostileFixtures.mutationKinds[i % HostileFixtures.mutationKinds.length]!
      return {
        name: `mutated ${file} (seed ${seed}, ${kind})`,
        overLimits: false,
        convertQuery: "?pages=1",
        make: () => HostileFixtures.mutate(new Uint8Array(readFileSync(join(corpusDir, file))), seed, { kind }).bytes
      }
    })
    ]

const inputs: Array<HostileInput> = [
  // At most 10 pages converted: the limits apply to the whole document all the same (the
  // page count is checked from the page tree), and a legit 400-page form converts in minutes.
  ...HostileFixtures.catalogue.map((c) => ({
    name: c.name,
    overLimits: c.overLimits,
    convertQuery: (c.pages ?? 1) > 10 ? "?pages=1-10" : "",
    make: c.make
  })),
  ...mutatedInputs()
]

describe("hostile inputs against `formwright serve` with its default limits and memory", () => {
  let server: ServerProcess.ServerProcess
  let formId: string
  const reports: Array<CaseReport> = []
  const crashes: Array<string> = []
  const rejections: Array<string> = []
  let currentCase = "setup"

  const post = async (path: string, body: BodyInit, headers: Record<string, string> = {}): Promise<{ status: number; body: any; text: string; ms: number }> => {
    const started = Date.now()
    try {
      const res = await server.call(path, { method: "POST", headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
      const text = await res.text()
      let parsed: any
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = undefined
      }
      return { status: res.status, body: parsed, text, ms: Date.now() - started }
    } catch (e) {
      return { status: 0, body: undefined, text: describeError(e), ms: Date.now() - started }
    }
  }

  /** GETs `path` until its `status` is terminal, the server dies or the deadline passes. */
  const follow = async (path: string, started: number): Promise<{ state: string; message: string }> => {
    const deadline = started + JOB_DEADLINE_MS
    let last: any
    while (Date.now() < deadline) {
      try {
        const res = await server.call(path, { signal: AbortSignal.timeout(10_000) })
        if (res.status >= 500) return { state: `status route ${res.status}`, message: (await res.text()).slice(0, 300) }
        last = await res.json()
        if (terminal(last.status)) return { state: last.status, message: String(last.error_message ?? "") }
      } catch (e) {
        if (!server.alive()) return { state: "server died", message: describeError(e) }
      }
      await sleep(200)
    }
    return { state: "stalled", message: `still ${last?.status ?? "unknown"} after ${JOB_DEADLINE_MS} ms` }
  }

  const upload = async (bytes: Uint8Array): Promise<Outcome> => {
    const res = await post("/v1/forms/upload", bytes as Uint8Array<ArrayBuffer>, { "content-type": "application/pdf", "x-file-name": "hostile.pdf" })
    return { status: res.status, state: "-", message: res.body?.error_message ?? res.text.slice(0, 300), ms: res.ms }
  }

  const convert = async (bytes: Uint8Array, query: string): Promise<Outcome> => {
    const started = Date.now()
    const res = await post(`/v1/utils/convert${query}`, bytes as Uint8Array<ArrayBuffer>, { "content-type": "application/pdf" })
    if (res.status !== 200) return { status: res.status, state: "-", message: res.body?.error_message ?? res.text.slice(0, 300), ms: res.ms }
    const end = await follow(`/v1/utils/convert/${res.body.job_id}/status`, started)
    return { status: res.status, ...end, ms: Date.now() - started }
  }

  const session = async (bytes: Uint8Array): Promise<Outcome> => {
    const started = Date.now()
    const form = new FormData()
    form.append("formId", formId)
    form.append("files", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "hostile.pdf")
    const res = await post("/v1/sessions", form)
    if (res.status !== 202) return { status: res.status, state: "-", message: res.body?.error_message ?? res.text.slice(0, 300), ms: res.ms }
    const end = await follow(`/v1/sessions/${res.body.session_id}`, started)
    return { status: res.status, ...end, ms: Date.now() - started }
  }

  /** A server on a fresh data directory, with a valid form to attach hostile files to. */
  const freshServer = async () => {
    server = await ServerProcess.start({
      env: { FORMWRIGHT_PDF_JOB_TIMEOUT_MS: String(JOB_TIMEOUT_MS) },
      // Promises rejected with nobody waiting, which the server logs and survives (bin.ts, PdfWorker.ts).
      onLine: (line) => {
        if (/unhandled promise rejection|rejected with nobody waiting/i.test(line)) rejections.push(`${currentCase}: ${line.slice(0, 500)}`)
      }
    })
    const res = await post("/v1/forms/upload", (await Fixtures.formWithEveryFieldType()) as Uint8Array<ArrayBuffer>, { "content-type": "application/pdf" })
    expect(res.status, res.text).toBe(200)
    formId = res.body[0].form_id
    // One conversion and one session of a sound form first: the first use of each route loads
    // and compiles its modules (a one-off pause of the event loop at start), which is not what
    // the cases measure.
    const form = await Fixtures.formWithEveryFieldType()
    const [conversion, filled] = await Promise.all([convert(form, ""), session(form)])
    expect(conversion.state, `warm-up conversion: ${conversion.message}`).toBe("completed")
    expect(filled.state, `warm-up session: ${filled.message}`).toBe("completed")
  }
  /** Set by a case that left jobs running or killed the server. */
  let leftWork = false

  beforeAll(freshServer)

  afterEach(async () => {
    if (server && !server.alive()) {
      const exit = server.exits().at(-1)
      crashes.push(`${exit?.code ?? ""}${exit?.signal ?? ""}: ${exit?.output.slice(-1500) ?? ""}`)
    }
    // A case that killed the server or left it busy must not take the next ones down with it
    // (its jobs would be resumed, or keep the workers busy): the next case gets a fresh server.
    if (server && (leftWork || !server.alive())) {
      await server.stop(5_000)
      await freshServer()
    }
    leftWork = false
  })

  afterAll(async () => {
    if (reports.length > 0) {
      console.log([
        "| case | size | upload | conversion | session | /health p50 / p99 / max ms | peak RSS | alive |",
        "|---|---|---|---|---|---|---|---|",
        ...reports.map(row)
      ].join("\n"))
    }
    if (crashes.length > 0) console.log(`The server died ${crashes.length} time(s); the last output each time:\n${crashes.join("\n----\n")}`)
    if (rejections.length > 0) console.log(`Rejections nobody waited for, logged by the server:\n${rejections.join("\n")}`)
    await server?.stop()
  })

  for (const input of inputs) {
    it(`${input.name}: 4xx or a finished job, never a 5xx or a dead server; /health answering (p99 <= ${HEALTH_P99_MS} ms over 100 answers or more); peak RSS < ${ServerProcess.formatMiB(PEAK_RSS_LIMIT)}`, async () => {
      currentCase = input.name
      const bytes = await input.make()
      // Each case measures its own peak, from the RSS the server has now.
      server.resetPeakRss()
      const probe = ServerProcess.probeHealth(server, { intervalMs: 20 })
      // The three at once: the request lane and the background lane are both under load.
      const [up, conversion, filled] = await Promise.all([upload(bytes), convert(bytes, input.convertQuery), session(bytes)])
      const health = await probe.stop()
      const report: CaseReport = {
        name: input.name,
        bytes: bytes.length,
        upload: up,
        convert: conversion,
        session: filled,
        health,
        peakRss: server.peakRssBytes(),
        alive: server.alive()
      }
      reports.push(report)
      leftWork = [conversion.state, filled.state].some((state) => state === "stalled" || state === "server died")
      console.log(
        `${input.name} (${bytes.length} bytes)\n` +
          `  upload ${up.status} in ${up.ms} ms: ${up.message.slice(0, 160)}\n` +
          `  conversion ${conversion.status} ${conversion.state} in ${conversion.ms} ms: ${conversion.message.slice(0, 160)}\n` +
          `  session ${filled.status} ${filled.state} in ${filled.ms} ms: ${filled.message.slice(0, 160)}\n` +
          `  ${ServerProcess.formatHealth(health)}; peak RSS ${ServerProcess.formatMiB(report.peakRss)}; alive ${report.alive}`
      )
      const context = `${input.name}\n${server.alive() ? "" : server.output().slice(-3000)}`

      expect.soft(up.status, `upload: ${up.message}\n${context}`).toBeGreaterThan(0)
      expect.soft(up.status, `upload: ${up.message}`).toBeLessThan(500)
      if (input.overLimits) expect.soft(up.status, `upload past a limit: ${up.message}`).toBe(422)
      else expect.soft([200, 422], `upload: ${up.message}`).toContain(up.status)

      expect.soft(conversion.status, `conversion start: ${conversion.message}`).toBeGreaterThan(0)
      expect.soft(conversion.status, `conversion start: ${conversion.message}`).toBeLessThan(500)
      if (conversion.status === 200) {
        expect.soft(["completed", "failed"], `conversion job: ${conversion.message}`).toContain(conversion.state)
        if (input.overLimits) expect.soft(conversion.state, "a conversion past a limit must fail").toBe("failed")
      } else {
        expect.soft(conversion.status, `conversion start: ${conversion.message}`).toBeGreaterThanOrEqual(400)
      }

      expect.soft(filled.status, `session: ${filled.message}`).toBe(202)
      expect.soft(["completed", "failed"], `session: ${filled.message}`).toContain(filled.state)

      expect.soft(health.failures, `/health failed: ${health.lastFailure}`).toBe(0)
      // A p99 needs 100 answers to be more than the slowest one; shorter cases count in the
      // p99 over every case (the test after these).
      if (health.count >= 100) expect.soft(health.p99, "/health p99 (ms)").toBeLessThanOrEqual(HEALTH_P99_MS)
      expect.soft(report.peakRss, `peak RSS ${ServerProcess.formatMiB(report.peakRss)}`).toBeLessThan(PEAK_RSS_LIMIT)
      expect(report.alive, `the server died:\n${context}`).toBe(true)
    }, 4 * JOB_DEADLINE_MS)
  }

  it(`over every case above, /health p99 <= ${HEALTH_P99_MS} ms`, () => {
    const all = reports.flatMap((r) => r.health.latencies).sort((a, b) => a - b)
    const p99 = ServerProcess.percentile(all, 0.99)
    console.log(`/health over every case: ${all.length} answers, p50 ${ServerProcess.percentile(all, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(all.at(-1) ?? 0).toFixed(1)} ms`)
    expect(all.length).toBeGreaterThan(1_000)
    expect(p99).toBeLessThanOrEqual(HEALTH_P99_MS)
  })

  it("a job the process is killed in (kill -9) three times: each restart on the same data comes up healthy, then the job ends failed, no crash loop", async () => {
    const startConversion = async (bytes: Uint8Array, query = "") => {
      const res = await post(`/v1/utils/convert${query}`, bytes as Uint8Array<ArrayBuffer>, { "content-type": "application/pdf" })
      expect(res.status, res.text).toBe(200)
      return res.body.job_id as string
    }
    const status = async (jobId: string): Promise<any> =>
      server.call(`/v1/utils/convert/${jobId}/status`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.json(), () => undefined)
    // The hostile job, and a long legitimate one (2,000 pages, the most allowed) whose progress
    // shows that a run has started (and been counted) before each kill.
    currentCase = "kill -9 and restart"
    const hostile = await startConversion(HostileFixtures.textBomb())
    const long = await startConversion(HostileFixtures.manyPages(2_000))
    const maxAttempts = 3
    const kills: Array<string> = []
    for (let kill = 1; kill <= maxAttempts; kill++) {
      const upAt = Date.now()
      let seen: any
      let firstSeen: number | undefined
      // Wait (at most 60 s) for the long job's run in this process to be under way: its progress
      // moves here (what the record held when the process died does not count).
      while (Date.now() - upAt < 60_000) {
        seen = await status(long)
        if (terminal(seen?.status)) break
        const done = seen?.progress?.pages_done
        if (typeof done === "number") {
          firstSeen ??= done
          if (seen.status === "processing" && done > 0 && done !== firstSeen) break
        }
        await sleep(50)
      }
      if (terminal(seen?.status)) break
      const before = await status(hostile)
      kills.push(`kill ${kill}: long job ${seen?.status} ${JSON.stringify(seen?.progress)}, hostile job ${before?.status}`)
      await server.restart({ kill: true })
      const health = await server.call("/health", { signal: AbortSignal.timeout(10_000) }).then((r) => r.status, () => 0)
      expect(health, `after kill ${kill}, /health:\n${server.output().slice(-3000)}`).toBe(200)
    }
    console.log(kills.join("\n"))
    expect(kills.length, "the long job was killed in each of its runs").toBe(maxAttempts)
    // Every run has now died: the job is abandoned as failed, not run a fourth time.
    const end = Date.now() + 60_000
    let longEnd: any
    let hostileEnd: any
    while (Date.now() < end) {
      longEnd = await status(long)
      hostileEnd = await status(hostile)
      if (terminal(longEnd?.status) && terminal(hostileEnd?.status)) break
      await sleep(250)
    }
    console.log(`after ${kills.length} kills: long job ${JSON.stringify(longEnd)}, hostile job ${JSON.stringify(hostileEnd)}`)
    expect(longEnd?.status, JSON.stringify(longEnd)).toBe("failed")
    expect(String(longEnd?.error_message ?? ""), "the failure says why").not.toBe("")
    expect(["completed", "failed"], JSON.stringify(hostileEnd)).toContain(hostileEnd?.status)
    // And it stays up: no crash loop, no exit but the three kills.
    await sleep(3_000)
    expect(server.alive(), server.output().slice(-3000)).toBe(true)
    expect(server.exits().filter((e) => !e.expected), "exits the test did not cause").toEqual([])
  }, 6 * 60_000)

  const fuzz = corpusAvailable ? it : it.skip
  fuzz("300 mutated corpus PDFs, 3 at a time, through the upload route: every answer < 500 and the server alive", async () => {
    const cases = 300
    const concurrency = 3
    const files = new Map<string, Uint8Array>()
    const read = (name: string) => {
      let bytes = files.get(name)
      if (!bytes) files.set(name, (bytes = new Uint8Array(readFileSync(join(corpusDir, name)))))
      return bytes
    }
    const histogram = new Map<number, number>()
    const bad: Array<string> = []
    let next = 0
    let slowest = { ms: 0, label: "" }
    const started = Date.now()
    const probe = ServerProcess.probeHealth(server, { intervalMs: 20 })
    const worker = async () => {
      while (next < cases) {
        const index = next++
        const seed = HostileFixtures.caseSeed(300, index)
        const rng = HostileFixtures.random(seed)
        const file = rng.pick(corpusFiles)
        const donor = rng.pick(corpusFiles)
        const mutation = HostileFixtures.mutate(read(file), seed, { donor: read(donor) })
        const label = `seed ${seed} (case ${index}) ${file} ${mutation.kind}: ${mutation.detail}`
        currentCase = `fuzz, ${label}`
        const res = await post("/v1/forms/upload", mutation.bytes as Uint8Array<ArrayBuffer>, { "content-type": "application/pdf" })
        histogram.set(res.status, (histogram.get(res.status) ?? 0) + 1)
        if (res.ms > slowest.ms) slowest = { ms: res.ms, label }
        if (res.status === 0 || res.status >= 500) bad.push(`${res.status} ${label}: ${res.text.slice(0, 300)}`)
        if (!server.alive()) {
          bad.push(`server died at ${label}:\n${server.output().slice(-3000)}`)
          probe.retarget("http://127.0.0.1:1")
          await server.restart()
          probe.retarget(server.url)
        }
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    const health = await probe.stop()
    console.log(
      `fuzz: ${cases} uploads in ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...histogram].sort()))}; ` +
        `slowest ${slowest.ms} ms (${slowest.label}); ${ServerProcess.formatHealth(health)}; peak RSS ${ServerProcess.formatMiB(server.peakRssBytes())}`
    )
    expect(bad, bad.join("\n\n")).toEqual([])
    expect(server.alive()).toBe(true)
  }, 10 * 60_000)
})
