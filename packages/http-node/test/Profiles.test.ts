/**
 * Profiles over HTTP (interface.md route 7, contract.md "Profiles"): create, the list with its
 * defaults, paging, filters and validation, get/patch/delete, attached files feeding autofill,
 * and another user's profiles being invisible.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Errors } from "@formwright/api"
import { Fixtures } from "@formwright/testing"
import * as ApiClient from "./support/ApiClient.ts"
import { createSession, expectErrorObject, ISO, jsonCall, multipart, settledSession, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const carol = "carol-test-key-0003"
const PROFILE_KEYS = ["created", "data", "files", "idInternal", "name", "status", "updated", "userId"]

describe("profiles", () => {
  let server: TestServer.TestServer

  beforeAll(async () => {
    server = await TestServer.start({ config: { apiKeys: `alice:${TestServer.keys.alice},bob:${TestServer.keys.bob},carol:${carol}` } })
  })
  afterAll(() => server.stop())

  /** The routes through the typed client of `@formwright/api`, as alice and as bob. */
  const alice = () => ApiClient.of(server)
  const bobClient = () => ApiClient.of(server, TestServer.keys.bob)

  /** A documented error: its wire class (so its status) and the contract's error object. */
  const expectNotFound = (error: unknown, id: string) => {
    expect(error).toBeInstanceOf(Errors.NotFound)
    expect((error as Errors.NotFound).error_message).toBe(`Profile '${id}' not found.`)
    expect((error as Errors.NotFound).id).toMatch(/^error_[0-9A-Z]{26}$/)
  }

  const create = async (body: unknown, key?: string) => {
    const res = await jsonCall(server, "/v1/profiles", "POST", body, key)
    const text = await res.text()
    expect(res.status, text).toBe(201)
    return JSON.parse(text)
  }

  describe("create", () => {
    it("answers 201 with the profile, Active and empty by default", async () => {
      const profile = await create({ name: "Zoë Ádám" })
      expect(Object.keys(profile).sort()).toEqual(PROFILE_KEYS)
      expect(profile).toMatchObject({ name: "Zoë Ádám", userId: "alice", status: "Active", files: [], data: {} })
      expect(profile.idInternal).toMatch(/^prf_[0-9A-Z]{26}$/)
      expect(profile.created).toMatch(ISO)
      expect(profile.updated).toBe(profile.created)
    })

    it("keeps status and data", async () => {
      const profile = await create({ name: "Ολυμπία", status: "Inactive", data: { "Last name": "Παπαδοπούλου", City: "Αθήνα" } })
      expect(profile.status).toBe("Inactive")
      expect(profile.data).toEqual({ "Last name": "Παπαδοπούλου", City: "Αθήνα" })
      const got = await server.call(`/v1/profiles/${profile.idInternal}`).then((r) => r.json())
      expect(got).toEqual(profile)
    })

    const bad: ReadonlyArray<[string, unknown, RegExp]> = [
      ["no name", { data: {} }, /name/],
      ["an empty name", { name: "  " }, /name/],
      ["a name that is not a string", { name: 7 }, /name/],
      ["an unknown status", { name: "x", status: "Deleted" }, /status/],
      ["a null data value", { name: "x", data: { age: null } }, /data/],
      ["data nested too deep", { name: "x", data: { a: { b: { c: { d: { e: { f: { g: { h: "deep" } } } } } } } } }, /data/]
    ]

    it("takes numbers, booleans, lists and nested objects in data, and gives them back as sent", async () => {
      const data = { age: 42, married: true, address: { street: "12 Elm Street", city: "Springfield" }, children: [{ name: "Mia" }] }
      const profile = await create({ name: "Shaped", data })
      expect(profile.data).toEqual(data)
      expect(await server.call(`/v1/profiles/${profile.idInternal}`).then((r) => r.json())).toEqual(profile)
    })
    for (const [label, body, message] of bad) {
      it(`400 for ${label}`, async () => {
        await expectErrorObject(await jsonCall(server, "/v1/profiles", "POST", body, carol), 400, message)
      })
    }

    it("400 for malformed JSON and 415 for text/plain; nothing is created", async () => {
      const before = (await server.call("/v1/profiles", { key: carol }).then((r) => r.json())).total
      await expectErrorObject(await server.call("/v1/profiles", { method: "POST", headers: { "content-type": "application/json" }, body: "{", key: carol }), 400, /JSON/)
      await expectErrorObject(await server.call("/v1/profiles", { method: "POST", headers: { "content-type": "text/plain" }, body: '{"name":"x"}', key: carol }), 415)
      expect((await server.call("/v1/profiles", { key: carol }).then((r) => r.json())).total).toBe(before)
    })
  })

  describe("list", () => {
    const dave = "dave-test-key-0004"
    let listServer: TestServer.TestServer
    const ids: Array<string> = []

    beforeAll(async () => {
      listServer = await TestServer.start({ config: { apiKeys: `dave:${dave}` } })
      for (let i = 1; i <= 12; i++) {
        const res = await jsonCall(listServer, "/v1/profiles", "POST", { name: `Person ${String(i).padStart(2, "0")}`, status: i % 3 === 0 ? "Inactive" : "Active" }, dave)
        expect(res.status).toBe(201)
        ids.push((await res.json()).idInternal)
        // Distinct creation times make "newest first" observable.
        await new Promise((r) => setTimeout(r, 3))
      }
    })
    afterAll(() => listServer.stop())

    const list = async (query: string) => {
      const res = await listServer.call(`/v1/profiles${query}`, { key: dave })
      const text = await res.text()
      expect(res.status, text).toBe(200)
      return JSON.parse(text)
    }
    const listed = (query: { page?: number; size?: number; name?: string; status?: "Active" | "Inactive" }) =>
      ApiClient.of(listServer, dave).ok((client) => client.profiles.list({ query }))

    it("defaults to page 1, size 10, newest first, with total across pages", async () => {
      const body = await list("")
      expect(Object.keys(body).sort()).toEqual(["id", "object", "profiles", "total"])
      expect(typeof body.id).toBe("string")
      expect(body.object).toBe("profiles")
      expect(body.total).toBe(12)
      expect(body.profiles.map((p: any) => p.idInternal)).toEqual([...ids].reverse().slice(0, 10))
      for (const p of body.profiles) expect(Object.keys(p).sort()).toEqual(PROFILE_KEYS)
    })

    it("pages: size=5 gives 5 items, page 3 the last 2, page 4 none; total stays 12", async () => {
      const one = await listed({ size: 5 })
      expect(one.profiles).toHaveLength(5)
      expect(one.total).toBe(12)
      expect(one.profiles[0]!.name).toBe("Person 12")
      const three = await listed({ size: 5, page: 3 })
      expect(three.total).toBe(12)
      expect(three.profiles.map((p) => p.name)).toEqual(["Person 02", "Person 01"])
      const four = await listed({ size: 5, page: 4 })
      expect(four).toMatchObject({ total: 12, profiles: [] })
      const all = await listed({ size: 100 })
      expect(all.profiles).toHaveLength(12)
    })

    it("name filter: case-insensitive substring", async () => {
      const body = await listed({ name: "PERSON 1" })
      expect(body.total).toBe(3)
      expect(body.profiles.map((p) => p.name)).toEqual(["Person 12", "Person 11", "Person 10"])
      expect((await listed({ name: "rson 0" })).total).toBe(9)
      expect((await listed({ name: "nobody" })).total).toBe(0)
    })

    it("status filter: exact Active / Inactive", async () => {
      const inactive = await listed({ status: "Inactive" })
      expect(inactive.total).toBe(4)
      expect(inactive.profiles.map((p) => p.name)).toEqual(["Person 12", "Person 09", "Person 06", "Person 03"])
      expect((await listed({ status: "Active" })).total).toBe(8)
      const both = await listed({ status: "Inactive", name: "person 0", size: 2 })
      expect(both.total).toBe(3)
      expect(both.profiles.map((p) => p.name)).toEqual(["Person 09", "Person 06"])
    })

    for (const query of ["status=foo", "status=active", "page=0", "page=abc", "size=0", "size=101", "size=abc", "size=-5"]) {
      it(`400 naming the parameter for ${query}`, async () => {
        const name = query.split("=")[0]!
        await expectErrorObject(await listServer.call(`/v1/profiles?${query}`, { key: dave }), 400, new RegExp(`\\b${name}\\b`))
      })
    }

    it("lists only the caller's profiles", async () => {
      const other = await listServer.call("/v1/profiles", { key: TestServer.keys.alice })
      // alice is not a user of this server at all.
      expect(other.status).toBe(401)
      const aliceList = await server.call("/v1/profiles?size=100").then((r) => r.json())
      expect(aliceList.profiles.every((p: any) => p.userId === "alice")).toBe(true)
    })
  })

  describe("get, patch, delete", () => {
    it("patch replaces name and status and merges data; null removes a key", async () => {
      const profile = await create({ name: "Patch Me", data: { a: "1", b: "2" } })
      await new Promise((r) => setTimeout(r, 3))
      const params = { id: profile.idInternal }
      const patched = await alice().ok((client) => client.profiles.update({ params, payload: { status: "Inactive", data: { b: null, c: "3" } } }))
      expect(patched).toMatchObject({ idInternal: profile.idInternal, name: "Patch Me", status: "Inactive", data: { a: "1", c: "3" } })
      expect(Object.keys(patched.data).sort()).toEqual(["a", "c"])
      expect(patched.created).toBe(profile.created)
      expect(patched.updated > profile.updated).toBe(true)
      const renamed = await alice().ok((client) => client.profiles.update({ params, payload: { name: "Patched" } }))
      expect(renamed).toMatchObject({ name: "Patched", status: "Inactive", data: { a: "1", c: "3" } })
      expect(await alice().ok((client) => client.profiles.get({ params }))).toEqual(renamed)
    })

    it("patch validates: 400 naming status, 415 for text/plain, 400 for malformed JSON", async () => {
      const profile = await create({ name: "Strict" })
      await expectErrorObject(await jsonCall(server, `/v1/profiles/${profile.idInternal}`, "PATCH", { status: "Gone" }), 400, /status/)
      await expectErrorObject(await jsonCall(server, `/v1/profiles/${profile.idInternal}`, "PATCH", { data: { x: "y".repeat(10_001) } }), 400, /data/)
      await expectErrorObject(await server.call(`/v1/profiles/${profile.idInternal}`, { method: "PATCH", headers: { "content-type": "text/plain" }, body: "{}" }), 415)
      await expectErrorObject(await server.call(`/v1/profiles/${profile.idInternal}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: "{" }), 400, /JSON/)
      expect(await server.call(`/v1/profiles/${profile.idInternal}`).then((r) => r.json())).toEqual(profile)
    })

    it("delete removes the profile; later calls answer 404", async () => {
      const profile = await create({ name: "Delete Me" })
      const params = { id: profile.idInternal }
      expect(await alice().ok((client) => client.profiles.delete({ params }))).toEqual({ id: profile.idInternal, object: "profile", deleted: true })
      expectNotFound(await alice().fails((client) => client.profiles.get({ params })), profile.idInternal)
      expectNotFound(await alice().fails((client) => client.profiles.delete({ params })), profile.idInternal)
      expectNotFound(await alice().fails((client) => client.profiles.update({ params, payload: { name: "x" } })), profile.idInternal)
      expect((await alice().ok((client) => client.profiles.list({ query: { name: "delete me" } }))).total).toBe(0)
    })

    it("404 for an unknown or malformed id", async () => {
      await expectErrorObject(await server.call("/v1/profiles/prf_01JZZZZZZZZZZZZZZZZZZZZZZZ"), 404, /prf_01JZZZZZZZZZZZZZZZZZZZZZZZ/)
      await expectErrorObject(await server.call("/v1/profiles/..%2F..%2Fapikeys"), 404)
    })
  })

  describe("another user's profile is 404 everywhere, as if it did not exist", () => {
    let profile: any
    const bob = TestServer.keys.bob
    beforeAll(async () => {
      profile = await create({ name: "Alice Private", data: { secret: "yes" } })
    })

    it("get", async () => {
      expectNotFound(await bobClient().fails((client) => client.profiles.get({ params: { id: profile.idInternal } })), profile.idInternal)
    })
    it("patch", async () => {
      expectNotFound(
        await bobClient().fails((client) => client.profiles.update({ params: { id: profile.idInternal }, payload: { name: "Bob's now" } })),
        profile.idInternal
      )
    })
    it("delete", async () => {
      expectNotFound(await bobClient().fails((client) => client.profiles.delete({ params: { id: profile.idInternal } })), profile.idInternal)
    })
    it("files", async () => {
      const res = await server.call(`/v1/profiles/${profile.idInternal}/files`, {
        method: "POST",
        key: bob,
        body: multipart({ file: { bytes: new TextEncoder().encode("secret: no"), name: "x.txt", type: "text/plain" } })
      })
      await expectErrorObject(res, 404, `Profile '${profile.idInternal}' not found.`)
    })
    it("bob's list does not show it, and alice's profile is unchanged", async () => {
      const list = await bobClient().ok((client) => client.profiles.list({ query: { size: 100 } }))
      expect(list.profiles.map((p) => p.idInternal)).not.toContain(profile.idInternal)
      expect(await alice().ok((client) => client.profiles.get({ params: { id: profile.idInternal } }))).toEqual(profile)
    })
  })

  describe("files", () => {
    it("a multipart `file` is attached and its `key: value` lines feed a session", async () => {
      const profile = await create({ name: "With File", data: { "Applicant first name": "Data-First" } })
      const text = "Last name: Файлова\nPostcode: 24680\n"
      const res = await server.call(`/v1/profiles/${profile.idInternal}/files`, {
        method: "POST",
        body: multipart({ file: { bytes: new TextEncoder().encode(text), name: "facts.txt", type: "text/plain" } })
      })
      expect(res.status).toBe(201)
      const attached = await res.json()
      expect(Object.keys(attached).sort()).toEqual(PROFILE_KEYS)
      expect(attached.files).toHaveLength(1)
      const file = attached.files[0]
      expect(file).toMatchObject({ file_name: "facts.txt", content_type: "text/plain", size_bytes: new TextEncoder().encode(text).byteLength })
      expect(file.id).toMatch(/^file_[0-9A-Z]{26}$/)
      expect(file.created).toMatch(ISO)
      expect((await server.call(`/v1/profiles/${profile.idInternal}`).then((r) => r.json())).files).toEqual(attached.files)

      const form = await uploadOk(server, await Fixtures.formWithEveryFieldType())
      const done = await settledSession(server, await createSession(server, { form_id: form.form_id, profile_ids: [profile.idInternal] }))
      expect(done.status).toBe("completed")
      const filled = Object.fromEntries(done.filled_fields.map((f: any) => [f.form_name, f]))
      const n = Fixtures.everyFieldType
      expect(filled[n.lastName]).toMatchObject({ value: "Файлова", source: `file:${file.id}` })
      expect(filled[n.postcode]).toMatchObject({ value: "24680", source: `file:${file.id}` })
      expect(filled[n.firstName]).toMatchObject({ value: "Data-First", source: `profile:${profile.idInternal}` })
    })

    it("a raw document body uses X-File-Name; several files accumulate", async () => {
      const profile = await create({ name: "Raw File" })
      const one = await server.call(`/v1/profiles/${profile.idInternal}/files`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream", "x-file-name": "notes.txt" },
        body: new TextEncoder().encode("Notes: raw")
      })
      expect(one.status).toBe(201)
      const two = await server.call(`/v1/profiles/${profile.idInternal}/files`, {
        method: "POST",
        body: multipart({ file: { bytes: new TextEncoder().encode('{"Notes":"json"}'), name: "n.json", type: "application/json" } })
      })
      expect(two.status).toBe(201)
      const files = (await two.json()).files
      expect(files.map((f: any) => f.file_name)).toEqual(["notes.txt", "n.json"])
    })

    it("400 for multipart without `file` and for an empty file; 415 without a content type; 404 unknown profile", async () => {
      const profile = await create({ name: "Bad Files" })
      const path = `/v1/profiles/${profile.idInternal}/files`
      await expectErrorObject(await server.call(path, { method: "POST", body: multipart({ other: "x" }) }), 400, /'file'/)
      await expectErrorObject(await server.call(path, { method: "POST", body: multipart({ file: { bytes: new Uint8Array(0), name: "e.txt" } }) }), 400, /empty/)
      await expectErrorObject(await server.call(path, { method: "POST", body: new TextEncoder().encode("x: y") }), 415)
      await expectErrorObject(await server.call("/v1/profiles/prf_01JZZZZZZZZZZZZZZZZZZZZZZZ/files", { method: "POST", body: multipart({ file: { bytes: new TextEncoder().encode("a: b"), name: "a.txt" } }) }), 404)
      expect((await server.call(`/v1/profiles/${profile.idInternal}`).then((r) => r.json())).files).toEqual([])
    })

    it("413 for a file over the limit", async () => {
      const small = await TestServer.start({ config: { maxUploadBytes: 10_000 } })
      try {
        const res = await jsonCall(small, "/v1/profiles", "POST", { name: "Small" })
        const id = (await res.json()).idInternal
        const big = await small.call(`/v1/profiles/${id}/files`, { method: "POST", body: multipart({ file: { bytes: new Uint8Array(20_000), name: "big.txt" } }) })
        await expectErrorObject(big, 413)
        expect((await small.call(`/v1/profiles/${id}`).then((r) => r.json())).files).toEqual([])
      } finally {
        await small.stop()
      }
    })
  })
})
