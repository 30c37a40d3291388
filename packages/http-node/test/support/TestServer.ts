/**
 * A real Formwright server on a free loopback port, for tests that speak HTTP to it.
 */
import { Effect, Exit, Layer, Logger, Option, References, Scope } from "effect"
import type { Storage } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Server from "../../src/Server.ts"
import type { ServerConfig } from "../../src/ServerConfig.ts"

export interface TestServer {
  readonly url: string
  readonly dataDir: string
  /** `fetch` against the server, with `key`'s `Authorization` header unless `key` is null. */
  readonly call: (path: string, init?: RequestInit & { key?: string | null }) => Promise<Response>
  readonly stop: () => Promise<void>
}

export const keys = { alice: "alice-test-key-0001", bob: "bob-test-key-0002" }

export const defaultConfig = (dataDir: string): ServerConfig => ({
  port: 0,
  host: "127.0.0.1",
  dataDir,
  apiKeys: `alice:${keys.alice},bob:${keys.bob}`,
  maxUploadBytes: 5 * 1024 * 1024,
  publicUrl: undefined,
  concurrency: 2,
  allowHttpUrls: true,
  urlAllowList: ["127.0.0.1", "localhost"],
  // Tests send many bad keys from one address on purpose; the limit has tests of its own.
  authFailureLimit: 0
})

/**
 * Starts a server on storage-fs in a fresh temporary directory (or `dataDir`, to restart on the
 * same data) unless another storage layer is given.
 */
export const start = async (options: {
  readonly config?: Partial<ServerConfig>
  readonly dataDir?: string
  readonly storage?: Layer.Layer<Storage.Storage, Storage.StorageError>
  /** Sees every log line at warning level and above (what a test asserts was, or was not, logged). */
  readonly onLog?: (level: string, message: unknown) => void
} = {}): Promise<TestServer> => {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "formwright-test-"))
  const config = { ...defaultConfig(dataDir), ...options.config }
  const scope = Effect.runSync(Scope.make())
  const storage = options.storage ?? FsStorage.layer({ directory: dataDir })
  // Request logs would drown test output; warnings and errors still show.
  const quiet = Layer.succeed(References.MinimumLogLevel, process.env.FORMWRIGHT_TEST_LOG_LEVEL === "info" ? "Info" : "Warn")
  const onLog = options.onLog
  const watch = onLog === undefined
    ? Layer.empty
    : Logger.layer([Logger.make(({ logLevel, message }) => onLog(logLevel, message))], { mergeWithExisting: true })
  const layer = Server.layer({ config, storage }).pipe(Layer.provide(Layer.mergeAll(quiet, watch)))
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope)).catch(async (error) => {
    // A server that does not start (a bad setting) leaves nothing running behind it.
    await Effect.runPromise(Scope.close(scope, Exit.void))
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
    throw error
  })
  const url = Option.getOrThrow(Effect.runSync(Effect.provide(Server.baseUrl, context)))
  return {
    url,
    dataDir,
    call: (path, init = {}) => {
      const { key = keys.alice, ...rest } = init
      const headers = new Headers(rest.headers)
      if (key !== null && !headers.has("authorization") && !headers.has("x-api-key")) headers.set("authorization", `Bearer ${key}`)
      return fetch(`${url}${path}`, { ...rest, headers })
    },
    stop: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** Polls `read` until `done` says so (or the time runs out), returning the last value. */
export const poll = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs = 30_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last = await read()
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
    last = await read()
  }
  return last
}
