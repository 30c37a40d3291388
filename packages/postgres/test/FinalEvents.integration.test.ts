/**
 * A job's final event is never lost to a crash between its record and its outbox row (issue 10,
 * point 3), against a real PostgreSQL (test/support/PgTestServer.ts) and a real HTTP receiver.
 *
 * The crash is reproduced by its outcome: a first "server" finishes a session and a conversion
 * with in-process events only, so their records are finished and no outbox row was written, as
 * when a server dies between the two. A second server on the same database, with the outbox, is
 * given the same jobs again (as pg-boss retries a job whose server died): the runs find the
 * records finished and publish their final events, with ids derived from the job, so a third run
 * delivers the same ids again and receivers see one id per outcome.
 */
import { Conversions, EmbeddedConverter, Events, Forms, Formwright, Id, JobRunner, PdfEngine, Sessions, SourceFetcher, Storage } from "@formwright/core"
import { Fixtures, FlatFixtures, MemoryStorage } from "@formwright/testing"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { afterAll, describe, expect, it } from "vitest"
import { PgBossJobRunner, PgStorage, PgWebhookOutbox } from "../src/index.ts"
import * as PgTestServer from "./support/PgTestServer.ts"
import * as Receiver from "./support/Receiver.ts"
import { waitFor } from "./support/Receiver.ts"

const server = PgTestServer.server()
const alice = Id.UserId.make("alice")

/** A delivery with its body read as the event it carries. */
const events = (received: ReadonlyArray<Receiver.Delivery>) =>
  received.map((r) => ({ delivery: r.delivery, event: JSON.parse(r.body) as Events.Event }))

