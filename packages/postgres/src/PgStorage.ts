/**
 * The Storage port on PostgreSQL: every document is a row, so every server of a deployment shares
 * them, and blobs (PDFs, attached files) go to another Storage given to it (S3, or a local
 * directory). Each kind of record the core keeps (forms, sessions, jobs, profiles, API keys, owner
 * indexes, work items) has a table of its own, chosen by its key's first segment (`kindTables`);
 * any other key goes to `formwright_documents`. The tables have one shape, so one set of
 * statements serves them all.
 *
 * - Write conditions are single statements: `absent` is INSERT ... ON CONFLICT DO NOTHING,
 *   `{ version }` is UPDATE/DELETE ... WHERE version = $v, so two servers can never both win.
 * - A version is a random token written with the row, never a counter: a document deleted and
 *   created again never takes back a version an old reader still holds.
 * - Keys are `COLLATE "C"`, which orders by byte, i.e. by code point (as every adapter lists); a
 *   prefix listing is a range scan of the primary key (`key >= prefix AND key < successor`) and
 *   its cursor is the last key returned, so pages stay stable while rows are added or removed.
 * - Values are kept as text, not jsonb: the port promises the stored JSON text back exactly.
 * - A document with string `name` and `created` members also fills listing columns (its scope,
 *   folded name, status, creation time) in the same statement, so `queryDocuments` answers a
 *   filtered, counted page from one partial index.
 *
 * Tables are created or migrated when the layer is built, under a PostgreSQL advisory lock, so
 * many servers starting at once on an empty database migrate it once.
 */
import { Config, Effect, Layer, Option, Redacted, Schema } from "effect"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { Storage } from "@formwright/core"
import * as Crypto from "node:crypto"

/** Where the records live and where blobs go. */
export interface Options {
  /** The database, `postgres://user:password@host:port/database` (any libpq-style URL). */
  readonly url: Redacted.Redacted | string
  /** The PostgreSQL schema the tables live in (created when missing; default `public`). */
  readonly schema?: string | undefined
  /** Blobs are stored here: an S3 or local-directory Storage layer. */
  readonly blobs: Layer.Layer<Storage.Storage, Storage.StorageError | Config.ConfigError>
  /** Connections this process opens at most (default 10). */
  readonly maxConnections?: number | undefined
  /** How long connecting may take before it is a failure (default 10 s). */
  readonly connectTimeoutMs?: number | undefined
}

/** The table of documents of no kind below (an embedder's own keys), in its schema. */
export const documentsTable = "formwright_documents"

/**
 * The table of each kind of record, by the prefix of its keys: the key layout of the core's
 * services (`Forms.keys`, `Sessions.keys`, ...; a test checks they still match). A table per kind
 * lets a deployer see, size, vacuum and back up each kind apart, and keeps each kind's index to
 * its own rows. Migration 4 made these tables: a kind added later needs a migration of its own
 * that creates its table and moves its rows out of the documents table.
 */
export const kindTables: ReadonlyArray<{ readonly prefix: string; readonly table: string }> = [
  { prefix: "apikeys/", table: "formwright_api_keys" },
  { prefix: "forms/", table: "formwright_forms" },
  { prefix: "jobs/", table: "formwright_jobs" },
  { prefix: "owners/", table: "formwright_owner_index" },
  { prefix: "profiles/", table: "formwright_profiles" },
  { prefix: "sessions/", table: "formwright_sessions" },
  { prefix: "work/", table: "formwright_work" }
]

/** The table a document's key goes to. */
export const tableOf = (key: string): string => kindTables.find((kind) => key.startsWith(kind.prefix))?.table ?? documentsTable

/**
 * The tables that may hold keys starting with `prefix`: its kind's table alone when the prefix
 * names a kind, else the kinds' tables whose prefixes start with it and the documents table.
 */
const tablesUnder = (prefix: string): ReadonlyArray<string> => {
  const kind = kindTables.find((k) => prefix.startsWith(k.prefix))
  if (kind !== undefined) return [kind.table]
  return [...kindTables.filter((k) => k.prefix.startsWith(prefix)).map((k) => k.table), documentsTable]
}

/** Webhook deliveries not yet made (PgWebhookOutbox), in the records' schema. */
export const outboxTable = "formwright_webhook_outbox"

/** Request counters of the shared rate limits (PgRateLimiter), in the records' schema. */
export const rateLimitsTable = "formwright_rate_limits"

