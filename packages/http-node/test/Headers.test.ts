/**
 * Headers every response carries (docs/http-api.md "Everywhere"): `X-Content-Type-Options:
 * nosniff` on all; `Cache-Control: no-store` on JSON answers (they hold a user's data),
 * `private, no-store` on PDF downloads; and the docs page refuses to be framed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import { createSession, jsonCall, settledSession, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

describe("response headers", () => {
  let server: TestServer.TestServer
  let formId: string
  let sessionId: string

  beforeAll(async () => {
    server = await TestServer.start({ config: { rateLimit: 1000 } })
    formId = (await uploadOk(server, await Fixtures.formWithEveryFieldType())).form_id
    sessionId = await createSession(server, { form_id: formId, text_info: "Full name: Ada" })
    expect((await settledSession(server, sessionId)).status).toBe("completed")
  })
  afterAll(() => server.stop())

  const json: ReadonlyArray<[string, () => Promise<Response>, number]> = [
    ["GET /health", () => server.call("/health", { key: null }), 200],
    ["GET /v1/forms", () => server.call("/v1/forms"), 200],
    ["GET /v1/forms/{id}", () => server.call(`/v1/forms/${formId}`), 200],
    ["GET /v1/sessions/{id}", () => server.call(`/v1/sessions/${sessionId}`), 200],
    ["POST /v1/profiles", () => jsonCall(server, "/v1/profiles", "POST", { name: "Ada" }), 201],
    ["a 400", () => server.call("/v1/forms?page=0"), 400],
    ["a 401", () => server.call("/v1/forms", { key: null }), 401],
    ["a 404", () => server.call("/v1/nothing-here"), 404],
    ["a conversion 404", () => server.call("/v1/forms/convert/job_x/status"), 404],
    ["a 415", () => server.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), 415]
  ]
  for (const [label, call, status] of json) {
    it(`${label}: nosniff and Cache-Control: no-store`, async () => {
      const res = await call()
      expect(res.status).toBe(status)
      expect(res.headers.get("content-type")).toMatch(/^application\/json/)
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
      expect(res.headers.get("cache-control")).toBe("no-store")
    })
  }

  const pdfs: ReadonlyArray<[string, () => Promise<Response>]> = [
    ["GET /v1/forms/{id}/pdf", () => server.call(`/v1/forms/${formId}/pdf`)],
    ["GET /v1/sessions/{id}/pdf", () => server.call(`/v1/sessions/${sessionId}/pdf`)],
    ["GET /v1/sessions/{id} with Accept: application/pdf", () => server.call(`/v1/sessions/${sessionId}`, { headers: { accept: "application/pdf" } })]
  ]
  for (const [label, call] of pdfs) {
    it(`${label}: nosniff and Cache-Control: private, no-store`, async () => {
      const res = await call()
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toBe("application/pdf")
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
      expect(res.headers.get("cache-control")).toBe("private, no-store")
      await res.arrayBuffer()
    })
  }

  it("GET /docs cannot be framed and is not sniffed", async () => {
    const res = await server.call("/docs", { key: null })
    expect(res.status).toBe(200)
    expect(res.headers.get("x-frame-options")).toBe("DENY")
    expect(res.headers.get("content-security-policy")).toBe("frame-ancestors 'none'")
    expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    await res.text()
  })

  it("GET /openapi.json is not sniffed", async () => {
    const res = await server.call("/openapi.json", { key: null })
    expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    await res.json()
  })

  it("a 429 carries them too", async () => {
    const limited = await TestServer.start({ config: { rateLimit: 1 } })
    try {
      await (await limited.call("/v1/forms")).json()
      const res = await limited.call("/v1/forms")
      expect(res.status).toBe(429)
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
      expect(res.headers.get("cache-control")).toBe("no-store")
      await res.json()
    } finally {
      await limited.stop()
    }
  })
})
