/**
 * Two servers, one database: two `formwright serve` processes (packages/http-node/src/bin.ts)
 * with FORMWRIGHT_DATABASE_URL on the same PostgreSQL schema and one blob directory. Whatever one
 * accepted, the other lists and serves; concurrent PATCHes of one profile through both lose
 * nothing; records are rows, not files. And a server whose database is down does not start.
 * Runs against the PostgreSQL of test/support/PgTestServer.ts.
 */
import { Fixtures, FlatFixtures, ServerProcess } from "@formwright/testing"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as PgTestServer from "./support/PgTestServer.ts"

const server = PgTestServer.server()
const entry = Path.resolve(import.meta.dirname, "../../http-node/src/bin.ts")

/** Polls `read` until `done` holds or `timeoutMs` passes; returns the last answer. */
const poll = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs = 10_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last = await read()
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
    last = await read()
  }
  return last
}

if (typeof server === "string") {
  describe.skip(`two servers on one PostgreSQL (${server})`, () => {
    it("needs PostgreSQL", () => {})
  })
} else {
  const { url } = server

  describe("two servers on one PostgreSQL", { timeout: 120_000 }, () => {
    const schema = PgTestServer.freshSchema("two_servers")
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-pg-two-servers-"))
    const env = { FORMWRIGHT_DATABASE_URL: url, FORMWRIGHT_DATABASE_SCHEMA: schema }
    let a: ServerProcess.ServerProcess | undefined
    let b: ServerProcess.ServerProcess | undefined

    beforeAll(async () => {
      // Both start at once on an empty schema: the migrations run once, under their lock.
      ;[a, b] = await Promise.all([ServerProcess.start({ entry, env, dataDir }), ServerProcess.start({ entry, env, dataDir })])
    }, 120_000)

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()])
      await PgTestServer.dropSchema(url, schema)
      // The servers' job queues (pg-boss) live beside the records.
      await PgTestServer.dropSchema(url, `${schema}_jobs`)
      Fs.rmSync(dataDir, { recursive: true, force: true })
    })

    /** Runs a check, showing both servers' output if it fails. */
    const withLogs = async (check: () => Promise<void>) => {
      try {
        await check()
      } catch (error) {
        console.error(`--- server a ---\n${a?.output()}\n--- server b ---\n${b?.output()}`)
        throw error
      }
    }

    const rows = (query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<any>, unknown>) =>
      Effect.runPromise(
        Effect.gen(function*() {
          return yield* query(yield* SqlClient.SqlClient)
        }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
      )

    it("a form uploaded on one is listed and read on the other; its record is a row, its PDF a file", () =>
      withLogs(async () => {
        const pdf = Buffer.from(await Fixtures.formWithEveryFieldType())
        const upload = await a!.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: pdf })
        expect(upload.status).toBe(200)
        const [uploaded] = await upload.json()
        const formId: string = uploaded.form_id

        const listed = await poll(
          () => b!.call("/v1/forms").then((r) => r.json()),
          (list: any) => list.forms?.some((f: any) => f.id === formId)
        )
        expect(listed.forms.map((f: any) => f.id)).toContain(formId)
        const read = await b!.call(`/v1/forms/${formId}`)
        expect(read.status).toBe(200)
        expect((await read.json()).fields.map((f: any) => f.id)).toEqual(uploaded.fields.map((f: any) => f.id))
        const pdfOnB = await b!.call(`/v1/forms/${formId}/pdf`)
        expect(Buffer.from(await pdfOnB.arrayBuffer()).equals(pdf)).toBe(true)

        const keys = await rows((sql) => sql`SELECT key FROM ${sql(`${schema}.formwright_forms`)} WHERE key = ${`forms/${formId}`}`)
        expect(keys.length, "the form's record is in PostgreSQL, in the forms table").toBe(1)
        // The blob store's directory has its docs/ folder, empty: no record was written there.
        const recordFiles = Fs.existsSync(Path.join(dataDir, "docs")) ? Fs.readdirSync(Path.join(dataDir, "docs"), { recursive: true }) : []
        expect(recordFiles, "no record was written to the directory").toEqual([])
        expect(Fs.readdirSync(Path.join(dataDir, "blobs")).length, "the PDF went to the directory").toBeGreaterThan(0)
      }))

    it("a forms listing filters by name, pages and counts from the database's listing of entries", () =>
      withLogs(async () => {
        const pdf = Buffer.from(await Fixtures.formWithEveryFieldType())
        const tag = `listing-${Date.now()}`
        const ids: Array<string> = []
        for (let i = 0; i < 3; i++) {
          const upload = await a!.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf", "x-file-name": `${tag}-${i}.pdf` }, body: pdf })
          expect(upload.status).toBe(200)
          ids.push((await upload.json())[0].form_id)
        }
        const first = await (await b!.call(`/v1/forms?name=${tag.toUpperCase()}&page=1&size=2`)).json()
        expect(first.total).toBe(3)
        // Newest first, as every store lists them.
        expect(first.forms.map((f: any) => f.id)).toEqual([ids[2], ids[1]])
        const second = await (await b!.call(`/v1/forms?name=${tag}&page=2&size=2`)).json()
        expect(second.forms.map((f: any) => f.id)).toEqual([ids[0]])
        expect(second.forms[0].fields.length, "the listed forms are whole").toBeGreaterThan(0)
        // The entries carry the listing columns the query reads.
        const listed = await rows((sql) =>
          sql`SELECT name_folded FROM ${sql(`${schema}.formwright_owner_index`)} WHERE key LIKE ${`owners/%/forms/${ids[0]}`}`
        )
        expect(listed.map((row) => row.name_folded)).toEqual([`${tag}-0.pdf`])
      }))

    it("a profile PATCHed concurrently through both servers loses nothing", () =>
      withLogs(async () => {
        const created = await a!.call("/v1/profiles", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "Shared", data: { start: "yes" } })
        })
        expect(created.status).toBe(201)
        const profile = await created.json()
        const id: string = profile.idInternal
        const patches = 24
        const answers = await Promise.all(Array.from({ length: patches }, (_, i) =>
          (i % 2 === 0 ? a! : b!).call(`/v1/profiles/${id}`, {
            method: "PATCH",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ data: { [`key${i}`]: `value ${i}` } })
          }).then((r) => r.status)))
        expect(answers.every((status) => status === 200), String(answers)).toBe(true)
        for (const via of [a!, b!]) {
          const final = await (await via.call(`/v1/profiles/${id}`)).json()
          expect(final.data).toEqual({ start: "yes", ...Object.fromEntries(Array.from({ length: patches }, (_, i) => [`key${i}`, `value ${i}`])) })
        }
        const listed = await poll(
          () => b!.call("/v1/profiles").then((r) => r.json()),
          (list: any) => list.profiles?.some((p: any) => p.idInternal === id && Object.keys(p.data).length === patches + 1)
        )
        expect(listed.profiles.find((p: any) => p.idInternal === id).data.key23).toBe("value 23")
      }))
    it("a conversion started on one runs once, on pg-boss, and is polled to completion on the other", () =>
      withLogs(async () => {
        const { bytes } = await FlatFixtures.flatApplicationForm()
        const started = await a!.call("/v1/utils/convert", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(bytes) })
        expect(started.status).toBe(200)
        const { job_id: jobId } = await started.json()
        const final = await poll(
          () => b!.call(`/v1/utils/convert/${jobId}/status`).then((r) => r.json()),
          (status: any) => status.status === "completed" || status.status === "failed",
          60_000
        )
        expect(final.status).toBe("completed")
        const jobs = await rows((sql) => sql`SELECT state FROM ${sql(`${schema}_jobs.job`)} WHERE name = 'formwright-conversion'`)
        expect(jobs.map((job) => job.state), "one pg-boss job, completed").toEqual(["completed"])
      }))

    it("failed authentications are counted across both servers: the limit holds whichever server is asked", () =>
      withLogs(async () => {
        // The default limit is 20 a minute per address; the tries alternate between the servers.
        const tries = await Promise.all(Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a! : b!).call("/v1/forms", { key: `wrong-key-${i}` }).then((r) => r.status)))
        expect(tries.every((status) => status === 401), String(tries)).toBe(true)
        // Either server now refuses the address, a valid key included, with the contract's 429.
        for (const via of [a!, b!]) {
          const refused = await via.call("/v1/forms")
          expect(refused.status).toBe(429)
          const wait = Number(refused.headers.get("retry-after"))
          expect(wait).toBeGreaterThanOrEqual(1)
          expect(await refused.json()).toMatchObject({ object: "error", error_message: `Too many requests; retry in ${wait} s.` })
        }
      }))
  })

  describe("a server whose PostgreSQL is down", { timeout: 60_000 }, () => {
    it("says so in one line and exits non-zero", async () => {
      const port = await ServerProcess.freePort()
      const failure = await ServerProcess.start({
        entry,
        env: { FORMWRIGHT_DATABASE_URL: `postgres://formwright:hidden-password@127.0.0.1:${port}/formwright` },
        startTimeoutMs: 30_000
      }).then(
        (started) => started.stop().then(() => "started"),
        (error: Error) => error.message
      )
      expect(failure).toMatch(/the server exited while starting \(code 1,/)
      const said = failure.split("\n").filter((line) => line.includes("PostgreSQL"))
      expect(said).toEqual([`PostgreSQL at 127.0.0.1:${port} (database formwright) cannot be reached: PgConnection: Failed to connect: connect ECONNREFUSED 127.0.0.1:${port}`])
      expect(failure).not.toContain("hidden-password")
    })
  })
}
