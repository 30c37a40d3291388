/**
 * Authentication on every /v1 route (contract.md, "Everywhere"): a missing or unknown key is a
 * 401 with `WWW-Authenticate: Bearer`, the error object on standard routes and a bare
 * `{error_message}` on the four conversion routes; both header forms are accepted; the
 * operations routes need no key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import { expectBareError, expectErrorObject, jsonCall, multipart, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

interface Route {
  readonly method: string
  readonly name: string
  readonly path: () => string
  readonly conversion: boolean
  readonly body?: () => { headers: Record<string, string>; body: BodyInit }
}

describe("authentication", () => {
  let server: TestServer.TestServer
  let pdf: Uint8Array
  let formId: string
  let sessionId: string
  let profileId: string
  let jobId: string

  const pdfBody = () => ({ headers: { "content-type": "application/pdf" }, body: pdf as Uint8Array<ArrayBuffer> })
  const jsonBody = (value: unknown) => () => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(value) })

  const routes: ReadonlyArray<Route> = [
    { method: "POST", name: "/v1/forms/upload", path: () => "/v1/forms/upload", conversion: false, body: pdfBody },
    { method: "GET", name: "/v1/forms", path: () => "/v1/forms", conversion: false },
    { method: "GET", name: "/v1/forms/{id}", path: () => `/v1/forms/${formId}`, conversion: false },
    { method: "GET", name: "/v1/forms/{id}/pdf", path: () => `/v1/forms/${formId}/pdf`, conversion: false },
    { method: "PUT", name: "/v1/forms/{id}", path: () => `/v1/forms/${formId}`, conversion: false, body: jsonBody({ form: { asText: "hijacked" } }) },
    { method: "DELETE", name: "/v1/forms/{id}", path: () => `/v1/forms/${formId}`, conversion: false },
    { method: "POST", name: "/v1/sessions", path: () => "/v1/sessions", conversion: false, body: () => jsonBody({ form_id: formId })() },
    { method: "GET", name: "/v1/sessions/{id}", path: () => `/v1/sessions/${sessionId}`, conversion: false },
    { method: "GET", name: "/v1/sessions/{id}/pdf", path: () => `/v1/sessions/${sessionId}/pdf`, conversion: false },
    { method: "POST", name: "/v1/forms/convert", path: () => "/v1/forms/convert", conversion: true, body: pdfBody },
    { method: "POST", name: "/v1/utils/convert", path: () => "/v1/utils/convert", conversion: true, body: pdfBody },
    { method: "GET", name: "/v1/forms/convert/{job_id}/status", path: () => `/v1/forms/convert/${jobId}/status`, conversion: true },
    { method: "GET", name: "/v1/utils/convert/{job_id}/status", path: () => `/v1/utils/convert/${jobId}/status`, conversion: true },
    { method: "GET", name: "/v1/profiles", path: () => "/v1/profiles", conversion: false },
    { method: "POST", name: "/v1/profiles", path: () => "/v1/profiles", conversion: false, body: jsonBody({ name: "Mallory" }) },
    { method: "GET", name: "/v1/profiles/{id}", path: () => `/v1/profiles/${profileId}`, conversion: false },
    { method: "PATCH", name: "/v1/profiles/{id}", path: () => `/v1/profiles/${profileId}`, conversion: false, body: jsonBody({ name: "Mallory" }) },
    { method: "DELETE", name: "/v1/profiles/{id}", path: () => `/v1/profiles/${profileId}`, conversion: false },
    {
      method: "POST",
      name: "/v1/profiles/{id}/files",
      path: () => `/v1/profiles/${profileId}/files`,
      conversion: false,
      body: () => ({ headers: {}, body: multipart({ file: { bytes: new TextEncoder().encode("Name: Mallory\n"), name: "m.txt", type: "text/plain" } }) })
    }
  ]

  beforeAll(async () => {
    server = await TestServer.start()
    pdf = await Fixtures.formWithEveryFieldType()
    formId = (await uploadOk(server, pdf)).form_id
    const session = await jsonCall(server, "/v1/sessions", "POST", { form_id: formId })
    expect(session.status).toBe(202)
    sessionId = (await session.json()).session_id
    const profile = await jsonCall(server, "/v1/profiles", "POST", { name: "Alice A" })
    expect(profile.status).toBe(201)
    profileId = (await profile.json()).idInternal
    const flat = await Fixtures.flatPdf()
    const job = await server.call("/v1/forms/convert", { method: "POST", headers: { "content-type": "application/pdf" }, body: flat as Uint8Array<ArrayBuffer> })
    expect(job.status).toBe(200)
    jobId = (await job.json()).job_id
  })
  afterAll(() => server.stop())

  const credentials: ReadonlyArray<[string, Record<string, string>]> = [
    ["no key", {}],
    ["an unknown bearer key", { authorization: "Bearer not-a-real-key-123456" }],
    ["an unknown x-api-key", { "x-api-key": "not-a-real-key-123456" }],
    ["an empty bearer credential", { authorization: "Bearer " }],
    ["a Basic credential holding a valid key", { authorization: `Basic ${TestServer.keys.alice}` }]
  ]

  for (const route of routes) {
    for (const [label, headers] of credentials) {
      it(`${route.method} ${route.name} answers 401 with ${label}`, async () => {
        const init = route.body?.()
        const res = await server.call(route.path(), {
          method: route.method,
          headers: { ...init?.headers, ...headers },
          ...(init ? { body: init.body } : {}),
          key: null
        })
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer(\s|$)/)
        if (route.conversion) await expectBareError(res, 401, /API key/)
        else await expectErrorObject(res, 401, /API key/)
      })
    }
  }

  it("rejected requests leave nothing behind: the form, its text and the profile are unchanged", async () => {
    const form = await server.call(`/v1/forms/${formId}`)
    expect(form.status).toBe(200)
    expect((await form.json()).as_text).not.toBe("hijacked")
    const profile = await server.call(`/v1/profiles/${profileId}`)
    expect(profile.status).toBe(200)
    const body = await profile.json()
    expect(body.name).toBe("Alice A")
    expect(body.files).toEqual([])
    const list = await server.call("/v1/profiles?name=mallory").then((r) => r.json())
    expect(list.total).toBe(0)
  })

  it("accepts `Authorization: Bearer <key>`", async () => {
    const res = await server.call("/v1/forms", { headers: { authorization: `Bearer ${TestServer.keys.alice}` }, key: null })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.forms.map((f: any) => f.id)).toContain(formId)
  })

  it("accepts `x-api-key: <key>`", async () => {
    const res = await server.call("/v1/forms", { headers: { "x-api-key": TestServer.keys.alice }, key: null })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.forms.map((f: any) => f.id)).toContain(formId)
  })

  it("x-api-key works on upload and on the conversion routes (the interface's sample commands)", async () => {
    const up = await server.call("/v1/forms/upload", {
      method: "POST",
      headers: { "content-type": "application/pdf", "x-api-key": TestServer.keys.alice },
      body: pdf as Uint8Array<ArrayBuffer>,
      key: null
    })
    expect(up.status).toBe(200)
    const status = await server.call(`/v1/utils/convert/${jobId}/status`, { headers: { "x-api-key": TestServer.keys.alice }, key: null })
    expect(status.status).toBe(200)
    expect(["pending", "processing", "completed", "failed"]).toContain((await status.json()).status)
  })

  it("the key identifies the user: bob's key sees none of alice's forms", async () => {
    const res = await server.call("/v1/forms", { headers: { "x-api-key": TestServer.keys.bob }, key: null })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.total).toBe(0)
    expect(body.forms).toEqual([])
  })

  it("GET /health needs no key", async () => {
    const res = await server.call("/health", { key: null })
    expect(res.status).toBe(200)
    expect((await res.json()).status).toBe("ok")
  })

  it("GET /openapi.json needs no key", async () => {
    const res = await server.call("/openapi.json", { key: null })
    expect(res.status).toBe(200)
    expect((await res.json()).openapi).toMatch(/^3\./)
  })

  it("GET /docs needs no key", async () => {
    const res = await server.call("/docs", { key: null })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^text\/html/)
  })
})
