/**
 * A whole many-server deployment on loopback, for the system test (scripts/system-test.ts) and
 * the two-servers benchmark (bench/system-scaling.ts): PostgreSQL, Ceph RGW (S3), one converter
 * service (`formwright converter`) and N API servers (`formwright serve`) on PostgreSQL + S3 that
 * hand their conversions to the converter, each a real process started from the sources.
 *
 * PostgreSQL and S3 are the ones `FORMWRIGHT_TEST_DATABASE_URL` and `FORMWRIGHT_TEST_S3_ENDPOINT`
 * name (as CI sets them), else clusters of this run's own, started by scripts/pg-server.sh and
 * scripts/s3-server.sh on free ports in a fresh directory and stopped again by `stop`: a run
 * never touches the servers other runs share. Records go to a schema of their own, blobs to a
 * bucket of their own.
 */
import { ServerProcess } from "@formwright/testing"
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

const repoRoot = Path.resolve(import.meta.dirname, "../..")
const entry = Path.join(repoRoot, "packages/http-node/src/bin.ts")
export const apiKey = ServerProcess.defaultKey
export const converterKey = "system-converter-key-0001"
export const webhookSecret = "system-webhook-secret-0001"

/** What a machine lacks to run the system, or undefined when it has everything. */
export const missing = (): string | undefined => {
  const has = (command: string) => spawnSync("sh", ["-c", command], { stdio: "ignore" }).status === 0
  const lacking: Array<string> = []
  // psql reads the job queues for the checks, even when the database is given.
  const psql = has("ls /usr/lib/postgresql/*/bin/psql || command -v psql")
  if (!psql || (!process.env.FORMWRIGHT_TEST_DATABASE_URL && !has("ls /usr/lib/postgresql/*/bin/pg_ctl || command -v pg_ctl"))) {
    lacking.push("PostgreSQL (apt-get install postgresql; FORMWRIGHT_TEST_DATABASE_URL names another server)")
  }
  if (!process.env.FORMWRIGHT_TEST_S3_ENDPOINT && !has("command -v radosgw")) {
    lacking.push("Ceph RGW (apt-get install radosgw ceph-mon ceph-osd, or set FORMWRIGHT_TEST_S3_ENDPOINT)")
  }
  return lacking.length === 0 ? undefined : lacking.join(" and ")
}

export interface Options {
  /** API servers to start (default 2). */
  readonly apiServers?: number | undefined
  /** Where the API servers POST their events (the webhook outbox), if anywhere. */
  readonly webhookUrl?: string | undefined
  /** Settings given to every API server on top of the deployment's (e.g. FORMWRIGHT_PDF_WORKERS). */
  readonly apiEnv?: Readonly<Record<string, string>> | undefined
  /** Settings of the converter service. */
  readonly converterEnv?: Readonly<Record<string, string>> | undefined
  /** Where progress lines go (default stderr). */
  readonly say?: ((line: string) => void) | undefined
}

export interface Cluster {
  readonly api: ReadonlyArray<ServerProcess.ServerProcess>
  readonly converter: ServerProcess.ServerProcess
  /** The settings every API server of this deployment gets (to start another one). */
  readonly apiSettings: Readonly<Record<string, string>>
  /** Starts one more API server of the deployment. */
  readonly startApi: () => Promise<ServerProcess.ServerProcess>
  /** Runs SQL against the deployment's database (psql), returning its rows as tab-separated lines. */
  readonly sql: (query: string) => Array<Array<string>>
  readonly schema: string
  readonly stop: () => Promise<void>
}

