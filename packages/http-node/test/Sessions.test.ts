/**
 * Autofill sessions over HTTP (contract.md "Sessions"): creation from JSON and multipart, every
 * documented error, the status document and its filled PDF, each kind of source (text, files,
 * profiles, file URLs), ownership and non-Latin values; the session's account of itself
 * (evidence, reasons, sources, conflicts), a source that cannot be read, and a failed session.
 */
import { Effect } from "effect"
import { Forms, Sessions, Storage } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import {
  createSession,
  expectErrorObject,
  ISO,
  isPdf,
  jsonCall,
  multipart,
  pdfFields,
  pdfValue,
  settledSession,
  uploadOk
} from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

/** Runs `f` on the Storage of a server's data directory, beside the server (as another process would). */
const onStorage = <A>(dataDir: string, f: (storage: Storage.StorageShape) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.flatMap(Effect.service(Storage.Storage), f).pipe(Effect.provide(FsStorage.layer({ directory: dataDir }))))

const n = Fixtures.everyFieldType
const FORBIDDEN = "Forbidden. Form doesn't belong to the user."

const fullText = [
  "Applicant first name: Ζωή",
  "Last name: Петрова",
  "Notes: Crème brûlée, Łódź",
  "Postcode: 12345",
  "Subscribe: yes",
  "Colour: Green",
  "Country: Greece",
  "Languages: English, Greek"
].join("\n")

