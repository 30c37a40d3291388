/**
 * The webhook outbox against a real PostgreSQL (test/support/PgTestServer.ts) and a real local
 * HTTP receiver: a delivery whose sender was killed mid-send (a child process, kill -9) is sent by
 * another server once the claim's lease runs out, with the same event id; a 500 is retried; a
 * delivery that keeps failing is kept with its error; two senders on one outbox send each
 * delivery once.
 */
import { Events, Webhooks } from "@formwright/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { type ChildProcess, spawn } from "node:child_process"
import * as Crypto from "node:crypto"
import * as Path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { PgStorage, PgWebhookOutbox } from "../src/index.ts"
import * as PgTestServer from "./support/PgTestServer.ts"
import * as Receiver from "./support/Receiver.ts"
import { waitFor } from "./support/Receiver.ts"

const server = PgTestServer.server()
const secret = "a-secret-of-16-chars"

/** Whether a delivery carries the signature of its body under the test's secret. */
const signed = (r: Receiver.Delivery) => {
  const timestamp = String(r.headers[Webhooks.headers.timestamp])
  const expected = `sha256=${Crypto.createHmac("sha256", secret).update(`${timestamp}.${r.body}`).digest("hex")}`
  return r.headers[Webhooks.headers.signature] === expected
}

const event = (id: string): Events.Event => ({ id, type: "session.completed", owner: "alice", created: new Date().toISOString(), data: { session_id: id } })

if (typeof server === "string") {
  describe.skip(`webhook outbox (${server})`, () => {
    it("needs PostgreSQL", () => {})
  })
} else {
  const { url } = server
  const schemas: Array<string> = []
  const cleanups: Array<() => unknown> = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
    for (const name of schemas) await PgTestServer.dropSchema(url, name)
  }, 60_000)

  const freshSchema = (label: string) => {
    const name = PgTestServer.freshSchema(label)
    schemas.push(name)
    return name
  }

  /** One "server"'s events, through the outbox of `schema`. */
  const startSender = async (schema: string, webhook: string, options: Partial<Webhooks.Options> = {}) => {
    const runtime = ManagedRuntime.make(
      PgWebhookOutbox.layer({ url, schema, webhook: { url: webhook, secret, initialDelayMs: 200, ...options }, pollMs: 100 })
    )
    cleanups.push(() => runtime.dispose())
    const events = await runtime.runPromise(Events.Events.useSync((service) => service))
    return { runtime, publish: (e: Events.Event) => runtime.runPromise(events.publish(e)) }
  }

  const rows = (schema: string) =>
    Effect.runPromise(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ event_id: string; attempts: number; failed_at: Date | null; last_error: string | null }>`
          SELECT event_id, attempts, failed_at, last_error FROM ${sql(`${schema}.${PgStorage.outboxTable}`)} ORDER BY event_id`
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
    )

  describe("webhook outbox", { timeout: 120_000 }, () => {
    it("a sender killed mid-send: another server sends the delivery once the lease runs out, with the same event id", async () => {
      const schema = freshSchema("outbox_crash")
      // The first attempt is never answered (the sender dies waiting); later ones get 200.
      const hook = await Receiver.start((received) => (received.length === 1 ? undefined : 200))
      cleanups.push(hook.close)
      const child: ChildProcess = spawn(process.execPath, [Path.join(import.meta.dirname, "support/OutboxProcess.ts"), url, schema, hook.url], {
        stdio: ["ignore", "pipe", "pipe"]
      })
      cleanups.push(() => child.kill("SIGKILL"))
      let output = ""
      child.stdout!.on("data", (chunk) => (output += chunk))
      child.stderr!.on("data", (chunk) => (output += chunk))
      await waitFor(() => hook.received.length === 1, 30_000, `the child's first attempt (output: ${output})`)
      const id = /published (\S+)/.exec(output)?.[1]
      expect(id).toMatch(/^evt_crash_/)
      child.kill("SIGKILL")
      expect((await rows(schema)).map((row) => row.event_id)).toEqual([id])

      await startSender(schema, hook.url)
      await waitFor(() => hook.received.length === 2, 20_000, "the other server's attempt")
      expect(hook.received.map((r) => r.delivery)).toEqual([id, id])
      expect(hook.received[1]!.body).toBe(hook.received[0]!.body)
      expect(hook.received.every(signed)).toBe(true)
      await waitFor(async () => (await rows(schema)).length === 0, 5_000, "the delivered row to go")
    })

    it("a 500 is retried with the same event id; a delivered row is deleted", async () => {
      const schema = freshSchema("outbox_retry")
      const hook = await Receiver.start((received) => (received.length === 1 ? 500 : 204))
      cleanups.push(hook.close)
      const a = await startSender(schema, hook.url)
      await a.publish(event("evt_retry"))
      await waitFor(() => hook.received.length === 2, 10_000, "the retry")
      expect(hook.received.map((r) => r.delivery)).toEqual(["evt_retry", "evt_retry"])
      expect(JSON.parse(hook.received[1]!.body)).toMatchObject({ id: "evt_retry", type: "session.completed", data: { session_id: "evt_retry" } })
      await waitFor(async () => (await rows(schema)).length === 0, 5_000, "the delivered row to go")
    })

    it("a delivery that keeps failing is kept, with its last error, after maxAttempts", async () => {
      const schema = freshSchema("outbox_give_up")
      const hook = await Receiver.start(() => 503)
      cleanups.push(hook.close)
      const a = await startSender(schema, hook.url, { maxAttempts: 2 })
      await a.publish(event("evt_broken"))
      await waitFor(async () => (await rows(schema))[0]?.failed_at != null, 10_000, "the row to be given up on")
      const [row] = await rows(schema)
      expect(row).toMatchObject({ event_id: "evt_broken", attempts: 2, last_error: "answered 503" })
      expect(hook.received).toHaveLength(2)
    })

    it("two servers on one outbox send each delivery once", async () => {
      const schema = freshSchema("outbox_two")
      const hook = await Receiver.start(() => 200)
      cleanups.push(hook.close)
      const [a, b] = await Promise.all([startSender(schema, hook.url), startSender(schema, hook.url)])
      const ids = Array.from({ length: 30 }, (_, i) => `evt_two_${String(i).padStart(2, "0")}`)
      await Promise.all(ids.map((id, i) => (i % 2 === 0 ? a : b).publish(event(id))))
      await waitFor(() => hook.received.length >= ids.length, 20_000, "every delivery")
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(hook.received.map((r) => r.delivery).sort()).toEqual(ids)
      expect(await rows(schema)).toEqual([])
    })
  })

}
