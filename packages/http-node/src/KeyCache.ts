/**
 * API key lookups remembered for a few seconds, so that a request does not read the key record
 * from storage every time. The bound is what a revocation costs: a key revoked in storage (by
 * `formwright keys revoke`, or by any server on the same bucket) stops working on every running
 * server within `foundTtlMs`, well inside the 5 s the CLI promises. A key that was not found is
 * remembered for `missingTtlMs` only, and a failed lookup (storage down) not at all. Keys are
 * random secrets, so no one can send a key before it is issued: a new key works at once.
 *
 * Entries are keyed by the key's SHA-256, never by the key itself, and at most `capacity` are
 * kept (least recently used go first), so a stream of made-up keys cannot grow the memory.
 */
import { Cache, Duration, Effect, Equal, Exit, Hash, Option } from "effect"
import type { ApiKeys, Id, Storage } from "@formwright/core"
import { createHash } from "node:crypto"

export interface Options {
  /** How long a key that was found is believed (the revocation bound); at most 5 s. */
  readonly foundTtlMs: number
  /** How long a key that was not found stays refused without asking storage again. */
  readonly missingTtlMs: number
  /** Most keys remembered. */
  readonly capacity: number
}

export const defaults: Options = { foundTtlMs: 3_000, missingTtlMs: 1_000, capacity: 10_000 }

/** The cache's key: equal by digest; it carries the key itself only for the storage lookup. */
class Lookup implements Equal.Equal {
  readonly digest: string
  readonly key: string
  constructor(digest: string, key: string) {
    this.digest = digest
    this.key = key
  }
  [Equal.symbol](that: Equal.Equal): boolean {
    return that instanceof Lookup && that.digest === this.digest
  }
  [Hash.symbol](): number {
    return Hash.string(this.digest)
  }
}

export interface KeyCache {
  /** The user behind a key, as `ApiKeys.authenticate` answers, from memory when recent enough. */
  readonly authenticate: (key: string) => Effect.Effect<Option.Option<Id.UserId>, Storage.StorageError>
}

export const make = (keys: ApiKeys.ApiKeysShape, options: Partial<Options> = {}): Effect.Effect<KeyCache> => {
  const { capacity, foundTtlMs, missingTtlMs } = { ...defaults, ...options }
  if (foundTtlMs > 5_000 || missingTtlMs > 5_000) return Effect.die(new Error("API key lookups may be remembered for 5 s at most"))
  return Effect.map(
    Cache.makeWith((lookup: Lookup) => keys.authenticate(lookup.key), {
      capacity,
      timeToLive: (exit) =>
        Exit.isFailure(exit)
          ? Duration.zero
          : Duration.millis(Option.isSome(exit.value) ? foundTtlMs : missingTtlMs)
    }),
    (cache): KeyCache => ({
      authenticate: (key) => Cache.get(cache, new Lookup(createHash("sha256").update(key).digest("hex"), key))
    })
  )
}
