/**
 * Webhooks through the server (FORMWRIGHT_WEBHOOK_URL / FORMWRIGHT_WEBHOOK_SECRET): an upload and
 * a filled session reach a real receiver as signed `form.uploaded` and `session.completed`
 * deliveries; an incomplete or weak webhook setting stops the server from starting.
 */
import { createHmac } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { Fixtures } from "@formwright/testing"
import { parseWebhook } from "../src/ServerConfig.ts"
import { createSession, settledSession, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const secret = "server-webhook-secret-0123"

describe("webhooks", () => {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = []
  let receiver: Server
  let url: string

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/formwright`
  })
  afterAll(async () => {
    receiver.closeAllConnections()
    await new Promise((resolve) => receiver.close(resolve))
  })

  it("an upload and a completed session reach the receiver as signed form.uploaded then session.completed", async () => {
    const server = await TestServer.start({ config: { webhookUrl: url, webhookSecret: secret } })
    try {
      const form = await uploadOk(server, await Fixtures.formWithEveryFieldType())
      const sessionId = await createSession(server, { form_id: form.form_id, text_info: "Applicant first name: Zoë" })
      expect((await settledSession(server, sessionId)).status).toBe("completed")
      const deliveries = await TestServer.poll(async () => received.slice(), (r) => r.length >= 2, 10_000)
      const events = deliveries.map((d) => JSON.parse(d.body))
      expect(events.map((e) => e.type)).toEqual(["form.uploaded", "session.completed"])
      expect(events[0]).toMatchObject({ owner: "alice", data: { form_id: form.form_id } })
      expect(events[1]).toMatchObject({ owner: "alice", data: { session_id: sessionId, form_id: form.form_id } })
      for (const [i, delivery] of deliveries.entries()) {
        expect(events[i].id).toMatch(/^evt_/)
        expect(delivery.headers["x-formwright-delivery"]).toBe(events[i].id)
        expect(delivery.headers["x-formwright-event"]).toBe(events[i].type)
        expect(delivery.headers["content-type"]).toBe("application/json")
        const timestamp = delivery.headers["x-formwright-timestamp"]
        const mac = createHmac("sha256", secret).update(`${timestamp}.${delivery.body}`).digest("hex")
        expect(delivery.headers["x-formwright-signature"]).toBe(`sha256=${mac}`)
      }
    } finally {
      await server.stop()
    }
  })

  it("a URL without a secret, a secret without a URL, a short secret, a non-http URL or one with credentials: the server does not start", async () => {
    const refused = async (config: { webhookUrl?: string; webhookSecret?: string }, message: RegExp) => {
      const error = await Effect.runPromise(Effect.flip(parseWebhook({ ...TestServer.defaultConfig("unused"), ...config })))
      expect(error._tag).toBe("InvalidConfig")
      expect(error.message).toMatch(message)
    }
    await refused({ webhookUrl: url }, /FORMWRIGHT_WEBHOOK_URL needs FORMWRIGHT_WEBHOOK_SECRET/)
    await refused({ webhookSecret: secret }, /FORMWRIGHT_WEBHOOK_SECRET is set but FORMWRIGHT_WEBHOOK_URL is not/)
    await refused({ webhookUrl: url, webhookSecret: "short" }, /FORMWRIGHT_WEBHOOK_SECRET: expected 16\+ characters, got 5/)
    await refused({ webhookUrl: "ftp://example.com/x", webhookSecret: secret }, /FORMWRIGHT_WEBHOOK_URL: expected an http:\/\/ or https:\/\/ URL/)
    await refused({ webhookUrl: "https://user:pw@example.com/x", webhookSecret: secret }, /FORMWRIGHT_WEBHOOK_URL: credentials in the URL are not supported/)
    expect(await Effect.runPromise(parseWebhook(TestServer.defaultConfig("unused")))).toBeUndefined()
    expect(await Effect.runPromise(parseWebhook({ ...TestServer.defaultConfig("unused"), webhookUrl: url, webhookSecret: secret }))).toEqual({ url, secret })

    // Through the server: it refuses to start, naming the variable.
    const dataDir = mkdtempSync(join(tmpdir(), "formwright-webhooks-"))
    try {
      await expect(TestServer.start({ dataDir, config: { webhookUrl: url } })).rejects.toThrow(/FORMWRIGHT_WEBHOOK_URL needs FORMWRIGHT_WEBHOOK_SECRET/)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