if (typeof server === "string") {
  describe.skip(`final events across a crash (${server})`, () => {
    it("needs PostgreSQL", () => {})
  })
} else {
  const { url } = server
  const schema = PgTestServer.freshSchema("final_events")
  const cleanups: Array<() => unknown> = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
    await PgTestServer.dropSchema(url, schema)
    await PgTestServer.dropSchema(url, `${schema}_jobs`)
  }, 60_000)

  // Blobs outlive each "server", as S3 would: one in-memory store shared by both.
  const blobs = Layer.succeed(Storage.Storage, Storage.make(MemoryStorage.make()))
  const engine = PdfEngine.layerWorkers({ workers: 2 })

  /** One server's core on the shared database; `webhook` puts its events through the outbox. */
  const startServer = async (webhook?: string) => {
    const storage = PgStorage.layer({ url, schema, blobs })
    const core = Formwright.layer({
      jobs: PgBossJobRunner.layer({ url, schema: `${schema}_jobs`, retryDelaySeconds: 1 }),
      events: webhook === undefined
        ? Events.layerInProcess
        : PgWebhookOutbox.layer({ url, schema, webhook: { url: webhook, secret: "a-secret-of-16-chars", initialDelayMs: 200 }, pollMs: 100 })
    }).pipe(
      Layer.provideMerge(Layer.mergeAll(storage, EmbeddedConverter.layer, SourceFetcher.layerDisabled)),
      Layer.provideMerge(engine)
    )
    const runtime = ManagedRuntime.make(core)
    cleanups.push(() => runtime.dispose())
    await runtime.runPromise(Effect.void)
    return runtime
  }

  describe("final events across a crash", { timeout: 180_000 }, () => {
    it("a retried run of a finished job publishes its final event, with one id however often it runs", async () => {
      const hook = await Receiver.start()
      cleanups.push(hook.close)

      // The first server finishes a session and a conversion; their events never reach the outbox.
      const first = await startServer()
      const { sessionId, jobId, filled, fields } = await first.runPromise(Effect.gen(function*() {
        const forms = yield* Forms.Forms
        const sessions = yield* Sessions.Sessions
        const conversions = yield* Conversions.Conversions
        const form = yield* forms.upload({ owner: alice, bytes: yield* Effect.promise(() => Fixtures.formWithEveryFieldType()) })
        const session = yield* sessions.create({ owner: alice, formId: form.id, textInfo: "Applicant first name: Ada\nLast name: Lovelace" })
        const flat = yield* Effect.promise(() => FlatFixtures.flatApplicationForm())
        const job = yield* conversions.start({ owner: alice, bytes: flat.bytes, options: { confidence: 0.5, resolution: 1024, allow_checkboxes: true } })
        for (let i = 0; i < 1200; i++) {
          const [s, j] = [yield* sessions.get(alice, session.id), (yield* conversions.status(alice, job.id)).job]
          if (s.status !== "pending" && s.status !== "processing" && j.status !== "pending" && j.status !== "processing") {
            expect([s.status, j.status]).toEqual(["completed", "completed"])
            const converted = yield* forms.get(alice, j.form_id!)
            return { sessionId: s.id, jobId: j.id, filled: s.filled_fields?.length ?? -1, fields: converted.fields.length }
          }
          yield* Effect.sleep("100 millis")
        }
        return yield* Effect.die(new Error("the first server did not finish its jobs"))
      }))
      await first.dispose()
      expect(hook.received).toEqual([])

      // The second server, with the outbox, is handed both jobs again: each run publishes.
      const second = await startServer(hook.url)
      const resubmit = () =>
        second.runPromise(Effect.gen(function*() {
          const runner = yield* JobRunner.JobRunner
          yield* runner.submit({ kind: "session", id: sessionId, owner: alice })
          yield* runner.submit({ kind: "conversion", id: jobId, owner: alice })
        }))
      await resubmit()
      await waitFor(() => hook.received.length >= 2, 30_000, "the two final events")
      const sessionEvent = Id.derive("event", sessionId, "session.completed")
      const conversionEvent = Id.derive("event", jobId, "conversion.completed")
      const byId = (id: string) => events(hook.received).filter((r) => r.delivery === id).map((r) => r.event)
      expect(byId(sessionEvent)).toEqual([
        expect.objectContaining({ id: sessionEvent, type: "session.completed", owner: "alice", data: expect.objectContaining({ session_id: sessionId, filled }) })
      ])
      expect(filled).toBeGreaterThan(0)
      expect(byId(conversionEvent)).toEqual([
        expect.objectContaining({ id: conversionEvent, type: "conversion.completed", data: expect.objectContaining({ job_id: jobId, fields }) })
      ])

      // Once more (a second crash): the same ids again, nothing new.
      await resubmit()
      await waitFor(() => hook.received.length >= 4, 30_000, "the final events again")
      expect(new Set(hook.received.map((r) => r.delivery))).toEqual(new Set([sessionEvent, conversionEvent]))
      expect(events(hook.received).every((r) => r.event.id === r.delivery)).toBe(true)
    })

    it("publishing one event twice while it waits in the outbox leaves one row", async () => {
      const outboxSchema = PgTestServer.freshSchema("final_events_outbox")
      cleanups.push(() => PgTestServer.dropSchema(url, outboxSchema))
      // A receiver that is never reached: the port is closed, so the row stays, backing off.
      const runtime = ManagedRuntime.make(
        PgWebhookOutbox.layer({ url, schema: outboxSchema, webhook: { url: "http://127.0.0.1:9/hook", secret: "a-secret-of-16-chars", initialDelayMs: 60_000 }, pollMs: 100 })
      )
      cleanups.push(() => runtime.dispose())
      const event: Events.Event = {
        id: Id.derive("event", "ses_twice", "session.completed"),
        type: "session.completed",
        owner: "alice",
        created: new Date().toISOString(),
        data: { session_id: "ses_twice" }
      }
      await runtime.runPromise(Effect.gen(function*() {
        const events = yield* Events.Events
        yield* events.publish(event)
        yield* events.publish({ ...event, created: new Date().toISOString() })
      }))
      const rows = await Effect.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ event_id: string }>`SELECT event_id FROM ${sql(`${outboxSchema}.${PgStorage.outboxTable}`)}`
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))))
      expect(rows.map((row) => row.event_id)).toEqual([event.id])
    })
  })
}
