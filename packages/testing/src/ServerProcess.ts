/**
 * A Formwright server run as a real child process (`node <entry> serve`), for black-box tests
 * and long fuzz runs that must see what a user would: the process dying, its memory (read from
 * /proc), its answers over loopback HTTP, and a restart on the same data. Also a `/health`
 * prober in a worker thread, so latency is measured away from the caller's own event loop.
 *
 * ```ts
 * import { ServerProcess } from "@formwright/testing"
 *
 * const server = await ServerProcess.start({ entry: "packages/http-node/src/bin.ts" })
 * const probe = ServerProcess.probeHealth(server)
 * const res = await server.call("/v1/forms")                   // with the default key
 * const health = await probe.stop()                            // { p50, p99, max, failures, ... }
 * console.log(server.peakRssBytes(), server.alive())
 * await server.stop()                                          // SIGTERM, then SIGKILL
 * ```
 *
 * Only loopback is used: the server listens on 127.0.0.1 and every request goes there.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Worker } from "node:worker_threads"

/** How `start` runs the server. */
export interface Options {
  /** The server's entry script (the `formwright` CLI, `packages/http-node/src/bin.ts`). */
  readonly entry: string
  /** Its arguments; `["serve"]` by default. */
  readonly args?: ReadonlyArray<string> | undefined
  /**
   * FORMWRIGHT_* settings on top of the defaults (loopback, a free port, the data directory,
   * the API keys). Other FORMWRIGHT_* variables of this process are not passed on, so the server
   * runs with its default limits unless set here.
   */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Data directory; a fresh temporary one (removed by `stop`) when absent. */
  readonly dataDir?: string | undefined
  /** API keys the server accepts, by user; `{ alice: <a fixed key> }` by default. */
  readonly apiKeys?: Readonly<Record<string, string>> | undefined
  /** How long to wait for "Listening on"; 60 s by default. */
  readonly startTimeoutMs?: number | undefined
  /** Bytes of stdout/stderr kept for failure messages (the latest); 1 MiB by default. */
  readonly logLimitBytes?: number | undefined
  /** Called with every line the server prints (stdout and stderr), e.g. to spot logged errors. */
  readonly onLine?: ((line: string, stream: "stdout" | "stderr") => void) | undefined
  /** Called when the process exits, expectedly (`stop`, `kill`) or not. */
  readonly onExit?: ((exit: Exit) => void) | undefined
}

/** How a server process ended. */
export interface Exit {
  readonly pid: number
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** False when the server died on its own (a crash); true after `stop`, `kill` or `restart`. */
  readonly expected: boolean
  readonly at: Date
  /** The last lines it printed. */
  readonly output: string
}

/** A running server process and what can be asked of it. */
export interface ServerProcess {
  /** Base URL (`http://127.0.0.1:<port>`); a restart may change the port. */
  readonly url: string
  readonly pid: number
  readonly dataDir: string
  /** The key `call` sends by default. */
  readonly key: string
  /** `fetch` against the server with `Authorization: Bearer <key>` (the default key; none when `key` is null). */
  readonly call: (path: string, init?: RequestInit & { key?: string | null }) => Promise<Response>
  /** Resident memory now (VmRSS) of the server and every process it started, in bytes. */
  readonly rssBytes: () => number
  /**
   * Peak resident memory of the server and every process it started, in bytes: the larger of
   * the sum of their peaks (VmHWM) now and the largest sum of their resident memory sampled
   * every 50 ms, which keeps the peak of a worker that has since died (out of memory, say).
   */
  readonly peakRssBytes: () => number
  /**
   * The largest total of the tree's resident memory at one moment, sampled every 50 ms: what the
   * machine had to hold at once (`peakRssBytes` also adds up peaks the processes reached at
   * different times, an upper bound).
   */
  readonly sampledPeakRssBytes: () => number
  /** Restarts the peak count (`peakRssBytes`) from the current RSS; false where the kernel does not allow it. */
  readonly resetPeakRss: () => boolean
  /** Whether the process is still running. */
  readonly alive: () => boolean
  /** Resolves when the current process exits. */
  readonly exited: () => Promise<Exit>
  /** Every exit so far, oldest first. */
  readonly exits: () => ReadonlyArray<Exit>
  /** The latest stdout and stderr, interleaved, as printed. */
  readonly output: () => string
  /**
   * Starts the server again on the same data directory. A live process is stopped first:
   * with SIGTERM, or with SIGKILL when `kill` is set (a crash in the middle of the work).
   */
  readonly restart: (options?: { readonly kill?: boolean }) => Promise<void>
  /** Sends `signal` (SIGKILL by default) and waits for the exit. */
  readonly kill: (signal?: NodeJS.Signals) => Promise<Exit>
  /** SIGTERM, then SIGKILL after `timeoutMs` (10 s); removes a temporary data directory. */
  readonly stop: (timeoutMs?: number) => Promise<void>
}

