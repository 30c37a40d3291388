/**
 * API key lookups are remembered for a few seconds (KeyCache.ts): requests do not read the key
 * record every time, a key issued meanwhile works at once, and a key revoked in storage (as the
 * CLI does, from another process) stops working on the running server within 5 s.
 */
import { Effect, Layer } from "effect"
import { ApiKeys, Storage } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as KeyCache from "../src/KeyCache.ts"
import * as TestServer from "./support/TestServer.ts"

/** FsStorage on `directory`, counting the reads of key records. */
const countingStorage = (directory: string, counter: { keyReads: number }) =>
  Layer.effect(
    Storage.Storage,
    Effect.map(FsStorage.make({ directory }), (backend) =>
      Storage.make({
        ...backend,
        getDocument: (key) => {
          if (key.startsWith("apikeys/")) counter.keyReads++
          return backend.getDocument(key)
        }
      }))
  )

/** The CLI's view of the same data directory: another process's ApiKeys. */
const cli = (directory: string) => {
  const run = <A, E>(effect: Effect.Effect<A, E, ApiKeys.ApiKeys>) =>
    Effect.runPromise(effect.pipe(Effect.provide(ApiKeys.layer.pipe(Layer.provide(FsStorage.layer({ directory }))))))
  return {
    create: (user: string) => run(Effect.gen(function*() {
      return yield* (yield* ApiKeys.ApiKeys).create(user)
    })),
    revoke: (id: string) => run(Effect.gen(function*() {
      return yield* (yield* ApiKeys.ApiKeys).revoke(id)
    }))
  }
}

describe("API key lookups", () => {
  const servers: Array<TestServer.TestServer> = []
  const dirs: Array<string> = []
  afterAll(async () => {
    for (const server of servers) await server.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it("are not read from storage on every request", async () => {
    const counter = { keyReads: 0 }
    const dataDir = mkdtempSync(join(tmpdir(), "formwright-keycache-"))
    dirs.push(dataDir)
    const server = await TestServer.start({ dataDir, storage: countingStorage(dataDir, counter) })
    servers.push(server)
    const before = counter.keyReads
    const started = Date.now()
    for (let i = 0; i < 30; i++) expect((await server.call("/v1/profiles")).status).toBe(200)
    const elapsed = Date.now() - started
    // One read per `foundTtlMs` at most (the first request, then once per expiry).
    expect(counter.keyReads - before).toBeLessThanOrEqual(1 + Math.floor(elapsed / KeyCache.defaults.foundTtlMs))
    expect(counter.keyReads - before).toBeGreaterThanOrEqual(1)
  })

  it("see a new key at once, and a revoked key refused within 5 s", async () => {
    const server = await TestServer.start()
    servers.push(server)
    const keys = cli(server.dataDir)
    const issued = await keys.create("carol")
    expect((await server.call("/v1/profiles", { key: issued.key })).status).toBe(200)
    expect((await server.call("/v1/profiles", { key: issued.key })).status).toBe(200)

    await keys.revoke(issued.id)
    const revokedAt = Date.now()
    const status = await TestServer.poll(
      () => server.call("/v1/profiles", { key: issued.key }).then((r) => r.status),
      (s) => s === 401,
      10_000
    )
    expect(status).toBe(401)
    expect(Date.now() - revokedAt).toBeLessThan(5_000)
    // Other keys are unaffected.
    expect((await server.call("/v1/profiles")).status).toBe(200)
  })

  it("a key that was refused works as soon as it exists", async () => {
    const server = await TestServer.start()
    servers.push(server)
    const keys = cli(server.dataDir)
    const issued = await keys.create("dave")
    await keys.revoke(issued.id)
    expect((await server.call("/v1/profiles", { key: issued.key })).status).toBe(401)
    // A fresh key is a fresh secret: nothing remembered stands in its way.
    const next = await keys.create("dave")
    expect((await server.call("/v1/profiles", { key: next.key })).status).toBe(200)
  })

  it("refuses to remember lookups longer than 5 s", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "formwright-keycache-"))
    dirs.push(dataDir)
    const attempt = (options: Partial<KeyCache.Options>) =>
      Effect.runPromiseExit(
        Effect.gen(function*() {
          return yield* KeyCache.make(yield* ApiKeys.ApiKeys, options)
        }).pipe(Effect.provide(ApiKeys.layer.pipe(Layer.provide(FsStorage.layer({ directory: dataDir })))))
      )
    expect((await attempt({ foundTtlMs: 6_000 }))._tag).toBe("Failure")
    expect((await attempt({ missingTtlMs: 6_000 }))._tag).toBe("Failure")
    expect((await attempt({ foundTtlMs: 5_000 }))._tag).toBe("Success")
  })
})
