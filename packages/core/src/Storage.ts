/**
 * The Storage port: blobs (PDFs, attached files) and versioned JSON documents (records).
 *
 * An adapter writes only the basic operations of `StorageBackend`; `make` adds the typed
 * helpers every service uses (decode with a Schema, read-modify-write with retry on conflict).
 * Documents carry an opaque `version`; every write can be conditional on it, which is what
 * keeps two concurrent writers from losing each other's update, on one process or many.
 * "Not found" is a value (`Option.none()`), never an error.
 */
import { Cause, Context, Effect, Option, Schema, SchemaAST, Stream } from "effect"

/** Infrastructure failure (disk, network, permissions): a 500 at the edge. */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  message: Schema.String,
  /**
   * `Full`: the store has no space left (the edge answers 507); `Unavailable`: the store cannot be
   * reached now, a state to wait out (the edge answers 503); absent for any other failure.
   */
  reason: Schema.optional(Schema.Literals(["Full", "Unavailable"])),
  cause: Schema.optional(Schema.Defect())
}) {}

/** Whether a failure (or a cause's failure) is a store that cannot be reached now: worth a retry. */
export const isUnavailable = (failure: unknown): boolean => {
  if (Cause.isCause(failure)) return Cause.findErrorOption(failure).pipe(Option.exists(isUnavailable))
  return failure instanceof StorageError && failure.reason === "Unavailable"
}

/** A conditional write lost: the document exists (create) or changed since it was read (update). */
export class StorageConflict extends Schema.TaggedError<StorageConflict>()("StorageConflict", {
  key: Schema.String
}) {}

/** A stored document: its JSON text and the version that conditional writes compare against. */
export interface VersionedDocument {
  readonly value: string
  readonly version: string
}

/**
 * When a document write may happen:
 * - `absent`: only if no document is stored under the key (create);
 * - `{ version }`: only if the stored document still has this version (update/delete);
 * - `any`: unconditionally.
 */
export type WriteCondition = "absent" | "any" | { readonly version: string }

export interface ListOptions {
  /** From a previous page's `cursor`. */
  readonly cursor?: string | undefined
  /** Most entries on one page; adapters may return fewer. */
  readonly limit?: number | undefined
}

/** One page of a listing in key order; `cursor` is absent on the last page. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor?: string | undefined
}

/** What an adapter can and cannot do, so the conformance suite and callers can adapt. */
export interface Capabilities {
  /** Conditional writes hold across processes (not only within one). */
  readonly crossProcessConsistency: boolean
  /** The adapter answers `queryDocuments` (a listing's filter, page and total as one query). */
  readonly documentQueries?: boolean | undefined
}

/**
 * A listing asked of the store itself (`queryDocuments`): the documents directly under a prefix
 * (no further `/` in the rest of the key) that are JSON objects with string members `name` and
 * `created`, newest `created` first (then the key, descending), filtered and paged.
 */
export interface DocumentQuery {
  /** Only documents whose `name` contains this, ignoring case (as `toLowerCase` folds it). */
  readonly nameContains?: string | undefined
  /** Only documents whose `status` member is this string. */
  readonly status?: string | undefined
  /** Matching documents to skip, then at most `limit` returned. */
  readonly offset: number
  readonly limit: number
}

/** One page of a query, and how many documents match across all pages. */
export interface QueryPage<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
}

/**
 * The basic operations an adapter implements. Keys are `/`-separated paths of safe segments
 * chosen by the core (ids, never raw client input); blobs and documents are separate namespaces.
 */
