/**
 * Forms over HTTP: upload (content types, file-name rules, size limit, unusable PDFs, the
 * FormField shape), list, get, pdf, update (merge semantics, errors, concurrency), delete and
 * ownership (contract.md "Upload", "FormField", "Forms", "Update form").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Errors } from "@formwright/api"
import { Fixtures } from "@formwright/testing"
import * as ApiClient from "./support/ApiClient.ts"
import { expectErrorObject, ISO, jsonCall, multipart, upload, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const FORBIDDEN = "Forbidden. Form doesn't belong to the user."
const GENERATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_(\d{10})\.pdf$/
const carolKey = "carol-test-key-0003"

describe("forms", () => {
  let server: TestServer.TestServer
  let small: TestServer.TestServer
  let pdf: Uint8Array

  beforeAll(async () => {
    server = await TestServer.start({
      config: { apiKeys: `alice:${TestServer.keys.alice},bob:${TestServer.keys.bob},carol:${carolKey}` }
    })
    small = await TestServer.start({ config: { maxUploadBytes: 10_000 } })
    pdf = await Fixtures.formWithEveryFieldType()
  })
  afterAll(async () => {
    await server.stop()
    await small.stop()
  })

  const formCount = async (s: TestServer.TestServer, key = TestServer.keys.alice) =>
    (await s.call("/v1/forms?size=100", { key }).then((r) => r.json())).total as number

  describe("upload: content types and file names", () => {
    it("takes raw application/pdf and uses X-File-Name", async () => {
      const result = await uploadOk(server, pdf, { headers: { "x-file-name": "Application 2024.pdf" } })
      expect(result.file_name).toBe("Application 2024.pdf")
    })

    it("takes raw application/octet-stream and appends .pdf to X-File-Name", async () => {
      const result = await uploadOk(server, pdf, { headers: { "content-type": "application/octet-stream", "x-file-name": "report" } })
      expect(result.file_name).toBe("report.pdf")
    })

    it("takes a content type with parameters (application/pdf; charset=binary)", async () => {
      const result = await uploadOk(server, pdf, { headers: { "content-type": "application/pdf; charset=binary", "x-file-name": "p.pdf" } })
      expect(result.file_name).toBe("p.pdf")
    })

    it("takes multipart/form-data with a `file` field and uses the file's own name (not X-File-Name)", async () => {
      const res = await server.call("/v1/forms/upload", {
        method: "POST",
        headers: { "x-file-name": "header-name.pdf" },
        body: multipart({ file: { bytes: pdf, name: "multipart-name.pdf", type: "application/pdf" } })
      })
      expect(res.status).toBe(200)
      const [result] = await res.json()
      expect(result.file_name).toBe("multipart-name.pdf")
      expect(result.fields).toHaveLength(11)
    })

    it("answers 400 naming `file` for a multipart body without a file field", async () => {
      const before = await formCount(server)
      const res = await server.call("/v1/forms/upload", { method: "POST", body: multipart({ other: "x" }) })
      await expectErrorObject(res, 400, /'file'/)
      expect(await formCount(server)).toBe(before)
    })

    it("generates <guid>_<unix seconds>.pdf when no name is given", async () => {
      const before = Math.floor(Date.now() / 1000)
      const result = await uploadOk(server, pdf)
      const after = Math.floor(Date.now() / 1000)
      expect(result.file_name).toMatch(/^[0-9a-f-]{36}_\d{10}\.pdf$/)
      const seconds = Number(GENERATED.exec(result.file_name)?.[1])
      expect(seconds).toBeGreaterThanOrEqual(before - 1)
      expect(seconds).toBeLessThanOrEqual(after + 1)
    })

    it("generates a name when X-File-Name holds nothing usable", async () => {
      const result = await uploadOk(server, pdf, { headers: { "x-file-name": "../" } })
      expect(result.file_name).toMatch(GENERATED)
    })

    it("strips POSIX and Windows path parts", async () => {
      expect((await uploadOk(server, pdf, { headers: { "x-file-name": "../../etc/passwd" } })).file_name).toBe("passwd.pdf")
      expect((await uploadOk(server, pdf, { headers: { "x-file-name": "C:\\Users\\zoe\\tax form.PDF" } })).file_name).toBe("tax form.PDF")
    })

    it("removes control characters (percent-encoded in X-File-Name) and keeps non-ASCII names", async () => {
      expect((await uploadOk(server, pdf, { headers: { "x-file-name": "a%01b%0Ac%7F.pdf" } })).file_name).toBe("abc.pdf")
      expect((await uploadOk(server, pdf, { headers: { "x-file-name": encodeURIComponent("Ζωή Петров.pdf") } })).file_name).toBe("Ζωή Петров.pdf")
    })

    it("keeps stored names to at most 255 bytes, ending in .pdf", async () => {
      const long = "é".repeat(300)
      const result = await uploadOk(server, pdf, { headers: { "x-file-name": encodeURIComponent(long) } })
      expect(new TextEncoder().encode(result.file_name).length).toBeLessThanOrEqual(255)
      expect(new TextEncoder().encode(result.file_name).length).toBeGreaterThan(240)
      expect(result.file_name).toMatch(/^é+\.pdf$/)
      const get = await server.call(`/v1/forms/${result.form_id}`).then((r) => r.json())
      expect(get.file_name).toBe(result.file_name)
    })

    it("answers 415 `Expected octet-stream or pdf` for text/plain and stores nothing", async () => {
      const before = await formCount(server)
      const res = await server.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "text/plain" }, body: pdf as Uint8Array<ArrayBuffer> })
      await expectErrorObject(res, 415, "Expected octet-stream or pdf")
      expect(await formCount(server)).toBe(before)
    })

    it("answers 415 for application/json", async () => {
      await expectErrorObject(await jsonCall(server, "/v1/forms/upload", "POST", { file: "x" }), 415, "Expected octet-stream or pdf")
    })

    it("answers 415 when there is no Content-Type at all", async () => {
      const res = await server.call("/v1/forms/upload", { method: "POST", body: pdf as Uint8Array<ArrayBuffer> })
      await expectErrorObject(res, 415, "Expected octet-stream or pdf")
    })
  })

  describe("upload: size limit", () => {
    it("accepts a body under the limit", async () => {
      const flat = await Fixtures.flatPdf()
      expect(flat.byteLength).toBeLessThan(10_000)
      const result = await uploadOk(small, flat)
      expect(result.fields).toEqual([])
    })

    it("answers 413 for a body over the limit sent with Content-Length", async () => {
      const before = await formCount(small)
      const big = new Uint8Array(25_000)
      big.set(new TextEncoder().encode("%PDF-1.7\n"))
      const res = await upload(small, big)
      await expectErrorObject(res, 413, /10000 bytes/)
      expect(await formCount(small)).toBe(before)
    })

    it("answers 413 for a chunked body over the limit (no Content-Length)", async () => {
      const before = await formCount(small)
      let sent = 0
      const chunk = new Uint8Array(1_000).fill(0x20)
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 40) return controller.close()
          sent++
          controller.enqueue(chunk)
        }
      })
      const res = await small.call("/v1/forms/upload", {
        method: "POST",
        headers: { "content-type": "application/pdf" },
        body,
        duplex: "half"
      } as RequestInit)
      expect(res.headers.get("content-length")).not.toBeNull()
      await expectErrorObject(res, 413, /10000 bytes/)
      expect(await formCount(small)).toBe(before)
      // The server is still fine afterwards.
      expect((await small.call("/health", { key: null })).status).toBe(200)
    })

    it("applies the limit to the multipart form of the upload too", async () => {
      const big = new Uint8Array(25_000)
      const res = await small.call("/v1/forms/upload", { method: "POST", body: multipart({ file: { bytes: big, name: "big.pdf" } }) })
      await expectErrorObject(res, 413)
    })
  })

  describe("upload: unusable PDFs answer 422 saying which", () => {
    const cases: ReadonlyArray<[string, () => Promise<Uint8Array> | Uint8Array, RegExp]> = [
      ["not a PDF", Fixtures.notAPdf, /not a PDF/i],
      ["an empty file", Fixtures.emptyFile, /empty/i],
      ["a truncated PDF", Fixtures.truncatedPdf, /damaged/i],
      ["a PDF with a cyclic page tree", Fixtures.cyclicPageTreePdf, /damaged/i],
      ["a user-password PDF", Fixtures.userPasswordPdf, /user password/i],
      ["an XFA-only form", Fixtures.xfaOnlyPdf, /XFA/]
    ]
    for (const [label, make, message] of cases) {
      it(`${label} -> 422 and nothing stored`, async () => {
        const before = await formCount(server)
        await expectErrorObject(await upload(server, await make()), 422, message)
        expect(await formCount(server)).toBe(before)
      })
    }

    it("an owner-password-only encrypted form is read transparently", async () => {
      const result = await uploadOk(server, await Fixtures.encryptedOwnerPasswordForm())
      expect(result.fields.map((f: any) => f.form_name)).toEqual(Object.values(Fixtures.everyFieldType))
    })

    it("a flat PDF is accepted with fields: []", async () => {
      const result = await uploadOk(server, await Fixtures.flatPdf())
      expect(result.fields).toEqual([])
      expect(result.pages).toBe(1)
    })
  })

  describe("upload: the result element and its fields", () => {
    let result: any
    beforeAll(async () => {
      result = await uploadOk(server, pdf, { headers: { "x-file-name": "every.pdf" } })
    })
    const field = (formName: string) => result.fields.find((f: any) => f.form_name === formName)

    it("has id (upl_), object upload_form, form_id (frm_), file_name, pages", () => {
      expect(result.id).toMatch(/^upl_[0-9A-Z]{26}$/)
      expect(result.object).toBe("upload_form")
      expect(result.form_id).toMatch(/^frm_[0-9A-Z]{26}$/)
      expect(result.file_name).toBe("every.pdf")
      expect(result.pages).toBe(2)
      expect(result.fields).toHaveLength(11)
    })

    it("every field has the FormField shape", () => {
      const types = new Set(["Text", "CheckBox", "RadioButton", "ComboBox", "ListBox", "Signature", "PushButton"])
      const ids = new Set<string>()
      for (const f of result.fields) {
        expect(typeof f.id).toBe("string")
        ids.add(f.id)
        expect(typeof f.name).toBe("string")
        expect(f.name.trim()).not.toBe("")
        expect(typeof f.form_name).toBe("string")
        expect(types.has(f.form_type)).toBe(true)
        expect([1, 2]).toContain(f.page)
        expect(f.rect).toHaveLength(4)
        expect(f.rect.every((n: unknown) => typeof n === "number")).toBe(true)
        expect(f.rect[0]).toBeLessThan(f.rect[2])
        expect(f.rect[1]).toBeLessThan(f.rect[3])
        expect(typeof f.required).toBe("boolean")
        expect(typeof f.read_only).toBe("boolean")
      }
      expect(ids.size).toBe(11)
    })

    it("names, types, pages and attributes match the PDF", () => {
      const n = Fixtures.everyFieldType
      expect(field(n.firstName)).toMatchObject({ name: "Applicant first name", form_type: "Text", page: 1, required: false, read_only: false })
      expect(field(n.lastName)).toMatchObject({ name: "Last name", form_type: "Text", page: 1, required: true })
      expect(field(n.notes)).toMatchObject({ form_type: "Text", multiline: true })
      expect(field(n.postcode)).toMatchObject({ form_type: "Text", max_length: 5, comb: true, multiline: false })
      expect(field(n.subscribe)).toMatchObject({ form_type: "CheckBox", page: 1 })
      expect(field(n.colour).form_type).toBe("RadioButton")
      expect(field(n.colour).options.map((o: any) => o.value)).toEqual(["Red", "Green", "Blue"])
      expect(field(n.country)).toMatchObject({
        form_type: "ComboBox",
        page: 2,
        options: [{ label: "United States", value: "US" }, { label: "Greece", value: "GR" }, { label: "Russia", value: "RU" }]
      })
      expect(field(n.languages).form_type).toBe("ListBox")
      expect(field(n.languages).options.map((o: any) => o.label)).toEqual(["English", "Greek", "Russian", "French"])
      expect(field(n.signature).form_type).toBe("Signature")
      expect(field(n.reset).form_type).toBe("PushButton")
      expect(field(n.reference)).toMatchObject({ form_type: "Text", read_only: true, value: "REF-001", page: 2 })
      // The first-name widget was drawn at x 200..450, y 675..695.
      const [x1, y1, x2, y2] = field(n.firstName).rect
      expect(x1).toBeCloseTo(200, -1)
      expect(y1).toBeCloseTo(675, -1)
      expect(x2).toBeCloseTo(450, -1)
      expect(y2).toBeCloseTo(695, -1)
    })

    it("field ids are stable: GET shows the same fields as the upload", async () => {
      const got = await server.call(`/v1/forms/${result.form_id}`).then((r) => r.json())
      expect(got.fields).toEqual(result.fields)
    })
  })

  describe("list", () => {
    const names = ["List-A-1.pdf", "list-a-2.pdf", "LIST-A-3.pdf", "list-a-4.pdf", "list-a-5.pdf", "list-a-6.pdf", "list-a-7.pdf", "other.pdf"]
    const ids: Array<string> = []
    beforeAll(async () => {
      for (const name of names) {
        ids.push((await uploadOk(server, pdf, { headers: { "x-file-name": name }, key: carolKey })).form_id)
        // Distinct creation times make the order observable.
        await new Promise((r) => setTimeout(r, 5))
      }
    })

    it("defaults to page 1, size 10, newest first, total across pages", async () => {
      const body = await server.call("/v1/forms", { key: carolKey }).then((r) => r.json())
      expect(body.object).toBe("forms")
      expect(typeof body.id).toBe("string")
      expect(body.total).toBe(8)
      expect(body.forms.map((f: any) => f.id)).toEqual([...ids].reverse())
      expect(body.forms[0]).toMatchObject({ object: "form", file_name: "other.pdf", processed: true, pages: 2 })
    })

    it("pages with page and size", async () => {
      const carol = ApiClient.of(server, carolKey)
      const one = await carol.ok((client) => client.forms.list({ query: { size: 3, page: 1 } }))
      expect(one.total).toBe(8)
      expect(one.forms.map((f) => f.id)).toEqual([ids[7], ids[6], ids[5]])
      const three = await carol.ok((client) => client.forms.list({ query: { size: 3, page: 3 } }))
      expect(three.total).toBe(8)
      expect(three.forms.map((f) => f.id)).toEqual([ids[1], ids[0]])
      const beyond = await carol.ok((client) => client.forms.list({ query: { size: 3, page: 4 } }))
      expect(beyond.total).toBe(8)
      expect(beyond.forms).toEqual([])
    })

    it("filters by name, case-insensitively, with the total of the matches", async () => {
      const body = await server.call("/v1/forms?name=LIST-a&size=2", { key: carolKey }).then((r) => r.json())
      expect(body.total).toBe(7)
      expect(body.forms.map((f: any) => f.file_name)).toEqual(["list-a-7.pdf", "list-a-6.pdf"])
      const none = await server.call("/v1/forms?name=zzz", { key: carolKey }).then((r) => r.json())
      expect(none).toMatchObject({ total: 0, forms: [] })
    })

    for (const query of ["size=0", "size=101", "size=abc", "page=0", "page=-1", "page=1.5"]) {
      it(`answers 400 naming the parameter for ${query}`, async () => {
        const name = query.split("=")[0]!
        await expectErrorObject(await server.call(`/v1/forms?${query}`, { key: carolKey }), 400, new RegExp(`\\b${name}\\b`))
      })
    }

    it("shows only the caller's forms", async () => {
      const bob = await server.call("/v1/forms", { key: TestServer.keys.bob }).then((r) => r.json())
      expect(bob.forms.map((f: any) => f.id).filter((id: string) => ids.includes(id))).toEqual([])
    })
  })

  describe("get, pdf, update, delete", () => {
    let result: any
    beforeAll(async () => {
      result = await uploadOk(server, pdf, { headers: { "x-file-name": "crud.pdf" } })
    })

    it("GET /v1/forms/{id} shows the stored definition", async () => {
      const res = await server.call(`/v1/forms/${result.form_id}`)
      expect(res.status).toBe(200)
      const form = await res.json()
      expect(form).toMatchObject({
        id: result.form_id,
        object: "form",
        file_name: "crud.pdf",
        pages: 2,
        processed: true,
        group_instructions: {},
        line_by_line_instructions: {}
      })
      expect(form.created).toMatch(ISO)
      expect(form.updated).toMatch(ISO)
      expect(form.form_url).toBeUndefined()
      expect(form.as_text).toContain("Application form")
      for (const f of result.fields) expect(form.as_text).toContain(f.id)
      // The marker sits after its label, in reading order.
      const first = result.fields.find((f: any) => f.form_name === Fixtures.everyFieldType.firstName)
      expect(form.as_text).toMatch(new RegExp(`First name:\\s*\\S*${first.id}`))
    })

    it("GET /v1/forms/{id}/pdf returns the uploaded bytes unchanged", async () => {
      const res = await server.call(`/v1/forms/${result.form_id}/pdf`)
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toBe("application/pdf")
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect(bytes.byteLength).toBe(pdf.byteLength)
      expect(Buffer.from(bytes).equals(Buffer.from(pdf))).toBe(true)
    })

    it("PUT merges: present members replace, absent ones are kept, fields are matched by id", async () => {
      const first = result.fields[0]
      const second = result.fields[1]
      const res = await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", {
        form: {
          asText: "Given name: [[field]]",
          form_url: "https://example.com/forms/crud.pdf",
          fields: [{ id: first.id, name: "Given name" }],
          group_instructions: { applicant: "Fill in capitals" }
        }
      })
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.id).toMatch(/^uf_[0-9A-Z]{26}$/)
      expect(body.created).toMatch(ISO)
      expect(body.object).toBe("update_form")
      expect(body.updated).toBe(true)
      expect(Object.keys(body.form).sort()).toEqual(["as_text", "fields", "form_url", "group_instructions", "line_by_line_instructions"])
      expect(body.form.as_text).toBe("Given name: [[field]]")
      expect(body.form.form_url).toBe("https://example.com/forms/crud.pdf")
      expect(body.form.group_instructions).toEqual({ applicant: "Fill in capitals" })
      expect(body.form.line_by_line_instructions).toEqual({})
      expect(body.form.fields).toHaveLength(11)
      expect(body.form.fields[0]).toEqual({ ...first, name: "Given name" })
      expect(body.form.fields[1]).toEqual(second)

      // A second update touching one member keeps everything the first one set.
      const again = await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { line_by_line_instructions: { [second.id]: "Surname only" } } })
      expect(again.status).toBe(200)
      const merged = (await again.json()).form
      expect(merged.as_text).toBe("Given name: [[field]]")
      expect(merged.form_url).toBe("https://example.com/forms/crud.pdf")
      expect(merged.group_instructions).toEqual({ applicant: "Fill in capitals" })
      expect(merged.line_by_line_instructions).toEqual({ [second.id]: "Surname only" })
      expect(merged.fields[0].name).toBe("Given name")

      const stored = await server.call(`/v1/forms/${result.form_id}`).then((r) => r.json())
      expect(stored.as_text).toBe("Given name: [[field]]")
      expect(stored.form_url).toBe("https://example.com/forms/crud.pdf")
      expect(stored.fields[0].name).toBe("Given name")
      expect(stored.line_by_line_instructions).toEqual({ [second.id]: "Surname only" })
      expect(stored.updated >= stored.created).toBe(true)
      // The answer is written without an encoding pass: it must be what a read gives, member for member.
      expect(merged.fields).toEqual(stored.fields)
    })

    it("PUT with an unknown field id answers 400 naming it and changes nothing", async () => {
      const before = await server.call(`/v1/forms/${result.form_id}`).then((r) => r.json())
      const res = await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", {
        form: { asText: "should not be stored", fields: [{ id: "fld_does_not_exist", name: "x" }] }
      })
      const message = await expectErrorObject(res, 400, /fld_does_not_exist/)
      expect(message).toMatch(/fields/)
      const after = await server.call(`/v1/forms/${result.form_id}`).then((r) => r.json())
      expect(after.as_text).toBe(before.as_text)
      expect(after.fields).toEqual(before.fields)
    })

    it("PUT answers 415 for a non-JSON body", async () => {
      const res = await server.call(`/v1/forms/${result.form_id}`, { method: "PUT", headers: { "content-type": "text/plain" }, body: '{"form":{}}' })
      await expectErrorObject(res, 415)
    })

    it("PUT answers 400 for malformed JSON", async () => {
      const res = await server.call(`/v1/forms/${result.form_id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: '{"form": {' })
      await expectErrorObject(res, 400, /JSON/)
    })

    it("PUT answers 400 naming `form` when it is missing", async () => {
      await expectErrorObject(await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { asText: "x" }), 400, /\bform\b/)
    })

    it("PUT answers 400 naming the member of a wrong type", async () => {
      await expectErrorObject(await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { asText: 5 } }), 400, /asText/)
    })

    it("PUT takes `as_text`, the spelling responses use, as well as `asText`", async () => {
      const res = await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { as_text: "Spelled as in responses" } })
      expect(res.status).toBe(200)
      const stored = await (await server.call(`/v1/forms/${result.form_id}`)).json()
      expect(stored.as_text).toBe("Spelled as in responses")
      await expectErrorObject(
        await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { asText: "one", as_text: "other" } }),
        400,
        /form\.as_text.*differ/
      )
      await expectErrorObject(await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { as_text: 5 } }), 400, /as_text/)
    })

    it("PUT answers 400 naming a member of `form` it does not know, and changes nothing", async () => {
      const before = await (await server.call(`/v1/forms/${result.form_id}`)).json()
      await expectErrorObject(
        await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { asText: "not stored", formUrl: "https://example.com/x.pdf" } }),
        400,
        /form\.formUrl/
      )
      const after = await (await server.call(`/v1/forms/${result.form_id}`)).json()
      expect(after.as_text).toBe(before.as_text)
    })

    it("PUT with only `fields` (no form_url ever set) is stored", async () => {
      const target = result.fields[2]
      const res = await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { fields: [{ id: target.id, name: "Remarks" }] } })
      expect(res.status).toBe(200)
      const fresh = await uploadOk(server, pdf)
      const plain = await jsonCall(server, `/v1/forms/${fresh.form_id}`, "PUT", { form: { fields: [{ id: fresh.fields[0].id, name: "First" }] } })
      expect(plain.status).toBe(200)
      const body = await plain.json()
      expect(body.form.form_url).toBeUndefined()
      expect(body.form.fields[0].name).toBe("First")
    })

    for (const [label, patch] of [["a name that is not a string", { name: 5 }], ["an unknown form_type", { form_type: "Bogus" }], ["a rect that is not an array", { rect: "x" }]] as const) {
      it(`PUT with ${label} in a field answers 400 naming the field entry`, async () => {
        const res = await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { fields: [{ id: result.fields[3].id, ...patch }] } })
        await expectErrorObject(res, 400, /form\.fields\[0\]/)
        const stored = await server.call(`/v1/forms/${result.form_id}`).then((r) => r.json())
        expect(stored.fields[3]).toEqual(result.fields[3])
      })
    }

    it("PUT with a field entry that has no id answers 400", async () => {
      await expectErrorObject(await jsonCall(server, `/v1/forms/${result.form_id}`, "PUT", { form: { fields: [{ name: "x" }] } }), 400, /fields/)
    })

    it("10 concurrent PUTs renaming 10 different fields lose no update", async () => {
      const fresh = await uploadOk(server, pdf)
      const targets = fresh.fields.slice(0, 10)
      const responses = await Promise.all(
        targets.map((f: any, i: number) =>
          jsonCall(server, `/v1/forms/${fresh.form_id}`, "PUT", { form: { fields: [{ id: f.id, name: `Renamed ${i}` }] } })
        )
      )
      expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200))
      const stored = await server.call(`/v1/forms/${fresh.form_id}`).then((r) => r.json())
      expect(stored.fields.slice(0, 10).map((f: any) => f.name)).toEqual(targets.map((_: any, i: number) => `Renamed ${i}`))
      expect(stored.fields[10]).toEqual(fresh.fields[10])
    })

    it("404 for an unknown form id on every form route", async () => {
      const unknown = "frm_01JZZZZZZZZZZZZZZZZZZZZZZZ"
      await expectErrorObject(await server.call(`/v1/forms/${unknown}`), 404, /not found/)
      await expectErrorObject(await server.call(`/v1/forms/${unknown}/pdf`), 404, /not found/)
      await expectErrorObject(await jsonCall(server, `/v1/forms/${unknown}`, "PUT", { form: { asText: "x" } }), 404, /not found/)
      await expectErrorObject(await server.call(`/v1/forms/${unknown}`, { method: "DELETE" }), 404, /not found/)
      await expectErrorObject(await server.call(`/v1/forms/..%2F..%2Fapikeys`), 404)
    })
  })

  describe("ownership: another user's form is 403 on every form route", () => {
    let result: any
    beforeAll(async () => {
      result = await uploadOk(server, pdf, { headers: { "x-file-name": "alice-only.pdf" } })
    })
    const bob = TestServer.keys.bob

    /** The wire class of a 403 (so its status), with the contract's message. */
    const expectForbidden = (error: unknown) => {
      expect(error).toBeInstanceOf(Errors.Forbidden)
      expect((error as Errors.Forbidden).error_message).toBe(FORBIDDEN)
    }

    it("GET", async () => {
      expectForbidden(await ApiClient.of(server, bob).fails((client) => client.forms.get({ params: { id: result.form_id } })))
    })
    it("GET pdf", async () => {
      await expectErrorObject(await server.call(`/v1/forms/${result.form_id}/pdf`, { key: bob }), 403, FORBIDDEN)
    })
    it("PUT, leaving the form unchanged", async () => {
      const params = { id: result.form_id }
      expectForbidden(await ApiClient.of(server, bob).fails((client) => client.forms.update({ params, payload: { form: { asText: "bob was here" } } })))
      const stored = await ApiClient.of(server).ok((client) => client.forms.get({ params }))
      expect(stored.as_text).not.toBe("bob was here")
    })
    it("DELETE, leaving the form in place", async () => {
      const params = { id: result.form_id }
      expectForbidden(await ApiClient.of(server, bob).fails((client) => client.forms.delete({ params })))
      expect((await ApiClient.of(server).ok((client) => client.forms.get({ params }))).id).toBe(result.form_id)
    })
    it("POST /v1/sessions with the form's id", async () => {
      const res = await jsonCall(server, "/v1/sessions", "POST", { form_id: result.form_id, text_info: "Notes: x" }, bob)
      await expectErrorObject(res, 403, FORBIDDEN)
    })
  })

  describe("delete", () => {
    it("deletes the form and its PDF; later calls answer 404", async () => {
      const result = await uploadOk(server, pdf, { headers: { "x-file-name": "to-delete.pdf" } })
      const res = await server.call(`/v1/forms/${result.form_id}`, { method: "DELETE" })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ id: result.form_id, object: "form", deleted: true })
      await expectErrorObject(await server.call(`/v1/forms/${result.form_id}`), 404)
      await expectErrorObject(await server.call(`/v1/forms/${result.form_id}/pdf`), 404)
      await expectErrorObject(await server.call(`/v1/forms/${result.form_id}`, { method: "DELETE" }), 404)
      const list = await server.call("/v1/forms?name=to-delete").then((r) => r.json())
      expect(list.total).toBe(0)
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: result.form_id }), 404)
    })
  })
})
