/**
 * The OpenAPI description tells the truth about real answers: every route of a real server is
 * called (successes and errors), and each answer's status must be one its operation declares,
 * its media type one that response declares, and a JSON body must validate against the declared
 * schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it, with the description's components).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { Effect } from "effect"
import { OpenApi } from "effect/http-api"
import { Api } from "@formwright/api"
import { Forms, Storage } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import { Fixtures } from "@formwright/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { multipart } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const onStorage = <A>(dataDir: string, f: (storage: Storage.StorageShape) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.flatMap(Effect.service(Storage.Storage), f).pipe(Effect.provide(FsStorage.layer({ directory: dataDir }))))

/** A JSON pointer token, as it goes in a URI fragment. */
const token = (name: string) => encodeURIComponent(name.replaceAll("~", "~0").replaceAll("/", "~1"))

/** Validators of the description's response schemas, which refer to its components. */
const makeValidators = (spec: any) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  // Media-type formats of OpenAPI: they say how bytes travel, nothing a JSON value could break.
  ajv.addFormat("binary", true)
  ajv.addFormat("byte", true)
  ajv.addSchema(spec, "openapi")
  const cache = new Map<string, ValidateFunction>()
  return (pointer: string) => {
    let validate = cache.get(pointer)
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `openapi#${pointer}` })
      cache.set(pointer, validate)
    }
    return validate
  }
}

