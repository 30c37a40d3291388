/**
 * Shared rate limits against a real PostgreSQL (test/support/PgTestServer.ts): two limiters with
 * pools of their own (as two servers would have) count one client's requests together, take no
 * token twice under concurrent requests, and tell the same wait.
 */
import { Effect, Exit, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { PgRateLimiter } from "../src/index.ts"
import * as PgTestServer from "./support/PgTestServer.ts"

const server = PgTestServer.server()

if (typeof server === "string") {
  describe.skip(`shared rate limits (${server})`, () => {
    it("needs PostgreSQL", () => {})
  })
} else {
  const { url } = server
  const schema = PgTestServer.freshSchema("rate_limits")
  const scope = Effect.runSync(Scope.make())
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await PgTestServer.dropSchema(url, schema)
  })

  /** One "server"'s limiters: a pool of its own on the shared schema. */
  const startServer = () => Effect.runPromise(PgRateLimiter.makeWithPool({ url, schema }).pipe(Scope.provide(scope)))

  describe("shared rate limits", { timeout: 60_000 }, () => {
    it("two servers count one client's requests together", async () => {
      const [a, b] = await Promise.all([startServer(), startServer()])
      const onA = a("requests", 5)
      const onB = b("requests", 5)
      const taken: Array<number | undefined> = []
      for (const limiter of [onA, onB, onA, onB, onA]) taken.push(await Effect.runPromise(limiter.take("user:alice")))
      expect(taken).toEqual([undefined, undefined, undefined, undefined, undefined])
      // The sixth, on either server, waits for the next token: 60 s / 5.
      expect(await Effect.runPromise(onB.take("user:alice"))).toBe(12)
      expect(await Effect.runPromise(onA.wait("user:alice"))).toBe(12)
      // Another client, and another limit for the same client, have their own buckets.
      expect(await Effect.runPromise(onA.take("user:bob"))).toBeUndefined()
      expect(await Effect.runPromise(a("auth-failures", 5).take("user:alice"))).toBeUndefined()
      expect(await Effect.runPromise(onB.wait("user:carol"))).toBeUndefined()
    })

    it("concurrent requests through both take each token once", async () => {
      const [a, b] = await Promise.all([startServer(), startServer()])
      const limiters = [a("burst", 10), b("burst", 10)]
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => Effect.runPromise(limiters[i % 2]!.take("address:10.0.0.1")))
      )
      expect(answers.filter((answer) => answer === undefined)).toHaveLength(10)
      expect(answers.filter((answer) => answer !== undefined).every((wait) => wait === 6)).toBe(true)
    })
  })
}