export interface StorageBackend {
  readonly capabilities: Capabilities
  readonly putBlob: (key: string, bytes: Uint8Array, options?: { readonly contentType?: string }) => Effect.Effect<void, StorageError>
  readonly getBlob: (key: string) => Effect.Effect<Option.Option<Uint8Array>, StorageError>
  /**
   * Optional: a streamed `getBlob`, for adapters that can read a blob without holding it whole.
   * `make` falls back to `getBlob` when it is absent.
   */
  readonly getBlobStream?: ((key: string) => Effect.Effect<Option.Option<Stream.Stream<Uint8Array, StorageError>>, StorageError>) | undefined
  /**
   * Optional: a streamed `putBlob`, for adapters that can write a blob without holding it whole.
   * `make` falls back to collecting the stream and calling `putBlob` when it is absent.
   */
  readonly putBlobStream?: (<E, R>(
    key: string,
    stream: Stream.Stream<Uint8Array, E, R>,
    options?: { readonly contentType?: string }
  ) => Effect.Effect<void, StorageError | E, R>) | undefined
  /** Deleting a missing blob succeeds. */
  readonly deleteBlob: (key: string) => Effect.Effect<void, StorageError>
  readonly listBlobs: (prefix: string, options?: ListOptions) => Effect.Effect<Page<string>, StorageError>
  readonly getDocument: (key: string) => Effect.Effect<Option.Option<VersionedDocument>, StorageError>
  /** Writes `value` (JSON text) when `condition` holds and returns the new version. */
  readonly putDocument: (key: string, value: string, condition: WriteCondition) => Effect.Effect<string, StorageError | StorageConflict>
  /** Returns whether a document was deleted; a version condition that does not hold is a conflict. */
  readonly deleteDocument: (key: string, condition: WriteCondition) => Effect.Effect<boolean, StorageError | StorageConflict>
  readonly listDocuments: (
    prefix: string,
    options?: ListOptions
  ) => Effect.Effect<Page<{ readonly key: string; readonly document: VersionedDocument }>, StorageError>
  /**
   * Optional (capability `documentQueries`): a filtered page of the documents under a prefix and
   * their total, answered by the store in one go instead of reading every document.
   */
  readonly queryDocuments?: ((
    prefix: string,
    query: DocumentQuery
  ) => Effect.Effect<QueryPage<{ readonly key: string; readonly document: VersionedDocument }>, StorageError>) | undefined
}

/**
 * Code-point order (the same as UTF-8 byte order, which is how S3 lists keys), rather than
 * JavaScript's UTF-16 code-unit order, so every adapter pages through keys in one order.
 */
export const compareKeys = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return codePointRank(x) - codePointRank(y)
  }
  return a.length - b.length
}

// Surrogates encode code points above U+FFFF, so they must sort after U+E000..U+FFFF.
const codePointRank = (unit: number): number => unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit

/** A document decoded with its schema, and the version it was read at. */
export interface Versioned<A> {
  readonly value: A
  readonly version: string
}

/** The service: the adapter's operations plus typed helpers built from them. */
export interface StorageShape extends StorageBackend {
  /**
   * The blob as a stream of chunks, or none when it is missing. Never a mix of two writes: the
   * stream reads the blob found when the effect ran, or fails with a StorageError if that blob
   * was replaced or deleted before it could be read.
   */
  readonly getBlobStream: (key: string) => Effect.Effect<Option.Option<Stream.Stream<Uint8Array, StorageError>>, StorageError>
  /**
   * Writes a blob from a stream. The blob becomes visible whole or not at all: if the stream
   * fails or the effect is interrupted, the previous content (or absence) stays.
   */
  readonly putBlobStream: <E, R>(
    key: string,
    stream: Stream.Stream<Uint8Array, E, R>,
    options?: { readonly contentType?: string }
  ) => Effect.Effect<void, StorageError | E, R>
  readonly getJson: <S extends Schema.Codec<any, any>>(schema: S, key: string) => Effect.Effect<Option.Option<Versioned<S["Type"]>>, StorageError>
  /** Creates a document; a conflict means the key is taken. */
  readonly createJson: <S extends Schema.Codec<any, any>>(schema: S, key: string, value: S["Type"]) => Effect.Effect<string, StorageError | StorageConflict>
  /**
   * Creates a record under a freshly generated key, still conditionally, so even a duplicated id
   * could never overwrite a record; such a conflict is a StorageError, not the caller's to handle.
   */
  readonly insertJson: <S extends Schema.Codec<any, any>>(schema: S, key: string, value: S["Type"]) => Effect.Effect<string, StorageError>
  /** Writes unconditionally. */
  readonly putJson: <S extends Schema.Codec<any, any>>(schema: S, key: string, value: S["Type"]) => Effect.Effect<string, StorageError>
  /**
   * Read-modify-write under a version condition, retried on conflict, so no update is lost.
   * `f` may run more than once and should be free of side effects. None when the key is missing.
   */
  readonly updateJson: <S extends Schema.Codec<any, any>, E, R>(
    schema: S,
    key: string,
    f: (current: S["Type"]) => Effect.Effect<S["Type"], E, R>
  ) => Effect.Effect<Option.Option<S["Type"]>, StorageError | E, R>
  /** Every document under a prefix, decoded (pages through the adapter's listing). */
  readonly listJson: <S extends Schema.Codec<any, any>>(schema: S, prefix: string) => Effect.Effect<ReadonlyArray<Versioned<S["Type"]> & { readonly key: string }>, StorageError>
  /** Every blob key under a prefix. */
  readonly listAllBlobs: (prefix: string) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /** `queryDocuments`, decoded; absent when the adapter cannot answer queries. */
  readonly queryJson?: (<S extends Schema.Codec<any, any>>(
    schema: S,
    prefix: string,
    query: DocumentQuery
  ) => Effect.Effect<QueryPage<Versioned<S["Type"]> & { readonly key: string }>, StorageError>) | undefined
}