const run = (args: ReadonlyArray<string>, env: Record<string, string>, timeoutMs = 300_000) => {
  const result = spawnSync("bash", args, { env: { ...process.env, ...env }, encoding: "utf8", timeout: timeoutMs })
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed (${result.status}):\n${result.stderr}`)
  return result.stdout
}

const exported = (output: string, name: string) => new RegExp(`${name}=(\\S+)`).exec(output)?.[1]

export const start = async (options: Options = {}): Promise<Cluster> => {
  const say = options.say ?? ((line: string) => process.stderr.write(`[system] ${line}\n`))
  const work = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-system-"))
  // Run as root, the PostgreSQL cluster belongs to `postgres`, which must reach its directory.
  Fs.chmodSync(work, 0o755)
  const stops: Array<() => Promise<void> | void> = []
  const stop = async () => {
    for (const step of stops.reverse()) {
      try {
        await step()
      } catch (error) {
        say(`cleanup: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    stops.length = 0
    Fs.rmSync(work, { recursive: true, force: true })
  }
  try {
    const began = Date.now()
    const [pgPort, s3Port, monPort] = [await ServerProcess.freePort(), await ServerProcess.freePort(), await ServerProcess.freePort()]
    let databaseUrl = process.env.FORMWRIGHT_TEST_DATABASE_URL
    if (!databaseUrl) {
      const env = { FORMWRIGHT_PG_SERVER_DIR: Path.join(work, "pg"), FORMWRIGHT_PG_SERVER_PORT: String(pgPort) }
      databaseUrl = exported(run([Path.join(repoRoot, "scripts/pg-server.sh"), "start"], env), "FORMWRIGHT_TEST_DATABASE_URL")
      stops.push(() => void run([Path.join(repoRoot, "scripts/pg-server.sh"), "reset"], env))
      say(`PostgreSQL of this run on 127.0.0.1:${pgPort}`)
    }
    let s3Endpoint = process.env.FORMWRIGHT_TEST_S3_ENDPOINT
    let s3Credentials: Record<string, string> = {}
    if (!s3Endpoint) {
      // The mon's v2 port is its port + 1: take a port whose successor is probably free too.
      const env = { FORMWRIGHT_S3_SERVER_DIR: Path.join(work, "s3"), FORMWRIGHT_S3_SERVER_PORT: String(s3Port), FORMWRIGHT_S3_SERVER_MON_PORT: String(monPort) }
      const output = run([Path.join(repoRoot, "scripts/s3-server.sh"), "start"], env)
      s3Endpoint = exported(output, "FORMWRIGHT_TEST_S3_ENDPOINT")
      s3Credentials = {
        AWS_ACCESS_KEY_ID: exported(output, "AWS_ACCESS_KEY_ID") ?? "testkey",
        AWS_SECRET_ACCESS_KEY: exported(output, "AWS_SECRET_ACCESS_KEY") ?? "testsecret"
      }
      stops.push(() => void run([Path.join(repoRoot, "scripts/s3-server.sh"), "stop"], env))
      say(`Ceph RGW of this run on ${s3Endpoint}`)
    }
    if (!databaseUrl || !s3Endpoint) throw new Error("PostgreSQL or S3 printed no address")
    say(`PostgreSQL and S3 ready in ${((Date.now() - began) / 1000).toFixed(1)} s`)

    const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
    const schema = `sys_${id}`
    const sql = (query: string) => {
      const url = new URL(databaseUrl!)
      const psql = spawnSync("sh", ["-c", "ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n 1 || command -v psql"], { encoding: "utf8" }).stdout.trim() || "psql"
      const result = spawnSync(psql, ["-h", url.hostname, "-p", url.port || "5432", "-U", decodeURIComponent(url.username), "-d", url.pathname.slice(1), "-AtF", "\t", "-c", query], {
        env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) },
        encoding: "utf8"
      })
      if (result.status !== 0) throw new Error(`psql: ${result.stderr}`)
      return result.stdout.split("\n").filter((line) => line !== "").map((line) => line.split("\t"))
    }
    stops.push(() => void sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`))

    const converterPort = await ServerProcess.freePort()
    const converter = await ServerProcess.start({
      entry,
      args: ["converter"],
      dataDir: Path.join(work, "converter"),
      env: { FORMWRIGHT_PORT: String(converterPort), FORMWRIGHT_CONVERTER_KEY: converterKey, FORMWRIGHT_CONVERTER_QUEUE: "64", ...options.converterEnv }
    })
    stops.push(() => converter.stop())

    const apiSettings: Record<string, string> = {
      FORMWRIGHT_DATABASE_URL: databaseUrl,
      FORMWRIGHT_DATABASE_SCHEMA: schema,
      FORMWRIGHT_STORAGE: "s3",
      FORMWRIGHT_S3_BUCKET: `fw-system-${id}`,
      FORMWRIGHT_S3_ENDPOINT: s3Endpoint,
      FORMWRIGHT_CONVERTER_URL: `http://127.0.0.1:${converterPort}`,
      FORMWRIGHT_CONVERTER_KEY: converterKey,
      // Every client of the run comes from one address: failed authentications are not limited.
      FORMWRIGHT_AUTH_FAILURE_LIMIT: "0",
      ...(options.webhookUrl !== undefined ? { FORMWRIGHT_WEBHOOK_URL: options.webhookUrl, FORMWRIGHT_WEBHOOK_SECRET: webhookSecret } : {}),
      ...s3Credentials,
      ...options.apiEnv
    }
    let started = 0
    const startApi = async () => {
      const server = await ServerProcess.start({ entry, dataDir: Path.join(work, `api-${started++}`), env: apiSettings, startTimeoutMs: 120_000 })
      stops.push(() => server.stop())
      return server
    }
    // The first creates the tables and queues; the others find them.
    const api = [await startApi()]
    api.push(...(await Promise.all(Array.from({ length: (options.apiServers ?? 2) - 1 }, startApi))))
    say(`converter on ${converter.url}, API servers on ${api.map((s) => s.url).join(", ")} (${((Date.now() - began) / 1000).toFixed(1)} s)`)
    return { api, converter, apiSettings, startApi, sql, schema, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
