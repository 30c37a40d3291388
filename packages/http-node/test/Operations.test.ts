/**
 * Operations (contract.md "Operations"): health, the OpenAPI document, offline docs, unknown
 * routes, request ids, and a sweep of malformed requests that must never produce a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import { expectErrorObject, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const routes: ReadonlyArray<[string, string]> = [
  ["post", "/v1/forms/upload"],
  ["get", "/v1/forms"],
  ["get", "/v1/forms/{id}"],
  ["get", "/v1/forms/{id}/pdf"],
  ["get", "/v1/forms/{id}/preview"],
  ["put", "/v1/forms/{id}"],
  ["delete", "/v1/forms/{id}"],
  ["post", "/v1/sessions"],
  ["get", "/v1/sessions/{id}"],
  ["get", "/v1/sessions/{id}/pdf"],
  ["post", "/v1/forms/convert"],
  ["post", "/v1/utils/convert"],
  ["get", "/v1/forms/convert/{job_id}/status"],
  ["get", "/v1/utils/convert/{job_id}/status"],
  ["post", "/v1/utils/check-flat"],
  ["get", "/v1/profiles"],
  ["post", "/v1/profiles"],
  ["get", "/v1/profiles/{id}"],
  ["patch", "/v1/profiles/{id}"],
  ["delete", "/v1/profiles/{id}"],
  ["post", "/v1/profiles/{id}/files"],
  ["get", "/health"]
]

describe("operations", () => {
  let server: TestServer.TestServer
  beforeAll(async () => {
    server = await TestServer.start()
  })
  afterAll(() => server.stop())

  it("GET /health answers 200 {status: ok, version}", async () => {
    const res = await server.call("/health", { key: null })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.status).toBe("ok")
    expect(typeof body.version).toBe("string")
    expect(body.version).not.toBe("")
  })

  describe("GET /openapi.json", () => {
    let doc: any
    beforeAll(async () => {
      const res = await server.call("/openapi.json", { key: null })
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toMatch(/^application\/json/)
      doc = await res.json()
    })

    it("is an OpenAPI 3 document", () => {
      expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/)
      expect(doc.info.title).toBe("Formwright /v1")
      expect(typeof doc.paths).toBe("object")
    })

    it("declares numbers as numbers, a server to try the routes on, and the bearer scheme as tools match it", () => {
      expect(JSON.stringify(doc)).not.toMatch(/Infinity|NaN/)
      expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })])
      expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" })
      expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" })
    })

    for (const [method, path] of routes) {
      it(`describes ${method.toUpperCase()} ${path}`, () => {
        expect(doc.paths[path], `path ${path}`).toBeDefined()
        expect(doc.paths[path][method], `${method} ${path}`).toBeDefined()
      })
    }

    it("describes no route the server does not have", () => {
      const described = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
        Object.keys(item).filter((k) => ["get", "put", "post", "patch", "delete"].includes(k)).map((m) => `${m} ${path}`)
      )
      expect(described.sort()).toEqual(routes.map(([m, p]) => `${m} ${p}`).sort())
    })

    it("declares both authentication schemes", () => {
      const schemes = Object.values(doc.components?.securitySchemes ?? {}) as Array<any>
      expect(schemes.some((s) => s.type === "http" && String(s.scheme).toLowerCase() === "bearer")).toBe(true)
      expect(schemes.some((s) => s.type === "apiKey" && s.in === "header" && s.name === "x-api-key")).toBe(true)
      // Either scheme alone satisfies a /v1 route; /health needs none.
      expect(doc.paths["/v1/forms"].get.security).toEqual([{ bearer: [] }, { apiKey: [] }])
      expect(doc.paths["/v1/utils/convert"].post.security).toEqual([{ bearer: [] }, { apiKey: [] }])
      expect(doc.paths["/health"].get.security ?? []).toEqual([])
    })
  })

  it("GET /docs is HTML that loads no external script or stylesheet (works offline)", async () => {
    const res = await server.call("/docs", { key: null })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await res.text()
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    // The viewer itself is inlined, and so is the API description.
    expect(inline.some(([, , body]) => body!.length > 10_000)).toBe(true)
    expect(html).toContain("/v1/forms/upload")
    const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    expect(markup).not.toMatch(/<script\b[^>]*\bsrc\s*=\s*["']?(https?:)?\/\//i)
    expect(markup).not.toMatch(/<link\b[^>]*\bhref\s*=\s*["']?(https?:)?\/\//i)
    expect(markup).not.toMatch(/@import\s+(url\()?["']?(https?:)?\/\//i)
    for (const [, attributes] of inline) expect(attributes).not.toMatch(/\bsrc\s*=/i)
  })

  describe("unknown routes", () => {
    for (const [method, path] of [["GET", "/nope"], ["GET", "/v1/nope"], ["POST", "/v1/forms"], ["PATCH", "/v1/forms/frm_x"], ["GET", "/"]] as const) {
      it(`${method} ${path} answers 404 with the error object`, async () => {
        await expectErrorObject(await server.call(path, { method }), 404, `No route for ${method} ${path}.`)
      })
    }

    it("an unknown path under a conversion family answers 404 {error_message}", async () => {
      const res = await server.call("/v1/forms/convert/job_x")
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error_message: "No route for GET /v1/forms/convert/job_x." })
    })
  })

  describe("request ids", () => {
    it("echoes X-Request-Id when sent", async () => {
      const res = await server.call("/health", { key: null, headers: { "x-request-id": "trace-abc-123" } })
      expect(res.headers.get("x-request-id")).toBe("trace-abc-123")
      const failing = await server.call("/v1/forms", { key: null, headers: { "x-request-id": "trace-401" } })
      expect(failing.status).toBe(401)
      expect(failing.headers.get("x-request-id")).toBe("trace-401")
    })

    it("generates a fresh one when not sent", async () => {
      const a = (await server.call("/health", { key: null })).headers.get("x-request-id")
      const b = (await server.call("/v1/nope")).headers.get("x-request-id")
      expect(a).toMatch(/^req_[0-9A-Z]{26}$/)
      expect(b).toMatch(/^req_[0-9A-Z]{26}$/)
      expect(a).not.toBe(b)
    })

    it("caps an over-long X-Request-Id at 128 characters", async () => {
      const res = await server.call("/health", { key: null, headers: { "x-request-id": "x".repeat(500) } })
      expect(res.headers.get("x-request-id")).toBe("x".repeat(128))
    })
  })

  it("malformed requests on every route get a 4xx, never a 500, and the server stays up", async () => {
    const pdf = await Fixtures.formWithEveryFieldType()
    const form = await uploadOk(server, pdf)
    const bodies: ReadonlyArray<[string, BodyInit | undefined]> = [
      ["application/json", "{not json"],
      ["application/json", "null"],
      ["application/json", "[]"],
      ["application/json", '"string"'],
      ["application/json", JSON.stringify({ form: null, form_id: 5, name: [], data: "x", status: {} })],
      ["application/json", JSON.stringify({ form: { fields: "x", group_instructions: [1] } })],
      ["application/json", JSON.stringify({ form: { fields: [null, 5, "x"] } })],
      ["multipart/form-data; boundary=nope", "--garbage"],
      ["multipart/form-data", "no boundary"],
      ["application/pdf", "%PDF-1.7\n%%EOF"],
      ["application/pdf", ""],
      ["application/octet-stream", new Uint8Array(2048).fill(0xff) as Uint8Array<ArrayBuffer>],
      ["text/plain", "hello"],
      ["application/x-www-form-urlencoded", "a=b"]
    ]
    const ids = [form.form_id, "x", "..", "%2e%2e", "a".repeat(300), "frm_%00", "%F0%9F%92%A9"]
    const statuses = new Map<number, number>()
    for (const [method, template] of routes) {
      for (const id of template.includes("{") ? ids : ["-"]) {
        const path = template.replace(/\{[a-z_]+\}/, id)
        for (const [type, body] of method === "get" || method === "delete" ? [["", undefined] as const] : bodies) {
          const res = await server.call(`${path}?page=-1&size=1e400&pages=9999999999&confidence=NaN&resolution=Infinity`, {
            method: method.toUpperCase(),
            headers: type ? { "content-type": type } : {},
            ...(body !== undefined ? { body } : {})
          })
          await res.arrayBuffer()
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
          expect(res.status, `${method.toUpperCase()} ${path} (${type})`).toBeLessThan(500)
        }
      }
    }
    expect(statuses.get(500)).toBeUndefined()
    expect((await server.call("/health", { key: null })).status).toBe(200)
    // The form survived every attempt, including the deletes with malformed queries... except
    // the one DELETE that named it, which is a well-formed delete of the caller's own form.
    expect((await server.call(`/v1/forms/${form.form_id}`)).status).toBe(404)
  })
})
