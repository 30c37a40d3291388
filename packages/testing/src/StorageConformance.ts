/**
 * The Storage conformance suite: what every Storage adapter must do, registered as
 * `@effect/vitest` tests so any adapter (ours or a third party's) runs it in one line:
 *
 * ```ts
 * // test/MyStorage.test.ts
 * import { StorageConformance } from "@formwright/testing"
 * import { MyStorage } from "../src/index.ts"
 *
 * StorageConformance.run("my-storage", { layer: MyStorage.layer({ bucket: "test" }) })
 * ```
 *
 * The layer is built once per run and shared by every test. Each test works under its own
 * key prefix, unique per run, and deletes what it wrote, so the suite can run again and again
 * against a shared store (a real bucket) and alongside other runs.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Option, Result, Schema, Stream } from "effect"
import { Storage } from "@formwright/core"
import * as Crypto from "node:crypto"

/** How to run the suite against one adapter. */
export interface Options {
  /** Provides the adapter under test as the Storage service. */
  readonly layer: Layer.Layer<Storage.Storage, unknown>
  /** Capabilities the adapter must report (checked); omitted flags are not checked. */
  readonly capabilities?: Partial<Storage.Capabilities> | undefined
  /** Root under which each run writes, for stores shared with other data (default `formwright-conformance`). */
  readonly prefix?: string | undefined
  /** Size of the large-blob round trip in bytes (default 20 MB). */
  readonly largeBlobBytes?: number | undefined
  /** Size of the streamed blob round trip in bytes (default 64 MB); the test never holds it whole. */
  readonly largeStreamBytes?: number | undefined
  /**
   * Bytes a failing or interrupted stream upload sends before it stops (default 12 MB): make it
   * more than one part of a multipart upload, so the clean-up of uploaded parts is what is tested.
   */
  readonly abandonedUploadBytes?: number | undefined
  /** Concurrent writers in the contention tests (default 16). */
  readonly writers?: number | undefined
  /** Per-test timeout in ms (default 60 s). */
  readonly timeout?: number | undefined
}

const Counter = Schema.Struct({ n: Schema.Number })

const Note = Schema.Struct({ title: Schema.String, tags: Schema.Array(Schema.String) })

/** A document whose stored form differs from its value: the count is written as text. */
const Tally = Schema.Struct({ title: Schema.String, count: Schema.NumberFromString })

const bytesOf = (text: string) => new TextEncoder().encode(text)

const textOf = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** Compared by hand: a failing deep-equality diff of 20 MB would take longer than the test. */
const sameBytes = (actual: Uint8Array, expected: Uint8Array): boolean => {
  if (actual.byteLength !== expected.byteLength) return false
  for (let i = 0; i < actual.byteLength; i++) if (actual[i] !== expected[i]) return false
  return true
}

/** Pseudo-random bytes (xorshift): incompressible enough that no layer can cheat, yet reproducible. */
const noise = (size: number, seed: number): Uint8Array => {
  const bytes = new Uint8Array(size)
  let x = seed | 0 || 1
  for (let i = 0; i < size; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    bytes[i] = x & 0xff
  }
  return bytes
}

const streamChunkBytes = 1024 * 1024

/**
 * `size` bytes of noise as a stream of 1 MB chunks (the last may be shorter), made one chunk at
 * a time as the consumer pulls, so a large stream never exists whole.
 */
const noiseStream = (size: number, seed: number): Stream.Stream<Uint8Array> =>
  Stream.unfold(0, (at) =>
    Effect.sync(() => at >= size ? undefined : [noise(Math.min(streamChunkBytes, size - at), seed + at), at + streamChunkBytes] as const))

/** The SHA-256 of a stream, folded chunk by chunk, and its length. */
const digestStream = <E, R>(stream: Stream.Stream<Uint8Array, E, R>) =>
  Effect.map(
    Stream.runFold(stream, () => ({ hash: Crypto.createHash("sha256"), bytes: 0 }), (state, chunk) => {
      state.hash.update(chunk)
      state.bytes += chunk.byteLength
      return state
    }),
    (state) => ({ sha256: state.hash.digest("hex"), bytes: state.bytes })
  )

/** The input's own failure in the upload tests: it must come back as it was. */
class InputBroke extends Schema.TaggedError<InputBroke>()("InputBroke", {}) {}

