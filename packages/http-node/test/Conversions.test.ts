/**
 * Flat-to-fillable conversion over HTTP (interface.md routes 3-5, contract.md "Conversion"):
 * both start routes, their content types and 415 bodies, validation of every query parameter,
 * both status routes, the created form, ownership, and a job surviving a server restart.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import { FlatFixtures as Flat } from "@formwright/testing"
import * as ApiClient from "./support/ApiClient.ts"
import { expectBareError, isPdf, multipart, pdfFields } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const finished = (s: any) => s.status === "completed" || s.status === "failed"

const start = (server: TestServer.TestServer, route: "forms" | "utils", bytes: Uint8Array, query = "", headers: Record<string, string> = {}) =>
  server.call(`/v1/${route}/convert${query}`, {
    method: "POST",
    headers: { "content-type": "application/pdf", ...headers },
    body: bytes as Uint8Array<ArrayBuffer>
  })

const startOk = async (server: TestServer.TestServer, route: "forms" | "utils", bytes: Uint8Array, query = "", headers: Record<string, string> = {}) => {
  const res = await start(server, route, bytes, query, headers)
  const text = await res.text()
  expect(res.status, text).toBe(200)
  const body = JSON.parse(text)
  expect(Object.keys(body)).toEqual(["job_id"])
  expect(body.job_id).toMatch(/^job_[0-9A-Z]{26}$/)
  return body.job_id as string
}

/** Polls a job's status, through the typed client, on either route family's status route. */
const poll = (server: TestServer.TestServer, route: "forms" | "utils", jobId: string, key?: string, timeoutMs = 60_000): Promise<any> => {
  const client = ApiClient.of(server, key)
  const params = { job_id: jobId }
  return TestServer.poll(
    () => client.ok((c) => (route === "forms" ? c.conversions.statusForms({ params }) : c.conversions.statusUtils({ params }))),
    finished,
    timeoutMs
  )
}