const migrationsTable = "formwright_migrations"

const schemaName = /^[a-z_][a-z0-9_]{0,62}$/

/** The driver's message, with what the server or the socket said beneath it (`ECONNREFUSED`, a SQL error). */
const detail = (error: SqlError): string => {
  const inner = (error.cause as { cause?: unknown }).cause
  const said = inner instanceof Error ? inner.message : undefined
  return said === undefined || said === error.message ? error.message : `${error.message}: ${said}`
}

const sqlState = (error: SqlError): string | undefined => {
  const inner = (error.cause as { cause?: unknown }).cause
  return typeof inner === "object" && inner !== null && "code" in inner && typeof inner.code === "string" ? inner.code : undefined
}

/**
 * Whether a statement failed because the database cannot be reached now: no connection (refused,
 * dropped, timed out: SQLSTATE class 08), or a server shutting down or starting (class 57P).
 */
export const isUnavailable = (error: SqlError): boolean =>
  error.reason._tag === "ConnectionError" || (sqlState(error)?.startsWith("57P") ?? false)

/** What to do with a statement that failed: a StorageError naming the operation. */
const failed = (what: string) => (error: SqlError) =>
  new Storage.StorageError({
    message: `PostgreSQL: ${what} failed: ${detail(error)}`,
    // SQLSTATE 53100: the database server's disk is full.
    ...(sqlState(error) === "53100" ? { reason: "Full" as const } : isUnavailable(error) ? { reason: "Unavailable" as const } : {}),
    cause: error
  })

/** Why the database could not be used at start, in words. */
const startFailure = (error: SqlError | Migrator.MigrationError): string => {
  if (error._tag === "MigrationError") return `migration failed: ${error.message}`
  switch (error.reason._tag) {
    case "ConnectionError":
      return `cannot be reached: ${detail(error)}`
    case "AuthenticationError":
      return `refused the login: ${detail(error)}`
    default:
      return `could not prepare the tables: ${detail(error)}`
  }
}

/**
 * The first string after every string that starts with `prefix`, in code-point order, or none
 * when no such string exists (empty prefix, or only U+10FFFF code points).
 */
export const prefixSuccessor = (prefix: string): string | undefined => {
  const points = Array.from(prefix, (char) => char.codePointAt(0)!)
  while (points.length > 0) {
    const last = points.pop()!
    if (last < 0x10ffff) {
      // The surrogate range holds no characters: the code point after U+D7FF is U+E000.
      points.push(last + 1 === 0xd800 ? 0xe000 : last + 1)
      return String.fromCodePoint(...points)
    }
  }
  return undefined
}

const newVersion = () => Crypto.randomBytes(12).toString("base64url")

/** A document's listing columns: set for JSON objects with string `name` and `created` members. */
interface Listing {
  readonly scope: string | null
  readonly nameFolded: string | null
  readonly status: string | null
  readonly created: string | null
}

const unlisted: Listing = { scope: null, nameFolded: null, status: null, created: null }

/** What `queryDocuments` will find of a document, read from its JSON text when it is written. */
export const listingOf = (key: string, value: string): Listing => {
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return unlisted
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return unlisted
  const { created, name, status } = parsed as Record<string, unknown>
  if (typeof name !== "string" || typeof created !== "string") return unlisted
  return {
    scope: key.slice(0, key.lastIndexOf("/") + 1),
    // Folded here, by the same toLowerCase the other adapters' callers match with.
    nameFolded: name.toLowerCase(),
    status: typeof status === "string" ? status : null,
    created
  }
}

/**
 * A table of documents. A listing reads one scope newest first, filtering on the index's included
 * columns alone.
 */