/** Code-point order: the key order every adapter lists in. */
const byKey = (a: string, b: string) => {
  const x = Array.from(a)
  const y = Array.from(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return x.length - y.length
}

const sorted = (keys: ReadonlyArray<string>) => [...keys].sort(byKey)

const expectConflict = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(effect)
    assert.strictEqual((error as { _tag?: string })._tag, "StorageConflict", `expected a StorageConflict, got ${String(error)}`)
  })

/** Every page of a listing, so tests can check page sizes and cursors. */
const allPages = <A>(list: (options: Storage.ListOptions) => Effect.Effect<Storage.Page<A>, Storage.StorageError>, limit: number) =>
  Effect.gen(function*() {
    const pages: Array<ReadonlyArray<A>> = []
    let cursor: string | undefined
    do {
      const page = yield* list({ cursor, limit })
      assert.isAtMost(page.items.length, limit, "a page holds at most `limit` items")
      pages.push(page.items)
      cursor = page.cursor
      if (pages.length > 1000) assert.fail("listing never ended")
    } while (cursor !== undefined)
    return pages
  })

const documentKeys = (storage: Storage.StorageShape, prefix: string) =>
  Effect.map(allPages((options) => storage.listDocuments(prefix, options), 1000), (pages) => pages.flat().map((item) => item.key))

/** Best effort: a failure here must not hide the test's own result. */
const cleanUp = (storage: Storage.StorageShape, prefix: string) =>
  Effect.gen(function*() {
    yield* Effect.forEach(yield* storage.listAllBlobs(prefix), storage.deleteBlob, { concurrency: 8, discard: true })
    yield* Effect.forEach(yield* documentKeys(storage, prefix), (key) => storage.deleteDocument(key, "any"), { concurrency: 8, discard: true })
  }).pipe(Effect.ignore)

/**
 * Registers the conformance tests for one adapter under `Storage conformance: <name>`.
 * Call it at the top level of a test file.
 */
