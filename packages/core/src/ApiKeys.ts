/**
 * API keys: random secrets given to a user once, stored only as SHA-256 hashes.
 * A key is 32 random bytes (base64url), so a plain hash is as strong as a slow one here;
 * lookup is by hash, and the stored hash is compared in constant time all the same.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import * as Hex from "./Hex.ts"
import * as Id from "./Id.ts"
import * as Storage from "./Storage.ts"

export const ApiKeyRecord = Schema.Struct({
  id: Schema.String,
  user_id: Id.UserId,
  hash: Schema.String,
  created: Schema.String,
  /** Seeded from configuration rather than issued by the CLI. */
  seeded: Schema.Boolean,
  /** When the key was revoked (ISO 8601); a revoked key authenticates no one. Kept, not deleted, so `list` can say so. */
  revoked: Schema.optionalKey(Schema.String)
})
export type ApiKeyRecord = typeof ApiKeyRecord.Type

export interface IssuedKey {
  readonly id: string
  readonly userId: Id.UserId
  /** The secret: shown once, never stored. */
  readonly key: string
}

export interface ApiKeysShape {
  /** Issues a new random key for a user. */
  readonly create: (userId: string) => Effect.Effect<IssuedKey, Storage.StorageError>
  /** Stores a key chosen in configuration (development seeding). Idempotent. */
  readonly seed: (userId: string, key: string) => Effect.Effect<void, Storage.StorageError>
  /** The user behind a key, if it is one we issued. */
  readonly authenticate: (key: string) => Effect.Effect<Option.Option<Id.UserId>, Storage.StorageError>
  /** Every key on record, oldest first, without its hash (the secret itself is never stored). */
  readonly list: () => Effect.Effect<ReadonlyArray<KeySummary>, Storage.StorageError>
  /** Marks a key revoked; the summary as it now stands, `ApiKeyNotFound` for an id we never issued. */
  readonly revoke: (id: string) => Effect.Effect<KeySummary, Storage.StorageError | ApiKeyNotFound>
}

/** What may be shown of a key: never its secret, nor the hash of it. */
export interface KeySummary {
  readonly id: string
  readonly userId: Id.UserId
  readonly created: string
  readonly seeded: boolean
  readonly revoked: string | undefined
}

/** `revoke` of an id no key has. */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", { id: Schema.String }) {}

export class ApiKeys extends Context.Service<ApiKeys, ApiKeysShape>()("@formwright/core/ApiKeys") {}

const hash = (key: string) => Effect.promise(() => crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))).pipe(Effect.map(Hex.fromBytes))

const constantTimeEqual = (a: string, b: string) => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/** A new secret: `fw_` and 32 random bytes. */
export const generateKey = (): string => `fw_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`

/** Where the key records are kept (one per key, by digest). */
export const keyPrefix = "apikeys/"
const keyPath = (digest: string) => `${keyPrefix}${digest}`

const summaryOf = (record: ApiKeyRecord): KeySummary => ({
  id: record.id,
  userId: record.user_id,
  created: record.created,
  seeded: record.seeded,
  revoked: record.revoked
})

export const layer: Layer.Layer<ApiKeys, never, Storage.Storage> = Layer.effect(
  ApiKeys,
  Effect.gen(function*() {
    const storage = yield* Storage.Storage

    const store = (userId: string, key: string, seeded: boolean) =>
      Effect.gen(function*() {
        const digest = yield* hash(key)
        const record: ApiKeyRecord = {
          id: Id.make("apiKey"),
          user_id: Id.UserId.make(userId),
          hash: digest,
          created: new Date().toISOString(),
          seeded
        }
        yield* storage.putJson(ApiKeyRecord, keyPath(digest), record)
        return record
      })

    return ApiKeys.of({
      create: Effect.fn("ApiKeys.create")(function*(userId) {
        const key = generateKey()
        const record = yield* store(userId, key, false)
        return { id: record.id, userId: record.user_id, key }
      }),
      seed: Effect.fn("ApiKeys.seed")(function*(userId, key) {
        const digest = yield* hash(key)
        const existing = yield* storage.getJson(ApiKeyRecord, keyPath(digest))
        if (Option.isSome(existing) && existing.value.value.user_id === userId) return
        yield* store(userId, key, true)
      }),
      authenticate: Effect.fn("ApiKeys.authenticate")(function*(key) {
        if (key.length === 0 || key.length > 512) return Option.none()
        const digest = yield* hash(key)
        const found = yield* storage.getJson(ApiKeyRecord, keyPath(digest))
        return Option.filter(Option.map(found, (f) => f.value), (r) => constantTimeEqual(r.hash, digest) && r.revoked === undefined).pipe(
          Option.map((r) => r.user_id)
        )
      }),
      list: Effect.fn("ApiKeys.list")(function*() {
        const records = yield* storage.listJson(ApiKeyRecord, keyPrefix)
        return records.map((r) => summaryOf(r.value)).sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id))
      }),
      revoke: Effect.fn("ApiKeys.revoke")(function*(id) {
        // Records are filed by hash, so the id is found by reading them all: keys are few, and
        // revoking is rare next to authenticating, which must stay one read.
        const records = yield* storage.listJson(ApiKeyRecord, keyPrefix)
        const found = records.find((r) => r.value.id === id)
        if (found === undefined) return yield* new ApiKeyNotFound({ id })
        const updated = yield* storage.updateJson(ApiKeyRecord, found.key, (current) =>
          Effect.succeed(current.revoked === undefined ? { ...current, revoked: new Date().toISOString() } : current))
        // Gone between the listing and the update (deleted by hand): as good as never issued.
        if (Option.isNone(updated)) return yield* new ApiKeyNotFound({ id })
        return summaryOf(updated.value)
      })
    })
  })
)
