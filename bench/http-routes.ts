/**
 * Per-request cost of the HTTP server against Fastify serving the same bytes, in one run:
 *
 *   node bench/http-routes.ts [seconds] [connections]     (defaults: 10 s a target, 10 connections)
 *
 * It starts `formwright serve` as a child process (storage-fs on a temporary directory, logs to a
 * file there, as a deployment writes them), uploads a fixture form and creates 12 profiles, and
 * captures the server's answer to each route once. A second child process runs Fastify, which
 * answers each route with those captured bytes, status and content type. Then, route by route,
 * autocannon (in this process) warms both up and loads each for `seconds`, in two rounds of
 * alternating order so that a slow spell of the machine does not land on one side only, and the
 * figures are summed over the rounds. Printed: requests/s of each, and ours ÷ Fastify's against
 * the targets of issue 9. A run whose load got anything but 2xx answers is reported and fails.
 * BENCH_ONLY=profiles loads only the routes whose label holds that text; BENCH_CPU_PROF=dir
 * writes a CPU profile of our server (`node --cpu-prof`) into dir.
 *
 * Both servers run one process each and share the machine with the load generator; the ratio,
 * not the absolute figure, is what carries from one machine to another.
 */
import { Fixtures } from "@formwright/testing"
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"

const repoRoot = Path.resolve(import.meta.dirname, "..")
const key = "bench-user-key-00000001"

interface Captured {
  readonly path: string
  readonly status: number
  readonly contentType: string
  readonly bodyBase64: string
}

/** The Fastify side: answers every captured path with its captured bytes. */
const runFastify = async (capturedFile: string, port: number) => {
  const { default: Fastify } = await import("fastify")
  const captured = JSON.parse(Fs.readFileSync(capturedFile, "utf8")) as Array<Captured>
  const app = Fastify({ logger: false })
  for (const route of captured) {
    const body = Buffer.from(route.bodyBase64, "base64")
    app.get(route.path.split("?")[0]!, (_request, reply) => {
      reply.code(route.status).header("content-type", route.contentType).send(body)
    })
  }
  await app.listen({ port, host: "127.0.0.1" })
  process.stdout.write("ready\n")
  process.once("SIGTERM", () => void app.close().then(() => process.exit(0)))
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = Net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as Net.AddressInfo).port
      probe.close(() => resolve(port))
    })
  })

interface Child {
  readonly url: string
  readonly child: ChildProcess
}

const waitFor = async (child: ChildProcess, url: string, describe: () => string) => {
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${describe()}`)
    if (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)) return
    if (Date.now() > deadline) throw new Error(`the server did not start in 60 s:\n${describe()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const startOurs = async (dataDir: string, logFile: string): Promise<Child> => {
  const port = await freePort()
  const log = Fs.openSync(logFile, "a")
  // BENCH_CPU_PROF=dir: a CPU profile of our server, written there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${Path.resolve(process.env.BENCH_CPU_PROF)}`] : []
  const child = spawn(process.execPath, [...profile, Path.join(repoRoot, "packages/http-node/src/bin.ts"), "serve"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      FORMWRIGHT_STORAGE: "fs",
      FORMWRIGHT_DATA_DIR: dataDir,
      FORMWRIGHT_PORT: String(port),
      FORMWRIGHT_HOST: "127.0.0.1",
      FORMWRIGHT_API_KEYS: `bench:${key}`
    },
    stdio: ["ignore", log, log]
  })
  Fs.closeSync(log)
  const url = `http://127.0.0.1:${port}`
  await waitFor(child, url, () => Fs.readFileSync(logFile, "utf8").slice(-4000))
  return { url, child }
}

const startFastify = async (capturedFile: string): Promise<Child> => {
  const port = await freePort()
  const child = spawn(process.execPath, [import.meta.filename, "--fastify", capturedFile, String(port)], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"]
  })
  const url = `http://127.0.0.1:${port}`
  await waitFor(child, url, () => "")
  return { url, child }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

const call = async (url: string, path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers)
  headers.set("authorization", `Bearer ${key}`)
  const response = await fetch(`${url}${path}`, { ...init, headers })
  if (response.status >= 300) throw new Error(`${init.method ?? "GET"} ${path}: HTTP ${response.status} ${await response.text()}`)
  return response
}

/** A form and 12 profiles, and the routes to load with what they answer. */
const prepare = async (ours: Child): Promise<Array<Captured>> => {
  const pdf = await Fixtures.formWithEveryFieldType()
  const upload = await call(ours.url, "/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(pdf) })
  const [form] = await upload.json() as Array<{ form_id: string }>
  for (let i = 1; i <= 12; i++) {
    await call(ours.url, "/v1/profiles", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: `Person ${i}`,
        data: { first_name: `First${i}`, last_name: `Last${i}`, email: `person${i}@example.com`, phone: `+1 555 010 ${String(i).padStart(4, "0")}` }
      })
    })
  }
  const captured: Array<Captured> = []
  for (const path of ["/health", `/v1/forms/${form!.form_id}`, "/v1/profiles?size=12"]) {
    const response = await call(ours.url, path)
    const body = new Uint8Array(await response.arrayBuffer())
    captured.push({ path, status: response.status, contentType: response.headers.get("content-type") ?? "", bodyBase64: Buffer.from(body).toString("base64") })
  }
  const profiles = JSON.parse(Buffer.from(captured[2]!.bodyBase64, "base64").toString("utf8")) as { profiles: Array<unknown> }
  if (profiles.profiles.length !== 12) throw new Error(`expected 12 profiles in the listing, got ${profiles.profiles.length}`)
  return captured
}