describe("conversions", () => {
  let server: TestServer.TestServer
  let app: Flat.FlatFixture
  let two: Flat.FlatFixture

  beforeAll(async () => {
    server = await TestServer.start()
    app = await Flat.flatApplicationForm()
    two = await Flat.flatTwoPageForm()
  })
  afterAll(() => server.stop())

  describe("start: content types", () => {
    it("forms route: 415 with exactly {error_message: 'Expected octet-stream or pdf'} for multipart", async () => {
      const res = await server.call("/v1/forms/convert", { method: "POST", body: multipart({ file: { bytes: app.bytes, name: "a.pdf" } }) })
      expect(res.status).toBe(415)
      expect(await res.json()).toEqual({ error_message: "Expected octet-stream or pdf" })
    })

    it("forms route: 415 for text/plain and for no content type", async () => {
      const plain = await start(server, "forms", app.bytes, "", { "content-type": "text/plain" })
      expect(plain.status).toBe(415)
      expect(await plain.json()).toEqual({ error_message: "Expected octet-stream or pdf" })
      const none = await server.call("/v1/forms/convert", { method: "POST", body: app.bytes as Uint8Array<ArrayBuffer> })
      expect(none.status).toBe(415)
      expect(await none.json()).toEqual({ error_message: "Expected octet-stream or pdf" })
    })

    it("utils route: 415 with exactly the interface's body for text/plain", async () => {
      const res = await start(server, "utils", app.bytes, "", { "content-type": "text/plain" })
      expect(res.status).toBe(415)
      expect(res.headers.get("content-type")).toMatch(/^application\/json/)
      expect(await res.text()).toBe('{"error_message":"Expected octet-stream or pdf or multipart/form-data"}')
    })

    it("both routes take application/octet-stream", async () => {
      await startOk(server, "forms", app.bytes, "", { "content-type": "application/octet-stream" })
      await startOk(server, "utils", app.bytes, "", { "content-type": "application/octet-stream" })
    })

    it("utils route takes multipart `file` and uses its name for the created form", async () => {
      const res = await server.call("/v1/utils/convert", { method: "POST", body: multipart({ file: { bytes: app.bytes, name: "from-multipart.pdf", type: "application/pdf" } }) })
      expect(res.status).toBe(200)
      const { job_id } = await res.json()
      const done = await poll(server, "utils", job_id)
      expect(done.status).toBe("completed")
      const form = await server.call(`/v1/forms/${done.form_id}`).then((r) => r.json())
      expect(form.file_name).toBe("from-multipart.pdf")
    })

    it("utils route: multipart without `file` is a 400 {error_message}", async () => {
      const res = await server.call("/v1/utils/convert", { method: "POST", body: multipart({ other: "x" }) })
      await expectBareError(res, 400, /'file'/)
    })

    it("utils route uses X-File-Name for a raw body; a generated name otherwise", async () => {
      const named = await poll(server, "utils", await startOk(server, "utils", app.bytes, "", { "x-file-name": "raw-name.pdf" }))
      expect((await server.call(`/v1/forms/${named.form_id}`).then((r) => r.json())).file_name).toBe("raw-name.pdf")
      const unnamed = await poll(server, "utils", await startOk(server, "utils", app.bytes))
      expect((await server.call(`/v1/forms/${unnamed.form_id}`).then((r) => r.json())).file_name).toMatch(/^[0-9a-f-]{36}_\d{10}\.pdf$/)
    })

    it("422 {error_message} for a body that is not a PDF, on both routes", async () => {
      await expectBareError(await start(server, "forms", Fixtures.notAPdf()), 422, /not a PDF/i)
      await expectBareError(await start(server, "utils", Fixtures.notAPdf()), 422, /not a PDF/i)
      // A PDF cut before its catalog is damaged, as upload says too.
      await expectBareError(await start(server, "forms", await Fixtures.truncatedPdf()), 422, /damaged/i)
    })

    it("413 {error_message} over the size limit", async () => {
      const small = await TestServer.start({ config: { maxUploadBytes: 10_000 } })
      try {
        const big = new Uint8Array(20_000)
        await expectBareError(await start(small, "forms", big), 413, /10000 bytes/)
        await expectBareError(await start(small, "utils", big), 413, /10000 bytes/)
      } finally {
        await small.stop()
      }
    })
  })

  describe("start: query parameters", () => {
    const invalid: ReadonlyArray<[string, string]> = [
      ["pages", "0"],
      ["pages", "a"],
      ["pages", "3-1"],
      ["pages", "1,,2"],
      ["pages", "1-"],
      ["pages", "3"],
      ["pages", "1,3"],
      ["confidence", "-0.1"],
      ["confidence", "1.5"],
      ["confidence", "abc"],
      ["resolution", "100"],
      ["resolution", "5000"],
      ["resolution", "12.5"],
      ["resolution", "abc"],
      ["allow_checkboxes", "maybe"]
    ]
    for (const [name, value] of invalid) {
      it(`400 {error_message} naming ${name} for ${name}=${JSON.stringify(value)} (both routes)`, async () => {
        const query = `?${name}=${encodeURIComponent(value)}`
        await expectBareError(await start(server, "forms", two.bytes, query), 400, new RegExp(`\\b${name}\\b`))
        await expectBareError(await start(server, "utils", two.bytes, query), 400, new RegExp(`\\b${name}\\b`))
      })
    }

    it("says which page is past the end of the document", async () => {
      await expectBareError(await start(server, "forms", two.bytes, "?pages=2-5"), 400, /pages.*\b3\b.*2 pages/)
    })

    const valid = ["1", "1,2", "1-2", " 1 , 2 ", "2", "1,2-2"]
    for (const pages of valid) {
      it(`accepts pages=${JSON.stringify(pages)}`, async () => {
        const done = await poll(server, "forms", await startOk(server, "forms", two.bytes, `?pages=${encodeURIComponent(pages)}`))
        expect(done.status).toBe("completed")
        const form = await server.call(`/v1/forms/${done.form_id}`).then((r) => r.json())
        const expectedPages = pages.trim() === "1" ? [1] : pages.trim() === "2" ? [2] : [1, 2]
        expect([...new Set(form.fields.map((f: any) => f.page))].sort()).toEqual(expectedPages)
      })
    }

    it("accepts the boundaries of confidence, resolution and allow_checkboxes", async () => {
      await startOk(server, "forms", app.bytes, "?confidence=0&resolution=256&allow_checkboxes=false")
      await startOk(server, "utils", app.bytes, "?confidence=1&resolution=4096&allow_checkboxes=true")
    })

    it("allow_checkboxes=false leaves checkboxes out", async () => {
      const done = await poll(server, "forms", await startOk(server, "forms", app.bytes, "?allow_checkboxes=false"))
      expect(done.status).toBe("completed")
      const form = await server.call(`/v1/forms/${done.form_id}`).then((r) => r.json())
      expect(form.fields.length).toBeGreaterThan(0)
      expect(form.fields.filter((f: any) => f.form_type === "CheckBox")).toEqual([])
    })
  })

  describe("status and result", () => {
    let jobId: string
    let forms: any
    let utils: any

    beforeAll(async () => {
      jobId = await startOk(server, "forms", app.bytes, "", { "x-file-name": "application.pdf" })
      forms = await poll(server, "forms", jobId)
      utils = await server.call(`/v1/utils/convert/${jobId}/status`).then((r) => r.json())
    })

    it("completes with {status, form_id, base64, preview_url} on both status routes", () => {
      expect(forms.status).toBe("completed")
      expect(Object.keys(forms).sort()).toEqual(["base64", "form_id", "preview_url", "status"])
      expect(forms.form_id).toMatch(/^frm_[0-9A-Z]{26}$/)
      expect(utils).toEqual(forms)
    })

    it("base64 decodes to a PDF with AcroForm fields", async () => {
      const bytes = Buffer.from(forms.base64, "base64")
      expect(isPdf(bytes)).toBe(true)
      const { pages, fields } = await pdfFields(bytes)
      expect(pages).toBe(1)
      expect(Object.keys(fields).length).toBeGreaterThanOrEqual(app.fields.length - 2)
    })

    it("form_id is alice's stored form, with confidence, human-readable names and unique form_names", async () => {
      const res = await server.call(`/v1/forms/${forms.form_id}`)
      expect(res.status).toBe(200)
      const form = await res.json()
      expect(form).toMatchObject({ id: forms.form_id, object: "form", file_name: "application.pdf", pages: 1, processed: true })
      expect(form.fields.length).toBeGreaterThanOrEqual(app.fields.length - 2)
      const formNames = form.fields.map((f: any) => f.form_name)
      expect(new Set(formNames).size).toBe(formNames.length)
      for (const f of form.fields) {
        expect(typeof f.confidence).toBe("number")
        expect(f.confidence).toBeGreaterThanOrEqual(0.1)
        expect(f.confidence).toBeLessThanOrEqual(1)
        expect(f.name).toMatch(/^[A-Z][A-Za-z ]+$/)
      }
      const names = form.fields.map((f: any) => f.name)
      for (const expected of ["Given name", "Family name", "Email"]) expect(names).toContain(expected)
      // The PDF served for the form is the converted one.
      const pdfRes = await server.call(`/v1/forms/${forms.form_id}/pdf`)
      const stored = Buffer.from(await pdfRes.arrayBuffer())
      expect(stored.equals(Buffer.from(forms.base64, "base64"))).toBe(true)
      // It is the caller's form: another user is refused like on any uploaded form.
      expect((await server.call(`/v1/forms/${forms.form_id}`, { key: TestServer.keys.bob })).status).toBe(403)
    })

    it("404 {error_message} for an unknown job on both routes", async () => {
      await expectBareError(await server.call("/v1/forms/convert/job_01JZZZZZZZZZZZZZZZZZZZZZZZ/status"), 404, /job_01JZZZZZZZZZZZZZZZZZZZZZZZ/)
      await expectBareError(await server.call("/v1/utils/convert/job_01JZZZZZZZZZZZZZZZZZZZZZZZ/status"), 404, /not found/)
      await expectBareError(await server.call("/v1/utils/convert/..%2Fjob/status"), 404)
    })

    it("404 {error_message} for bob polling alice's job, exactly as for an unknown one", async () => {
      const bob = TestServer.keys.bob
      const theirs = await server.call(`/v1/forms/convert/${jobId}/status`, { key: bob })
      await expectBareError(theirs, 404, `Conversion job '${jobId}' not found.`)
      await expectBareError(await server.call(`/v1/utils/convert/${jobId}/status`, { key: bob }), 404, `Conversion job '${jobId}' not found.`)
    })

    it("a running job shows progress {pages_done, pages_total}", async () => {
      const long = await Flat.flatLongForm(20)
      const id = await startOk(server, "forms", long.bytes)
      const first = await server.call(`/v1/forms/convert/${id}/status`).then((r) => r.json())
      if (first.status !== "completed") {
        expect(["pending", "processing"]).toContain(first.status)
        expect(first.progress.pages_total).toBe(20)
        expect(first.progress.pages_done).toBeGreaterThanOrEqual(0)
        expect(first.progress.pages_done).toBeLessThanOrEqual(20)
        expect(first.form_id).toBeUndefined()
        expect(first.base64).toBeUndefined()
      }
      const done = await poll(server, "forms", id)
      expect(done.status).toBe("completed")
      expect(done.progress).toBeUndefined()
    })
  })

  it("a job survives a restart: stopped right after it started, completed by the next server on the same data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "formwright-restart-"))
    try {
      const long = await Flat.flatLongForm(60)
      const first = await TestServer.start({ dataDir, config: { concurrency: 1 } })
      // A job ahead of it keeps the single worker busy, so ours is still waiting when we stop.
      await startOk(first, "forms", long.bytes)
      const jobId = await startOk(first, "forms", long.bytes, "", { "x-file-name": "long.pdf" })
      await first.stop()
      // The unfinished job is still recorded as work to do.
      expect(existsSync(join(dataDir, "docs", "work", "conversion", `${jobId}~.json`))).toBe(true)

      const second = await TestServer.start({ dataDir })
      try {
        const done = await poll(second, "utils", jobId, undefined, 90_000)
        expect(done.status).toBe("completed")
        const form = await second.call(`/v1/forms/${done.form_id}`).then((r) => r.json())
        expect(form.file_name).toBe("long.pdf")
        expect(form.pages).toBe(60)
        expect(form.fields.length).toBe(long.fields.length)
        const { pages } = await pdfFields(Buffer.from(done.base64, "base64"))
        expect(pages).toBe(60)
      } finally {
        await second.stop()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
