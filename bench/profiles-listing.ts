/**
 * `GET /v1/profiles?name=…&page=…` for one user with many profiles, on PostgreSQL against the
 * local directory (the baseline), in one run:
 *
 *   node bench/profiles-listing.ts [profiles] [requests]      (defaults: 10000 profiles, 300 requests)
 *
 * It starts two `formwright serve` processes: one with FORMWRIGHT_DATABASE_URL (records in a fresh
 * PostgreSQL schema, blobs in its directory), one on a directory alone. Each gets the same
 * `profiles` profiles for one user through POST /v1/profiles. Then the listing is asked
 * `requests` times on each, one request at a time, alternating servers so that a slow spell of
 * the machine does not land on one side only, with a name filter and page that change on every
 * request (a name held by about one profile in nine, a status, a name nobody has, pages from 1
 * to past the end). Printed side by side: p50, p95 and max latency, against the target of issue
 * 10 (p50 <= 20 ms on PostgreSQL). Every answer is checked: a 200 whose total matches the count
 * this run created.
 *
 * The database: BENCH_DATABASE_URL or FORMWRIGHT_TEST_DATABASE_URL, else `scripts/pg-server.sh
 * start` (Debian's postgresql on loopback). The schema is dropped at the end.
 *
 * The directory side lists from an index it reads again once a second at most (its cache,
 * docs/storage-s3.md), so many of its answers come from memory; PostgreSQL answers every
 * request with one query.
 */
import { ServerProcess } from "@formwright/testing"
import { spawnSync } from "node:child_process"
import * as Path from "node:path"

const repoRoot = Path.resolve(import.meta.dirname, "..")
const entry = Path.join(repoRoot, "packages/http-node/src/bin.ts")
const profileCount = Number(process.argv[2] ?? 10_000)
const requestCount = Number(process.argv[3] ?? 300)
const targetP50Ms = 20

const databaseUrl = (): string => {
  const given = process.env.BENCH_DATABASE_URL || process.env.FORMWRIGHT_TEST_DATABASE_URL
  if (given) return given
  const started = spawnSync("bash", [Path.join(repoRoot, "scripts/pg-server.sh"), "start"], { encoding: "utf8" })
  const url = /FORMWRIGHT_TEST_DATABASE_URL=(\S+)/.exec(started.stdout)?.[1]
  if (started.status !== 0 || url === undefined) {
    throw new Error(`no PostgreSQL: set BENCH_DATABASE_URL, or install postgresql for scripts/pg-server.sh:\n${started.stderr}`)
  }
  return url
}

/** Every `n`th profile is `Inactive`; names carry their number, so filters have known counts. */
const profileName = (i: number) => `Person ${i} ${i % 9 === 0 ? "Ninefold" : "Plain"}`
const isInactive = (i: number) => i % 4 === 0

const seed = async (server: ServerProcess.ServerProcess, label: string) => {
  const started = Date.now()
  let next = 0
  const worker = async () => {
    for (let i = next++; i < profileCount; i = next++) {
      const answer = await server.call("/v1/profiles", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: profileName(i), status: isInactive(i) ? "Inactive" : "Active", data: { email: `person${i}@example.com`, city: "Springfield" } })
      })
      if (answer.status !== 201) throw new Error(`${label}: creating profile ${i} answered ${answer.status}: ${await answer.text()}`)
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  console.log(`${label}: ${profileCount} profiles created in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

interface Ask {
  readonly path: string
  readonly total: number
}

/** The i-th request: a filter and page, with the total the answer must report. */
const ask = (i: number): Ask => {
  const all = Array.from({ length: profileCount }, (_, n) => n)
  const count = (keep: (n: number) => boolean) => all.filter(keep).length
  const size = 10
  switch (i % 4) {
    case 0: {
      const total = count((n) => n % 9 === 0)
      const page = 1 + (i % Math.max(1, Math.ceil(total / size)))
      return { path: `/v1/profiles?name=ninefold&page=${page}&size=${size}`, total }
    }
    case 1: {
      const total = count((n) => n % 9 === 0 && !isInactive(n))
      return { path: `/v1/profiles?name=NINE&status=Active&page=${1 + (i % 7)}&size=${size}`, total }
    }
    case 2:
      return { path: `/v1/profiles?name=nobody-is-called-this&page=1&size=${size}`, total: 0 }
    default:
      return { path: `/v1/profiles?page=${1 + (i % 50)}&size=${size}`, total: profileCount }
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const main = async () => {
  const url = databaseUrl()
  const schema = `bench_${Date.now().toString(36)}`
  const pg = await ServerProcess.start({ entry, env: { FORMWRIGHT_DATABASE_URL: url, FORMWRIGHT_DATABASE_SCHEMA: schema }, apiKeys: { bench: "bench-user-key-00000001" } })
  const fs = await ServerProcess.start({ entry, apiKeys: { bench: "bench-user-key-00000001" } })
  try {
    await seed(pg, "PostgreSQL")
    await seed(fs, "directory")
    const asks = Array.from({ length: requestCount }, (_, i) => ask(i))
    const timings = { pg: [] as Array<number>, fs: [] as Array<number> }
    // Warm-up: the first requests load code paths and connections.
    for (const server of [pg, fs]) for (let i = 0; i < 20; i++) await (await server.call(asks[i % asks.length]!.path)).arrayBuffer()
    for (let i = 0; i < requestCount; i++) {
      const sides = i % 2 === 0 ? (["pg", "fs"] as const) : (["fs", "pg"] as const)
      for (const side of sides) {
        const server = side === "pg" ? pg : fs
        const started = performance.now()
        const answer = await server.call(asks[i]!.path)
        const body = await answer.json() as { total?: number }
        timings[side].push(performance.now() - started)
        if (answer.status !== 200 || body.total !== asks[i]!.total) {
          throw new Error(`${side} ${asks[i]!.path}: status ${answer.status}, total ${body.total}, expected ${asks[i]!.total}`)
        }
      }
    }
    const row = (label: string, times: Array<number>) => {
      const sorted = [...times].sort((a, b) => a - b)
      return `${label.padEnd(12)} p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(sorted, 95).toFixed(1).padStart(7)} ms   max ${sorted[sorted.length - 1]!.toFixed(1).padStart(7)} ms`
    }
    console.log(`\nGET /v1/profiles?name=…&page=…, one user with ${profileCount} profiles, ${requestCount} requests each, one at a time:`)
    console.log(row("PostgreSQL", timings.pg))
    console.log(row("directory", timings.fs))
    const p50 = percentile([...timings.pg].sort((a, b) => a - b), 50)
    console.log(`target: p50 <= ${targetP50Ms} ms on PostgreSQL: ${p50 <= targetP50Ms ? "met" : "MISSED"} (${p50.toFixed(1)} ms)`)
  } finally {
    await Promise.all([pg.stop(), fs.stop()])
    spawnSync("psql", [url, "-qc", `DROP SCHEMA IF EXISTS "${schema}" CASCADE`], { stdio: "ignore" })
  }
}

await main()