/** The key `start` seeds for user `alice` when no `apiKeys` are given. */
export const defaultKey = "hostile-test-key-0001"

/** A port free on 127.0.0.1 right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

const kib = 1024

/** The `kB` value of `field` in /proc/<pid>/status, in bytes (0 when the process is gone). */
const statusField = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match ? Number(match[1]) * kib : 0
  } catch {
    return 0
  }
}

/** `pid` and every process below it (children of each of its threads, recursively). */
const processTree = (pid: number): Array<number> => {
  const all = [pid]
  for (let i = 0; i < all.length && all.length < 1000; i++) {
    let tasks: Array<string> = []
    try {
      tasks = readdirSync(`/proc/${all[i]}/task`)
    } catch {
      continue
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${all[i]}/task/${task}/children`, "utf8").trim().split(/\s+/)) {
          if (child !== "" && !all.includes(Number(child))) all.push(Number(child))
        }
      } catch {
        // The thread ended meanwhile.
      }
    }
  }
  return all
}

/** Children that must not outlive this process, even when it ends without stopping them. */
const live = new Set<ChildProcess>()
let exitHookInstalled = false
const installExitHook = () => {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once("exit", () => {
    for (const child of live) child.kill("SIGKILL")
  })
}

/** Keeps the latest `limit` characters of what the server printed. */
const tail = (limit: number) => {
  let chunks: Array<string> = []
  let size = 0
  return {
    push: (text: string) => {
      chunks.push(text)
      size += text.length
      if (size > limit * 2) {
        const joined = chunks.join("").slice(-limit)
        chunks = [joined]
        size = joined.length
      }
    },
    text: () => chunks.join("").slice(-limit)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts the server and resolves once it logs the address it listens on. */
export const start = async (options: Options): Promise<ServerProcess> => {
  installExitHook()
  const ownDataDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "formwright-process-"))
  const apiKeys = options.apiKeys ?? { alice: defaultKey }
  const key = Object.values(apiKeys)[0] ?? defaultKey
  const log = tail(options.logLimitBytes ?? 1024 * 1024)
  const exits: Array<Exit> = []
  let child: ChildProcess | undefined
  let url = ""
  let expectingExit = false
  let exitedPromise: Promise<Exit> = Promise.resolve({ pid: 0, code: null, signal: null, expected: true, at: new Date(), output: "" })

  // The parent's FORMWRIGHT_* settings would change the limits under test.
  const baseEnv: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith("FORMWRIGHT_")) baseEnv[name] = value

  const spawnOnce = async (): Promise<"started" | "port-taken"> => {
    const port = await freePort()
    const proc = spawn(process.execPath, [options.entry, ...(options.args ?? ["serve"])], {
      env: {
        ...baseEnv,
        FORMWRIGHT_HOST: "127.0.0.1",
        FORMWRIGHT_PORT: String(port),
        FORMWRIGHT_DATA_DIR: dataDir,
        FORMWRIGHT_API_KEYS: Object.entries(apiKeys).map(([user, k]) => `${user}:${k}`).join(","),
        ...options.env
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: a Ctrl-C meant for the test run or the fuzz command does not
      // reach it (that would look like a crash); the exit hook below and `stop` end it.
      detached: true
    })
    child = proc
    live.add(proc)
    expectingExit = false
    let listening: ((address: string) => void) | undefined
    const listeningOn = new Promise<string>((resolve) => (listening = resolve))
    const lines = (stream: "stdout" | "stderr") => {
      let partial = ""
      return (data: Buffer) => {
        const text = data.toString("utf8")
        log.push(text)
        partial += text
        const parts = partial.split("\n")
        partial = parts.pop() ?? ""
        for (const line of parts) {
          const address = /Listening on (http:\/\/[^\s"]+)/.exec(line)
          if (address) listening?.(address[1]!)
          options.onLine?.(line, stream)
        }
      }
    }
    proc.stdout!.on("data", lines("stdout"))
    proc.stderr!.on("data", lines("stderr"))
    exitedPromise = new Promise<Exit>((resolve) =>
      proc.once("exit", (code, signal) => {
        live.delete(proc)
        const exit: Exit = { pid: proc.pid ?? 0, code, signal, expected: expectingExit, at: new Date(), output: log.text().slice(-8000) }
        exits.push(exit)
        options.onExit?.(exit)
        resolve(exit)
      })
    )
    const timeoutMs = options.startTimeoutMs ?? 60_000
    const outcome = await Promise.race([
      listeningOn.then((address) => ({ address })),
      exitedPromise.then((exit) => ({ exit })),
      sleep(timeoutMs).then(() => ({ timeout: true as const }))
    ])
    if ("address" in outcome) {
      url = outcome.address.replace("0.0.0.0", "127.0.0.1")
      return "started"
    }
    if ("exit" in outcome) {
      if (/EADDRINUSE/.test(outcome.exit.output)) return "port-taken"
      throw new Error(`the server exited while starting (code ${outcome.exit.code}, signal ${outcome.exit.signal}):\n${outcome.exit.output}`)
    }
    expectingExit = true
    proc.kill("SIGKILL")
    await exitedPromise
    throw new Error(`the server did not listen within ${timeoutMs} ms:\n${log.text().slice(-8000)}`)
  }

  const launch = async () => {
    // Another process may take the free port between the probe and the server's listen.
    for (let attempt = 1; ; attempt++) {
      if ((await spawnOnce()) === "started") return
      if (attempt >= 5) throw new Error(`no free port after ${attempt} attempts:\n${log.text().slice(-4000)}`)
    }
  }

  const isAlive = () => child !== undefined && child.exitCode === null && child.signalCode === null

  const kill = async (signal: NodeJS.Signals = "SIGKILL"): Promise<Exit> => {
    if (!isAlive()) return exitedPromise
    expectingExit = true
    // Whatever the server started goes too (it starts none today; a converter process might).
    const tree = processTree(child!.pid!)
    for (const pid of tree.slice(1).reverse()) {
      try {
        process.kill(pid, signal)
      } catch {
        // Already gone.
      }
    }
    child!.kill(signal)
    return exitedPromise
  }

  const terminate = async (timeoutMs: number) => {
    if (!isAlive()) return
    expectingExit = true
    child!.kill("SIGTERM")
    const done = await Promise.race([exitedPromise.then(() => true), sleep(timeoutMs).then(() => false)])
    if (!done) await kill("SIGKILL")
  }

  // The largest total resident memory seen since the last reset, sampled while the server runs.
  let sampledPeak = 0
  const treeRss = () => (isAlive() ? processTree(child!.pid!).reduce((sum, pid) => sum + statusField(pid, "VmRSS"), 0) : 0)
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, treeRss())
  }, 50)
  sampler.unref()
  const stopSampling = () => clearInterval(sampler)

  await launch()
  // Requests made while a restart is under way wait for the new process rather than going to
  // the old port.
  let ready: Promise<void> = Promise.resolve()

  return {
    get url() {
      return url
    },
    get pid() {
      return child?.pid ?? 0
    },
    dataDir,
    key,
    call: async (path, init = {}) => {
      await ready
      const { key: callKey = key, ...rest } = init
      const headers = new Headers(rest.headers)
      if (callKey !== null && !headers.has("authorization")) headers.set("authorization", `Bearer ${callKey}`)
      return fetch(`${url}${path}`, { ...rest, headers })
    },
    rssBytes: treeRss,
    sampledPeakRssBytes: () => sampledPeak,
    peakRssBytes: () =>
      Math.max(sampledPeak, isAlive() ? processTree(child!.pid!).reduce((sum, pid) => sum + statusField(pid, "VmHWM"), 0) : 0),
    resetPeakRss: () => {
      if (!isAlive()) return false
      sampledPeak = treeRss()
      try {
        // "5" resets the peak resident set size to the current one (proc(5), clear_refs).
        for (const pid of processTree(child!.pid!)) writeFileSync(`/proc/${pid}/clear_refs`, "5")
        return true
      } catch {
        return false
      }
    },
    alive: isAlive,
    exited: () => exitedPromise,
    exits: () => exits,
    output: () => log.text(),
    restart: (restartOptions = {}) => {
      ready = (async () => {
        if (restartOptions.kill) await kill("SIGKILL")
        else await terminate(10_000)
        await launch()
      })()
      return ready
    },
    kill,
    stop: async (timeoutMs = 10_000) => {
      stopSampling()
      await terminate(timeoutMs)
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

// ---------------------------------------------------------------------------------------------
// /health latency, measured from a worker thread

/** Latency figures of `/health` over a period. */
export interface HealthStats {
  /** Answers with status 200. */
  readonly count: number
  /** Requests that failed: refused, timed out or not 200. */
  readonly failures: number
  /** Latencies in milliseconds, of the answered requests. */
  readonly p50: number
  readonly p99: number
  readonly max: number
  /** Every latency, in milliseconds, sorted (to pool several periods' figures). */
  readonly latencies: ReadonlyArray<number>
  /** The last failure's message, if any. */
  readonly lastFailure: string | undefined
}

/** A `/health` prober running in a worker thread (see `probeHealth`). */
export interface HealthProbe {
  /** Points the probe at another base URL (after a restart on a new port). */
  readonly retarget: (url: string) => void
  /** Figures so far, without stopping. */
  readonly snapshot: () => Promise<HealthStats>
  /** Stops probing and returns the figures. */
  readonly stop: () => Promise<HealthStats>
}

/** How often `probeHealth` asks and how long it waits for an answer. */
export interface ProbeOptions {
  /** Time between the starts of two requests (never two at once); 20 ms by default. */
  readonly intervalMs?: number | undefined
  /** A request unanswered this long is a failure; 5 s by default. */
  readonly timeoutMs?: number | undefined
}

/** The prober, plain JavaScript run as a worker (no TypeScript loader needed there). */
const probeSource = `
const http = require("node:http")
const { parentPort, workerData } = require("node:worker_threads")
let base = workerData.url
let stopped = false
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
let latencies = new Float64Array(4096)
let count = 0
let failures = 0
let lastFailure
const report = () => ({ latencies: latencies.slice(0, count), failures, lastFailure })
parentPort.on("message", (message) => {
  if (message.type === "url") base = message.url
  else if (message.type === "snapshot") parentPort.postMessage({ type: "snapshot", ...report() })
  else if (message.type === "stop") stopped = true
})
const once = () => new Promise((resolve) => {
  const started = performance.now()
  const request = http.get(base + "/health", { agent, timeout: workerData.timeoutMs }, (response) => {
    response.resume()
    response.on("end", () => resolve({ ms: performance.now() - started, ok: response.statusCode === 200, error: "status " + response.statusCode }))
    response.on("error", (e) => resolve({ ms: performance.now() - started, ok: false, error: e.message }))
  })
  request.on("timeout", () => request.destroy(new Error("no answer within " + workerData.timeoutMs + " ms")))
  request.on("error", (e) => resolve({ ms: performance.now() - started, ok: false, error: e.message }))
})
;(async () => {
  while (!stopped) {
    const started = performance.now()
    const result = await once()
    if (result.ok) {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2)
        grown.set(latencies)
        latencies = grown
      }
      latencies[count++] = result.ms
    } else {
      failures++
      lastFailure = result.error
    }
    const wait = workerData.intervalMs - (performance.now() - started)
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  }
  agent.destroy()
  parentPort.postMessage({ type: "stopped", ...report() })
})()
`

/** The value at `fraction` (0..1) of sorted `values` (nearest rank); 0 when empty. */
export const percentile = (sorted: ArrayLike<number>, fraction: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!

const statsOf = (report: { latencies: Float64Array; failures: number; lastFailure?: string }): HealthStats => {
  const sorted = report.latencies.slice().sort()
  return {
    count: sorted.length,
    failures: report.failures,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.length === 0 ? 0 : sorted[sorted.length - 1]!,
    latencies: Array.from(sorted),
    lastFailure: report.lastFailure
  }
}

/**
 * Requests `GET /health` of `server` (or a base URL) one at a time, every `intervalMs`, from a
 * worker thread, until stopped: the latencies are the server's, not delays of this thread.
 */
export const probeHealth = (server: { readonly url: string } | string, options: ProbeOptions = {}): HealthProbe => {
  const worker = new Worker(probeSource, {
    eval: true,
    workerData: { url: typeof server === "string" ? server : server.url, intervalMs: options.intervalMs ?? 20, timeoutMs: options.timeoutMs ?? 5_000 }
  })
  worker.unref()
  const next = (type: "snapshot" | "stopped") =>
    new Promise<HealthStats>((resolve, reject) => {
      const onMessage = (message: any) => {
        if (message.type !== type) return
        worker.off("message", onMessage)
        resolve(statsOf(message))
      }
      worker.on("message", onMessage)
      worker.once("error", reject)
    })
  let stopped: Promise<HealthStats> | undefined
  return {
    retarget: (url) => worker.postMessage({ type: "url", url }),
    snapshot: () => {
      const answer = next("snapshot")
      worker.postMessage({ type: "snapshot" })
      return answer
    },
    stop: () => {
      if (stopped) return stopped
      const answer = next("stopped")
      worker.postMessage({ type: "stop" })
      stopped = answer.finally(() => worker.terminate())
      return stopped
    }
  }
}

/** `HealthStats` as one line: `/health p50 2.1 ms, p99 9.8 ms, max 14.0 ms (1200 answers, 0 failures)`. */
export const formatHealth = (stats: HealthStats): string =>
  `/health p50 ${stats.p50.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms, max ${stats.max.toFixed(1)} ms (${stats.count} answers, ${stats.failures} failures${stats.lastFailure ? `: ${stats.lastFailure}` : ""})`

/** Bytes as MiB with one decimal. */
export const formatMiB = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