describe("real answers against the OpenAPI description", () => {
  let server: TestServer.TestServer
  let limited: TestServer.TestServer
  let spec: any
  let validator: ReturnType<typeof makeValidators>
  /** `METHOD path status` of every answer checked. */
  const answered = new Set<string>()

  /**
   * Checks `res` against the description of `method path` and returns its body (parsed JSON, or
   * the bytes of a PDF or PNG).
   */
  const check = async (res: Response, method: string, path: string): Promise<any> => {
    const operation = spec.paths[path]?.[method]
    expect(operation, `${method} ${path} is described`).toBeDefined()
    const status = String(res.status)
    const text = res.headers.get("content-type")?.startsWith("application/json") ? await res.clone().text() : ""
    const declared = operation.responses[status]
    expect(declared, `${method.toUpperCase()} ${path} answered ${status}, which it does not declare: ${text}`).toBeDefined()
    answered.add(`${method.toUpperCase()} ${path} ${status}`)
    const mediaType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim()
    expect(Object.keys(declared.content ?? {}), `${method} ${path} ${status} declares ${mediaType}`).toContain(mediaType)
    if (mediaType !== "application/json") return new Uint8Array(await res.arrayBuffer())
    const body = await res.json()
    const validate = validator(`/paths/${token(path)}/${method}/responses/${status}/content/${token(mediaType)}/schema`)
    expect(validate(body), `${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(validate.errors)}\n${text.slice(0, 2000)}`).toBe(true)
    return body
  }

  const call = (path: string, init?: RequestInit & { key?: string | null }) => server.call(path, init)
  const json = (method: string, body: unknown, key?: string | null): RequestInit & { key?: string | null } => ({
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(key !== undefined ? { key } : {})
  })
  const pdfBody = (bytes: Uint8Array, init: RequestInit & { key?: string | null } = {}) => ({
    method: "POST",
    ...init,
    headers: { "content-type": "application/pdf", ...init.headers },
    body: bytes as Uint8Array<ArrayBuffer>
  })

  let pdf: Uint8Array
  let flat: Uint8Array

  beforeAll(async () => {
    server = await TestServer.start()
    limited = await TestServer.start({ config: { rateLimit: 1 } })
    spec = await (await server.call("/openapi.json", { key: null })).json()
    validator = makeValidators(spec)
    pdf = await Fixtures.formWithEveryFieldType()
    flat = await Fixtures.flatPdf()
  })

  afterAll(async () => {
    await server?.stop()
    await limited?.stop()
  })

  it("is the description `scripts/openapi.ts` writes for the linter", () => {
    expect(spec).toEqual(JSON.parse(JSON.stringify(OpenApi.fromApi(Api))))
  })

  it("validates for real: bodies the description does not allow are refused", () => {
    const conversion401 = validator(`/paths/${token("/v1/forms/convert")}/post/responses/401/content/${token("application/json")}/schema`)
    expect(conversion401({ error_message: "Unauthorized." })).toBe(true)
    expect(conversion401({ id: "error_1", created: "2026-01-01T00:00:00Z", object: "error", error_message: "Unauthorized." })).toBe(false)
    const list = validator(`/paths/${token("/v1/forms")}/get/responses/200/content/${token("application/json")}/schema`)
    expect(list({ id: "forms_1", object: "forms", total: 1.5, forms: [] })).toBe(false)
    expect(list({ id: "forms_1", object: "forms", total: 1, forms: [] })).toBe(true)
  })

  it("GET /health", async () => {
    expect((await check(await call("/health", { key: null }), "get", "/health")).status).toBe("ok")
  })

  it("forms: upload, list, read, download, preview, update, delete, and their errors", async () => {
    const [uploaded] = await check(await call("/v1/forms/upload", pdfBody(pdf, { headers: { "x-file-name": "every.pdf" } })), "post", "/v1/forms/upload")
    const id: string = uploaded.form_id
    await check(await call("/v1/forms/upload", pdfBody(Fixtures.notAPdf())), "post", "/v1/forms/upload")
    await check(await call("/v1/forms/upload", pdfBody(pdf, { key: null })), "post", "/v1/forms/upload")
    await check(await call("/v1/forms/upload", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), "post", "/v1/forms/upload")
    await check(await call("/v1/forms/upload", pdfBody(new Uint8Array(6 * 1024 * 1024))), "post", "/v1/forms/upload")

    expect((await check(await call("/v1/forms?size=5&page=1"), "get", "/v1/forms")).total).toBeGreaterThanOrEqual(1)
    await check(await call("/v1/forms?size=abc"), "get", "/v1/forms")

    await check(await call(`/v1/forms/${id}`), "get", "/v1/forms/{id}")
    await check(await call(`/v1/forms/${id}`, { key: TestServer.keys.bob }), "get", "/v1/forms/{id}")
    await check(await call("/v1/forms/form_missing"), "get", "/v1/forms/{id}")

    await check(await call(`/v1/forms/${id}/pdf`), "get", "/v1/forms/{id}/pdf")
    await check(await call("/v1/forms/form_missing/pdf"), "get", "/v1/forms/{id}/pdf")
    await check(await call(`/v1/forms/${id}/preview?page=1`), "get", "/v1/forms/{id}/preview")
    await check(await call(`/v1/forms/${id}/preview?page=0`), "get", "/v1/forms/{id}/preview")

    const updated = await check(await call(`/v1/forms/${id}`, json("PUT", { form: { asText: "An application form." } })), "put", "/v1/forms/{id}")
    expect(updated.updated).toBe(true)
    await check(await call(`/v1/forms/${id}`, json("PUT", { form: { unknown_member: 1 } })), "put", "/v1/forms/{id}")
    await check(await call(`/v1/forms/${id}`, { method: "PUT", headers: { "content-type": "text/plain" }, body: "x" }), "put", "/v1/forms/{id}")
    await check(await call(`/v1/forms/${id}`, json("PUT", { form: {} }, TestServer.keys.bob)), "put", "/v1/forms/{id}")

    await check(await call(`/v1/forms/${id}`, { method: "DELETE", key: TestServer.keys.bob }), "delete", "/v1/forms/{id}")
    await check(await call(`/v1/forms/${id}`, { method: "DELETE" }), "delete", "/v1/forms/{id}")
    await check(await call(`/v1/forms/${id}`, { method: "DELETE" }), "delete", "/v1/forms/{id}")
  })

  it("sessions: JSON and multipart creation, status, filled PDF, and their errors", async () => {
    const [form] = await check(await call("/v1/forms/upload", pdfBody(pdf)), "post", "/v1/forms/upload")
    const created = await check(
      await call("/v1/sessions", json("POST", { form_id: form.form_id, text_info: "Applicant first name: Zoe\nPostcode: 54321" })),
      "post",
      "/v1/sessions"
    )
    const done = await TestServer.poll(
      async () => check(await call(`/v1/sessions/${created.session_id}`), "get", "/v1/sessions/{id}"),
      (s) => s.status === "completed" || s.status === "failed"
    )
    expect(done.status).toBe("completed")
    expect(done.filled_fields.length).toBeGreaterThan(0)
    await check(await call(`/v1/sessions/${created.session_id}/pdf`), "get", "/v1/sessions/{id}/pdf")
    await check(await call(`/v1/sessions/${created.session_id}`, { headers: { accept: "application/pdf" } }), "get", "/v1/sessions/{id}")

    const fromMultipart = await check(
      await call("/v1/sessions", {
        method: "POST",
        body: multipart({ formId: form.form_id, text_info: "Postcode: 54321", files: [{ bytes: new TextEncoder().encode("City: Lyon"), name: "facts.txt", type: "text/plain" }] })
      }),
      "post",
      "/v1/sessions"
    )
    expect(fromMultipart.session_id).toMatch(/^ses_/)

    await check(await call("/v1/sessions", json("POST", { form_id: 42 })), "post", "/v1/sessions")
    await check(await call("/v1/sessions", json("POST", { form_id: "form_missing" })), "post", "/v1/sessions")
    await check(await call("/v1/sessions", json("POST", { form_id: form.form_id }, TestServer.keys.bob)), "post", "/v1/sessions")
    await check(await call("/v1/sessions", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), "post", "/v1/sessions")
    await check(await call("/v1/sessions/ses_missing"), "get", "/v1/sessions/{id}")
    await check(await call("/v1/sessions/ses_missing/pdf"), "get", "/v1/sessions/{id}/pdf")

    // A session that fails (its form's PDF damaged behind the server's back): its PDF is a 409.
    await onStorage(server.dataDir, (storage) => storage.putBlob(Forms.keys.pdf(form.form_id), new TextEncoder().encode("not a PDF any more")))
    const failing = await check(await call("/v1/sessions", json("POST", { form_id: form.form_id, text_info: "Postcode: 1" })), "post", "/v1/sessions")
    const failed = await TestServer.poll(
      async () => check(await call(`/v1/sessions/${failing.session_id}`), "get", "/v1/sessions/{id}"),
      (s) => s.status === "completed" || s.status === "failed"
    )
    expect(failed.status).toBe("failed")
    await check(await call(`/v1/sessions/${failing.session_id}/pdf`), "get", "/v1/sessions/{id}/pdf")
  })

  it("conversions: both start routes, both status routes, and their {error_message} errors", async () => {
    for (const family of ["forms", "utils"] as const) {
      const start = `/v1/${family}/convert`
      const status = `/v1/${family}/convert/{job_id}/status`
      const { job_id } = await check(await call(`${start}?confidence=0.2&resolution=1200&allow_checkboxes=false`, pdfBody(flat)), "post", start)
      const done = await TestServer.poll(
        async () => check(await call(`/v1/${family}/convert/${job_id}/status`), "get", status),
        (s) => s.status === "completed" || s.status === "failed",
        60_000
      )
      expect(done.status).toBe("completed")
      await check(await call(`${start}?resolution=12`, pdfBody(flat)), "post", start)
      await check(await call(start, pdfBody(flat, { key: null })), "post", start)
      await check(await call(start, pdfBody(Fixtures.notAPdf())), "post", start)
      await check(await call(start, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), "post", start)
      await check(await call(start, pdfBody(new Uint8Array(6 * 1024 * 1024))), "post", start)
      await check(await call(`/v1/${family}/convert/job_01JZZZZZZZZZZZZZZZZZZZZZZZ/status`), "get", status)
      await check(await call(`/v1/${family}/convert/${job_id}/status`, { key: null }), "get", status)
    }
    await check(await call("/v1/utils/convert", { method: "POST", body: multipart({ file: { bytes: flat, name: "flat.pdf", type: "application/pdf" } }) }), "post", "/v1/utils/convert")
  })

  it("profiles: create, list, read, update, attach a document, delete, and their errors", async () => {
    const profile = await check(await call("/v1/profiles", json("POST", { name: "Zoe", data: { age: 42, city: "Lyon", member: true, address: { zip: "69001" } } })), "post", "/v1/profiles")
    const id: string = profile.idInternal
    await check(await call("/v1/profiles", json("POST", { data: {} })), "post", "/v1/profiles")
    await check(await call("/v1/profiles", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), "post", "/v1/profiles")
    await check(await call("/v1/profiles?status=Active&size=2"), "get", "/v1/profiles")
    await check(await call("/v1/profiles?status=Sleeping"), "get", "/v1/profiles")
    await check(await call(`/v1/profiles/${id}`), "get", "/v1/profiles/{id}")
    await check(await call("/v1/profiles/prof_missing"), "get", "/v1/profiles/{id}")
    await check(await call(`/v1/profiles/${id}`, json("PATCH", { data: { age: null, phone: "+33 1 23 45 67 89" } })), "patch", "/v1/profiles/{id}")
    await check(await call(`/v1/profiles/${id}`, json("PATCH", { status: "Asleep" })), "patch", "/v1/profiles/{id}")
    await check(await call("/v1/profiles/prof_missing", json("PATCH", { name: "x" })), "patch", "/v1/profiles/{id}")
    const files = `/v1/profiles/${id}/files`
    await check(await call(files, { method: "POST", body: multipart({ file: { bytes: new TextEncoder().encode("Phone: 555"), name: "notes.txt", type: "text/plain" } }) }), "post", "/v1/profiles/{id}/files")
    await check(await call(files, { method: "POST", headers: { "content-type": "application/octet-stream", "x-file-name": "f.txt" }, body: "Email: z@example.com" }), "post", "/v1/profiles/{id}/files")
    await check(await call(files, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), "post", "/v1/profiles/{id}/files")
    await check(await call("/v1/profiles/prof_missing/files", { method: "POST", headers: { "content-type": "application/octet-stream" }, body: "x" }), "post", "/v1/profiles/{id}/files")
    await check(await call(`/v1/profiles/${id}`, { method: "DELETE" }), "delete", "/v1/profiles/{id}")
    await check(await call(`/v1/profiles/${id}`, { method: "DELETE" }), "delete", "/v1/profiles/{id}")
  })

  it("check-flat: an answer and its errors", async () => {
    const answer = await check(await call("/v1/utils/check-flat?confidence=0.3&allow_checkboxes=true", pdfBody(flat)), "post", "/v1/utils/check-flat")
    expect(answer.object).toBe("flat_check")
    await check(await call("/v1/utils/check-flat", { method: "POST", body: multipart({ file: { bytes: pdf, name: "every.pdf", type: "application/pdf" } }) }), "post", "/v1/utils/check-flat")
    await check(await call("/v1/utils/check-flat?confidence=2", pdfBody(flat)), "post", "/v1/utils/check-flat")
    await check(await call("/v1/utils/check-flat", pdfBody(Fixtures.notAPdf())), "post", "/v1/utils/check-flat")
    await check(await call("/v1/utils/check-flat", pdfBody(flat, { key: null })), "post", "/v1/utils/check-flat")
  })

  it("the rate limit's 429, in each route family's shape", async () => {
    const over = async (path: string, method: string, template: string, init: RequestInit = {}) => {
      await limited.call(path, { method, ...init })
      const res = await limited.call(path, { method, ...init })
      expect(res.status).toBe(429)
      await check(res, method.toLowerCase(), template)
    }
    await over("/v1/forms", "GET", "/v1/forms")
    await over("/v1/utils/convert/job_01JZZZZZZZZZZZZZZZZZZZZZZZ/status", "GET", "/v1/utils/convert/{job_id}/status")
  })

  it("every operation was seen answering a success and an error", () => {
    const operations = Object.entries<Record<string, any>>(spec.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    const seen = (operation: string, status: RegExp) => [...answered].some((a) => a.startsWith(`${operation} `) && status.test(a.slice(operation.length + 1)))
    expect(operations.filter((operation) => !seen(operation, /^2\d\d$/))).toEqual([])
    expect(operations.filter((operation) => operation !== "GET /health" && !seen(operation, /^4\d\d$/))).toEqual([])
  })
})