export const run = (name: string, options: Options): void => {
  const runId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
  const root = `${options.prefix ?? "formwright-conformance"}/${runId}`
  const largeBlobBytes = options.largeBlobBytes ?? 20 * 1024 * 1024
  const largeStreamBytes = options.largeStreamBytes ?? 64 * 1024 * 1024
  const abandonedUploadBytes = options.abandonedUploadBytes ?? 12 * 1024 * 1024
  const writers = options.writers ?? 16
  const timeout = options.timeout ?? 60_000
  let tests = 0

  // Live services: updateJson backs off with real sleeps, which a TestClock would never wake.
  layer(options.layer, { excludeTestServices: true, timeout })(`Storage conformance: ${name}`, (it) => {
    /** A test with its own key prefix, emptied afterwards. */
    const scenario = (title: string, body: (storage: Storage.StorageShape, prefix: string) => Effect.Effect<void, unknown>) => {
      const prefix = `${root}/t${String(++tests).padStart(2, "0")}/`
      it.effect(title, () =>
        Effect.gen(function*() {
          const storage = yield* Storage.Storage
          yield* body(storage, prefix).pipe(Effect.ensuring(cleanUp(storage, prefix)))
        }), timeout)
    }

    scenario("reports its capabilities", (storage) =>
      Effect.sync(() => {
        assert.isBoolean(storage.capabilities.crossProcessConsistency)
        for (const [flag, expected] of Object.entries(options.capabilities ?? {})) {
          assert.strictEqual(storage.capabilities[flag as keyof Storage.Capabilities], expected, `capability ${flag}`)
        }
      }))

    describe("blobs", () => {
      scenario("put then get returns the bytes; put again overwrites", (storage, p) =>
        Effect.gen(function*() {
          assert.isTrue(Option.isNone(yield* storage.getBlob(`${p}file`)), "missing blob is none")
          yield* storage.putBlob(`${p}file`, bytesOf("first"), { contentType: "text/plain" })
          assert.strictEqual(textOf(Option.getOrThrow(yield* storage.getBlob(`${p}file`))), "first")
          yield* storage.putBlob(`${p}file`, bytesOf("second, longer than the first"))
          assert.strictEqual(textOf(Option.getOrThrow(yield* storage.getBlob(`${p}file`))), "second, longer than the first")
          yield* storage.putBlob(`${p}empty`, new Uint8Array(0))
          assert.strictEqual(Option.getOrThrow(yield* storage.getBlob(`${p}empty`)).byteLength, 0, "empty blob is stored")
        }))

      scenario("stored bytes do not change when the caller's buffer does", (storage, p) =>
        Effect.gen(function*() {
          const bytes = bytesOf("original")
          yield* storage.putBlob(`${p}file`, bytes)
          bytes.fill(0)
          const read = Option.getOrThrow(yield* storage.getBlob(`${p}file`))
          assert.strictEqual(textOf(read), "original")
          read.fill(0)
          assert.strictEqual(textOf(Option.getOrThrow(yield* storage.getBlob(`${p}file`))), "original")
        }))

      scenario("delete removes a blob; deleting a missing blob succeeds", (storage, p) =>
        Effect.gen(function*() {
          yield* storage.putBlob(`${p}file`, bytesOf("x"))
          yield* storage.deleteBlob(`${p}file`)
          assert.isTrue(Option.isNone(yield* storage.getBlob(`${p}file`)))
          yield* storage.deleteBlob(`${p}file`)
          yield* storage.deleteBlob(`${p}never/written`)
          assert.deepStrictEqual(yield* storage.listAllBlobs(p), [])
        }))

      scenario("all 256 byte values round-trip", (storage, p) =>
        Effect.gen(function*() {
          const bytes = new Uint8Array(512).map((_, i) => i % 256).reverse()
          yield* storage.putBlob(`${p}binary`, bytes)
          assert.isTrue(sameBytes(Option.getOrThrow(yield* storage.getBlob(`${p}binary`)), bytes))
        }))

      scenario(`a ${Math.round(largeBlobBytes / 1024 / 1024)} MB blob round-trips byte-exact`, (storage, p) =>
        Effect.gen(function*() {
          const bytes = noise(largeBlobBytes, 42)
          yield* storage.putBlob(`${p}large`, bytes)
          const read = Option.getOrThrow(yield* storage.getBlob(`${p}large`))
          assert.strictEqual(read.byteLength, bytes.byteLength)
          assert.isTrue(sameBytes(read, bytes), "large blob content differs")
        }))

      scenario("list by prefix pages through every key once, in key order", (storage, p) =>
        Effect.gen(function*() {
          const keys = Array.from({ length: 25 }, (_, i) => `${p}list/${String(i).padStart(2, "0")}`)
          yield* Effect.forEach(keys, (key) => storage.putBlob(key, bytesOf(key)), { concurrency: 8, discard: true })
          yield* storage.putBlob(`${p}listing`, bytesOf("shares the string prefix, not the folder"))
          yield* storage.putBlob(`${p}other/00`, bytesOf("outside"))

          const pages = yield* allPages((options) => storage.listBlobs(`${p}list/`, options), 10)
          assert.deepStrictEqual(pages.map((page) => page.length), [10, 10, 5])
          assert.deepStrictEqual(pages.flat(), keys)
          assert.deepStrictEqual(yield* storage.listAllBlobs(`${p}list/`), keys)
          // A prefix is a string prefix, not a folder: it may end inside a segment.
          assert.deepStrictEqual(yield* storage.listAllBlobs(`${p}list`), [...keys, `${p}listing`])
          assert.deepStrictEqual(yield* storage.listAllBlobs(`${p}nothing/`), [])
        }))

      scenario("listing is recursive and in code-point order across nesting", (storage, p) =>
        Effect.gen(function*() {
          const keys = [`${p}a`, `${p}a/b`, `${p}a/b/c`, `${p}a-b`, `${p}a.b`, `${p}a0`, `${p}B`, `${p}a/b-c`]
          yield* Effect.forEach(keys, (key) => storage.putBlob(key, bytesOf(key)), { discard: true })
          const pages = yield* allPages((options) => storage.listBlobs(p, options), 1)
          assert.deepStrictEqual(pages.flat(), sorted(keys))
          assert.deepStrictEqual(yield* storage.listAllBlobs(`${p}a/`), sorted([`${p}a/b`, `${p}a/b/c`, `${p}a/b-c`]))
        }))
    })

    describe("streams", () => {
      scenario("putBlobStream then getBlobStream round-trips chunks of any size; a missing blob is none", (storage, p) =>
        Effect.gen(function*() {
          assert.isTrue(Option.isNone(yield* storage.getBlobStream(`${p}missing`)), "missing blob streams as none")
          const parts = [bytesOf("a"), new Uint8Array(0), noise(70_000, 7), bytesOf("tail")]
          yield* storage.putBlobStream(`${p}streamed`, Stream.fromIterable(parts), { contentType: "application/pdf" })
          const expected = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0))
          parts.reduce((at, part) => (expected.set(part, at), at + part.byteLength), 0)
          const chunks = yield* Stream.runCollect(Option.getOrThrow(yield* storage.getBlobStream(`${p}streamed`)))
          const read = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.byteLength, 0))
          chunks.reduce((at, chunk) => (read.set(chunk, at), at + chunk.byteLength), 0)
          assert.isTrue(sameBytes(read, expected), "streamed blob content differs")
          // The two ways in and out see the same blob.
          assert.isTrue(sameBytes(Option.getOrThrow(yield* storage.getBlob(`${p}streamed`)), expected))
          yield* storage.putBlob(`${p}plain`, bytesOf("plain bytes"))
          const plain = yield* Stream.runCollect(Option.getOrThrow(yield* storage.getBlobStream(`${p}plain`)))
          assert.strictEqual(plain.map(textOf).join(""), "plain bytes")
          yield* storage.putBlobStream(`${p}empty`, Stream.empty)
          assert.strictEqual(Option.getOrThrow(yield* storage.getBlob(`${p}empty`)).byteLength, 0, "an empty stream stores an empty blob")
          assert.deepStrictEqual(yield* storage.listAllBlobs(p), [`${p}empty`, `${p}plain`, `${p}streamed`])
        }))

      scenario(`a ${Math.round(largeStreamBytes / 1024 / 1024)} MB blob streams in and out byte-exact`, (storage, p) =>
        Effect.gen(function*() {
          const expected = yield* digestStream(noiseStream(largeStreamBytes, 99))
          yield* storage.putBlobStream(`${p}large`, noiseStream(largeStreamBytes, 99), { contentType: "application/pdf" })
          const read = yield* digestStream(Option.getOrThrow(yield* storage.getBlobStream(`${p}large`)))
          assert.deepStrictEqual(read, expected, "streamed large blob differs")
        }))

      scenario("a stream upload that fails leaves the previous blob, or none, and keeps the input's error", (storage, p) =>
        Effect.gen(function*() {
          const breaking = noiseStream(abandonedUploadBytes, 5).pipe(Stream.concat(Stream.fail(new InputBroke())))
          yield* storage.putBlob(`${p}existing`, bytesOf("previous content"))
          const error = yield* Effect.flip(storage.putBlobStream(`${p}existing`, breaking))
          assert.strictEqual((error as { _tag?: string })._tag, "InputBroke", `the input's failure comes back, got ${String(error)}`)
          assert.strictEqual(textOf(Option.getOrThrow(yield* storage.getBlob(`${p}existing`))), "previous content")
          const fresh = yield* Effect.flip(storage.putBlobStream(`${p}fresh`, breaking))
          assert.strictEqual((fresh as { _tag?: string })._tag, "InputBroke")
          assert.isTrue(Option.isNone(yield* storage.getBlob(`${p}fresh`)), "no half-written blob is visible")
          assert.deepStrictEqual(yield* storage.listAllBlobs(p), [`${p}existing`])
        }))

      scenario("an interrupted stream upload leaves the previous blob, or none", (storage, p) =>
        Effect.gen(function*() {
          yield* storage.putBlob(`${p}existing`, bytesOf("previous content"))
          for (const key of [`${p}existing`, `${p}fresh`]) {
            const halfway = yield* Deferred.make<void>()
            let sent = 0
            const endless = noiseStream(abandonedUploadBytes, 6).pipe(
              Stream.tap((chunk) =>
                Effect.suspend(() => (sent += chunk.byteLength) >= abandonedUploadBytes ? Deferred.succeed(halfway, undefined) : Effect.void)),
              Stream.concat(Stream.never)
            )
            const fiber = yield* Effect.forkChild(storage.putBlobStream(key, endless))
            yield* Deferred.await(halfway)
            // Let the adapter act on what it has (send parts) before the interruption.
            yield* Effect.sleep(200)
            yield* Fiber.interrupt(fiber)
          }
          assert.strictEqual(textOf(Option.getOrThrow(yield* storage.getBlob(`${p}existing`))), "previous content")
          assert.isTrue(Option.isNone(yield* storage.getBlob(`${p}fresh`)), "no half-written blob is visible")
          assert.deepStrictEqual(yield* storage.listAllBlobs(p), [`${p}existing`])
        }))
    })

    describe("documents", () => {
      scenario("get of a missing document is none", (storage, p) =>
        Effect.gen(function*() {
          assert.isTrue(Option.isNone(yield* storage.getDocument(`${p}missing`)))
          assert.isTrue(Option.isNone(yield* storage.getJson(Counter, `${p}missing`)))
        }))

      scenario("typed documents are stored in their encoded form and read back as values", (storage, p) =>
        Effect.gen(function*() {
          yield* storage.putJson(Note, `${p}note`, { title: "a", tags: ["x"] })
          assert.strictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}note`)).value, `{"title":"a","tags":["x"]}`)
          yield* storage.putJson(Tally, `${p}tally`, { title: "b", count: 3 })
          assert.strictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}tally`)).value, `{"title":"b","count":"3"}`)
          assert.deepStrictEqual(Option.getOrThrow(yield* storage.getJson(Tally, `${p}tally`)).value, { title: "b", count: 3 })
        }))

      scenario("create when absent, then create again is a conflict", (storage, p) =>
        Effect.gen(function*() {
          const version = yield* storage.putDocument(`${p}doc`, `{"n":1}`, "absent")
          assert.deepStrictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}doc`)), { value: `{"n":1}`, version })
          yield* expectConflict(storage.putDocument(`${p}doc`, `{"n":2}`, "absent"))
          assert.strictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}doc`)).value, `{"n":1}`, "losing write left no trace")
        }))

      scenario("update with the current version succeeds and returns a new version", (storage, p) =>
        Effect.gen(function*() {
          const v1 = yield* storage.putDocument(`${p}doc`, `{"n":1}`, "absent")
          const v2 = yield* storage.putDocument(`${p}doc`, `{"n":2}`, { version: v1 })
          assert.notStrictEqual(v2, v1)
          assert.deepStrictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}doc`)), { value: `{"n":2}`, version: v2 })
          // The same content written again is still a new version: versions name writes, not values.
          const v3 = yield* storage.putDocument(`${p}doc`, `{"n":2}`, { version: v2 })
          assert.notStrictEqual(v3, v2)
          assert.notStrictEqual(v3, v1)
        }))

      scenario("update with a stale version is a conflict and changes nothing", (storage, p) =>
        Effect.gen(function*() {
          const v1 = yield* storage.putDocument(`${p}doc`, `{"n":1}`, "absent")
          const v2 = yield* storage.putDocument(`${p}doc`, `{"n":2}`, { version: v1 })
          yield* expectConflict(storage.putDocument(`${p}doc`, `{"n":3}`, { version: v1 }))
          assert.deepStrictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}doc`)), { value: `{"n":2}`, version: v2 })
          // An update of a document that does not exist cannot hold either.
          yield* expectConflict(storage.putDocument(`${p}missing`, `{"n":1}`, { version: v2 }))
          assert.isTrue(Option.isNone(yield* storage.getDocument(`${p}missing`)))
        }))

      scenario("delete: stale version conflicts, current version deletes, missing is false", (storage, p) =>
        Effect.gen(function*() {
          const v1 = yield* storage.putDocument(`${p}doc`, `{"n":1}`, "absent")
          const v2 = yield* storage.putDocument(`${p}doc`, `{"n":2}`, "any")
          yield* expectConflict(storage.deleteDocument(`${p}doc`, { version: v1 }))
          assert.isTrue(Option.isSome(yield* storage.getDocument(`${p}doc`)), "conflicting delete kept the document")
          assert.isTrue(yield* storage.deleteDocument(`${p}doc`, { version: v2 }))
          assert.isTrue(Option.isNone(yield* storage.getDocument(`${p}doc`)))
          assert.isFalse(yield* storage.deleteDocument(`${p}doc`, "any"))
          assert.isFalse(yield* storage.deleteDocument(`${p}doc`, { version: v2 }))
          assert.isFalse(yield* storage.deleteDocument(`${p}never`, "any"))
          // Deleted means absent: the key can be created again.
          yield* storage.putDocument(`${p}doc`, `{"n":3}`, "absent")
        }))

      scenario("unconditional put creates and overwrites", (storage, p) =>
        Effect.gen(function*() {
          const v1 = yield* storage.putDocument(`${p}doc`, `{"n":1}`, "any")
          const v2 = yield* storage.putDocument(`${p}doc`, `{"n":2}`, "any")
          assert.notStrictEqual(v1, v2)
          assert.deepStrictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}doc`)), { value: `{"n":2}`, version: v2 })
        }))

      scenario("the stored JSON text round-trips exactly", (storage, p) =>
        Effect.gen(function*() {
          const text = `{"text":"quotes \\" backslash \\\\ newline \\n tab \\t unicode \u00e9\u6587\ud83d\ude42","n":-1.5e-7,"nested":[null,true,{}]}`
          yield* storage.putDocument(`${p}doc`, text, "absent")
          assert.strictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}doc`)).value, text)
        }))

      scenario("list by prefix pages through every document once, with current versions", (storage, p) =>
        Effect.gen(function*() {
          const keys = Array.from({ length: 25 }, (_, i) => `${p}list/${String(i).padStart(2, "0")}`)
          const versions = yield* Effect.forEach(keys, (key, i) => storage.putDocument(key, JSON.stringify({ n: i }), "absent"), { concurrency: 8 })
          yield* storage.putDocument(`${p}listing`, `{"n":-1}`, "absent")
          yield* storage.putDocument(`${p}other/00`, `{"n":-2}`, "absent")

          const pages = yield* allPages((options) => storage.listDocuments(`${p}list/`, options), 10)
          assert.deepStrictEqual(pages.map((page) => page.length), [10, 10, 5])
          assert.deepStrictEqual(
            pages.flat(),
            keys.map((key, i) => ({ key, document: { value: JSON.stringify({ n: i }), version: versions[i]! } }))
          )
          assert.deepStrictEqual(yield* documentKeys(storage, `${p}list`), [...keys, `${p}listing`])
          assert.deepStrictEqual(yield* documentKeys(storage, `${p}nothing/`), [])
        }))

      scenario("blobs and documents are separate namespaces", (storage, p) =>
        Effect.gen(function*() {
          yield* storage.putBlob(`${p}same`, bytesOf("blob"))
          yield* storage.putDocument(`${p}same`, `"document"`, "absent")
          assert.strictEqual(textOf(Option.getOrThrow(yield* storage.getBlob(`${p}same`))), "blob")
          assert.strictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}same`)).value, `"document"`)
          assert.deepStrictEqual(yield* storage.listAllBlobs(p), [`${p}same`])
          yield* storage.deleteBlob(`${p}same`)
          assert.isTrue(Option.isSome(yield* storage.getDocument(`${p}same`)))
        }))

      scenario("typed helpers: createJson, getJson, updateJson, listJson", (storage, p) =>
        Effect.gen(function*() {
          const version = yield* storage.createJson(Note, `${p}notes/1`, { title: "first", tags: ["a"] })
          yield* expectConflict(storage.createJson(Note, `${p}notes/1`, { title: "again", tags: [] }))
          assert.deepStrictEqual(Option.getOrThrow(yield* storage.getJson(Note, `${p}notes/1`)), { value: { title: "first", tags: ["a"] }, version })
          const updated = yield* storage.updateJson(Note, `${p}notes/1`, (note) => Effect.succeed({ ...note, tags: [...note.tags, "b"] }))
          assert.deepStrictEqual(Option.getOrThrow(updated), { title: "first", tags: ["a", "b"] })
          yield* storage.putJson(Note, `${p}notes/2`, { title: "second", tags: [] })
          const listed = yield* storage.listJson(Note, `${p}notes/`)
          assert.deepStrictEqual(listed.map((item) => [item.key, item.value.title]), [[`${p}notes/1`, "first"], [`${p}notes/2`, "second"]])
          assert.isTrue(Option.isNone(yield* storage.updateJson(Note, `${p}notes/missing`, Effect.succeed)), "updateJson of a missing key is none")
          assert.isTrue(Option.isNone(yield* storage.getDocument(`${p}notes/missing`)), "updateJson did not create the key")
        }))
    })

    if (options.capabilities?.documentQueries === true) {
      describe("queries", () => {
        scenario("queryDocuments filters, orders newest first, pages and counts in one go", (storage, p) =>
          Effect.gen(function*() {
            const query = storage.queryDocuments!
            const scope = `${p}q/`
            const put = (id: string, value: unknown) => storage.putDocument(`${scope}${id}`, JSON.stringify(value), "any")
            yield* put("a", { name: "Zoë Alpha", status: "Active", created: "2026-01-01T00:00:01.000Z" })
            yield* put("b", { name: "Bravo", status: "Inactive", created: "2026-01-01T00:00:03.000Z" })
            yield* put("c", { name: "alpha too", status: "Active", created: "2026-01-01T00:00:02.000Z" })
            // Same `created` as c: the key decides, descending.
            yield* put("d", { name: "Delta ALPHA", status: "Active", created: "2026-01-01T00:00:02.000Z" })
            // Not listed: no name, a name that is not a string, not an object, or not directly under the scope.
            yield* put("e", { created: "2026-01-01T00:00:09.000Z" })
            yield* put("f", { name: 7, created: "2026-01-01T00:00:09.000Z" })
            yield* put("g", ["name", "created"])
            yield* put("sub/h", { name: "alpha nested", status: "Active", created: "2026-01-01T00:00:09.000Z" })
            const keysOf = (page: Storage.QueryPage<{ readonly key: string }>) => page.items.map((item) => item.key.slice(scope.length))

            const everything = yield* query(scope, { offset: 0, limit: 10 })
            assert.deepStrictEqual(keysOf(everything), ["b", "d", "c", "a"])
            assert.strictEqual(everything.total, 4)
            const onlyB = everything.items[0]!
            assert.deepStrictEqual(onlyB.document, Option.getOrThrow(yield* storage.getDocument(`${scope}b`)), "values and versions as stored")

            const alpha = yield* query(scope, { nameContains: "ALPHA", offset: 0, limit: 10 })
            assert.deepStrictEqual(keysOf(alpha), ["d", "c", "a"])
            assert.strictEqual(alpha.total, 3)
            assert.deepStrictEqual(keysOf(yield* query(scope, { nameContains: "ZOË", offset: 0, limit: 10 })), ["a"], "folded like toLowerCase")
            assert.deepStrictEqual(keysOf(yield* query(scope, { nameContains: "%", offset: 0, limit: 10 })), [], "no wildcards")
            const active = yield* query(scope, { nameContains: "alpha", status: "Active", offset: 1, limit: 1 })
            assert.deepStrictEqual(keysOf(active), ["c"])
            assert.strictEqual(active.total, 3, "the total counts every page")
            const past = yield* query(scope, { status: "Active", offset: 10, limit: 5 })
            assert.deepStrictEqual(past, { items: [], total: 3 }, "a page past the end is empty, with the total")
            assert.deepStrictEqual(yield* query(`${p}nothing/`, { offset: 0, limit: 5 }), { items: [], total: 0 })

            // Writes show at once: a rename, a status change, a delete.
            yield* put("b", { name: "Bravo alpha", status: "Active", created: "2026-01-01T00:00:03.000Z" })
            yield* storage.deleteDocument(`${scope}a`, "any")
            assert.deepStrictEqual(keysOf(yield* query(scope, { nameContains: "alpha", status: "Active", offset: 0, limit: 10 })), ["b", "d", "c"])
          }))
      })
    }

    describe("keys", () => {
      const awkward = [
        "unicode/Ünïcödé 文字 🙂",
        "unicode/with space",
        "unicode/../escape",
        "unicode/./dot",
        "unicode/..",
        "unicode/.",
        "unicode/100% 'quoted' (parens) *star* ~tilde~ !bang",
        "unicode/a\\b:c?d#e&f=g+h",
        "unicode/double//slash",
        "unicode/tab\tand\nnewline",
        "unicode/\u00e9 composed vs e\u0301 decomposed"
      ]

      scenario("awkward keys round-trip as blobs and stay under their prefix", (storage, p) =>
        Effect.gen(function*() {
          const keys = awkward.map((key) => `${p}${key}`)
          yield* Effect.forEach(keys, (key) => storage.putBlob(key, bytesOf(key)), { discard: true })
          for (const key of keys) {
            assert.strictEqual(textOf(Option.getOrThrow(yield* storage.getBlob(key))), key, `blob ${JSON.stringify(key)}`)
          }
          assert.deepStrictEqual(yield* storage.listAllBlobs(`${p}unicode/`), sorted(keys))
          assert.deepStrictEqual(yield* storage.listAllBlobs(`${p}escape`), [], "`..` did not climb out of its prefix")
          assert.deepStrictEqual(yield* storage.listAllBlobs(`${p}dot`), [])
          assert.deepStrictEqual(yield* storage.listAllBlobs(`${p}unicode/Ü`), [`${p}unicode/Ünïcödé 文字 🙂`])
          const pages = yield* allPages((options) => storage.listBlobs(`${p}unicode/`, options), 3)
          assert.deepStrictEqual(pages.flat(), sorted(keys), "paging by 3 visits every awkward key once, in order")
          yield* Effect.forEach(keys, storage.deleteBlob, { discard: true })
          assert.deepStrictEqual(yield* storage.listAllBlobs(p), [])
        }))

      scenario("awkward keys round-trip as documents and stay under their prefix", (storage, p) =>
        Effect.gen(function*() {
          const keys = awkward.map((key) => `${p}${key}`)
          yield* Effect.forEach(keys, (key) => storage.putDocument(key, JSON.stringify(key), "absent"), { discard: true })
          for (const key of keys) {
            assert.strictEqual(Option.getOrThrow(yield* storage.getDocument(key)).value, JSON.stringify(key), `document ${JSON.stringify(key)}`)
          }
          assert.deepStrictEqual(yield* documentKeys(storage, `${p}unicode/`), sorted(keys))
          assert.deepStrictEqual(yield* documentKeys(storage, `${p}escape`), [])
          for (const key of keys) assert.isTrue(yield* storage.deleteDocument(key, "any"), `delete ${JSON.stringify(key)}`)
          assert.deepStrictEqual(yield* documentKeys(storage, p), [])
        }))
    })

    describe("concurrency", () => {
      scenario(`${writers} concurrent updateJson increments lose no update`, (storage, p) =>
        Effect.gen(function*() {
          yield* storage.createJson(Counter, `${p}counter`, { n: 0 })
          yield* Effect.forEach(
            Array.from({ length: writers }),
            () => storage.updateJson(Counter, `${p}counter`, (counter) => Effect.succeed({ n: counter.n + 1 })),
            { concurrency: "unbounded", discard: true }
          )
          assert.strictEqual(Option.getOrThrow(yield* storage.getJson(Counter, `${p}counter`)).value.n, writers)
        }))

      scenario(`${writers} concurrent updateJson appends to one record: every entry is there once`, (storage, p) =>
        Effect.gen(function*() {
          yield* storage.createJson(Note, `${p}note`, { title: "shared", tags: [] })
          const names = Array.from({ length: writers }, (_, i) => `writer-${i}`)
          yield* Effect.forEach(
            names,
            (name) => storage.updateJson(Note, `${p}note`, (note) => Effect.succeed({ ...note, tags: [...note.tags, name] })),
            { concurrency: "unbounded", discard: true }
          )
          const stored = Option.getOrThrow(yield* storage.getJson(Note, `${p}note`)).value
          assert.deepStrictEqual([...stored.tags].sort(), [...names].sort(), "no append lost, none applied twice")
        }))

      scenario(`${writers} concurrent creates of one key: exactly one wins`, (storage, p) =>
        Effect.gen(function*() {
          const results = yield* Effect.forEach(
            Array.from({ length: writers }, (_, i) => i),
            (i) => Effect.result(storage.createJson(Counter, `${p}taken`, { n: i })),
            { concurrency: "unbounded" }
          )
          const winners = results.filter(Result.isSuccess)
          const losers = results.filter(Result.isFailure)
          assert.strictEqual(winners.length, 1, "exactly one create succeeds")
          assert.strictEqual(losers.length, writers - 1)
          for (const loser of losers) assert.strictEqual(loser.failure._tag, "StorageConflict")
          const stored = Option.getOrThrow(yield* storage.getJson(Counter, `${p}taken`))
          assert.strictEqual(stored.version, winners[0]!.success, "the stored version is the winner's")
        }))

      scenario(`${writers} concurrent updates from one version: exactly one wins`, (storage, p) =>
        Effect.gen(function*() {
          const base = yield* storage.putDocument(`${p}doc`, `{"n":0}`, "absent")
          const results = yield* Effect.forEach(
            Array.from({ length: writers }, (_, i) => i + 1),
            (n) => Effect.result(storage.putDocument(`${p}doc`, JSON.stringify({ n }), { version: base })),
            { concurrency: "unbounded" }
          )
          const winners = results.filter(Result.isSuccess)
          assert.strictEqual(winners.length, 1, "exactly one conditional update succeeds")
          for (const loser of results.filter(Result.isFailure)) assert.strictEqual(loser.failure._tag, "StorageConflict")
          assert.strictEqual(Option.getOrThrow(yield* storage.getDocument(`${p}doc`)).version, winners[0]!.success)
        }))

      scenario(`${writers} concurrent deletes of one version: exactly one deletes`, (storage, p) =>
        Effect.gen(function*() {
          const version = yield* storage.putDocument(`${p}doc`, `{"n":0}`, "absent")
          const results = yield* Effect.forEach(
            Array.from({ length: writers }),
            () => Effect.result(storage.deleteDocument(`${p}doc`, { version })),
            { concurrency: "unbounded" }
          )
          // The losers find the document gone (false) or, if they looked before it went, conflict.
          const deleted = results.filter((result) => Result.isSuccess(result) && result.success)
          assert.strictEqual(deleted.length, 1, "exactly one delete reports a deletion")
          for (const result of results) {
            if (Result.isFailure(result)) assert.strictEqual(result.failure._tag, "StorageConflict")
          }
        }))
    })
  })
}
