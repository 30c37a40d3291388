import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import { describe, expect, it } from "vitest"
import * as RateLimit from "../src/handlers/RateLimit.ts"

const request = (headers: Record<string, string>, address = "10.0.0.1") =>
  ({ headers, remoteAddress: Option.some(address) }) as unknown as HttpServerRequest.HttpServerRequest

describe("RateLimit", () => {
  it("allows bursts up to the limit per client, then says how long to wait, and refills", () => {
    let now = 0
    const limiter = RateLimit.make(3, () => now)
    const alice = request({ authorization: "Bearer a" })
    expect([limiter.take(alice), limiter.take(alice), limiter.take(alice)]).toEqual([undefined, undefined, undefined])
    expect(limiter.take(alice)).toBe(20)
    // Another key has its own bucket; the same key sent as x-api-key shares alice's.
    expect(limiter.take(request({ "x-api-key": "b" }))).toBeUndefined()
    expect(limiter.take(request({ "x-api-key": "a" }))).toBe(20)
    now += 20_000
    expect(limiter.take(alice)).toBeUndefined()
    expect(limiter.take(alice)).toBe(20)
  })

  it("counts requests without a key by address", () => {
    const limiter = RateLimit.make(1, () => 0)
    expect(limiter.take(request({}, "10.0.0.1"))).toBeUndefined()
    expect(limiter.take(request({}, "10.0.0.1"))).toBe(60)
    expect(limiter.take(request({}, "10.0.0.2"))).toBeUndefined()
  })
})

describe("FORMWRIGHT_RATE_LIMIT over HTTP", () => {
  it("answers 429 with Retry-After in each route family's error shape, per key", async () => {
    const { start, keys } = await import("./support/TestServer.ts")
    const server = await start({ config: { rateLimit: 2 } })
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
      // Bob's key has its own allowance; /health is never limited.
      expect((await server.call("/v1/forms", { key: keys.bob })).status).toBe(200)
      expect((await server.call("/health", { key: null })).status).toBe(200)
    } finally {
      await server.stop()
    }
  })
})
