/**
 * Webhooks against a real HTTP receiver on 127.0.0.1: what a delivery carries and how its
 * signature verifies (checked with node:crypto, independently of the Web Crypto signing),
 * retries with back-off, giving up, a `publish` that never waits on the network, and shutdown.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { Context, Effect, Exit, Layer, Logger, PubSub, References, Scope } from "effect"
import * as Events from "../src/Events.ts"
import * as Webhooks from "../src/Webhooks.ts"

const secret = "whsec-test-0123456789abcdef"

interface Request {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** What the receiver does with its n-th request (0-based): answer a status (after a delay), or never answer. */
type Answer = { readonly status: number; readonly delayMs?: number } | "hang"

const receivers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of receivers.splice(0)) await close()
})

const receiver = async (answer: (n: number) => Answer = () => ({ status: 200 })) => {
  const requests: Array<Request> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const n = requests.length
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
      const a = answer(n)
      if (a === "hang") return
      setTimeout(() => res.writeHead(a.status, { "content-type": "text/plain" }).end("ok"), a.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const close = async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  receivers.push(close)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/formwright?token=in-the-query`, requests }
}

/** The webhooks layer built in its own scope, with every log line (logfmt, debug and up) captured. */
const start = async (options: Webhooks.Options) => {
  const logs: Array<string> = []
  const capture = Logger.map(Logger.formatLogFmt, (line) => {
    logs.push(line)
  })
  const scope = Effect.runSync(Scope.make())
  const layer = Webhooks.layer(options).pipe(
    Layer.provideMerge(Logger.layer([capture])),
    Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, "Debug"))
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const run = <A>(effect: Effect.Effect<A, never, Events.Events | Events.EventBus | Scope.Scope>) =>
    Effect.runPromise(effect.pipe(Effect.provideService(Scope.Scope, scope), Effect.provide(context)))
  return {
    logs,
    publish: (event: Events.Event) => run(Context.get(context, Events.Events).publish(event)),
    bus: () => Context.get(context, Events.EventBus),
    run,
    stop: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

let counter = 0
const event = (type: Events.EventType = "session.completed"): Events.Event => ({
  id: `evt_test${++counter}`,
  type,
  owner: "alice",
  created: new Date().toISOString(),
  data: { session_id: "ses_1", form_id: "frm_1", note: "Ζωή, Łódź ✓" }
})

/** Waits until `done` holds, or fails the test once the deadline passed. */
const until = async (what: string, done: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** The receiver's check, Stripe-style: HMAC of `<timestamp>.<raw body>`, compared in constant time. */
const verifies = (request: Request, key = secret) => {
  const timestamp = String(request.headers["x-formwright-timestamp"])
  const header = String(request.headers["x-formwright-signature"])
  const expected = Buffer.from(`sha256=${createHmac("sha256", key).update(`${timestamp}.${request.body}`).digest("hex")}`)
  const given = Buffer.from(header)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const fast = { secret, initialDelayMs: 20, timeoutMs: 2_000 }

describe("Webhooks.layer", () => {
  it("POSTs the event as JSON with event, delivery, timestamp and a signature that verifies; the in-process bus still gets it", async () => {
    const hook = await receiver()
    const webhooks = await start({ ...fast, url: hook.url })
    const subscription = await webhooks.run(PubSub.subscribe(webhooks.bus()))
    const sent = event("form.uploaded")
    await webhooks.publish(sent)
    await until("the delivery", () => hook.requests.length === 1)
    await until("the success log", () => webhooks.logs.some((l) => l.includes("webhook delivered after 1 attempt(s)")))

    const [request] = hook.requests
    expect(request!.method).toBe("POST")
    expect(request!.url).toBe("/hooks/formwright?token=in-the-query")
    expect(request!.headers["content-type"]).toBe("application/json")
    expect(request!.headers["x-formwright-event"]).toBe("form.uploaded")
    expect(request!.headers["x-formwright-delivery"]).toBe(sent.id)
    expect(JSON.parse(request!.body)).toEqual(sent)
    expect(Object.keys(JSON.parse(request!.body))).toEqual(["id", "type", "owner", "created", "data"])
    const timestamp = Number(request!.headers["x-formwright-timestamp"])
    expect(Number.isInteger(timestamp)).toBe(true)
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60)
    expect(String(request!.headers["x-formwright-signature"])).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(verifies(request!)).toBe(true)
    // A wrong secret, another timestamp or a changed body does not verify.
    expect(verifies(request!, "another-secret-0123456789")).toBe(false)
    expect(verifies({ ...request!, headers: { ...request!.headers, "x-formwright-timestamp": String(timestamp - 1) } })).toBe(false)
    expect(verifies({ ...request!, body: request!.body.replace("alice", "mallory") })).toBe(false)

    expect(await webhooks.run(PubSub.take(subscription))).toEqual(sent)
    expect(webhooks.logs.some((l) => l.includes("level=INFO") && l.includes("message=event message=form.uploaded") && l.includes(sent.id))).toBe(true)
    await webhooks.stop()
    expect(webhooks.logs.join("\n")).not.toContain(secret)
  })

  it("retries after two 500 answers, with the same delivery id and body, then succeeds", async () => {
    const hook = await receiver((n) => ({ status: n < 2 ? 500 : 204 }))
    const webhooks = await start({ ...fast, url: hook.url })
    const sent = event()
    await webhooks.publish(sent)
    await until("the third attempt to succeed", () => webhooks.logs.some((l) => l.includes("webhook delivered after 3 attempt(s)")))
    expect(hook.requests).toHaveLength(3)
    for (const request of hook.requests) {
      expect(request.headers["x-formwright-delivery"]).toBe(sent.id)
      expect(request.body).toBe(hook.requests[0]!.body)
      expect(verifies(request)).toBe(true)
    }
    const warnings = webhooks.logs.filter((l) => l.includes("level=WARN"))
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain("attempt 1 of 6 failed: answered 500")
    expect(warnings[1]).toContain("attempt 2 of 6 failed: answered 500")
    expect(warnings[0]).toContain(`event_id=${sent.id}`)
    // The logs name the receiver's origin only: its path and query may hold a token.
    expect(webhooks.logs.join("\n")).not.toContain("in-the-query")
    expect(webhooks.logs.join("\n")).not.toContain(secret)
    await webhooks.stop()
  })

  it("gives up after maxAttempts, with a warning per attempt and one error", async () => {
    const hook = await receiver(() => ({ status: 503 }))
    const webhooks = await start({ ...fast, url: hook.url, maxAttempts: 3 })
    const sent = event("conversion.failed")
    await webhooks.publish(sent)
    await until("giving up", () => webhooks.logs.some((l) => l.includes("level=ERROR")))
    expect(hook.requests).toHaveLength(3)
    expect(webhooks.logs.filter((l) => l.includes("level=WARN"))).toHaveLength(3)
    const errors = webhooks.logs.filter((l) => l.includes("level=ERROR"))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain("giving up after 3 attempt(s); last: answered 503")
    expect(errors[0]).toContain(`event_id=${sent.id}`)
    await webhooks.stop()
    expect(hook.requests).toHaveLength(3)
  })

  it("a receiver that cannot be reached is retried and given up on, its error logged", async () => {
    const hook = await receiver()
    const closed = hook.url
    await receivers.pop()!()
    const webhooks = await start({ ...fast, url: closed, maxAttempts: 2 })
    await webhooks.publish(event())
    await until("giving up", () => webhooks.logs.some((l) => l.includes("level=ERROR")))
    const warnings = webhooks.logs.filter((l) => l.includes("level=WARN"))
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain("ECONNREFUSED")
    await webhooks.stop()
  })

  it("publish returns at once while the receiver hangs; the hung attempt times out and is retried", async () => {
    const hook = await receiver((n) => (n === 0 ? "hang" : { status: 200 }))
    const webhooks = await start({ ...fast, url: hook.url, timeoutMs: 300, concurrency: 1 })
    const started = performance.now()
    const sent = [event(), event(), event()]
    for (const e of sent) await webhooks.publish(e)
    expect(performance.now() - started).toBeLessThan(200)
    await until("the first attempt to reach the receiver", () => hook.requests.length >= 1)
    await until("every event to be delivered", () => webhooks.logs.filter((l) => l.includes("webhook delivered")).length === 3)
    expect(webhooks.logs.some((l) => l.includes("level=WARN") && l.includes("attempt 1 of 6 failed: no answer within 300 ms"))).toBe(true)
    expect(new Set(hook.requests.map((r) => r.headers["x-formwright-delivery"]))).toEqual(new Set(sent.map((e) => e.id)))
    await webhooks.stop()
  })

  it("shutdown waits for queued deliveries", async () => {
    const hook = await receiver(() => ({ status: 200, delayMs: 100 }))
    const webhooks = await start({ ...fast, url: hook.url, concurrency: 1 })
    const sent = [event(), event(), event()]
    for (const e of sent) await webhooks.publish(e)
    await webhooks.stop()
    expect(hook.requests.map((r) => r.headers["x-formwright-delivery"])).toEqual(sent.map((e) => e.id))
    expect(webhooks.logs.filter((l) => l.includes("webhook delivered"))).toHaveLength(3)
  })

  it("shutdown waits a bounded time, then reports what was not delivered", async () => {
    const hook = await receiver(() => "hang")
    const webhooks = await start({ ...fast, url: hook.url, timeoutMs: 60_000, shutdownTimeoutMs: 300 })
    const sent = event()
    await webhooks.publish(sent)
    await until("the attempt to reach the receiver", () => hook.requests.length === 1)
    const started = performance.now()
    await webhooks.stop()
    expect(performance.now() - started).toBeLessThan(3_000)
    const errors = webhooks.logs.filter((l) => l.includes("level=ERROR"))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(`1 event(s) not delivered before shutdown: ${sent.id}`)
    // Published after the shutdown: in process only, with a warning.
    await webhooks.publish(event())
    expect(webhooks.logs.some((l) => l.includes("webhook not sent: the server is shutting down"))).toBe(true)
  })

  it("a full queue drops the event with a warning; publish still succeeds", async () => {
    const hook = await receiver(() => "hang")
    const webhooks = await start({ ...fast, url: hook.url, capacity: 1, concurrency: 1, timeoutMs: 60_000, shutdownTimeoutMs: 0 })
    await webhooks.publish(event())
    await until("the first attempt", () => hook.requests.length === 1)
    await webhooks.publish(event()) // waits in the queue
    await webhooks.publish(event()) // no room
    expect(webhooks.logs.some((l) => l.includes("webhook not sent: 1 deliveries are already waiting"))).toBe(true)
    // The bound holds: of 20 more, (almost) all are dropped.
    for (let i = 0; i < 20; i++) await webhooks.publish(event())
    expect(webhooks.logs.filter((l) => l.includes("webhook not sent")).length).toBeGreaterThanOrEqual(20)
    await webhooks.stop()
  })
})
