/**
 * A "server" that publishes one event through the webhook outbox, as a child process a test can
 * kill -9 while it is sending: `node OutboxProcess.ts <database url> <schema> <webhook url>`.
 * Prints `published <event id>` once `publish` has returned.
 */
import { Events } from "@formwright/core"
import { Effect } from "effect"
import { PgWebhookOutbox } from "../../src/index.ts"

const [url, schema, webhook] = process.argv.slice(2)
if (url === undefined || schema === undefined || webhook === undefined) throw new Error("usage: OutboxProcess.ts <url> <schema> <webhook>")

const program = Effect.gen(function*() {
  const events = yield* Events.Events
  const id = `evt_crash_${process.pid}`
  yield* events.publish({ id, type: "conversion.completed", owner: "alice", created: new Date().toISOString(), data: { job_id: "conv_1" } })
  console.log(`published ${id}`)
  return yield* Effect.never
}).pipe(
  Effect.provide(PgWebhookOutbox.layer({ url, schema, webhook: { url: webhook, secret: "a-secret-of-16-chars", timeoutMs: 2_000 }, leaseSeconds: 3 }))
)

Effect.runFork(program)
