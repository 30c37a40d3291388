/**
 * What a client may store (docs/http-api.md "Limits"): PUT /v1/forms/{id} checks every field
 * member and bounds every string, after ownership; profiles, sessions and attached files are
 * bounded and their names cleaned; listings read only the page they return.
 */
import { Effect } from "effect"
import { Storage } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import { expectErrorObject, jsonCall, multipart, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const FORBIDDEN = "Forbidden. Form doesn't belong to the user."
const MiB = 1024 * 1024

/** Runs `f` on the Storage of a server's data directory, beside the server (as another process would). */
const onStorage = <A>(dataDir: string, f: (storage: Storage.StorageShape) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.flatMap(Effect.service(Storage.Storage), f).pipe(Effect.provide(FsStorage.layer({ directory: dataDir }))))

describe("limits", () => {
  let server: TestServer.TestServer
  let pdf: Uint8Array
  let form: any
  let storedField: any

  beforeAll(async () => {
    server = await TestServer.start()
    pdf = await Fixtures.formWithEveryFieldType()
    form = await uploadOk(server, pdf, { headers: { "x-file-name": "limits.pdf" } })
    storedField = (await server.call(`/v1/forms/${form.form_id}`).then((r) => r.json())).fields[0]
  })
  afterAll(() => server.stop())

  const put = (body: unknown, key?: string, id: string = form.form_id) => jsonCall(server, `/v1/forms/${id}`, "PUT", body, key)
  const putField = (patch: Record<string, unknown>) => put({ form: { fields: [{ id: form.fields[0].id, ...patch }] } })

  describe("PUT /v1/forms/{id}: field members", () => {
    const invalid: ReadonlyArray<[string, Record<string, unknown>, RegExp]> = [
      ["page 0", { page: 0 }, /form\.fields\[0\]\.page/],
      ["page -1", { page: -1 }, /form\.fields\[0\]\.page/],
      ["page 1.5", { page: 1.5 }, /form\.fields\[0\]\.page/],
      ["a page past the end of the form", { page: 3 }, /form\.fields\[0\]\.page: Page 3 is past the end of the form \(2 pages\)/],
      ["a rect of three numbers", { rect: [1, 2, 3] }, /form\.fields\[0\]\.rect/],
      ["a rect of five numbers", { rect: [1, 2, 3, 4, 5] }, /form\.fields\[0\]\.rect/],
      ["a rect holding a string", { rect: [1, 2, "3", 4] }, /form\.fields\[0\]\.rect/],
      ["a rect holding null (what JSON makes of Infinity)", { rect: [1, 2, null, 4] }, /form\.fields\[0\]\.rect/],
      ["an unknown form_type", { form_type: "Bogus" }, /form\.fields\[0\]\.form_type/],
      ["a name of 1001 characters", { name: "n".repeat(1001) }, /form\.fields\[0\]\.name/],
      ["a name that is not a string", { name: 5 }, /form\.fields\[0\]\.name/],
      ["a value of 10001 characters", { value: "v".repeat(10_001) }, /form\.fields\[0\]\.value/],
      ["1001 options", { options: Array(1001).fill({ label: "a", value: "a" }) }, /form\.fields\[0\]\.options/],
      ["a confidence above 1", { confidence: 2 }, /form\.fields\[0\]\.confidence/]
    ]
    for (const [label, patch, message] of invalid) {
      it(`400 for ${label}, naming the member, and nothing changes`, async () => {
        await expectErrorObject(await putField(patch), 400, message)
        const stored = await server.call(`/v1/forms/${form.form_id}`).then((r) => r.json())
        expect(stored.fields[0]).toEqual(storedField)
      })
    }

    it("accepts valid members: an integer page within the form, four finite numbers, a known type", async () => {
      const res = await putField({ page: 2, rect: [1, 2.5, 300, 40], form_type: "Text", name: "n".repeat(1000) })
      expect(res.status, await res.clone().text()).toBe(200)
      const field = (await res.json()).form.fields[0]
      expect(field).toMatchObject({ page: 2, rect: [1, 2.5, 300, 40], form_type: "Text" })
      expect((await putField({ page: storedField.page, rect: storedField.rect, name: storedField.name, form_type: storedField.form_type })).status).toBe(200)
    })
  })

  describe("PUT /v1/forms/{id}: form_url", () => {
    for (const url of ["javascript:alert(1)", "JAVASCRIPT://evil.example/%0aalert(1)", "data:text/html,x", "ftp://example.com/f.pdf", "not a url", "https://"]) {
      it(`400 naming form_url for ${JSON.stringify(url)}`, async () => {
        await expectErrorObject(await put({ form: { form_url: url } }), 400, /form\.form_url/)
      })
    }

    it("accepts http and https URLs, and an empty string for none", async () => {
      for (const url of ["https://example.com/forms/a.pdf", "http://example.com/b", ""]) {
        const res = await put({ form: { form_url: url } })
        expect(res.status).toBe(200)
        expect((await res.json()).form.form_url).toBe(url)
      }
    })

    it("400 for a URL over 2048 characters", async () => {
      await expectErrorObject(await put({ form: { form_url: `https://example.com/${"a".repeat(2048)}` } }), 400, /form\.form_url/)
    })
  })

  describe("PUT /v1/forms/{id}: lengths", () => {
    it("400 naming asText over 1 MiB; exactly 1 MiB is stored", async () => {
      await expectErrorObject(await put({ form: { asText: "x".repeat(MiB + 1) } }), 400, /^Invalid form\.asText: /)
      expect((await put({ form: { asText: "x".repeat(MiB) } })).status).toBe(200)
      expect((await put({ form: { asText: "short again" } })).status).toBe(200)
    })

    for (const member of ["group_instructions", "line_by_line_instructions"]) {
      it(`${member}: 400 for 1001 entries, for a key over 1000 or a text over 10000 characters`, async () => {
        const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, "x"]))
        await expectErrorObject(await put({ form: { [member]: many } }), 400, new RegExp(`form\\.${member}`))
        await expectErrorObject(await put({ form: { [member]: { ["k".repeat(1001)]: "x" } } }), 400, new RegExp(`form\\.${member}`))
        await expectErrorObject(await put({ form: { [member]: { k: "x".repeat(10_001) } } }), 400, new RegExp(`form\\.${member}`))
        expect((await put({ form: { [member]: { k: "x".repeat(10_000) } } })).status).toBe(200)
      })
    }
  })

  describe("PUT /v1/forms/{id}: ownership before the body", () => {
    const bad: ReadonlyArray<[string, RequestInit]> = [
      ["an invalid member", { headers: { "content-type": "application/json" }, body: JSON.stringify({ form: { form_url: "javascript:x" } }) }],
      ["malformed JSON", { headers: { "content-type": "application/json" }, body: "{" }],
      ["no form member", { headers: { "content-type": "application/json" }, body: "{}" }],
      ["a text/plain body", { headers: { "content-type": "text/plain" }, body: "x" }]
    ]
    for (const [label, init] of bad) {
      it(`another user's form with ${label}: 403`, async () => {
        await expectErrorObject(await server.call(`/v1/forms/${form.form_id}`, { method: "PUT", ...init, key: TestServer.keys.bob }), 403, FORBIDDEN)
      })
      it(`a missing form with ${label}: 404`, async () => {
        await expectErrorObject(await server.call("/v1/forms/frm_missing", { method: "PUT", ...init }), 404)
      })
    }
  })

  describe("profiles", () => {
    it("400 naming name over 500 characters", async () => {
      await expectErrorObject(await jsonCall(server, "/v1/profiles", "POST", { name: "n".repeat(501) }), 400, /\bname\b/)
    })

    it("400 naming data for 1001 entries, a key over 200, a value over 10000, or over 256 KiB in all", async () => {
      const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, "x"]))
      const big = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, "x".repeat(9_000)]))
      for (const data of [many, { ["k".repeat(201)]: "x" }, { k: "x".repeat(10_001) }, big]) {
        await expectErrorObject(await jsonCall(server, "/v1/profiles", "POST", { name: "Ada", data }), 400, /\bdata\b/)
      }
    })

    it("PATCH: 400 when the merged data would pass the limits, and nothing changes", async () => {
      const half = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`a${i}`, "x".repeat(9_000)]))
      const created = await jsonCall(server, "/v1/profiles", "POST", { name: "Ada", data: half })
      expect(created.status).toBe(201)
      const id = (await created.json()).idInternal
      const more = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`b${i}`, "x".repeat(9_000)]))
      await expectErrorObject(await jsonCall(server, `/v1/profiles/${id}`, "PATCH", { data: more }), 400, /\bdata\b/)
      const stored = await server.call(`/v1/profiles/${id}`).then((r) => r.json())
      expect(Object.keys(stored.data)).toHaveLength(15)
    })

    it("an attached file's name is cleaned like a form's: a 10 KB name with ../ is stored as its last part, at most 255 bytes", async () => {
      const created = await jsonCall(server, "/v1/profiles", "POST", { name: "Files" })
      const id = (await created.json()).idInternal
      const name = `${"../".repeat(1000)}${"é".repeat(3500)}.txt`
      const res = await server.call(`/v1/profiles/${id}/files`, {
        method: "POST",
        body: multipart({ file: { bytes: new TextEncoder().encode("Name: Ada\n"), name, type: "text/plain; charset=utf-8" } })
      })
      expect(res.status).toBe(201)
      const [file] = (await res.json()).files
      expect(file.file_name).not.toContain("/")
      expect(file.file_name).not.toContain("..")
      expect(new TextEncoder().encode(file.file_name).length).toBeLessThanOrEqual(255)
      expect(file.file_name.endsWith(".txt")).toBe(true)
      expect(file.content_type).toBe("text/plain")
      const raw = await server.call(`/v1/profiles/${id}/files`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-file-name": "../../etc/passwd\t" },
        body: '{"name": "Ada"}'
      })
      expect(raw.status).toBe(201)
      expect((await raw.json()).files[1].file_name).toBe("passwd")
    })
  })

  describe("sessions", () => {
    it("400 naming text_info over 1,000,000 characters", async () => {
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, text_info: "x".repeat(1_000_001) }), 400, /^Invalid text_info: /)
    })

    it("400 naming file_urls for a URL over 2048 characters or more than 20 URLs", async () => {
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, file_urls: [`https://e.com/${"a".repeat(2048)}`] }), 400, /^Invalid file_urls\[0\]: /)
      await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, file_urls: Array(21).fill("https://e.com/") }), 400, /^Invalid file_urls: /)
    })

    it("400 naming files for more than 20 uploaded files", async () => {
      const files = Array.from({ length: 21 }, (_, i) => ({ bytes: new TextEncoder().encode("a: b\n"), name: `f${i}.txt`, type: "text/plain" }))
      const res = await server.call("/v1/sessions", { method: "POST", body: multipart({ formId: form.form_id, files }) })
      await expectErrorObject(res, 400, /^Invalid files: /)
    })
  })
})