const createDocumentTable = (schema: string, table: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE ${sql(`${schema}.${table}`)} (
      key text COLLATE "C" PRIMARY KEY,
      value text NOT NULL,
      version text NOT NULL,
      scope text COLLATE "C",
      name_folded text,
      status text,
      created text COLLATE "C"
    )`
    yield* sql`CREATE INDEX ${sql(`${table}_listing`)} ON ${sql(`${schema}.${table}`)}
      (scope, created DESC, key DESC) INCLUDE (name_folded, status) WHERE scope IS NOT NULL`
  })

/** The migrations, in order; each runs once per schema, in the transaction that records it. */
export const migrations = (schema: string) => {
  const documents = `${schema}.${documentsTable}`
  return Migrator.fromRecord({
    // scope, name_folded, status and created are what `queryDocuments` filters and sorts on,
    // taken from the value when it is written; null for a document that is not listed.
    "1_documents": createDocumentTable(schema, documentsTable),
    "2_webhook_outbox": Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // One row per event until it is delivered (then deleted) or given up on (kept, with why).
      // A sender claims due rows by setting claimed_until (its lease); a row whose lease ran out
      // (its sender died) is due again.
      yield* sql`CREATE TABLE ${sql(`${schema}.${outboxTable}`)} (
        event_id text PRIMARY KEY,
        body text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt timestamptz NOT NULL DEFAULT now(),
        claimed_until timestamptz,
        failed_at timestamptz,
        last_error text,
        created timestamptz NOT NULL DEFAULT now()
      )`
      yield* sql`CREATE INDEX ${sql(`${outboxTable}_due`)} ON ${sql(`${schema}.${outboxTable}`)} (next_attempt) WHERE failed_at IS NULL`
    }),
    "3_rate_limits": Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // A token bucket per limit and client: the tokens it held at `at` (the statement that takes
      // one refills it first), and whether that statement took one.
      yield* sql`CREATE TABLE ${sql(`${schema}.${rateLimitsTable}`)} (
        bucket text COLLATE "C" PRIMARY KEY,
        tokens double precision NOT NULL,
        at timestamptz NOT NULL,
        taken boolean NOT NULL
      )`
    }),
    "4_tables_per_kind": Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Each kind's rows move from the documents table to their own, in this one transaction.
      for (const { prefix, table } of kindTables) {
        yield* createDocumentTable(schema, table)
        const upper = prefixSuccessor(prefix)!
        yield* sql`WITH moved AS (DELETE FROM ${sql(documents)} WHERE key >= ${prefix} AND key < ${upper} RETURNING *)
          INSERT INTO ${sql(`${schema}.${table}`)} (key, value, version, scope, name_folded, status, created)
          SELECT key, value, version, scope, name_folded, status, created FROM moved`
      }
    })
  })
}

/**
 * Creates the schema and runs the migrations it lacks. The advisory lock (one per schema) is
 * held by the transaction, so servers starting together wait for one another, and the second
 * finds the tables made.
 */
export const migrate = (schema: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`formwright-migrations:${schema}`}))`
      yield* sql`CREATE SCHEMA IF NOT EXISTS ${sql(schema)}`
      yield* Migrator.make({})({ loader: migrations(schema), table: `${schema}.${migrationsTable}` })
    }))
  })

/**
 * The adapter's operations on the database the SqlClient in context reaches, with blobs in
 * `blobs`. Migrates the schema first.
 */
