/**
 * The PostgreSQL adapter against a real PostgreSQL (scripts/pg-server.sh; see
 * test/support/PgTestServer.ts), with blobs in a local directory: the shared conformance suite,
 * then what is particular to PostgreSQL: several "servers" (layers with their own pools) on one
 * database, migrations raced at start, listings served by the primary key, an unreachable database.
 */
import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { ApiKeys, Conversions, Forms, JobRunner, Profiles, Sessions, Storage } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import { StorageConformance } from "@formwright/testing"
import { ConfigProvider, Effect, Layer, Option, Redacted, Schema } from "effect"
import * as Migrator from "effect/sql/Migrator"
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
        assert.deepStrictEqual(migrations.map((row) => row.migration_id), [1, 2, 3, 4], "each migration recorded once")
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
            return yield* sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT key, value, version FROM ${sql(`${on}.formwright_profiles`)}
              WHERE key >= ${"profiles/u1/"} AND key < ${"profiles/u10"} AND key > ${"profiles/u1/p11"} ORDER BY key LIMIT 11`
          }))
        }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
        const text = plan.map((row) => row["QUERY PLAN"]).join("\n")
        assert.match(text, /Index (Only )?Scan using formwright_profiles_pkey/, text)
        assert.notMatch(text, /Sort/, `no sort: the index gives key order\n${text}`)
      }))

    const client = () => PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })
    const tableKeys = (on: string) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const tables = [PgStorage.documentsTable, ...PgStorage.kindTables.map((kind) => kind.table)]
        const found: Record<string, Array<string>> = {}
        for (const table of tables) {
          found[table] = (yield* sql<{ key: string }>`SELECT key FROM ${sql(`${on}.${table}`)} ORDER BY key`).map((row) => row.key)
        }
        return found
      }).pipe(Effect.provide(client()))

    /** A key of every kind the core writes, made by the core's own key builders. */
    const coreKeys = {
      formwright_api_keys: `${ApiKeys.keyPrefix}digest`,
      formwright_forms: Forms.keys.form("f1"),
      formwright_jobs: Conversions.keys.job("u1", "job1"),
      formwright_owner_index: Forms.keys.ownerEntry("u1", "f1"),
      formwright_profiles: Profiles.keys.profile("u1", "p1"),
      formwright_sessions: Sessions.keys.session("u1", "s1"),
      formwright_work: JobRunner.workKey({ kind: "conversion", id: "job1" })
    } as const

    it.live("each kind of record the core writes is a row of its kind's table; other keys go to formwright_documents", () =>
      Effect.gen(function*() {
        const on = schema("kinds")
        const keys = [...Object.values(coreKeys), "embedder/own-key"]
        yield* withStorage(serverLayer(on, blobDirectory()), (storage) =>
          Effect.forEach(keys, (key) => storage.putDocument(key, `{"key":${JSON.stringify(key)}}`, "absent"), { discard: true }))
        const found = yield* tableKeys(on)
        for (const [table, key] of Object.entries(coreKeys)) assert.deepStrictEqual(found[table], [key], table)
        assert.deepStrictEqual(found[PgStorage.documentsTable], ["embedder/own-key"])
      }))

    it.live("listings across kinds merge the tables in key order, page by page", () =>
      Effect.gen(function*() {
        const on = schema("across")
        const keys = ["a", "apikeys/k", "f", "forms/1", "forms/2", "fz", "jobs/u/j", "owners/u/forms/1", "profiles/u/p", "sessions/u/s", "work/conversion/j", "z"]
        const pages = yield* withStorage(serverLayer(on, blobDirectory()), (storage) =>
          Effect.gen(function*() {
            yield* Effect.forEach([...keys].reverse(), (key) => storage.putDocument(key, "{}", "absent"), { discard: true })
            const all: Array<Array<string>> = []
            let cursor: string | undefined
            do {
              const page = yield* storage.listDocuments("", { limit: 5, ...(cursor === undefined ? {} : { cursor }) })
              all.push(page.items.map((item) => item.key))
              cursor = page.cursor
            } while (cursor !== undefined)
            const underF = (yield* storage.listDocuments("f")).items.map((item) => item.key)
            const forms = (yield* storage.listDocuments("forms/")).items.map((item) => item.key)
            return { all, underF, forms }
          }))
        assert.deepStrictEqual(pages.all, [keys.slice(0, 5), keys.slice(5, 10), keys.slice(10)])
        assert.deepStrictEqual(pages.underF, ["f", "forms/1", "forms/2", "fz"])
        assert.deepStrictEqual(pages.forms, ["forms/1", "forms/2"])
      }))

    it.live("a database from before tables per kind is migrated at start: each kind's rows move to their table unchanged", () =>
      Effect.gen(function*() {
        const on = schema("upgrade")
        const listed = (created: string) => JSON.stringify({ name: "Tax Form", created, status: "Active" })
        const before: Record<string, string> = {
          ...Object.fromEntries(Object.values(coreKeys).map((key, i) => [key, listed(`2026-01-0${i + 1}T00:00:00.000Z`)])),
          "embedder/own-key": `{"kept":true}`
        }
        // The schema as migrations 1 to 3 left it, holding records of every kind in formwright_documents.
        yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE SCHEMA ${sql(on)}`
          const loader = Effect.map(PgStorage.migrations(on), (all) => all.filter(([id]) => id <= 3))
          yield* Migrator.make({})({ loader, table: `${on}.formwright_migrations` })
          for (const [key, value] of Object.entries(before)) {
            const listing = PgStorage.listingOf(key, value)
            yield* sql`INSERT INTO ${sql(`${on}.${PgStorage.documentsTable}`)} (key, value, version, scope, name_folded, status, created)
              VALUES (${key}, ${value}, ${`v-${key}`}, ${listing.scope}, ${listing.nameFolded}, ${listing.status}, ${listing.created})`
          }
        }).pipe(Effect.provide(client()))

        const after = yield* withStorage(serverLayer(on, blobDirectory()), (storage) =>
          Effect.gen(function*() {
            const documents = yield* Effect.forEach(Object.keys(before), (key) => Effect.map(storage.getDocument(key), Option.getOrUndefined))
            // The listing columns came along: the owner index is still queried by name.
            const query = yield* storage.queryDocuments!(Forms.keys.ownerIndex("u1"), { nameContains: "tax", limit: 10, offset: 0 })
            return { documents, query }
          }))
        Object.entries(before).forEach(([key, value], i) => assert.deepStrictEqual(after.documents[i], { value, version: `v-${key}` }, key))
        assert.deepStrictEqual(after.query.items.map((item) => item.key), [coreKeys.formwright_owner_index])
        assert.strictEqual(after.query.total, 1)
        const found = yield* tableKeys(on)
        for (const [table, key] of Object.entries(coreKeys)) assert.deepStrictEqual(found[table], [key], table)
        assert.deepStrictEqual(found[PgStorage.documentsTable], ["embedder/own-key"], "only keys of no kind stay")
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