export class Storage extends Context.Service<Storage, StorageShape>()("@formwright/core/Storage") {}

const corrupt = (key: string, cause: unknown) => new StorageError({ message: `Stored document ${key} could not be decoded`, cause })

const streamChunkBytes = 64 * 1024

const chunksOf = (bytes: Uint8Array): Array<Uint8Array> => {
  const chunks: Array<Uint8Array> = []
  for (let at = 0; at < bytes.byteLength; at += streamChunkBytes) chunks.push(bytes.subarray(at, at + streamChunkBytes))
  return chunks
}

const concatBytes = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

const identityEncoding = new WeakMap<SchemaAST.AST, boolean>()

/**
 * Whether `schema` encodes a value as the value itself (no transformation anywhere in it, which
 * flipping its AST shows by changing nothing). Such a document is written with `JSON.stringify`
 * alone: the value is typed where it is built, and every read still decodes it through the
 * schema. Encoding through the schema only re-checked it, at a cost that grows with the record:
 * about 50 ms of blocked event loop for a form of 5,000 fields.
 */
const encodesAsItself = (schema: Schema.Top): boolean => {
  let same = identityEncoding.get(schema.ast)
  if (same === undefined) {
    same = SchemaAST.flip(schema.ast) === schema.ast
    identityEncoding.set(schema.ast, same)
  }
  return same
}