describe("listings read only the page they return", () => {
  let server: TestServer.TestServer
  let ids: Array<string>

  beforeAll(async () => {
    server = await TestServer.start()
    const pdf = await Fixtures.formWithEveryFieldType()
    ids = []
    for (let i = 0; i < 12; i++) {
      const { form_id } = await uploadOk(server, pdf, { headers: { "x-file-name": `big-${i}.pdf` } })
      ids.push(form_id)
      // Each form holds the largest as_text a client may store.
      expect((await jsonCall(server, `/v1/forms/${form_id}`, "PUT", { form: { asText: `${i}`.padEnd(MiB, "x") } })).status).toBe(200)
    }
  })
  afterAll(() => server.stop())

  it("size=1 over 12 forms of 1 MiB each answers quickly with one form and the total", async () => {
    const started = performance.now()
    const res = await server.call("/v1/forms?size=1")
    const text = await res.text()
    const ms = performance.now() - started
    expect(res.status).toBe(200)
    const body = JSON.parse(text)
    expect(body.total).toBe(12)
    expect(body.forms.map((f: any) => f.id)).toEqual([ids[11]])
    expect(text.length).toBeLessThan(1.2 * MiB)
    expect(ms).toBeLessThan(1_500)
  })

  it("filters by name and pages from the index entries", async () => {
    const body = await server.call("/v1/forms?name=BIG-1&size=2&page=2").then((r) => r.json())
    // big-1, big-10, big-11: newest first, the second page holds big-1.
    expect(body.total).toBe(3)
    expect(body.forms.map((f: any) => f.file_name)).toEqual(["big-1.pdf"])
  })

  it("an index entry from before file names were kept there still filters by name (from its record)", async () => {
    await onStorage(server.dataDir, (storage) =>
      storage.putDocument(`owners/alice/forms/${ids[3]}`, JSON.stringify({ form_id: ids[3], created: "2000-01-01T00:00:00.000Z" }), "any"))
    const body = await server.call("/v1/forms?name=big-3").then((r) => r.json())
    expect(body.forms.map((f: any) => f.id)).toEqual([ids[3]])
    const all = await server.call("/v1/forms?size=100").then((r) => r.json())
    expect(all.total).toBe(12)
    // Its created time is the entry's: it sorts last.
    expect(all.forms.at(-1).id).toBe(ids[3])
  })

  it("an entry whose form is gone is skipped and not counted", async () => {
    await onStorage(server.dataDir, (storage) => storage.deleteDocument(`forms/${ids[11]}`, "any"))
    const body = await server.call("/v1/forms?size=1").then((r) => r.json())
    expect(body.forms.map((f: any) => f.id)).toEqual([ids[10]])
    expect(body.total).toBe(11)
  })

  it("profiles: listed from the index, with profiles from before it indexed on the first listing", async () => {
    const created: Array<string> = []
    for (const name of ["Old One", "Old Two", "New Three"]) {
      const res = await jsonCall(server, "/v1/profiles", "POST", { name, data: { note: "x".repeat(9_000) } })
      created.push((await res.json()).idInternal)
    }
    // As the data of a server from before the index: no entries, no marker.
    await onStorage(server.dataDir, (storage) =>
      Effect.gen(function*() {
        for (const id of created) yield* storage.deleteDocument(`owners/alice/profiles/${id}`, "any")
        yield* storage.deleteDocument("owners/alice/profile-index", "any")
      }))
    const first = await server.call("/v1/profiles?size=1").then((r) => r.json())
    expect(first.total).toBe(3)
    expect(first.profiles.map((p: any) => p.idInternal)).toEqual([created[2]])
    const old = await server.call("/v1/profiles?name=old&size=10").then((r) => r.json())
    expect(old.profiles.map((p: any) => p.name)).toEqual(["Old Two", "Old One"])
    // Renamed and deactivated: the index follows.
    expect((await jsonCall(server, `/v1/profiles/${created[0]}`, "PATCH", { name: "Renamed", status: "Inactive" })).status).toBe(200)
    const inactive = await server.call("/v1/profiles?status=Inactive").then((r) => r.json())
    expect(inactive.profiles.map((p: any) => p.name)).toEqual(["Renamed"])
    expect((await server.call(`/v1/profiles/${created[1]}`, { method: "DELETE" })).status).toBe(200)
    const rest = await server.call("/v1/profiles").then((r) => r.json())
    expect(rest.profiles.map((p: any) => p.idInternal)).toEqual([created[2], created[0]])
    expect(rest.total).toBe(2)
  })
})