interface Load {
  readonly requests: number
  readonly seconds: number
  /** CPU time the server process spent meanwhile (user + system), in seconds. */
  readonly cpuSeconds: number
  readonly bad: number
}

/** CPU seconds a process has used (Linux's /proc; 0 elsewhere, and the CPU column reads 0). */
const cpuSecondsOf = (pid: number | undefined): number => {
  try {
    const fields = Fs.readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

const load = async (server: Child, path: string, seconds: number, connections: number): Promise<Load> => {
  const cpuBefore = cpuSecondsOf(server.child.pid)
  const result = await autocannon({ url: `${server.url}${path}`, connections, duration: seconds, headers: { authorization: `Bearer ${key}` } })
  return {
    requests: result.requests.total,
    seconds: result.duration,
    cpuSeconds: cpuSecondsOf(server.child.pid) - cpuBefore,
    bad: result.non2xx + result.errors + result.timeouts
  }
}

const targets: Record<string, { label: string; target: number }> = {
  "/health": { label: "/health", target: 0.8 },
  form: { label: "GET /v1/forms/{id}", target: 0.5 },
  "/v1/profiles?size=12": { label: "GET /v1/profiles (12)", target: 0.5 }
}

const main = async () => {
  const seconds = Number(process.argv[2] ?? 10)
  const connections = Number(process.argv[3] ?? 10)
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-bench-http-"))
  const logFile = Path.join(dir, "server.log")
  const capturedFile = Path.join(dir, "captured.json")
  const children: Array<ChildProcess> = []
  const rows: Array<{ label: string; target: number; ours: number; fastify: number; oursCpuUs: number; fastifyCpuUs: number; bytes: number }> = []
  try {
    const ours = await startOurs(Path.join(dir, "data"), logFile)
    children.push(ours.child)
    const captured = await prepare(ours)
    Fs.writeFileSync(capturedFile, JSON.stringify(captured))
    const fastify = await startFastify(capturedFile)
    children.push(fastify.child)

    // BENCH_ONLY=text: only the routes whose label holds it (e.g. `profiles`), to profile one.
    const only = process.env.BENCH_ONLY
    for (const route of captured) {
      if (only !== undefined && !(targets[route.path] ?? targets.form!).label.includes(only)) continue
      // Same bytes on both sides, checked once: Fastify answers what ours answered.
      const mirrored = Buffer.from(await (await call(fastify.url, route.path)).arrayBuffer())
      if (!mirrored.equals(Buffer.from(route.bodyBase64, "base64"))) throw new Error(`Fastify's answer to ${route.path} differs from ours`)
      const { label, target } = targets[route.path] ?? targets.form!
      process.stderr.write(`${label}: warming up\n`)
      await load(ours, route.path, 2, connections)
      await load(fastify, route.path, 2, connections)
      const totals = { ours: { requests: 0, seconds: 0, cpuSeconds: 0 }, fastify: { requests: 0, seconds: 0, cpuSeconds: 0 } }
      for (const order of [["ours", "fastify"], ["fastify", "ours"]] as const) {
        for (const side of order) {
          const figures = await load(side === "ours" ? ours : fastify, route.path, seconds, connections)
          if (figures.bad > 0) throw new Error(`${side} answered ${figures.bad} requests to ${route.path} with an error or not at all`)
          totals[side].requests += figures.requests
          totals[side].seconds += figures.seconds
          totals[side].cpuSeconds += figures.cpuSeconds
          process.stderr.write(`${label}: ${side} ${(figures.requests / figures.seconds).toFixed(0)} req/s\n`)
        }
      }
      rows.push({
        label,
        target,
        ours: totals.ours.requests / totals.ours.seconds,
        fastify: totals.fastify.requests / totals.fastify.seconds,
        oursCpuUs: (totals.ours.cpuSeconds / totals.ours.requests) * 1e6,
        fastifyCpuUs: (totals.fastify.cpuSeconds / totals.fastify.requests) * 1e6,
        bytes: Buffer.from(route.bodyBase64, "base64").byteLength
      })
    }
    const logLines = Fs.readFileSync(logFile, "utf8").split("\n").filter((line) => line.includes("message=request ")).length
    console.log(`${seconds} s x 2 rounds a side and route, ${connections} connections, ${Os.cpus().length} cores, Node ${process.version}; server logged ${logLines} request lines`)
    // CPU µs/req: the server process's CPU time per answered request, steadier than req/s on a
    // busy machine (it does not count time the process waited for a core).
    console.log(
      `${"route".padEnd(24)}${"bytes".padStart(7)}${"ours req/s".padStart(12)}${"Fastify req/s".padStart(15)}${"ratio".padStart(8)}${"target".padStart(8)}` +
        `${"CPU µs/req ours".padStart(18)}${"Fastify".padStart(9)}`
    )
    for (const row of rows) {
      const ratio = row.ours / row.fastify
      console.log(
        `${row.label.padEnd(24)}${String(row.bytes).padStart(7)}${row.ours.toFixed(0).padStart(12)}${row.fastify.toFixed(0).padStart(15)}${
          `${ratio.toFixed(2)}x`.padStart(8)
        }${`${row.target}x`.padStart(8)}${row.oursCpuUs.toFixed(0).padStart(18)}${row.fastifyCpuUs.toFixed(0).padStart(9)}  ${ratio >= row.target ? "met" : "MISSED"}`
      )
    }
  } finally {
    for (const child of children) await stop(child)
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === "--fastify") await runFastify(process.argv[3]!, Number(process.argv[4]))
else await main()
