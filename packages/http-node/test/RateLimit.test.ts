/**
 * Rate limits (contract.md: 429 with `Retry-After`): the optional per-user limit of
 * FORMWRIGHT_RATE_LIMIT, counted for the user authentication found whichever headers carried
 * the key and however the path was spelled; and the limit on failed authentications per client
 * address (FORMWRIGHT_AUTH_FAILURE_LIMIT), on without any setting.
 */
import * as Http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as RateLimit from "../src/handlers/RateLimit.ts"
import { defaultConfig } from "./support/TestServer.ts"
import * as TestServer from "./support/TestServer.ts"

/** A GET with the path sent exactly as given (fetch would normalise it), from `localAddress`. */
const rawGet = (server: TestServer.TestServer, path: string, headers: Record<string, string>, localAddress = "127.0.0.1") =>
  new Promise<{ status: number; headers: Http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const url = new URL(server.url)
    const request = Http.request({ host: url.hostname, port: url.port, path, method: "GET", headers, localAddress, agent: false }, (response) => {
      let body = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (body += chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    request.on("error", reject)
    request.end()
  })

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

describe("RateLimit.make", () => {
  it("allows bursts up to the limit per client, then says how long to wait, and refills", () => {
    let now = 0
    const limiter = RateLimit.make(3, () => now)
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([undefined, undefined, undefined])
    expect(limiter.take("a")).toBe(20)
    expect(limiter.take("b")).toBeUndefined()
    now += 20_000
    expect(limiter.take("a")).toBeUndefined()
    expect(limiter.take("a")).toBe(20)
  })

  it("wait() tells the seconds to wait without taking a token", () => {
    let now = 0
    const limiter = RateLimit.make(1, () => now)
    expect(limiter.wait("a")).toBeUndefined()
    expect(limiter.take("a")).toBeUndefined()
    expect(limiter.wait("a")).toBe(60)
    expect(limiter.wait("a")).toBe(60)
    now += 30_000
    expect(limiter.wait("a")).toBe(30)
    now += 30_000
    expect(limiter.wait("a")).toBeUndefined()
    expect(limiter.take("a")).toBeUndefined()
  })
})

describe("FORMWRIGHT_RATE_LIMIT over HTTP", () => {
  it("answers 429 with Retry-After in each route family's error shape, per user", async () => {
    const server = await TestServer.start({ config: { rateLimit: 2 } })
    try {
      expect((await server.call("/v1/forms")).status).toBe(200)
      expect((await server.call("/v1/forms")).status).toBe(200)
      const limited = await server.call("/v1/forms")
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      expect(await limited.json()).toMatchObject({ object: "error", error_message: expect.stringMatching(/too many requests/i) })
      const conversion = await server.call("/v1/forms/convert/job_x/status")
      expect(conversion.status).toBe(429)
      expect(Object.keys(await conversion.json())).toEqual(["error_message"])
      // The same user's key sent as x-api-key shares the allowance.
      expect((await server.call("/v1/forms", { key: null, headers: { "x-api-key": TestServer.keys.alice } })).status).toBe(429)
      // Bob's key has its own allowance; /health is never limited.
      expect((await server.call("/v1/forms", { key: TestServer.keys.bob })).status).toBe(200)
      expect((await server.call("/health", { key: null })).status).toBe(200)
    } finally {
      await server.stop()
    }
  })

  it("counts every spelling of a path the router accepts (//v1, /v1//, /V1, escapes, a trailing slash)", async () => {
    const spellings = ["//v1/forms", "/v1//forms", "/V1/Forms", "/%761/forms", "/v1/forms/", "/v1/forms;x", "//v1//forms//"]
    const server = await TestServer.start({ config: { rateLimit: spellings.length } })
    try {
      for (const path of spellings) expect((await rawGet(server, path, bearer(TestServer.keys.alice))).status, path).toBe(200)
      for (const path of [...spellings, "/v1/forms"]) {
        const limited = await rawGet(server, path, bearer(TestServer.keys.alice))
        expect(limited.status, path).toBe(429)
        expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1)
      }
      // A conversion route spelled oddly still answers in its own shape.
      const conversion = await rawGet(server, "//V1/forms/convert/job_x/status", bearer(TestServer.keys.alice))
      expect(conversion.status).toBe(429)
      expect(Object.keys(JSON.parse(conversion.body))).toEqual(["error_message"])
    } finally {
      await server.stop()
    }
  })

  it("counts the user the valid key belongs to, not a junk bearer sent beside it", async () => {
    const server = await TestServer.start({ config: { rateLimit: 2, authFailureLimit: 1 } })
    try {
      const mixed = { authorization: "Bearer xyz-junk", "x-api-key": TestServer.keys.alice }
      expect((await rawGet(server, "/v1/forms", mixed)).status).toBe(200)
      // A fresh junk bearer each time: still alice's requests, and not failed authentications.
      expect((await rawGet(server, "/v1/forms", { ...mixed, authorization: "Bearer other-junk" })).status).toBe(200)
      const limited = await rawGet(server, "/v1/forms", bearer(TestServer.keys.alice))
      expect(limited.status).toBe(429)
      const mixedLimited = await rawGet(server, "/v1/forms", { ...mixed, authorization: "Bearer third-junk" })
      expect(mixedLimited.status).toBe(429)
      expect((await rawGet(server, "/v1/forms", bearer(TestServer.keys.bob))).status).toBe(200)
    } finally {
      await server.stop()
    }
  })
})

describe("failed authentications per address", () => {
  it("is on without any setting: the default is 20 a minute", () => {
    expect(RateLimit.defaultAuthFailuresPerMinute).toBe(20)
    const config = defaultConfig("/tmp/x")
    // The test server turns it off by default (Auth.test.ts sends hundreds of bad keys).
    expect(config.authFailureLimit).toBe(0)
  })

  describe("with a limit of 3 a minute", () => {
    let server: TestServer.TestServer
    beforeAll(async () => {
      server = await TestServer.start({ config: { authFailureLimit: 3 } })
    })
    afterAll(() => server.stop())

    it("answers 401 to the first 3 failures, then 429 with Retry-After, on every keyed route, valid key or not", async () => {
      for (const headers of [{}, bearer("wrong-key-1"), { "x-api-key": "wrong-key-2" }] as Array<Record<string, string>>) {
        expect((await rawGet(server, "/v1/forms", headers)).status).toBe(401)
      }
      const limited = await rawGet(server, "/v1/forms", bearer("wrong-key-3"))
      expect(limited.status).toBe(429)
      // 3 a minute: a token every 20 s.
      expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1)
      expect(Number(limited.headers["retry-after"])).toBeLessThanOrEqual(20)
      expect(JSON.parse(limited.body)).toMatchObject({ object: "error", error_message: expect.stringMatching(/too many requests/i) })
      // A valid key from this address is not even looked at until the budget refills.
      expect((await rawGet(server, "/v1/forms", bearer(TestServer.keys.alice))).status).toBe(429)
      expect((await rawGet(server, "//V1/profiles", bearer(TestServer.keys.alice))).status).toBe(429)
      const conversion = await rawGet(server, "/v1/utils/convert/job_x/status", {})
      expect(conversion.status).toBe(429)
      expect(Object.keys(JSON.parse(conversion.body))).toEqual(["error_message"])
      // Operations routes stay open.
      expect((await rawGet(server, "/health", {})).status).toBe(200)
      expect((await rawGet(server, "/openapi.json", {})).status).toBe(200)
    })

    it("another address is not affected", async () => {
      expect((await rawGet(server, "/v1/forms", bearer(TestServer.keys.alice), "127.0.0.2")).status).toBe(200)
      expect((await rawGet(server, "/v1/forms", bearer("wrong"), "127.0.0.2")).status).toBe(401)
    })

    it("X-Forwarded-For is ignored without FORMWRIGHT_TRUST_PROXY: a client cannot pose as another address", async () => {
      const spoofed = await rawGet(server, "/v1/forms", { ...bearer(TestServer.keys.alice), "x-forwarded-for": "203.0.113.9" })
      expect(spoofed.status).toBe(429)
    })
  })

  it("behind a trusted proxy, counts the address the proxy appended to X-Forwarded-For", async () => {
    const server = await TestServer.start({ config: { authFailureLimit: 1, trustProxy: true } })
    try {
      const from = (address: string, extra: Record<string, string> = {}) => ({ "x-forwarded-for": address, ...extra })
      expect((await rawGet(server, "/v1/forms", from("198.51.100.1"))).status).toBe(401)
      expect((await rawGet(server, "/v1/forms", from("198.51.100.1", bearer(TestServer.keys.alice)))).status).toBe(429)
      // Earlier entries are whatever the client sent; the last one is the proxy's.
      expect((await rawGet(server, "/v1/forms", from("10.9.9.9, 198.51.100.1", bearer(TestServer.keys.alice)))).status).toBe(429)
      expect((await rawGet(server, "/v1/forms", from("198.51.100.2", bearer(TestServer.keys.alice)))).status).toBe(200)
    } finally {
      await server.stop()
    }
  })
})
