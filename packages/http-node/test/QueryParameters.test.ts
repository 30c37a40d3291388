/**
 * Query parameters (contract.md: 400 for malformed input, the message naming the field; never a
 * 500): a parameter given more than once is a 400 naming it on every route that reads one, in
 * the route family's error shape; `pages` is checked as ranges before anything is expanded.
 */
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FlatFixtures as Flat } from "@formwright/testing"
import * as Query from "../src/handlers/Query.ts"
import { expectBareError, expectErrorObject } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const convert = (server: TestServer.TestServer, route: "forms" | "utils", bytes: Uint8Array, query: string) =>
  server.call(`/v1/${route}/convert${query}`, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: bytes as Uint8Array<ArrayBuffer>
  })

describe("query parameters", () => {
  let server: TestServer.TestServer
  let two: Flat.FlatFixture

  beforeAll(async () => {
    server = await TestServer.start()
    two = await Flat.flatTwoPageForm()
  })
  afterAll(() => server.stop())

  describe("a parameter given more than once is a 400 naming it", () => {
    const lists: ReadonlyArray<[string, ReadonlyArray<string>]> = [
      ["/v1/forms", ["name", "page", "size"]],
      ["/v1/profiles", ["name", "page", "size", "status"]]
    ]
    for (const [path, names] of lists) {
      for (const name of names) {
        it(`GET ${path}?${name}=…&${name}=…`, async () => {
          const value = name === "status" ? "Active" : "1"
          await expectErrorObject(await server.call(`${path}?${name}=${value}&${name}=${value}`), 400, `Invalid ${name}: given more than once.`)
        })
      }
    }

    for (const route of ["forms", "utils"] as const) {
      for (const [name, value] of [["pages", "1"], ["confidence", "0.5"], ["resolution", "1600"], ["allow_checkboxes", "true"]] as const) {
        it(`POST /v1/${route}/convert?${name}=…&${name}=… answers {error_message} alone`, async () => {
          await expectBareError(await convert(server, route, two.bytes, `?${name}=${value}&${name}=${value}`), 400, `Invalid ${name}: given more than once.`)
        })
      }
    }

    it("even three times, and among other valid parameters", async () => {
      await expectErrorObject(await server.call("/v1/forms?name=a&size=2&size=3&size=4"), 400, "Invalid size: given more than once.")
    })

    it("an unknown parameter given twice is ignored, like any unknown parameter", async () => {
      expect((await server.call("/v1/forms?utm=1&utm=2")).status).toBe(200)
    })

    it("authentication still comes first", async () => {
      expect((await server.call("/v1/forms?page=1&page=2", { key: null })).status).toBe(401)
    })
  })

  describe("pages: checked as ranges before expanding", () => {
    it("a thousand ranges of 100000 pages answer 400 at once", async () => {
      const query = `?pages=${Array(1000).fill("1-100000").join(",")}`
      const started = performance.now()
      const message = await expectBareError(await convert(server, "forms", two.bytes, query), 400, /^Invalid pages: /)
      expect(performance.now() - started).toBeLessThan(1_000)
      expect(message).toMatch(/100000 pages; at most 2000/)
    })

    it("more than 1000 parts is a 400 naming pages", async () => {
      await expectBareError(await convert(server, "utils", two.bytes, `?pages=${Array(1001).fill("1").join(",")}`), 400, /^Invalid pages: at most 1000 /)
    })

    it("a selection longer than the page limit of any document is a 400 naming pages", async () => {
      await expectBareError(await convert(server, "forms", two.bytes, "?pages=1-2001"), 400, /^Invalid pages: selects 2001 pages; at most 2000/)
    })

    it("within the bounds, pages past the end of the document are still named", async () => {
      await expectBareError(await convert(server, "forms", two.bytes, "?pages=1-2000"), 400, /pages.*\b3\b.*2 pages/)
    })

    it("the bound follows the configured PDF page limit (FORMWRIGHT_PDF_MAX_PAGES)", async () => {
      const small = await TestServer.start({ config: { pdf: { limits: { maxPages: 5 } } } })
      try {
        await expectBareError(await convert(small, "forms", two.bytes, "?pages=1-6"), 400, /^Invalid pages: selects 6 pages; at most 5/)
      } finally {
        await small.stop()
      }
    })

    it("overlapping ranges count each page once", async () => {
      const res = await convert(server, "forms", two.bytes, `?pages=${Array(999).fill("1-2").join(",")}`)
      expect(res.status, await res.text()).toBe(200)
    })
  })
})

describe("Query.pages", () => {
  const run = (raw: string | undefined, maxSelected = 2000) => Effect.runSyncExit(Query.pages("conversion", raw, maxSelected))
  const ok = (raw: string) => {
    const exit = run(raw)
    if (!Exit.isSuccess(exit)) throw new Error(`expected ${raw} to be accepted`)
    return exit.value
  }

  it("sorts and removes duplicates, merging overlapping and adjacent ranges", () => {
    expect(ok("3, 1-2 ,2-4,9")).toEqual([1, 2, 3, 4, 9])
    expect(ok("5-5")).toEqual([5])
    expect(run(undefined)).toEqual(Exit.succeed(undefined))
    expect(run("  ")).toEqual(Exit.succeed(undefined))
  })

  it("refuses malformed parts, zero, reversed ranges and numbers past 100000", () => {
    for (const raw of ["0", "a", "3-1", "1,,2", "1-", "-1", "100001", "1-100001", "99999999999", "1.5"]) {
      expect(Exit.isFailure(run(raw)), raw).toBe(true)
    }
    expect(Exit.isSuccess(run("100000", 1))).toBe(true)
  })

  it("bounds the number of distinct pages without expanding them", () => {
    expect(Exit.isFailure(run("1-3", 2))).toBe(true)
    expect(Exit.isSuccess(run("1-2,2,1", 2))).toBe(true)
    const started = performance.now()
    expect(Exit.isFailure(run(Array(1000).fill("1-100000").join(",")))).toBe(true)
    expect(performance.now() - started).toBeLessThan(200)
  })
})
