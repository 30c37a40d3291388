/**
 * The S3 adapter against a real S3 server (Ceph's RADOS Gateway on loopback; see
 * test/support/S3TestServer.ts): the shared conformance suite, then what is particular to S3.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client
} from "@aws-sdk/client-s3"
import { Storage } from "@formwright/core"
import { StorageConformance } from "@formwright/testing"
import { ConfigProvider, Deferred, Effect, Fiber, Layer, Logger, Option, Stream } from "effect"
import { S3Storage } from "../src/index.ts"
import * as S3TestServer from "./support/S3TestServer.ts"

const server = S3TestServer.server()
const bucket = "formwright-test"
const runId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

if (typeof server === "string") {
  describe.skip(`S3 storage (${server})`, () => {
    it("needs an S3 server", () => {})
  })
} else {
  const base: S3Storage.Options = {
    bucket,
    endpoint: server.endpoint,
    region: server.region,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey }
  }
  const rawClient = () => new S3Client(S3Storage.clientConfig(base))

  StorageConformance.run("s3", {
    layer: S3Storage.layer({ ...base, prefix: `conformance-${runId}` }),
    capabilities: { crossProcessConsistency: true },
    timeout: 180_000
  })

  /** The service on a fresh layer (own prefix), for tests that need their own options. */
  const withStorage = <A, E>(options: Partial<S3Storage.Options>, body: (storage: Storage.StorageShape) => Effect.Effect<A, E>) =>
    Effect.gen(function*() {
      const storage = yield* Storage.Storage
      return yield* body(storage)
    }).pipe(Effect.provide(S3Storage.layer({ ...base, prefix: `s3-${runId}-${Math.random().toString(36).slice(2, 8)}`, ...options })))

  /** A client whose PutObject calls go through `intercept` (before or after the real request). */
  const interceptedClient = (
    intercept: (input: Record<string, unknown>, send: () => Promise<unknown>) => Promise<unknown>
  ) => {
    const client = rawClient()
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== "PutObjectCommand") return next(args)
        return intercept(args.input as Record<string, unknown>, () => next(args)) as ReturnType<typeof next>
      },
      { step: "initialize", name: "formwrightTestIntercept" }
    )
    return client
  }

  const serverError = () => Object.assign(new Error("We encountered an internal error. Please try again."), {
    name: "InternalError",
    $metadata: { httpStatusCode: 500 }
  })

  describe("S3 storage: what is particular to S3", { timeout: 120_000 }, () => {
    it.live("a missing bucket is created at start, and the log says so", () =>
      Effect.gen(function*() {
        const fresh = `formwright-created-${runId}`
        const messages: Array<string> = []
        const capture = Logger.make((options) => {
          messages.push(String(options.message))
        })
        yield* withStorage({ bucket: fresh, prefix: "p" }, (storage) => storage.putBlob("x", new Uint8Array([1]))).pipe(
          Effect.provide(Logger.layer([capture]))
        )
        assert.isTrue(messages.some((message) => message.includes(`'${fresh}' did not exist and was created`)), messages.join("\n"))
        const client = rawClient()
        yield* Effect.promise(() => client.send(new HeadBucketCommand({ Bucket: fresh })))
        // A second server starting on the now existing bucket just uses it.
        yield* withStorage({ bucket: fresh, prefix: "p" }, (storage) =>
          Effect.gen(function*() {
            assert.deepStrictEqual(Option.map(yield* storage.getBlob("x"), (bytes) => [...bytes]), Option.some([1]))
            yield* storage.deleteBlob("x")
          }))
        client.destroy()
      }))

    it.live("reports how version-conditional deletes are made safe", () =>
      withStorage({}, (storage) =>
        Effect.sync(() => {
          const flag = (storage.capabilities as S3Storage.S3Capabilities).conditionalDeletes
          assert.include(["native", "tombstone"], flag)
          console.info(`S3 server at ${server.endpoint}: conditional deletes are ${flag}`)
        })))

    it.live("tombstone mode: a conditional delete leaves a tombstone that reads as absent everywhere", () =>
      withStorage({ conditionalDeletes: "tombstone" }, (storage) =>
        Effect.gen(function*() {
          const v1 = yield* storage.putDocument("doc", `{"n":1}`, "absent")
          yield* storage.putDocument("other", `{"n":2}`, "absent")
          assert.isTrue(yield* storage.deleteDocument("doc", { version: v1 }))
          assert.isTrue(Option.isNone(yield* storage.getDocument("doc")))
          assert.deepStrictEqual((yield* storage.listDocuments("")).items.map((item) => item.key), ["other"])
          assert.isFalse(yield* storage.deleteDocument("doc", { version: v1 }), "deleting again finds nothing")
          yield* assertConflict(storage.putDocument("doc", `{"n":3}`, { version: v1 }))
          const v2 = yield* storage.putDocument("doc", `{"n":4}`, "absent")
          assert.deepStrictEqual(Option.getOrThrow(yield* storage.getDocument("doc")), { value: `{"n":4}`, version: v2 })
        })))

    it.live("a conditional write whose answer was lost is recognised as won", () =>
      Effect.gen(function*() {
        let failed = 0
        const client = interceptedClient(async (input, send) => {
          const out = await send()
          if (input.IfMatch !== undefined && failed++ === 0) throw serverError()
          return out
        })
        yield* withStorage({ client }, (storage) =>
          Effect.gen(function*() {
            const v1 = yield* storage.putDocument("doc", `{"n":1}`, "absent")
            const v2 = yield* storage.putDocument("doc", `{"n":2}`, { version: v1 })
            assert.strictEqual(failed, 1, "the answer to the update was replaced by a 500")
            assert.deepStrictEqual(Option.getOrThrow(yield* storage.getDocument("doc")), { value: `{"n":2}`, version: v2 })
          }))
        client.destroy()
      }))

    it.live("a conditional write answered with a 5xx that did not happen is retried while its condition holds", () =>
      Effect.gen(function*() {
        let failed = 0
        const client = interceptedClient(async (input, send) => {
          if (input.IfNoneMatch !== undefined && failed++ < 2) throw serverError()
          return send()
        })
        yield* withStorage({ client }, (storage) =>
          Effect.gen(function*() {
            const version = yield* storage.putDocument("doc", `{"n":1}`, "absent")
            assert.strictEqual(failed, 3)
            assert.strictEqual(Option.getOrThrow(yield* storage.getDocument("doc")).version, version)
          }))
        client.destroy()
      }))

    it.live("a losing conditional write answered with a 5xx is a conflict, never a success", () =>
      Effect.gen(function*() {
        const other = rawClient()
        let objectKey = ""
        const client = interceptedClient(async (input, send) => {
          if (input.IfMatch === undefined) return send()
          // Another server's update lands first; this writer is then told 500 (as Ceph does).
          objectKey = String(input.Key)
          await other.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey, Body: `{"write":"someoneelse","value":{"n":99}}` }))
          throw serverError()
        })
        yield* withStorage({ client }, (storage) =>
          Effect.gen(function*() {
            const v1 = yield* storage.putDocument("doc", `{"n":1}`, "absent")
            yield* assertConflict(storage.putDocument("doc", `{"n":2}`, { version: v1 }))
            assert.strictEqual(Option.getOrThrow(yield* storage.getDocument("doc")).value, `{"n":99}`, "the other write stands")
          }))
        const head = yield* Effect.promise(() => other.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey })))
        assert.isDefined(head.ETag)
        client.destroy()
        other.destroy()
      }))

    it.live("an interrupted multipart upload is aborted on the server, not left as parts", () =>
      Effect.gen(function*() {
        const prefix = `s3-${runId}-multipart`
        yield* Effect.gen(function*() {
          const storage = yield* Storage.Storage
          const sentTwoParts = yield* Deferred.make<void>()
          let sent = 0
          const chunk = new Uint8Array(1024 * 1024).fill(7)
          const endless = Stream.forever(Stream.succeed(chunk)).pipe(
            Stream.tap(() => Effect.suspend(() => ++sent === 12 ? Deferred.succeed(sentTwoParts, undefined) : Effect.void))
          )
          const fiber = yield* Effect.forkChild(storage.putBlobStream("big", endless))
          yield* Deferred.await(sentTwoParts)
          yield* Effect.sleep(500)
          yield* Fiber.interrupt(fiber)
          assert.isTrue(Option.isNone(yield* storage.getBlob("big")))
        }).pipe(Effect.provide(S3Storage.layer({ ...base, prefix, partSizeBytes: 5 * 1024 * 1024 })))
        // The library aborts once in-flight parts settle: give it a moment, then nothing is pending.
        const client = rawClient()
        let pending = -1
        for (let i = 0; i < 50 && pending !== 0; i++) {
          const out = yield* Effect.promise(() => client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: `${prefix}/` })))
          pending = out.Uploads?.length ?? 0
          if (pending !== 0) yield* Effect.sleep(200)
        }
        client.destroy()
        assert.strictEqual(pending, 0, "no multipart upload left open")
      }))

    it.live("getBlobStream reads the version it found: a blob replaced before reading fails instead of mixing", () =>
      withStorage({}, (storage) =>
        Effect.gen(function*() {
          yield* storage.putBlob("file", new TextEncoder().encode("first"))
          const stream = Option.getOrThrow(yield* storage.getBlobStream("file"))
          yield* storage.putBlob("file", new TextEncoder().encode("second"))
          const error = yield* Effect.flip(Stream.runCollect(stream))
          assert.strictEqual(error._tag, "StorageError")
          assert.match(error.message, /changed or was deleted/)
        })))

    it.live("layerConfig reads the FORMWRIGHT_S3_* variables", () => {
      // Credentials come from the SDK's standard chain, which reads the process environment.
      process.env.AWS_ACCESS_KEY_ID ??= server.accessKeyId
      process.env.AWS_SECRET_ACCESS_KEY ??= server.secretAccessKey
      return Effect.gen(function*() {
        const storage = yield* Storage.Storage
        yield* storage.putBlob("configured", new Uint8Array([1, 2, 3]))
        assert.deepStrictEqual(yield* storage.listAllBlobs(""), ["configured"])
        yield* storage.deleteBlob("configured")
      }).pipe(
        Effect.provide(S3Storage.layerConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({
          FORMWRIGHT_S3_BUCKET: bucket,
          FORMWRIGHT_S3_PREFIX: `config-${runId}`,
          FORMWRIGHT_S3_ENDPOINT: server.endpoint,
          FORMWRIGHT_S3_REGION: server.region,
          FORMWRIGHT_S3_FORCE_PATH_STYLE: "true"
        })))))
      )
    })
  })
}

const assertConflict = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(effect)
    assert.strictEqual((error as { _tag?: string })._tag, "StorageConflict", `expected a StorageConflict, got ${String(error)}`)
  })
