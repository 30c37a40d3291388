/**
 * ApiKeys `list` and `revoke`: what a listing shows (never the secret nor its hash), a revoked key
 * authenticating no one while the others still do, and a seeded key staying revoked when the
 * server seeds it again at its next start.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as ApiKeys from "../src/ApiKeys.ts"
import { MemoryStorage } from "@formwright/testing"

const keysLayer = ApiKeys.layer.pipe(Layer.provide(MemoryStorage.layer))

describe("ApiKeys list and revoke", () => {
  it.live("lists every key oldest first without its secret; a revoked key authenticates no one", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      const carol = yield* keys.create("carol")
      yield* Effect.sleep("2 millis")
      const dave = yield* keys.create("dave")
      const listed = yield* keys.list()
      expect(listed.map((k) => [k.id, k.userId, k.revoked])).toEqual([[carol.id, "carol", undefined], [dave.id, "dave", undefined]])
      expect(JSON.stringify(listed)).not.toContain(carol.key)
      expect(Object.keys(listed[0]!).sort()).toEqual(["created", "id", "revoked", "seeded", "userId"])

      const revoked = yield* keys.revoke(carol.id)
      expect(revoked.revoked).toMatch(/^\d{4}-\d{2}-\d{2}T/)
      expect(yield* keys.authenticate(carol.key)).toEqual(Option.none())
      expect(yield* keys.authenticate(dave.key)).toEqual(Option.some("dave"))
      // Revoking again keeps the first time.
      expect((yield* keys.revoke(carol.id)).revoked).toBe(revoked.revoked)
      expect((yield* keys.list()).map((k) => k.revoked)).toEqual([revoked.revoked, undefined])

      const unknown = yield* Effect.flip(keys.revoke("key_unknown"))
      expect(unknown).toBeInstanceOf(ApiKeys.ApiKeyNotFound)
    }).pipe(Effect.provide(keysLayer)))

  it.live("a seeded key revoked stays revoked when it is seeded again", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      yield* keys.seed("erin", "erin-seeded-key-0001")
      const [seeded] = yield* keys.list()
      expect(seeded!.seeded).toBe(true)
      yield* keys.revoke(seeded!.id)
      yield* keys.seed("erin", "erin-seeded-key-0001")
      expect(yield* keys.authenticate("erin-seeded-key-0001")).toEqual(Option.none())
    }).pipe(Effect.provide(keysLayer)))
})
