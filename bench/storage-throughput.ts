/**
 * Upload + fill throughput of the HTTP server on S3 storage against the same on the local
 * directory (the baseline), in one run:
 *
 *   node bench/storage-throughput.ts [count] [concurrency]     (defaults: 40 forms, 4 at once)
 *
 * It starts `formwright serve` twice as child processes, one with FORMWRIGHT_STORAGE=fs on a
 * temporary directory and one with FORMWRIGHT_STORAGE=s3 on a fresh prefix, and on each uploads
 * `count` copies of a fixture form, then fills each of them once (session created and polled to
 * completion). The S3 server is the one of FORMWRIGHT_TEST_S3_ENDPOINT (with AWS_ACCESS_KEY_ID /
 * AWS_SECRET_ACCESS_KEY), else the local Ceph RADOS Gateway of scripts/s3-server.sh (started
 * when needed and stopped again). BENCH_PDF=path uses that PDF instead of the generated fixture.
 */
import { Fixtures } from "@formwright/testing"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"

const repoRoot = Path.resolve(import.meta.dirname, "..")
const count = Number(process.argv[2] ?? 40)
const concurrency = Number(process.argv[3] ?? 4)
const key = "bench-user-key-00000001"

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = Net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as Net.AddressInfo).port
      probe.close(() => resolve(port))
    })
  })

interface Server {
  readonly url: string
  readonly child: ChildProcess
  readonly log: () => string
}

