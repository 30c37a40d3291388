/**
 * The PostgreSQL adapter against a real PostgreSQL (scripts/pg-server.sh; see
 * test/support/PgTestServer.ts), with blobs in a local directory: the shared conformance suite,
 * then what is particular to PostgreSQL: several "servers" (layers with their own pools) on one
 * database, migrations raced at start, listings served by the primary key, an unreachable database.
 */
import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Storage } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import { StorageConformance } from "@formwright/testing"
import { ConfigProvider, Effect, Layer, Option, Redacted, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll } from "vitest"
import { PgStorage } from "../src/index.ts"
import * as PgTestServer from "./support/PgTestServer.ts"

const server = PgTestServer.server()

if (typeof server === "string") {
  describe.skip(`PostgreSQL storage (${server})`, () => {
    it("needs PostgreSQL", () => {})
  })
} else {
  const { url } = server
  const schemas: Array<string> = []
  const directories: Array<string> = []
  const schema = (label: string) => {
    const name = PgTestServer.freshSchema(label)
    schemas.push(name)
    return name
  }
  const blobDirectory = () => {
    const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-pg-blobs-"))
    directories.push(directory)
    return directory
  }
  afterAll(async () => {
    for (const name of schemas) await PgTestServer.dropSchema(url, name)
    for (const directory of directories) Fs.rmSync(directory, { recursive: true, force: true })
  })

  /** One "server": its own pool, its own blob store handle, on the shared database and schema. */
  const serverLayer = (on: string, blobs: string) => PgStorage.layer({ url, schema: on, blobs: FsStorage.layer({ directory: blobs }), maxConnections: 4 })

  StorageConformance.run("postgres", {
    layer: serverLayer(schema("conformance"), blobDirectory()),
    capabilities: { crossProcessConsistency: true, documentQueries: true },
    timeout: 120_000
  })

  const Counter = Schema.Struct({ n: Schema.Number, by: Schema.Array(Schema.String) })

  const withStorage = <A, E>(layer: Layer.Layer<Storage.Storage, unknown>, body: (storage: Storage.StorageShape) => Effect.Effect<A, E>) =>
    Effect.gen(function*() {
      const storage = yield* Storage.Storage
      return yield* body(storage)
    }).pipe(Effect.provide(layer))

  const closedPort = () =>
    new Promise<number>((resolve, reject) => {
      const probe = Net.createServer()
      probe.once("error", reject)
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as Net.AddressInfo
        probe.close(() => resolve(port))
      })
    })

  describe("PostgreSQL storage: what is particular to PostgreSQL", { timeout: 120_000 }, () => {
    it.live("two servers on one database: concurrent updateJson through both loses no update", () =>
      Effect.gen(function*() {
        const shared = schema("two_servers")
        const blobs = blobDirectory()
        const writes = 40
        const result = yield* withStorage(serverLayer(shared, blobs), (a) =>
          withStorage(serverLayer(shared, blobs), (b) =>
            Effect.gen(function*() {
              yield* a.createJson(Counter, "counter", { n: 0, by: [] })
              yield* Effect.forEach(
                Array.from({ length: writes }, (_, i) => i),
                (i) => (i % 2 === 0 ? a : b).updateJson(Counter, "counter", (c) => Effect.succeed({ n: c.n + 1, by: [...c.by, `w${i}`] })),
                { concurrency: "unbounded", discard: true }
              )
              // What one server wrote, the other reads.
              return { onA: yield* a.getJson(Counter, "counter"), onB: yield* b.getJson(Counter, "counter") }
            })))
        const onA = Option.getOrThrow(result.onA)
        assert.strictEqual(onA.value.n, writes)
        assert.deepStrictEqual([...onA.value.by].sort(), Array.from({ length: writes }, (_, i) => `w${i}`).sort(), "every write once")
        assert.deepStrictEqual(Option.getOrThrow(result.onB), onA)
      }))

    it.live("servers starting at once on an empty schema migrate it once, and all start", () =>
      Effect.gen(function*() {
        const fresh = schema("migrate_race")
        const blobs = blobDirectory()
        const started = yield* Effect.forEach(
          Array.from({ length: 6 }, (_, i) => i),
          (i) => withStorage(serverLayer(fresh, blobs), (storage) => storage.putDocument(`started/${i}`, "{}", "absent")),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(started.length, 6)
        const migrations = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ migration_id: number }>`SELECT migration_id FROM ${sql(`${fresh}.formwright_migrations`)} ORDER BY migration_id`
        }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
        assert.deepStrictEqual(migrations.map((row) => row.migration_id), [1, 2, 3], "each migration recorded once")
      }))

    it.live("a prefix listing is a range scan of the primary key", () =>
      Effect.gen(function*() {
        const on = schema("plan")
        yield* withStorage(serverLayer(on, blobDirectory()), (storage) =>
          Effect.forEach(Array.from({ length: 50 }, (_, i) => `profiles/u${i % 5}/p${i}`), (key) => storage.putDocument(key, "{}", "absent"), { discard: true }))
        const plan = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql.withTransaction(Effect.gen(function*() {
            // A table this small would be read whole (or bitmap-scanned and sorted); forbid both to
            // see whether the index alone serves the query, in key order.
            yield* sql`SET LOCAL enable_seqscan = off`
            yield* sql`SET LOCAL enable_bitmapscan = off`
            return yield* sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT key, value, version FROM ${sql(`${on}.formwright_documents`)}
              WHERE key >= ${"profiles/u1/"} AND key < ${"profiles/u10"} AND key > ${"profiles/u1/p11"} ORDER BY key LIMIT 11`
          }))
        }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
        const text = plan.map((row) => row["QUERY PLAN"]).join("\n")
        assert.match(text, /Index (Only )?Scan using formwright_documents_pkey/, text)
        assert.notMatch(text, /Sort/, `no sort: the index gives key order\n${text}`)
      }))

    it.live("an unreachable database fails the start with one clear line", () =>
      Effect.gen(function*() {
        const port = yield* Effect.promise(closedPort)
        const error = yield* Effect.flip(withStorage(
          PgStorage.layer({ url: `postgres://formwright:secret-password@127.0.0.1:${port}/formwright`, blobs: FsStorage.layer({ directory: blobDirectory() }), connectTimeoutMs: 3_000 }),
          () => Effect.void
        ))
        assert.strictEqual((error as { _tag?: string })._tag, "StorageError")
        const message = (error as Storage.StorageError).message
        assert.include(message, `PostgreSQL at 127.0.0.1:${port} (database formwright) cannot be reached: `)
        assert.include(message, "ECONNREFUSED")
        assert.notInclude(message, "secret-password", "the password is never shown")
        assert.notInclude(message, "\n", "one line")
        console.info(`unreachable database: ${message}`)
      }))

    it.live("a URL that is not postgres:// and a schema name that is not plain are refused", () =>
      Effect.gen(function*() {
        const blobs = FsStorage.layer({ directory: blobDirectory() })
        const wrongUrl = yield* Effect.flip(withStorage(PgStorage.layer({ url: "mysql://127.0.0.1/x", blobs }), () => Effect.void))
        assert.include((wrongUrl as Storage.StorageError).message, "expected a postgres:// URL")
        const wrongSchema = yield* Effect.flip(withStorage(PgStorage.layer({ url, schema: "Robert'); DROP", blobs }), () => Effect.void))
        assert.include((wrongSchema as Storage.StorageError).message, "is not a plain lower-case name")
      }))

    it.live("layerConfig reads FORMWRIGHT_DATABASE_URL and FORMWRIGHT_DATABASE_SCHEMA", () => {
      const on = schema("config")
      return Effect.gen(function*() {
        const storage = yield* Storage.Storage
        const version = yield* storage.putDocument("configured", `{"ok":true}`, "absent")
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ version: string }>`SELECT version FROM ${sql(`${on}.formwright_documents`)} WHERE key = 'configured'`
        assert.deepStrictEqual(rows.map((row) => row.version), [version], "the row is in the configured schema")
      }).pipe(
        Effect.provide(Layer.merge(
          PgStorage.layerConfig(FsStorage.layer({ directory: blobDirectory() })).pipe(
            Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ FORMWRIGHT_DATABASE_URL: url, FORMWRIGHT_DATABASE_SCHEMA: on })))
          ),
          PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })
        ))
      )
    })
  })
}
