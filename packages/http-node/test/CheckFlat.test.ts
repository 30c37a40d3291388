/**
 * `POST /v1/utils/check-flat` over real HTTP: the answer's shape and figures for a flat, a
 * scanned and a fillable PDF, raw and multipart bodies, the refusals of the conversion start
 * (same statuses and messages, in the error object), that nothing is stored, and its place in
 * the OpenAPI description.
 */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures, FlatFixtures as Flat } from "@formwright/testing"
import { expectErrorObject, multipart, upload } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const check = (server: TestServer.TestServer, bytes: Uint8Array, query = "", headers: Record<string, string> = {}, key?: string | null) =>
  server.call(`/v1/utils/check-flat${query}`, {
    method: "POST",
    headers: { "content-type": "application/pdf", ...headers },
    body: bytes as Uint8Array<ArrayBuffer>,
    ...(key !== undefined ? { key } : {})
  })

const checkOk = async (response: Promise<Response> | Response): Promise<any> => {
  const res = await response
  const text = await res.text()
  expect(res.status, text).toBe(200)
  return JSON.parse(text)
}

/** Every file under `dir`, relative, so a test can tell that nothing was written. */
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort()

describe("POST /v1/utils/check-flat", () => {
  let server: TestServer.TestServer
  let app: Flat.FlatFixture
  let scan: Flat.FlatFixture

  beforeAll(async () => {
    server = await TestServer.start()
    app = await Flat.flatApplicationForm()
    scan = await Flat.flatScannedPage()
  })
  afterAll(() => server.stop())

  it("a flat vector PDF: no fields, a vector page, and the fields a conversion finds", async () => {
    const body = await checkOk(check(server, app.bytes))
    expect(Object.keys(body)).toEqual([
      "id", "object", "pages", "has_fields", "fields", "xfa", "vector_pages", "scanned_pages", "unknown_pages",
      "likely_fields", "likely_fields_basis", "page_details"
    ])
    expect(body.id).toMatch(/^fc_[0-9A-Z]{26}$/)
    expect(body).toMatchObject({
      object: "flat_check",
      pages: 1,
      has_fields: false,
      fields: 0,
      xfa: false,
      vector_pages: [1],
      scanned_pages: [],
      unknown_pages: [],
      likely_fields: app.fields.length,
      likely_fields_basis: "detected"
    })
    const [page] = body.page_details
    expect(Object.keys(page)).toEqual(["page", "kind", "likely_fields", "likely_fields_basis", "image_coverage", "visible_glyphs", "path_segments"])
    expect(page).toMatchObject({ page: 1, kind: "vector", likely_fields: app.fields.length, likely_fields_basis: "detected", image_coverage: 0 })
    expect(page.visible_glyphs).toBeGreaterThan(20)
  })

  it("a scanned PDF: a scanned page, no estimate, and why", async () => {
    const body = await checkOk(check(server, scan.bytes))
    expect(body).toMatchObject({
      pages: 1,
      has_fields: false,
      vector_pages: [],
      scanned_pages: [1],
      likely_fields: 0,
      likely_fields_basis: "unavailable"
    })
    const [page] = body.page_details
    expect(page).toMatchObject({ page: 1, kind: "scanned", likely_fields: null, likely_fields_basis: "unavailable", visible_glyphs: 0, path_segments: 0 })
    expect(page.reason).toMatch(/scanned/i)
    expect(page.image_coverage).toBeGreaterThan(0.95)
  })

  it("a fillable form: has_fields and its count, as the upload lists them", async () => {
    const bytes = await Fixtures.formWithEveryFieldType()
    const body = await checkOk(check(server, bytes))
    const uploaded = await upload(server, bytes).then((r) => r.json())
    expect(body).toMatchObject({ has_fields: true, fields: uploaded[0].fields.length, vector_pages: [1, 2] })
  })

  it("an owner-password form is read; the answer is the same as for the form in the clear", async () => {
    const plain = await checkOk(check(server, await Fixtures.formWithEveryFieldType()))
    const encrypted = await checkOk(check(server, await Fixtures.encryptedOwnerPasswordForm()))
    expect({ ...encrypted, id: "" }).toEqual({ ...plain, id: "" })
  })

  it("takes application/octet-stream and multipart (`file`) alike", async () => {
    const raw = await checkOk(check(server, app.bytes))
    const octet = await checkOk(check(server, app.bytes, "", { "content-type": "application/octet-stream" }))
    const form = await checkOk(server.call("/v1/utils/check-flat", { method: "POST", body: multipart({ file: { bytes: app.bytes, name: "a.pdf" } }) }))
    for (const body of [octet, form]) expect({ ...body, id: "" }).toEqual({ ...raw, id: "" })
  })

  it("passes confidence and allow_checkboxes to the detector, as a conversion would", async () => {
    const all = await checkOk(check(server, app.bytes))
    const noBoxes = await checkOk(check(server, app.bytes, "?allow_checkboxes=false"))
    const checkboxes = app.fields.filter((f) => f.kind === "checkbox").length
    expect(checkboxes).toBeGreaterThan(0)
    expect(noBoxes.likely_fields).toBe(all.likely_fields - checkboxes)
    const strict = await checkOk(check(server, app.bytes, "?confidence=1"))
    expect(strict.likely_fields).toBeLessThan(all.likely_fields)
  })

  it("refuses what /v1/utils/convert refuses, with the same status and message, in the error object", async () => {
    const bad: Array<[string, Uint8Array]> = [
      ["user password", await Fixtures.userPasswordPdf()],
      ["not a PDF", Fixtures.notAPdf()],
      ["empty", Fixtures.emptyFile()],
      ["truncated", await Fixtures.truncatedPdf()]
    ]
    for (const [what, bytes] of bad) {
      const convert = await server.call("/v1/utils/convert", { method: "POST", headers: { "content-type": "application/pdf" }, body: bytes as Uint8Array<ArrayBuffer> })
      const expected = (await convert.json()).error_message
      expect(convert.status, what).toBe(422)
      const message = await expectErrorObject(await check(server, bytes), 422, expected)
      expect(message, what).toBe(expected)
    }
    await expectErrorObject(await check(server, await Fixtures.userPasswordPdf()), 422, /user password/)
  })

  it("415 for another content type, with the utils route's message", async () => {
    await expectErrorObject(await check(server, app.bytes, "", { "content-type": "text/plain" }), 415, "Expected octet-stream or pdf or multipart/form-data")
  })

  it("400 for a multipart body without `file`, and for bad parameters", async () => {
    await expectErrorObject(
      await server.call("/v1/utils/check-flat", { method: "POST", body: multipart({ document: { bytes: app.bytes, name: "a.pdf" } }) }),
      400,
      /'file'/
    )
    await expectErrorObject(await check(server, app.bytes, "?confidence=2"), 400, /^Invalid confidence/)
    await expectErrorObject(await check(server, app.bytes, "?allow_checkboxes=maybe"), 400, /^Invalid allow_checkboxes/)
    await expectErrorObject(await check(server, app.bytes, "?confidence=0.1&confidence=0.2"), 400, "Invalid confidence: given more than once.")
  })

  it("401 without a key", async () => {
    const res = await check(server, app.bytes, "", {}, null)
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/)
    await expectErrorObject(res, 401)
  })

  it("stores nothing", async () => {
    const before = filesUnder(server.dataDir)
    await checkOk(check(server, scan.bytes))
    await checkOk(server.call("/v1/utils/check-flat", { method: "POST", body: multipart({ file: { bytes: app.bytes, name: "a.pdf" } }) }))
    expect(filesUnder(server.dataDir)).toEqual(before)
  })

  it("is described in the OpenAPI document", async () => {
    const spec = await server.call("/openapi.json", { key: null }).then((r) => r.json())
    const operation = spec.paths["/v1/utils/check-flat"]?.post
    expect(operation).toBeDefined()
    expect(Object.keys(operation.requestBody.content).sort()).toEqual(["application/octet-stream", "application/pdf", "multipart/form-data"])
    // 429: the per-user rate limit, declared by the authentication middleware; no 507, nothing is stored.
    expect(Object.keys(operation.responses).sort()).toEqual(["200", "400", "401", "413", "415", "422", "429", "500"])
    expect(JSON.stringify(operation.responses["200"])).toMatch(/FlatCheck|likely_fields/)
  })
})

describe("POST /v1/utils/check-flat size limit", () => {
  it("413 over the configured limit, as the conversion start", async () => {
    const small = await TestServer.start({ config: { maxUploadBytes: 10_000 } })
    try {
      const big = new Uint8Array(20_000).fill(0x20)
      await expectErrorObject(await check(small, big), 413, /10000 bytes/)
    } finally {
      await small.stop()
    }
  })
})