const startServer = async (env: Record<string, string>): Promise<Server> => {
  const port = await freePort()
  const child = spawn(process.execPath, [Path.join(repoRoot, "packages/http-node/src/bin.ts"), "serve"], {
    cwd: repoRoot,
    env: { ...process.env, ...env, FORMWRIGHT_PORT: String(port), FORMWRIGHT_HOST: "127.0.0.1", FORMWRIGHT_API_KEYS: `bench:${key}` },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`)
    if (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)) break
    if (Date.now() > deadline) throw new Error(`the server did not start in 60 s:\n${output}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return { url, child, log: () => output }
}

const stopServer = (server: Server) =>
  new Promise<void>((resolve) => {
    if (server.child.exitCode !== null) return resolve()
    server.child.once("exit", () => resolve())
    server.child.kill("SIGTERM")
  })

const call = (server: Server, path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers)
  headers.set("authorization", `Bearer ${key}`)
  return fetch(`${server.url}${path}`, { ...init, headers })
}

/** Runs `task` for 0..n-1 with at most `limit` at once. */
const pool = async <A>(n: number, limit: number, task: (i: number) => Promise<A>): Promise<Array<A>> => {
  const results = new Array<A>(n)
  let next = 0
  await Promise.all(Array.from({ length: Math.min(limit, n) }, async () => {
    while (next < n) {
      const i = next++
      results[i] = await task(i)
    }
  }))
  return results
}

const fillOnce = async (server: Server, formId: string, textInfo: string) => {
  const created = await call(server, "/v1/sessions", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ form_id: formId, text_info: textInfo })
  })
  if (created.status !== 202) throw new Error(`session: HTTP ${created.status} ${await created.text()}`)
  const { session_id } = await created.json() as { session_id: string }
  for (;;) {
    const session = await (await call(server, `/v1/sessions/${session_id}`)).json() as { status: string; error_message?: string }
    if (session.status === "completed") return
    if (session.status === "failed") throw new Error(`session failed: ${session.error_message}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

interface Figures {
  readonly uploadSeconds: number
  readonly fillSeconds: number
}

const measure = async (server: Server, pdf: Uint8Array): Promise<Figures> => {
  // One warm-up of each, so both runs start with loaded code and open connections.
  const [warm] = await (await call(server, "/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(pdf) })).json() as Array<{ form_id: string; fields: Array<{ name: string }> }>
  const textInfo = warm!.fields.map((field) => `${field.name}: Zoë Ωmega`).join("\n")
  await fillOnce(server, warm!.form_id, textInfo)

  const uploadStart = performance.now()
  const formIds = await pool(count, concurrency, async () => {
    const response = await call(server, "/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(pdf) })
    if (response.status !== 200) throw new Error(`upload: HTTP ${response.status} ${await response.text()}`)
    const [uploaded] = await response.json() as Array<{ form_id: string }>
    return uploaded!.form_id
  })
  const uploadSeconds = (performance.now() - uploadStart) / 1000

  const fillStart = performance.now()
  await pool(count, concurrency, (i) => fillOnce(server, formIds[i]!, textInfo))
  const fillSeconds = (performance.now() - fillStart) / 1000
  return { uploadSeconds, fillSeconds }
}

/** The S3 server to use, and whether this run started it (and so stops it). */
const s3Server = (): { endpoint: string; startedHere: boolean } => {
  const endpoint = process.env.FORMWRIGHT_TEST_S3_ENDPOINT
  if (endpoint) return { endpoint, startedHere: false }
  const script = Path.join(repoRoot, "scripts/s3-server.sh")
  const status = spawnSync("bash", [script, "status"], { encoding: "utf8" })
  if (status.status === 0) return { endpoint: status.stdout.trim(), startedHere: false }
  const started = spawnSync("bash", [script, "start"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
  const found = /FORMWRIGHT_TEST_S3_ENDPOINT=(\S+)/.exec(started.stdout ?? "")?.[1]
  if (started.status !== 0 || found === undefined) {
    throw new Error("No S3 server: set FORMWRIGHT_TEST_S3_ENDPOINT, or install Ceph (apt-get install radosgw ceph-mon ceph-osd)")
  }
  return { endpoint: found, startedHere: true }
}

const main = async () => {
  const pdf = process.env.BENCH_PDF ? new Uint8Array(Fs.readFileSync(process.env.BENCH_PDF)) : await Fixtures.formWithEveryFieldType()
  const s3 = s3Server()
  const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-bench-"))
  const results: Array<{ storage: string; figures: Figures }> = []
  try {
    for (const storage of ["fs", "s3"] as const) {
      const server = await startServer(
        storage === "fs"
          ? { FORMWRIGHT_STORAGE: "fs", FORMWRIGHT_DATA_DIR: dataDir }
          : {
            FORMWRIGHT_STORAGE: "s3",
            FORMWRIGHT_S3_BUCKET: "formwright-bench",
            FORMWRIGHT_S3_PREFIX: `bench-${Date.now().toString(36)}`,
            FORMWRIGHT_S3_ENDPOINT: s3.endpoint,
            FORMWRIGHT_S3_FORCE_PATH_STYLE: "true",
            AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? "testkey",
            AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? "testsecret"
          }
      )
      try {
        results.push({ storage, figures: await measure(server, pdf) })
      } catch (error) {
        console.error(server.log())
        throw error
      } finally {
        await stopServer(server)
      }
    }
  } finally {
    Fs.rmSync(dataDir, { recursive: true, force: true })
    if (s3.startedHere) spawnSync("bash", [Path.join(repoRoot, "scripts/s3-server.sh"), "stop"], { stdio: "inherit" })
  }
  const baseline = results[0]!.figures
  console.log(`${count} uploads then ${count} fills of a ${(pdf.byteLength / 1024).toFixed(0)} KB form, ${concurrency} at once, ${Os.cpus().length} cores`)
  console.log("storage  uploads/s  fills/s   upload+fill s  vs fs")
  for (const { storage, figures } of results) {
    const total = figures.uploadSeconds + figures.fillSeconds
    console.log(
      `${storage.padEnd(7)}  ${(count / figures.uploadSeconds).toFixed(1).padStart(9)}  ${(count / figures.fillSeconds).toFixed(1).padStart(7)}  ${
        total.toFixed(2).padStart(13)
      }  ${(total / (baseline.uploadSeconds + baseline.fillSeconds)).toFixed(2)}x`
    )
  }
}

await main()