describe("sessions", () => {
  let server: TestServer.TestServer
  let pdf: Uint8Array
  let form: any
  let docs: Server
  let docsUrl: string

  beforeAll(async () => {
    server = await TestServer.start()
    pdf = await Fixtures.formWithEveryFieldType()
    form = await uploadOk(server, pdf)
    docs = createServer((req, res) => {
      if (req.url === "/doc.txt") {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" })
        return res.end("Applicant first name: Από URL\nLast name: Url-Surname\n")
      }
      if (req.url === "/data.json") {
        res.writeHead(200, { "content-type": "application/json" })
        return res.end(JSON.stringify({ Postcode: "31337", Notes: "from json" }))
      }
      if (req.url === "/elsewhere") {
        res.writeHead(302, { location: `http://localhost:${(docs.address() as AddressInfo).port}/doc.txt` })
        return res.end()
      }
      res.writeHead(404, { "content-type": "text/plain" })
      res.end("not here")
    })
    await new Promise<void>((resolve) => docs.listen(0, "127.0.0.1", resolve))
    docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await server.stop()
    await new Promise((resolve) => docs.close(resolve))
  })

  const byFormName = (session: any) => Object.fromEntries(session.filled_fields.map((f: any) => [f.form_name, f]))

  describe("create: errors", () => {
    it("400 naming form_id when JSON has none", async () => {
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { text_info: "x: y" }), 400, /form_id/)
    })

    it("400 naming formId when multipart has none", async () => {
      const res = await server.call("/v1/sessions", { method: "POST", body: multipart({ text_info: "Notes: x" }) })
      await expectErrorObject(res, 400, /formId/)
    })

    it("400 for malformed JSON", async () => {
      const res = await server.call("/v1/sessions", { method: "POST", headers: { "content-type": "application/json" }, body: '{"form_id": ' })
      await expectErrorObject(res, 400, /JSON/)
    })

    it("400 naming the member of a wrong type", async () => {
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, profile_ids: "prf_x" }), 400, /profile_ids/)
    })

    it("400 naming file_urls for a value that is not a URL", async () => {
      const res = await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, file_urls: ["not a url"] })
      await expectErrorObject(res, 400, /file_urls\[0\]/)
    })

    it("400 for a URL that is neither https nor http", async () => {
      const res = await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, file_urls: [`${docsUrl}/doc.txt`, "ftp://example.com/a.txt"] })
      await expectErrorObject(res, 400, /file_urls\[1\]/)
    })

    it("404 for an unknown form", async () => {
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: "frm_01JZZZZZZZZZZZZZZZZZZZZZZZ" }), 404, /frm_01JZZZZZZZZZZZZZZZZZZZZZZZ/)
    })

    it("403 for another user's form", async () => {
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id }, TestServer.keys.bob), 403, FORBIDDEN)
    })

    it("404 for a profile that is bob's, used by alice (and for an unknown one)", async () => {
      const bobs = await jsonCall(server, "/v1/profiles", "POST", { name: "Bob B", data: { "Last name": "Bobson" } }, TestServer.keys.bob)
      expect(bobs.status).toBe(201)
      const bobProfile = (await bobs.json()).idInternal
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, profile_ids: [bobProfile] }), 404, new RegExp(bobProfile))
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, profile_ids: ["prf_01JZZZZZZZZZZZZZZZZZZZZZZZ"] }), 404)
      const multi = await server.call("/v1/sessions", { method: "POST", body: multipart({ formId: form.form_id, profile_ids: bobProfile }) })
      await expectErrorObject(multi, 404, new RegExp(bobProfile))
    })

    it("415 for text/plain", async () => {
      const res = await server.call("/v1/sessions", { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify({ form_id: form.form_id }) })
      await expectErrorObject(res, 415)
    })
  })

  describe("a JSON session filled from text_info", () => {
    let created: any
    let seen: Array<string>
    let done: any

    beforeAll(async () => {
      const res = await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, text_info: fullText })
      expect(res.status).toBe(202)
      created = await res.json()
      seen = []
      done = await TestServer.poll(
        async () => {
          const body = await server.call(`/v1/sessions/${created.session_id}`).then((r) => r.json())
          seen.push(body.status)
          return body
        },
        (s: any) => s.status === "completed" || s.status === "failed"
      )
    })

    it("answers 202 with {id (cs_), object: session, session_id (ses_)}", () => {
      expect(Object.keys(created).sort()).toEqual(["id", "object", "session_id"])
      expect(created.id).toMatch(/^cs_[0-9A-Z]{26}$/)
      expect(created.object).toBe("session")
      expect(created.session_id).toMatch(/^ses_[0-9A-Z]{26}$/)
    })

    it("polling the response's own id (cs_) is a 404 that points at session_id", async () => {
      const res = await server.call(`/v1/sessions/${created.id}`)
      expect(res.status).toBe(404)
      expect((await res.json()).error_message).toMatch(/id of the creation response; poll its session_id/)
    })

    it("goes through pending/processing to completed", () => {
      for (const status of seen) expect(["pending", "processing", "completed"]).toContain(status)
      expect(seen.at(-1)).toBe("completed")
      expect(done.status).toBe("completed")
    })

    it("shows the session record with the filled PDF, its URL and the field lists", () => {
      expect(done).toMatchObject({ id: created.session_id, object: "session", session_id: created.session_id, form_id: form.form_id })
      expect(done.created).toMatch(ISO)
      expect(done.updated).toMatch(ISO)
      expect(done.updated >= done.created).toBe(true)
      expect(done.filled_form_url).toBe(`${server.url}/v1/sessions/${created.session_id}/pdf`)
      expect(done.error_message).toBeUndefined()
      expect(isPdf(Buffer.from(done.filled_form_base64, "base64"))).toBe(true)
    })

    it("lists filled fields with field_id, form_name, name, value, source, confidence and evidence", () => {
      const ids = Object.fromEntries(form.fields.map((f: any) => [f.form_name, f.id]))
      const filled = byFormName(done)
      expect(Object.keys(filled).sort()).toEqual([n.colour, n.country, n.firstName, n.languages, n.lastName, n.notes, n.postcode, n.subscribe].sort())
      for (const f of done.filled_fields) {
        expect(Object.keys(f).sort()).toEqual(["confidence", "evidence", "field_id", "form_name", "name", "source", "value"])
        expect(Object.keys(f.evidence).sort()).toEqual(["fact", "role", "transform", "type"])
        expect(f.field_id).toBe(ids[f.form_name])
        expect(f.source).toBe("text_info")
        expect(f.confidence).toBeGreaterThan(0)
        expect(f.confidence).toBeLessThanOrEqual(1)
      }
      expect(filled[n.firstName]).toMatchObject({ name: "Applicant first name", value: "Ζωή" })
      expect(filled[n.lastName].value).toBe("Петрова")
      expect(filled[n.notes].value).toBe("Crème brûlée, Łódź")
      expect(filled[n.postcode].value).toBe("12345")
      expect(filled[n.subscribe].value).toBe(true)
      expect(filled[n.colour].value).toBe("Green")
      expect(filled[n.country].value).toBe("GR")
      expect(filled[n.languages].value).toEqual(["English", "Greek"])
      // The key as text_info wrote it, what it means, and how it was written.
      expect(filled[n.lastName].evidence).toEqual({ fact: "Last name", type: "family_name", role: "self", transform: "as given" })
      expect(filled[n.notes].evidence).toEqual({ fact: "Notes", type: "unknown", role: "self", transform: "same name" })
    })

    it("lists its sources and no conflicts", () => {
      expect(done.sources).toEqual([{ source: "text_info", status: "read", facts: 8 }])
      expect(done.conflicts).toEqual([])
    })

    it("lists unfilled fields (not push buttons), each with its reason", () => {
      expect(done.unfilled_fields.map((f: any) => f.form_name).sort()).toEqual([n.reference, n.signature])
      for (const f of done.unfilled_fields) expect(Object.keys(f).sort()).toEqual(["detail", "field_id", "form_name", "name", "reason"])
      const reasons = Object.fromEntries(done.unfilled_fields.map((f: any) => [f.form_name, f.reason]))
      expect(reasons).toEqual({ [n.reference]: "read_only", [n.signature]: "signature" })
    })

    it("filled_form_base64 is a PDF whose fields hold the filled values (read back with pdf.js)", async () => {
      const { pages, fields } = await pdfFields(Buffer.from(done.filled_form_base64, "base64"))
      expect(pages).toBe(2)
      expect(pdfValue(fields, n.firstName)).toBe("Ζωή")
      expect(pdfValue(fields, n.lastName)).toBe("Петрова")
      expect(pdfValue(fields, n.notes)).toBe("Crème brûlée, Łódź")
      expect(pdfValue(fields, n.postcode)).toBe("12345")
      expect(pdfValue(fields, n.subscribe)).toBe("Yes")
      expect(pdfValue(fields, n.colour)).toBe("Green")
      expect(pdfValue(fields, n.country)).toBe("GR")
      // pdf.js shows the first selected option of a multi-select list.
      expect([pdfValue(fields, n.languages)].flat()[0]).toBe("English")
      expect(pdfValue(fields, n.reference)).toBe("REF-001")
    })

    it("filled_form_url returns the same PDF to the same key, and 401 without one", async () => {
      const res = await fetch(done.filled_form_url, { headers: { authorization: `Bearer ${TestServer.keys.alice}` } })
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toBe("application/pdf")
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(bytes.equals(Buffer.from(done.filled_form_base64, "base64"))).toBe(true)
      const anonymous = await fetch(done.filled_form_url)
      await expectErrorObject(anonymous, 401)
      expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/)
    })

    it("Accept: application/pdf returns the PDF itself as an attachment", async () => {
      const res = await server.call(`/v1/sessions/${created.session_id}`, { headers: { accept: "application/pdf" } })
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toBe("application/pdf")
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="session-${created.session_id}.pdf"`)
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(bytes.equals(Buffer.from(done.filled_form_base64, "base64"))).toBe(true)
    })

    it("another user's session is 404, exactly as if it did not exist", async () => {
      const bob = TestServer.keys.bob
      const theirs = await server.call(`/v1/sessions/${created.session_id}`, { key: bob })
      const missing = await server.call(`/v1/sessions/ses_01JZZZZZZZZZZZZZZZZZZZZZZZ`, { key: bob })
      await expectErrorObject(theirs, 404, new RegExp(created.session_id))
      await expectErrorObject(missing, 404, /ses_01JZZZZZZZZZZZZZZZZZZZZZZZ/)
      await expectErrorObject(await server.call(`/v1/sessions/${created.session_id}/pdf`, { key: bob }), 404)
      await expectErrorObject(await server.call(`/v1/sessions/${created.session_id}`, { key: bob, headers: { accept: "application/pdf" } }), 404)
    })
  })

  it("multipart: formId, files (a text file and a filled PDF) and text_info", async () => {
    // A filled PDF of the same form is the source document.
    const first = await settledSession(server, await createSession(server, { form_id: form.form_id, text_info: fullText }))
    expect(first.status).toBe(completedStatus)
    const filledPdf = Buffer.from(first.filled_form_base64, "base64")
    const target = await uploadOk(server, pdf, { headers: { "x-file-name": "target.pdf" } })
    const res = await server.call("/v1/sessions", {
      method: "POST",
      body: multipart({
        formId: target.form_id,
        files: [
          { bytes: new TextEncoder().encode("Notes: From the text file\nPostcode: 77777\n"), name: "facts.txt", type: "text/plain" },
          { bytes: filledPdf, name: "filled.pdf", type: "application/pdf" }
        ],
        text_info: "Postcode: 54321"
      })
    })
    expect(res.status).toBe(202)
    const created = await res.json()
    expect(created.object).toBe("session")
    const done = await settledSession(server, created.session_id)
    expect(done.status).toBe("completed")
    const filled = byFormName(done)
    // text_info wins over documents; the text file wins over the PDF (it came first).
    expect(filled[n.postcode]).toMatchObject({ value: "54321", source: "text_info" })
    expect(filled[n.notes].value).toBe("From the text file")
    expect(filled[n.notes].source).toMatch(/^file:file_/)
    expect(filled[n.firstName].value).toBe("Ζωή")
    expect(filled[n.lastName].value).toBe("Петрова")
    expect(filled[n.firstName].source).toMatch(/^file:file_/)
    expect(filled[n.firstName].source).not.toBe(filled[n.notes].source)
    expect(filled[n.notes].confidence).toBeLessThan(filled[n.postcode].confidence)
    const { fields } = await pdfFields(Buffer.from(done.filled_form_base64, "base64"))
    expect(pdfValue(fields, n.postcode)).toBe("54321")
    expect(pdfValue(fields, n.notes)).toBe("From the text file")
    expect(pdfValue(fields, n.firstName)).toBe("Ζωή")
  })

  it("profile data is a source (profile_ids), below text_info", async () => {
    const res = await jsonCall(server, "/v1/profiles", "POST", {
      name: "Ada Profile",
      data: { "Applicant first name": "Ада", "Last name": "Lovelace", Postcode: "99999", Colour: "blue" }
    })
    expect(res.status).toBe(201)
    const profileId = (await res.json()).idInternal
    const done = await settledSession(server, await createSession(server, { form_id: form.form_id, profile_ids: [profileId], text_info: "Postcode: 11111" }))
    expect(done.status).toBe("completed")
    const filled = byFormName(done)
    expect(filled[n.firstName]).toMatchObject({ value: "Ада", source: `profile:${profileId}` })
    expect(filled[n.lastName]).toMatchObject({ value: "Lovelace", source: `profile:${profileId}` })
    expect(filled[n.colour]).toMatchObject({ value: "Blue", source: `profile:${profileId}` })
    expect(filled[n.postcode]).toMatchObject({ value: "11111", source: "text_info" })
    const { fields } = await pdfFields(Buffer.from(done.filled_form_base64, "base64"))
    expect(pdfValue(fields, n.firstName)).toBe("Ада")
    expect(pdfValue(fields, n.colour)).toBe("Blue")
  })

  it("profile data with a nested object and a number fills by meaning", async () => {
    const res = await jsonCall(server, "/v1/profiles", "POST", {
      name: "Nested",
      data: { person: { "first name": "Nadia", "last name": "Okafor" }, address: { postcode: 60564 } }
    })
    expect(res.status).toBe(201)
    const profileId = (await res.json()).idInternal
    const done = await settledSession(server, await createSession(server, { form_id: form.form_id, profile_ids: [profileId] }))
    expect(done.status).toBe("completed")
    const filled = byFormName(done)
    expect(filled[n.firstName]).toMatchObject({ value: "Nadia", source: `profile:${profileId}` })
    expect(filled[n.lastName]).toMatchObject({ value: "Okafor", source: `profile:${profileId}` })
    expect(filled[n.postcode]).toMatchObject({ value: "60564", source: `profile:${profileId}` })
  })

  it("multipart accepts profile_ids too", async () => {
    const res = await jsonCall(server, "/v1/profiles", "POST", { name: "Multi", data: { "Last name": "Müller-Łukasz" } })
    const profileId = (await res.json()).idInternal
    const created = await server.call("/v1/sessions", { method: "POST", body: multipart({ formId: form.form_id, profile_ids: profileId }) })
    expect(created.status).toBe(202)
    const done = await settledSession(server, (await created.json()).session_id)
    expect(done.status).toBe("completed")
    expect(byFormName(done)[n.lastName]).toMatchObject({ value: "Müller-Łukasz", source: `profile:${profileId}` })
  })

  describe("file_urls", () => {
    it("fills from a text document and a JSON document fetched over http", async () => {
      const done = await settledSession(server, await createSession(server, { form_id: form.form_id, file_urls: [`${docsUrl}/doc.txt`, `${docsUrl}/data.json`] }))
      expect(done.status).toBe("completed")
      const filled = byFormName(done)
      expect(filled[n.firstName]).toMatchObject({ value: "Από URL", source: `url:${docsUrl}/doc.txt` })
      expect(filled[n.lastName]).toMatchObject({ value: "Url-Surname", source: `url:${docsUrl}/doc.txt` })
      expect(filled[n.postcode]).toMatchObject({ value: "31337", source: `url:${docsUrl}/data.json` })
      expect(filled[n.notes].value).toBe("from json")
      const { fields } = await pdfFields(Buffer.from(done.filled_form_base64, "base64"))
      expect(pdfValue(fields, n.firstName)).toBe("Από URL")
    })

    it("a URL answering 404 is reported unreadable; the session completes from its other sources", async () => {
      const url = `${docsUrl}/missing.txt`
      const done = await settledSession(server, await createSession(server, { form_id: form.form_id, text_info: "Applicant first name: Ζωή", file_urls: [url] }))
      expect(done.status).toBe("completed")
      expect(done.error_message).toBeUndefined()
      expect(done.sources).toEqual([
        { source: "text_info", status: "read", facts: 1 },
        { source: `url:${url}`, status: "unreadable", facts: 0, reason: expect.stringMatching(/404/) }
      ])
      expect(byFormName(done)[n.firstName]).toMatchObject({ value: "Ζωή", source: "text_info" })
      expect(done.unfilled_fields.find((f: any) => f.form_name === n.lastName)).toMatchObject({ reason: "no_fact" })
    })

    it("a redirect to another host is reported unreadable", async () => {
      const done = await settledSession(server, await createSession(server, { form_id: form.form_id, file_urls: [`${docsUrl}/elsewhere`] }))
      expect(done.status).toBe("completed")
      expect(done.sources).toEqual([{ source: `url:${docsUrl}/elsewhere`, status: "unreadable", facts: 0, reason: expect.stringMatching(/another host/) }])
      expect(done.filled_fields).toEqual([])
    })

    it("loopback addresses are refused when not allow-listed", async () => {
      const strict = await TestServer.start({ config: { urlAllowList: [] } })
      try {
        const strictForm = await uploadOk(strict, pdf)
        const done = await settledSession(strict, await createSession(strict, { form_id: strictForm.form_id, file_urls: [`${docsUrl}/doc.txt`] }))
        expect(done.status).toBe("completed")
        expect(done.sources).toEqual([{ source: `url:${docsUrl}/doc.txt`, status: "unreadable", facts: 0, reason: expect.stringMatching(/private/) }])
      } finally {
        await strict.stop()
      }
    })
  })
})

describe("sessions: conflicts, failures and stored sessions", () => {
  let server: TestServer.TestServer
  let pdf: Uint8Array

  beforeAll(async () => {
    server = await TestServer.start()
    pdf = await Fixtures.formWithEveryFieldType()
  })
  afterAll(() => server.stop())

  it("sources that disagree on a field's fact are listed as a conflict; source priority chose", async () => {
    const form = await uploadOk(server, pdf)
    const res = await jsonCall(server, "/v1/profiles", "POST", { name: "Conflicting", data: { "Last name": "Byron", Postcode: "12345" } })
    const profileId = (await res.json()).idInternal
    const done = await settledSession(server, await createSession(server, { form_id: form.form_id, profile_ids: [profileId], text_info: "Last name: Lovelace" }))
    expect(done.status).toBe("completed")
    const lastName = byFormName(done)[n.lastName]
    expect(lastName).toMatchObject({ value: "Lovelace", source: "text_info" })
    expect(done.conflicts).toEqual([
      { field_id: lastName.field_id, form_name: n.lastName, chosen: { source: "text_info", value: "Lovelace" }, others: [{ source: `profile:${profileId}`, value: "Byron" }] }
    ])
    expect(done.sources).toEqual([
      { source: "text_info", status: "read", facts: 1 },
      { source: `profile:${profileId}`, status: "read", facts: 2 }
    ])
  })

  it("a damaged PDF among the files is reported unreadable", async () => {
    const form = await uploadOk(server, pdf)
    const created = await server.call("/v1/sessions", {
      method: "POST",
      body: multipart({
        formId: form.form_id,
        files: [{ bytes: new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog\nnot a PDF after all\n"), name: "broken.pdf", type: "application/pdf" }],
        text_info: "Postcode: 54321"
      })
    })
    expect(created.status).toBe(202)
    const done = await settledSession(server, (await created.json()).session_id)
    expect(done.status).toBe("completed")
    expect(done.sources).toEqual([
      { source: "text_info", status: "read", facts: 1 },
      { source: expect.stringMatching(/^file:file_/), status: "unreadable", facts: 0, reason: "The PDF is damaged and could not be read." }
    ])
    expect(byFormName(done)[n.postcode]).toMatchObject({ value: "54321", source: "text_info" })
  })

  it("a session whose form cannot be filled fails with an error_message; its PDF route says so, never a 500", async () => {
    const form = await uploadOk(server, pdf)
    // The stored PDF damaged behind the server's back, as a failing disk would.
    await onStorage(server.dataDir, (storage) => storage.putBlob(Forms.keys.pdf(form.form_id), new TextEncoder().encode("not a PDF any more")))
    const done = await settledSession(server, await createSession(server, { form_id: form.form_id, text_info: "Postcode: 54321" }))
    expect(done.status).toBe("failed")
    expect(done.error_message).toMatch(/PDF/)
    expect(done.filled_form_base64).toBeUndefined()
    expect(done.filled_fields).toBeUndefined()
    expect(done.sources).toBeUndefined()
    const pdfRes = await server.call(`/v1/sessions/${done.session_id}/pdf`)
    await expectErrorObject(pdfRes, 409, /failed/)
    const accept = await server.call(`/v1/sessions/${done.session_id}`, { headers: { accept: "application/pdf" } })
    expect(accept.status).toBe(200)
    expect((await accept.json()).status).toBe("failed")
  })

  it("a session stored before evidence, reasons, sources and conflicts were recorded still reads", async () => {
    const id = "ses_01JOLDOLDOLDOLDOLDOLDOLD00"
    const old = {
      id,
      owner: "alice",
      form_id: "frm_01JOLDOLDOLDOLDOLDOLDOLD00",
      status: "completed",
      profile_ids: [],
      file_urls: [],
      files: [],
      filled_fields: [{ field_id: "fld_1", form_name: "a", name: "A", value: "x", source: "text_info", confidence: 0.95 }],
      unfilled_fields: [{ field_id: "fld_2", form_name: "b", name: "B" }],
      created: "2026-01-01T00:00:00.000Z",
      updated: "2026-01-01T00:00:01.000Z"
    }
    await onStorage(server.dataDir, (storage) =>
      Effect.gen(function*() {
        yield* storage.putBlob(Sessions.keys.filled("alice", id), pdf)
        yield* storage.putDocument(Sessions.keys.session("alice", id), JSON.stringify(old), "any")
      }))
    const res = await server.call(`/v1/sessions/${id}`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.filled_fields).toEqual(old.filled_fields)
    expect(body.unfilled_fields).toEqual(old.unfilled_fields)
    expect(body.sources).toBeUndefined()
    expect(body.conflicts).toBeUndefined()
  })
})

const byFormName = (session: any) => Object.fromEntries(session.filled_fields.map((f: any) => [f.form_name, f]))

const completedStatus = "completed"
