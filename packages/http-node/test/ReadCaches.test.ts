/**
 * Profile listings and form reads are remembered for about a second (Profiles.listingCacheMs,
 * FormsReadCache.ttlMs). Two servers on one data directory stand for several servers on one S3
 * bucket: each answers its own writes at once, and shows the other's within the bound.
 */
import { Profiles } from "@formwright/core"
import { Fixtures } from "@formwright/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as FormsReadCache from "../src/FormsReadCache.ts"
import { jsonCall, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

/** The bound, plus room for a slow machine to answer. */
const within = Math.max(Profiles.listingCacheMs, FormsReadCache.ttlMs) + 2_000

const names = async (server: TestServer.TestServer) => {
  const res = await server.call("/v1/profiles?size=100")
  expect(res.status).toBe(200)
  return ((await res.json()) as { profiles: Array<{ name: string }> }).profiles.map((p) => p.name).sort()
}

const create = async (server: TestServer.TestServer, name: string) => {
  const res = await jsonCall(server, "/v1/profiles", "POST", { name, data: { city: "Lyon" } })
  expect(res.status).toBe(201)
  return ((await res.json()) as { idInternal: string }).idInternal
}

describe("read caches across servers on one storage", () => {
  let a: TestServer.TestServer
  let b: TestServer.TestServer
  beforeAll(async () => {
    a = await TestServer.start()
    b = await TestServer.start({ dataDir: a.dataDir })
  })
  afterAll(async () => {
    await b?.stop()
    await a?.stop()
  })

  it("a profile listing shows this server's writes at once and the other's within the bound", async () => {
    await create(a, "Ada")
    expect(await names(a)).toEqual(["Ada"])
    expect(await names(b)).toEqual(["Ada"])

    // Written through b: b lists it at once.
    const id = await create(b, "Bea")
    expect(await names(b)).toEqual(["Ada", "Bea"])
    const seen = await TestServer.poll(() => names(a), (list) => list.includes("Bea"), within)
    expect(seen).toEqual(["Ada", "Bea"])

    // A rename and a delete through b, listed by a within the bound too.
    expect((await jsonCall(b, `/v1/profiles/${id}`, "PATCH", { name: "Bella" })).status).toBe(200)
    expect(await names(b)).toEqual(["Ada", "Bella"])
    expect(await TestServer.poll(() => names(a), (list) => list.includes("Bella"), within)).toEqual(["Ada", "Bella"])
    expect((await b.call(`/v1/profiles/${id}`, { method: "DELETE" })).status).toBe(200)
    expect(await names(b)).toEqual(["Ada"])
    expect(await TestServer.poll(() => names(a), (list) => !list.includes("Bella"), within)).toEqual(["Ada"])
  })

  it("a data update shows in this server's listing at once", async () => {
    const id = await create(a, "Cyd")
    expect((await a.call("/v1/profiles?size=100")).status).toBe(200)
    expect((await jsonCall(a, `/v1/profiles/${id}`, "PATCH", { data: { city: "Nantes" } })).status).toBe(200)
    const listed = (await (await a.call("/v1/profiles?size=100")).json()) as { profiles: Array<{ idInternal: string; data: Record<string, unknown> }> }
    expect(listed.profiles.find((p) => p.idInternal === id)?.data).toEqual({ city: "Nantes" })
  })

  it("a form read shows this server's delete at once and the other's within the bound", async () => {
    const pdf = await Fixtures.formWithEveryFieldType()
    const first = await uploadOk(a, pdf)
    expect((await a.call(`/v1/forms/${first.form_id}`)).status).toBe(200)
    expect((await a.call(`/v1/forms/${first.form_id}`, { method: "DELETE" })).status).toBe(200)
    expect((await a.call(`/v1/forms/${first.form_id}`)).status).toBe(404)

    const second = await uploadOk(a, pdf)
    expect((await a.call(`/v1/forms/${second.form_id}`)).status).toBe(200)
    expect((await b.call(`/v1/forms/${second.form_id}`, { method: "DELETE" })).status).toBe(200)
    const status = await TestServer.poll(() => a.call(`/v1/forms/${second.form_id}`).then((r) => r.status), (s) => s === 404, within)
    expect(status).toBe(404)
  })

  it("a form read is another user's 403, cached or not", async () => {
    const form = await uploadOk(a, await Fixtures.formWithEveryFieldType())
    expect((await a.call(`/v1/forms/${form.form_id}`)).status).toBe(200)
    expect((await a.call(`/v1/forms/${form.form_id}`, { key: TestServer.keys.bob })).status).toBe(403)
    expect((await a.call(`/v1/forms/${form.form_id}`)).status).toBe(200)
  })
})