export const make = (options: { readonly blobs: Storage.StorageShape; readonly schema?: string | undefined }) =>
  Effect.gen(function*() {
    const schema = options.schema ?? "public"
    if (!schemaName.test(schema)) {
      return yield* new Storage.StorageError({ message: `PostgreSQL: schema '${schema}' is not a plain lower-case name (a-z, 0-9, _)` })
    }
    const sql = yield* SqlClient.SqlClient
    yield* migrate(schema).pipe(Effect.mapError((error) => new Storage.StorageError({ message: `PostgreSQL ${startFailure(error)}`, cause: error })))
    const tableFor = (key: string) => sql(`${schema}.${tableOf(key)}`)
    const { blobs } = options

    interface Row {
      readonly key: string
      readonly value: string
      readonly version: string
    }

    const getDocument: Storage.StorageBackend["getDocument"] = (key) =>
      sql<Row>`SELECT value, version FROM ${tableFor(key)} WHERE key = ${key}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => ({ value: row.value, version: row.version }))),
        Effect.mapError(failed(`reading ${key}`))
      )

    const putDocument: Storage.StorageBackend["putDocument"] = (key, value, condition) => {
      const table = tableFor(key)
      const version = newVersion()
      const listing = listingOf(key, value)
      const row = sql`(${key}, ${value}, ${version}, ${listing.scope}, ${listing.nameFolded}, ${listing.status}, ${listing.created})`
      const statement = condition === "absent"
        ? sql`INSERT INTO ${table} (key, value, version, scope, name_folded, status, created) VALUES ${row}
              ON CONFLICT (key) DO NOTHING RETURNING 1 AS written`
        : condition === "any"
        ? sql`INSERT INTO ${table} (key, value, version, scope, name_folded, status, created) VALUES ${row}
              ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, version = EXCLUDED.version, scope = EXCLUDED.scope,
                name_folded = EXCLUDED.name_folded, status = EXCLUDED.status, created = EXCLUDED.created
              RETURNING 1 AS written`
        : sql`UPDATE ${table} SET value = ${value}, version = ${version}, scope = ${listing.scope},
                name_folded = ${listing.nameFolded}, status = ${listing.status}, created = ${listing.created}
              WHERE key = ${key} AND version = ${condition.version} RETURNING 1 AS written`
      return statement.pipe(
        Effect.mapError(failed(`writing ${key}`)),
        Effect.flatMap((rows) => rows.length === 1 ? Effect.succeed(version) : Effect.fail(new Storage.StorageConflict({ key })))
      )
    }

    const deleteDocument: Storage.StorageBackend["deleteDocument"] = (key, condition) => {
      if (condition === "absent") return Effect.fail(new Storage.StorageConflict({ key }))
      const table = tableFor(key)
      if (condition === "any") {
        return sql`DELETE FROM ${table} WHERE key = ${key} RETURNING 1 AS deleted`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.mapError(failed(`deleting ${key}`))
        )
      }
      // One statement: whether it deleted, and whether the row was there at all (a conflict) or not.
      return sql<{ readonly deleted: boolean; readonly present: boolean }>`
        WITH gone AS (DELETE FROM ${table} WHERE key = ${key} AND version = ${condition.version} RETURNING 1)
        SELECT EXISTS (SELECT 1 FROM gone) AS deleted, EXISTS (SELECT 1 FROM ${table} WHERE key = ${key}) AS present`.pipe(
        Effect.mapError(failed(`deleting ${key}`)),
        Effect.flatMap(([row]) =>
          row?.deleted ? Effect.succeed(true) : row?.present ? Effect.fail(new Storage.StorageConflict({ key })) : Effect.succeed(false))
      )
    }

    const listDocuments: Storage.StorageBackend["listDocuments"] = (prefix, listOptions) => {
      const limit = Math.max(1, Math.min(listOptions?.limit ?? 1000, 1000))
      const upper = prefixSuccessor(prefix)
      const after = listOptions?.cursor
      // Fetch one more than a page: whether it exists says if there is a next page. A prefix
      // that spans kinds (the empty one, say) reads each table's first rows in key order and
      // merges them: every table's keys are a key range of their own.
      const inTable = (table: string) =>
        sql`SELECT key, value, version FROM ${sql(`${schema}.${table}`)}
          WHERE key >= ${prefix}
            ${upper === undefined ? sql`` : sql`AND key < ${upper}`}
            ${after === undefined ? sql`` : sql`AND key > ${after}`}
          ORDER BY key LIMIT ${limit + 1}`
      const tables = tablesUnder(prefix)
      const statement = tables.length === 1
        ? sql<Row>`${inTable(tables[0]!)}`
        : sql<Row>`SELECT key, value, version FROM (${sql.join(" UNION ALL ", false)(tables.map((t) => sql`(${inTable(t)})`))}) AS found
            ORDER BY key LIMIT ${limit + 1}`
      return statement.pipe(
        Effect.mapError(failed(`listing ${prefix}`)),
        Effect.map((rows) => {
          const page = rows.slice(0, limit).map((row) => ({ key: row.key, document: { value: row.value, version: row.version } }))
          return rows.length > limit ? { items: page, cursor: page[page.length - 1]!.key } : { items: page }
        })
      )
    }

    const queryDocuments: NonNullable<Storage.StorageBackend["queryDocuments"]> = (prefix, query) => {
      const offset = Math.max(0, Math.floor(query.offset))
      const limit = Math.max(0, Math.min(Math.floor(query.limit), 1000))
      // A scope is a key prefix up to a `/`, so its rows are all in one table.
      const table = tableFor(prefix)
      const name = query.nameContains === undefined || query.nameContains === "" ? undefined : query.nameContains.toLowerCase()
      const matching = sql`scope = ${prefix}
        ${name === undefined ? sql`` : sql`AND strpos(name_folded, ${name}) > 0`}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}`
      // Two index reads in one statement: the count of every match, and the page in index order
      // (read whole only for its own rows). The count comes on every row, and on a row of its
      // own when the page is empty. Not a CTE: a shared CTE would be materialised and sorted.
      return sql<{ total: string | number; key: string | null; value: string | null; version: string | null }>`
        SELECT counted.total, page.key, page.value, page.version
        FROM (SELECT count(*) AS total FROM ${table} WHERE ${matching}) counted
        LEFT JOIN (
          SELECT key, value, version, created FROM ${table} WHERE ${matching}
          ORDER BY created DESC, key DESC OFFSET ${offset} LIMIT ${limit}
        ) page ON true
        ORDER BY page.created DESC, page.key DESC`.pipe(
        Effect.mapError(failed(`querying ${prefix}`)),
        Effect.map((rows) => ({
          total: Number(rows[0]?.total ?? 0),
          items: rows.flatMap((row) =>
            row.key === null || row.value === null || row.version === null ? [] : [{ key: row.key, document: { value: row.value, version: row.version } }])
        }))
      )
    }

    const backend: Storage.StorageBackend = {
      capabilities: { crossProcessConsistency: true, documentQueries: true },
      queryDocuments,
      putBlob: blobs.putBlob,
      getBlob: blobs.getBlob,
      getBlobStream: blobs.getBlobStream,
      putBlobStream: blobs.putBlobStream,
      deleteBlob: blobs.deleteBlob,
      listBlobs: blobs.listBlobs,
      getDocument,
      putDocument,
      deleteDocument,
      listDocuments
    }
    return backend
  })

/** Where the URL points, without its password, for messages. */
const describeUrl = (url: string): string => {
  const parsed = URL.parse(url)
  if (parsed === null) return "(an unreadable URL)"
  return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname.length > 1 ? ` (database ${decodeURIComponent(parsed.pathname.slice(1))})` : ""}`
}