/** Builds the full service from an adapter's basic operations. */
export const make = (backend: StorageBackend): StorageShape => {
  const decode = <S extends Schema.Codec<any, any>>(schema: S, key: string, text: string) =>
    Effect.try({ try: () => JSON.parse(text) as unknown, catch: (cause) => corrupt(key, cause) }).pipe(
      Effect.flatMap((json) => Schema.decodeUnknownEffect(schema as Schema.Codec<S["Type"], unknown>)(json)),
      Effect.mapError((cause) => (cause instanceof StorageError ? cause : corrupt(key, cause)))
    )
  const encode = <S extends Schema.Codec<any, any>>(schema: S, key: string, value: S["Type"]) =>
    encodesAsItself(schema)
      ? Effect.try({ try: () => JSON.stringify(value), catch: (cause) => new StorageError({ message: `Document ${key} could not be encoded`, cause }) })
      : Schema.encodeEffect(schema as Schema.Codec<S["Type"], unknown>)(value).pipe(
        Effect.map((encoded) => JSON.stringify(encoded)),
        Effect.mapError((cause) => new StorageError({ message: `Document ${key} could not be encoded`, cause }))
      )

  const getJson: StorageShape["getJson"] = (schema, key) =>
    backend.getDocument(key).pipe(
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeedNone,
          onSome: (doc) => Effect.map(decode(schema, key, doc.value), (value) => Option.some({ value, version: doc.version }))
        })
      )
    )

  const updateJson: StorageShape["updateJson"] = (schema, key, f) => {
    const attempt = Effect.gen(function*() {
      const current = yield* getJson(schema, key)
      if (Option.isNone(current)) return Option.none()
      const next = yield* f(current.value.value)
      const text = yield* encode(schema, key, next)
      yield* backend.putDocument(key, text, { version: current.value.version })
      return Option.some(next)
    })
    // Conflicts mean another writer got there first: read again and re-apply `f`, with a jittered
    // back-off. The budget is time, not attempts, so many writers on one hot key all get through.
    const deadline = Date.now() + 30_000
    const loop = (tries: number): Effect.Effect<Option.Option<any>, any, any> =>
      attempt.pipe(
        Effect.catchTag("StorageConflict", () =>
          Date.now() > deadline
            ? Effect.fail(new StorageError({ message: `Gave up updating ${key} after ${tries} conflicting writes in 30 s` }))
            : Effect.sleep(Math.min(2 ** Math.min(tries, 6), 50) * Math.random()).pipe(Effect.andThen(loop(tries + 1))))
      )
    return loop(0)
  }

  const listJson: StorageShape["listJson"] = (schema, prefix) =>
    Effect.gen(function*() {
      const out: Array<any> = []
      let cursor: string | undefined
      do {
        const page = yield* backend.listDocuments(prefix, { cursor, limit: 1000 })
        for (const item of page.items) {
          const value = yield* decode(schema, item.key, item.document.value)
          out.push({ key: item.key, value, version: item.document.version })
        }
        cursor = page.cursor
      } while (cursor !== undefined)
      return out
    })

  const listAllBlobs: StorageShape["listAllBlobs"] = (prefix) =>
    Effect.gen(function*() {
      const out: Array<string> = []
      let cursor: string | undefined
      do {
        const page = yield* backend.listBlobs(prefix, { cursor, limit: 1000 })
        out.push(...page.items)
        cursor = page.cursor
      } while (cursor !== undefined)
      return out
    })

  // Fallbacks for adapters without streaming: correct, but they hold the blob whole in memory.
  const getBlobStream: StorageShape["getBlobStream"] = backend.getBlobStream ??
    ((key) => Effect.map(backend.getBlob(key), Option.map((bytes) => Stream.fromIterable(chunksOf(bytes)))))
  const putBlobStream: StorageShape["putBlobStream"] = backend.putBlobStream ??
    ((key, stream, options) =>
      Effect.flatMap(Stream.runCollect(stream), (chunks) => backend.putBlob(key, concatBytes(chunks), options)))

  const queryDocuments = backend.queryDocuments
  const queryJson: StorageShape["queryJson"] = queryDocuments === undefined ? undefined : (schema, prefix, query) =>
    Effect.gen(function*() {
      const page = yield* queryDocuments(prefix, query)
      const items: Array<any> = []
      for (const item of page.items) {
        items.push({ key: item.key, value: yield* decode(schema, item.key, item.document.value), version: item.document.version })
      }
      return { items, total: page.total }
    })

  return {
    ...backend,
    queryJson,
    getBlobStream,
    putBlobStream,
    getJson,
    createJson: (schema, key, value) => Effect.flatMap(encode(schema, key, value), (text) => backend.putDocument(key, text, "absent")),
    insertJson: (schema, key, value) =>
      Effect.flatMap(encode(schema, key, value), (text) => backend.putDocument(key, text, "absent")).pipe(
        Effect.mapError((e) => e._tag === "StorageConflict" ? new StorageError({ message: `A record already exists under the new key ${key}` }) : e)
      ),
    putJson: (schema, key, value) =>
      Effect.flatMap(encode(schema, key, value), (text) => backend.putDocument(key, text, "any")).pipe(
        Effect.mapError((e) => e._tag === "StorageConflict" ? new StorageError({ message: `Unconditional write to ${key} reported a conflict` }) : e)
      ),
    updateJson,
    listJson,
    listAllBlobs
  }
}
