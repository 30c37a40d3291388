/**
 * The PostgreSQL the integration tests run against, found or started once per test run:
 * 1. `FORMWRIGHT_TEST_DATABASE_URL` (what `.ci/run` sets after `scripts/pg-server.sh start`);
 * 2. else, on a machine with Debian's `postgresql` installed, `scripts/pg-server.sh start` (a
 *    cluster on 127.0.0.1:55432), stopped again by the global teardown if this run started it;
 * 3. else none: the PostgreSQL tests are skipped with a message saying why.
 *    `FORMWRIGHT_TEST_PG_REQUIRED=1` (CI) turns that into a failure.
 *
 * Each test file works in a schema of its own (`freshSchema`), dropped when it is done, so runs
 * never see each other's rows.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { inject } from "vitest"

export const noServerMessage = "PostgreSQL tests skipped: PostgreSQL is not installed (apt-get install postgresql) and FORMWRIGHT_TEST_DATABASE_URL is not set"

const repoRoot = Path.resolve(import.meta.dirname, "../../../..")
const script = Path.join(repoRoot, "scripts/pg-server.sh")
const required = process.env.FORMWRIGHT_TEST_PG_REQUIRED === "1"

const hasPostgres = () =>
  spawnSync("sh", ["-c", "ls /usr/lib/postgresql/*/bin/initdb || command -v initdb"], { stdio: "ignore" }).status === 0

const startLocal = (): string | { readonly url: string } => {
  const wasRunning = spawnSync("bash", [script, "status"], { encoding: "utf8" })
  if (wasRunning.status === 0) return { url: wasRunning.stdout.trim() }
  const started = spawnSync("bash", [script, "start"], { encoding: "utf8", timeout: 120_000 })
  if (started.status !== 0) return `PostgreSQL tests skipped: scripts/pg-server.sh start failed:\n${started.stderr}`
  // Tell the global teardown that this run started the server, so it stops it again.
  const marker = inject("formwrightPgStartedMarker")
  if (marker) Fs.writeFileSync(marker, script)
  const url = /FORMWRIGHT_TEST_DATABASE_URL=(\S+)/.exec(started.stdout)?.[1]
  return url === undefined ? "PostgreSQL tests skipped: scripts/pg-server.sh printed no URL" : { url }
}

let resolved: string | { readonly url: string } | undefined

/** The database URL, or why there is none (the PostgreSQL tests then skip with that message). */
export const server = (): string | { readonly url: string } => {
  if (resolved !== undefined) return resolved
  const url = process.env.FORMWRIGHT_TEST_DATABASE_URL
  resolved = url !== undefined && url !== "" ? { url } : hasPostgres() ? startLocal() : noServerMessage
  if (typeof resolved === "string") {
    if (required) throw new Error(`FORMWRIGHT_TEST_PG_REQUIRED=1 but ${resolved}`)
    console.warn(resolved)
  }
  return resolved
}

/** A schema name no other run uses. */
export const freshSchema = (label: string) =>
  `t_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`.toLowerCase().replace(/[^a-z0-9_]/g, "_")

/** Drops a test's schema and everything in it (best effort: a failure is only reported). */
export const dropSchema = (url: string, schema: string): Promise<void> =>
  Effect.runPromise(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`
    }).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })),
      Effect.catchCause((cause) => Effect.sync(() => console.warn(`could not drop test schema ${schema}: ${cause}`)))
    )
  )

declare module "vitest" {
  export interface ProvidedContext {
    /** A file the PostgreSQL tests write when they started the local server, for the teardown to stop it. */
    formwrightPgStartedMarker: string
  }
}