/**
 * The Storage service on PostgreSQL (records) and `options.blobs` (blobs). Building it connects,
 * and fails with one clear StorageError when the database cannot be reached or migrated.
 */
export const layer = (options: Options): Layer.Layer<Storage.Storage, Storage.StorageError | Config.ConfigError> => {
  const url = Redacted.isRedacted(options.url) ? options.url : Redacted.make(options.url)
  const where = describeUrl(Redacted.value(url))
  if (!/^postgres(ql)?:\/\//.test(Redacted.value(url))) {
    return Layer.unwrap(Effect.fail(new Storage.StorageError({ message: "PostgreSQL: expected a postgres:// URL" })))
  }
  const client = PgClient.layerFrom(
    PgClient.make({
      url,
      maxConnections: options.maxConnections ?? 10,
      connectTimeout: options.connectTimeoutMs ?? 10_000,
      applicationName: "formwright"
    }).pipe(
      Effect.mapError((error) => new Storage.StorageError({ message: `PostgreSQL at ${where} ${startFailure(error)}`, cause: error }))
    )
  )
  return Layer.effect(
    Storage.Storage,
    Effect.gen(function*() {
      const blobs = yield* Storage.Storage
      const backend = yield* make({ blobs, schema: options.schema }).pipe(
        Effect.mapError((error) =>
          new Storage.StorageError({ ...error, message: error.message.replace(/^PostgreSQL(:?) /, `PostgreSQL at ${where}$1 `) })
        )
      )
      return Storage.make(backend)
    })
  ).pipe(Layer.provide(Layer.merge(client, options.blobs)))
}

/**
 * `layer` configured from the environment: `FORMWRIGHT_DATABASE_URL` (required) and
 * `FORMWRIGHT_DATABASE_SCHEMA` (default `public`), with blobs in `blobs`.
 */
export const config: Config.Config<{ readonly url: Redacted.Redacted; readonly schema: string }> = Config.all({
  url: Config.Redacted("FORMWRIGHT_DATABASE_URL"),
  schema: Config.schema(Schema.String.check(Schema.isPattern(schemaName)), "FORMWRIGHT_DATABASE_SCHEMA").pipe(Config.withDefault("public"))
})

/** `layer` from `config`, with blobs in `blobs`. */
export const layerConfig = (
  blobs: Layer.Layer<Storage.Storage, Storage.StorageError | Config.ConfigError>
): Layer.Layer<Storage.Storage, Storage.StorageError | Config.ConfigError> =>
  Layer.unwrap(Effect.map(config, (settings) => layer({ ...settings, blobs })))
