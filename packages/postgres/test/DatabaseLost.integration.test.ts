/**
 * PostgreSQL lost while a server runs (issue 10, "Bad input and faults"): a `formwright serve`
 * on a PostgreSQL cluster of this test's own (scripts/pg-server.sh on a free port and a fresh
 * directory, so the shared test server is never touched), which the test stops and starts again.
 *
 * While the database is down, requests that need it answer 503 with the contract's error body
 * (the error object; `{error_message}` alone on the conversion routes) rather than a 500, and a
 * conversion that was running waits: once the database is back it is retried and completes.
 */
import { FlatFixtures, ServerProcess } from "@formwright/testing"
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as PgTestServer from "./support/PgTestServer.ts"

const repoRoot = Path.resolve(import.meta.dirname, "../../..")
const script = Path.join(repoRoot, "scripts/pg-server.sh")
const entry = Path.join(repoRoot, "packages/http-node/src/bin.ts")
const unavailable = "The server's database cannot be reached right now; nothing was changed. Try again later."

const installed = spawnSync("sh", ["-c", "ls /usr/lib/postgresql/*/bin/pg_ctl || command -v pg_ctl"], { stdio: "ignore" }).status === 0

const poll = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs: number): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last = await read()
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250))
    last = await read()
  }
  return last
}

if (!installed) {
  describe.skip(`a server whose PostgreSQL goes away (${PgTestServer.noServerMessage})`, () => {
    it("needs PostgreSQL installed", () => {})
  })
} else {
  describe("a server whose PostgreSQL goes away and comes back", { timeout: 240_000 }, () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-pg-lost-"))
    // Run as root, the cluster belongs to `postgres`, which must reach its directory.
    Fs.chmodSync(dir, 0o755)
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-pg-lost-blobs-"))
    let env: Record<string, string> = {}
    let server: ServerProcess.ServerProcess | undefined
    const pg = (command: "start" | "stop" | "reset") => {
      const run = spawnSync("bash", [script, command], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 120_000 })
      if (run.status !== 0) throw new Error(`pg-server.sh ${command} failed: ${run.stderr}`)
    }

    beforeAll(async () => {
      const port = await ServerProcess.freePort()
      env = { FORMWRIGHT_PG_SERVER_DIR: Path.join(dir, "pg"), FORMWRIGHT_PG_SERVER_PORT: String(port) }
      pg("start")
      server = await ServerProcess.start({
        entry,
        dataDir,
        env: { FORMWRIGHT_DATABASE_URL: `postgres://formwright:formwright@127.0.0.1:${port}/formwright` }
      })
    }, 120_000)

    afterAll(async () => {
      await server?.stop()
      try {
        pg("reset")
      } finally {
        Fs.rmSync(dir, { recursive: true, force: true })
        Fs.rmSync(dataDir, { recursive: true, force: true })
      }
    }, 120_000)

    it("answers 503 while it is down, and a running conversion completes once it is back", async () => {
      try {
        const created = await server!.call("/v1/profiles", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "Kept", data: { a: "b" } })
        })
        expect(created.status).toBe(201)
        const { bytes } = await FlatFixtures.flatTwoPageForm()
        const started = await server!.call("/v1/utils/convert", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(bytes) })
        expect(started.status).toBe(200)
        const { job_id: jobId } = await started.json()

        pg("stop")
        // The key may still be remembered (a few seconds) or looked up: 503 either way.
        const listing = await server!.call("/v1/profiles")
        expect(listing.status).toBe(503)
        expect(await listing.json()).toMatchObject({ object: "error", error_message: unavailable })
        const status = await server!.call(`/v1/utils/convert/${jobId}/status`)
        expect(status.status).toBe(503)
        expect(await status.json()).toEqual({ error_message: unavailable })
        const upload = await server!.call("/v1/profiles", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "Refused", data: {} })
        })
        expect(upload.status).toBe(503)
        // Long enough for the key cache to forget the key: the lookup itself finds no database.
        await new Promise((r) => setTimeout(r, 6_000))
        const afterCache = await server!.call("/v1/profiles")
        expect(afterCache.status).toBe(503)
        expect(await afterCache.json()).toMatchObject({ object: "error", error_message: unavailable })
        expect(server!.alive()).toBe(true)

        pg("start")
        const back = await poll(() => server!.call("/v1/profiles").then((r) => r.status), (s) => s === 200, 30_000)
        expect(back).toBe(200)
        const listed = await (await server!.call("/v1/profiles")).json()
        expect(listed.profiles.map((p: { name: string }) => p.name)).toEqual(["Kept"])
        const final = await poll(
          () => server!.call(`/v1/utils/convert/${jobId}/status`).then((r) => r.json()),
          (s: { status: string }) => s.status === "completed" || s.status === "failed",
          120_000
        )
        expect(final.status).toBe("completed")
        expect(server!.output()).not.toMatch(/Internal error/)
      } catch (error) {
        console.error(`--- server ---\n${server?.output()}`)
        throw error
      }
    })
  })
}
