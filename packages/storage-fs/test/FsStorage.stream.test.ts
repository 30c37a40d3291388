import { assert, describe, it } from "@effect/vitest"
import { Storage } from "@formwright/core"
import { Deferred, Effect, Fiber, Option, Stream } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { FsStorage } from "../src/index.ts"

const withStorage = <A, E>(body: (storage: Storage.StorageShape, directory: string) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-fs-stream-"))
    return yield* Effect.gen(function*() {
      return yield* body(yield* Storage.Storage, directory)
    }).pipe(
      Effect.provide(FsStorage.layer({ directory })),
      Effect.ensuring(Effect.sync(() => Fs.rmSync(directory, { recursive: true, force: true })))
    )
  })

describe("FsStorage streams", () => {
  it.live("an interrupted stream upload leaves no temp file behind", () =>
    withStorage((storage, directory) =>
      Effect.gen(function*() {
        const started = yield* Deferred.make<void>()
        const endless = Stream.succeed(new Uint8Array(1024)).pipe(
          Stream.tap(() => Deferred.succeed(started, undefined)),
          Stream.concat(Stream.never)
        )
        const fiber = yield* Effect.forkChild(storage.putBlobStream("blob", endless))
        yield* Deferred.await(started)
        yield* Effect.sleep(50)
        yield* Fiber.interrupt(fiber)
        assert.deepStrictEqual(Fs.readdirSync(Path.join(directory, "tmp")), [])
        assert.isTrue(Option.isNone(yield* storage.getBlob("blob")))
      })))

  it.live("a stream of a blob replaced before it is read fails instead of reading the new one", () =>
    withStorage((storage) =>
      Effect.gen(function*() {
        yield* storage.putBlob("blob", new TextEncoder().encode("first"))
        const stream = Option.getOrThrow(yield* storage.getBlobStream("blob"))
        yield* storage.putBlob("blob", new TextEncoder().encode("second"))
        const error = yield* Effect.flip(Stream.runCollect(stream))
        assert.match(error.message, /changed or was deleted/)
        const fresh = Option.getOrThrow(yield* storage.getBlobStream("blob"))
        assert.strictEqual((yield* Stream.runCollect(fresh)).map((chunk) => new TextDecoder().decode(chunk)).join(""), "second")
      })))
})
