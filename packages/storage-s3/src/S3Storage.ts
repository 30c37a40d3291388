/**
 * The Storage port on any S3-compatible store (AWS S3, Ceph RADOS Gateway, MinIO, ...), so that
 * many servers can share one bucket.
 *
 * Layout under the bucket and an optional key prefix:
 * - `<prefix>blobs/<key>`: the blob's bytes as they are.
 * - `<prefix>docs/<key>`: a document as readable JSON, `{"write":"<token>","value":<the JSON text>}`.
 *   The random write token makes every write's ETag new (versions name writes, not values) and
 *   is also sent as object metadata, so a writer can recognise its own write when the answer to
 *   its request was lost.
 *
 * Versions are ETags. Every conditional write is a conditional PUT (`If-None-Match: *` to create,
 * `If-Match: <etag>` to update), so two servers writing the same record never overwrite each
 * other. Quirks of real servers handled here:
 * - Ceph answers a quoted `If-Match` ETag with 412: ETags are sent unquoted (AWS accepts both).
 * - A conditional write that loses a race may get a 5xx (Ceph) or 409 (AWS) instead of 412: the
 *   object is read again to decide: our own write (it won), the condition still holds (retry),
 *   or it does not (conflict). Never assumed to have succeeded.
 * - Ceph 16 ignores `If-Match` on DELETE and deletes anyway. A delete conditional on a version
 *   therefore never sends it blindly: it replaces the document with a tombstone by a conditional
 *   PUT, and removes the tombstone only when the server is known to honour conditional DELETE
 *   (`capabilities.conditionalDeletes`, probed at start). A kept tombstone reads as absent.
 * - Streaming PUTs need `requestChecksumCalculation: "WHEN_REQUIRED"` on Ceph.
 *
 * Blobs larger than one part are written as multipart uploads (`@aws-sdk/lib-storage`), which S3
 * shows only once complete: a failed or interrupted upload is aborted and leaves no object.
 * Every request takes the fiber's abort signal, so interrupting an operation cancels it.
 */
import {
  AbortMultipartUploadCommand,
  type BucketLocationConstraint,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig
} from "@aws-sdk/client-s3"
import { Upload } from "@aws-sdk/lib-storage"
import { Storage } from "@formwright/core"
import { type Cause, Config, Effect, Layer, Option, type Scope, Stream } from "effect"
import * as Crypto from "node:crypto"

/** Where the store lives and how to reach it. */
export interface Options {
  readonly bucket: string
  /** Key prefix inside the bucket, for sharing a bucket (`tenant-a/`); a missing `/` is added. */
  readonly prefix?: string | undefined
  /** A custom endpoint (Ceph, MinIO, a local mock); AWS's own when absent. */
  readonly endpoint?: string | undefined
  /** Default: `AWS_REGION` from the SDK's chain, else `us-east-1`. */
  readonly region?: string | undefined
  /** Path-style URLs (`endpoint/bucket/key`); default true with a custom endpoint, false without. */
  readonly forcePathStyle?: boolean | undefined
  /** Static credentials; by default the AWS SDK's standard chain (env, profile, instance role, ...). */
  readonly credentials?: {
    readonly accessKeyId: string
    readonly secretAccessKey: string
    readonly sessionToken?: string | undefined
  } | undefined
  /** Use this client instead of building one (it is not destroyed with the layer). */
  readonly client?: S3Client | undefined
  /** Create the bucket at start when it is missing (default true). */
  readonly createBucket?: boolean | undefined
  /** Multipart part size in bytes (default 8 MiB, at least 5 MiB); smaller blobs are one PUT. */
  readonly partSizeBytes?: number | undefined
  /** Parts of one upload sent at once (default 4); an upload buffers at most this many parts. */
  readonly uploadConcurrency?: number | undefined
  /**
   * How version-conditional deletes are made safe: `auto` (default) probes the server at start;
   * `native` trusts DELETE with If-Match; `tombstone` never sends it (tombstones are kept).
   */
  readonly conditionalDeletes?: "auto" | "native" | "tombstone" | undefined
  /** Attempts per request for the SDK's own retry of throttling and 5xx answers (default 4). */
  readonly maxAttempts?: number | undefined
}

/** The capabilities of this adapter: the shared flags plus what it found out about the server. */
export interface S3Capabilities extends Storage.Capabilities {
  /**
   * `native`: the server honours If-Match on DELETE, so a version-conditional delete removes the
   * object. `tombstone`: it does not (Ceph 16); such a delete leaves a small tombstone object
   * that reads as absent. Unconditional deletes (all Formwright itself uses) remove the object
   * either way.
   */
  readonly conditionalDeletes: "native" | "tombstone"
}

const defaultPartSize = 8 * 1024 * 1024
const minPartSize = 5 * 1024 * 1024
const writeTokenHeader = "formwright-write"
const deletedHeader = "formwright-deleted"

// ---- errors -------------------------------------------------------------------------------

const statusOf = (cause: unknown): number | undefined => {
  const metadata = typeof cause === "object" && cause !== null && "$metadata" in cause ? cause.$metadata : undefined
  const status = typeof metadata === "object" && metadata !== null && "httpStatusCode" in metadata ? metadata.httpStatusCode : undefined
  return typeof status === "number" ? status : undefined
}

const nameOf = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "name" in cause && typeof cause.name === "string" ? cause.name : undefined

const isNotFound = (cause: unknown) => statusOf(cause) === 404 || ["NoSuchKey", "NotFound", "NoSuchBucket"].includes(nameOf(cause) ?? "")

const isNoSuchBucket = (cause: unknown) => nameOf(cause) === "NoSuchBucket"

const describe = (cause: unknown) => {
  const status = statusOf(cause)
  const name = nameOf(cause)
  const message = cause instanceof Error ? cause.message : String(cause)
  return [status === undefined ? undefined : `HTTP ${status}`, name, message === "UnknownError" ? undefined : message]
    .filter((part) => part !== undefined && part !== "")
    .join(" ")
}

/** A request that failed, kept raw until the caller decides what it means. */
interface RequestFailure {
  readonly _tag: "RequestFailure"
  readonly cause: unknown
}

const storageError = (what: string, cause: unknown) => new Storage.StorageError({ message: `S3: could not ${what}: ${describe(cause)}`, cause })

// ---- keys and document bodies -------------------------------------------------------------

const normalizePrefix = (prefix: string | undefined) => (prefix === undefined || prefix === "" ? "" : prefix.endsWith("/") ? prefix : `${prefix}/`)

/** ETags come quoted; Ceph accepts them in If-Match only without the quotes (AWS takes both). */
const unquote = (etag: string | undefined) => (etag === undefined ? undefined : etag.replace(/^W\//, "").replaceAll("\"", ""))

const randomToken = () => Crypto.randomBytes(16).toString("base64url")

const documentBody = (token: string, value: string) => `{"write":"${token}","value":${value}}`

const tombstoneBody = (token: string) => `{"write":"${token}","deleted":true}`

const bodyPattern = /^\{"write":"[A-Za-z0-9_-]+",/

/** The document's JSON text, none for a tombstone; the value is sliced, never re-serialized. */
const parseBody = (key: string, text: string): Effect.Effect<Option.Option<string>, Storage.StorageError> => {
  const header = bodyPattern.exec(text)
  if (header !== null) {
    const rest = text.slice(header[0].length)
    if (rest === "\"deleted\":true}") return Effect.succeedNone
    if (rest.startsWith("\"value\":") && rest.endsWith("}")) return Effect.succeed(Option.some(rest.slice("\"value\":".length, -1)))
  }
  return Effect.fail(new Storage.StorageError({ message: `S3: stored document ${key} is not a Formwright record` }))
}

/** S3 encodes listed keys on request (`EncodingType=url`) so any key survives XML; AWS writes spaces as `+`. */
const decodeListedKey = (key: string) => decodeURIComponent(key.replaceAll("+", " "))

interface Head {
  readonly etag: string
  readonly token: string | undefined
  readonly deleted: boolean
}

type Precondition = { readonly ifNoneMatch: "*" } | { readonly ifMatch: string }

/** Builds the adapter; the layer is `layer(options)`. Needs a Scope for the client's lifetime. */
export const make = (options: Options): Effect.Effect<Storage.StorageBackend & { readonly capabilities: S3Capabilities }, Storage.StorageError, Scope.Scope> =>
  Effect.gen(function*() {
    const bucket = options.bucket
    const root = normalizePrefix(options.prefix)
    const docsRoot = `${root}docs/`
    const blobsRoot = `${root}blobs/`
    const partSize = Math.max(minPartSize, Math.floor(options.partSizeBytes ?? defaultPartSize))
    const queueSize = Math.max(1, Math.floor(options.uploadConcurrency ?? 4))

    const client = options.client ?? (yield* Effect.acquireRelease(
      Effect.sync(() => new S3Client(clientConfig(options))),
      (client) => Effect.sync(() => client.destroy())
    ))

    const send = <A>(run: (signal: AbortSignal) => Promise<A>): Effect.Effect<A, RequestFailure> =>
      Effect.tryPromise({ try: (signal) => run(signal), catch: (cause): RequestFailure => ({ _tag: "RequestFailure", cause }) })

    const orStorageError = (what: string) => <A, R>(effect: Effect.Effect<A, RequestFailure, R>) =>
      Effect.mapError(effect, (failure) => storageError(what, failure.cause))

    // ---- objects ---------------------------------------------------------------------------

    const head = (objectKey: string): Effect.Effect<Option.Option<Head>, Storage.StorageError> =>
      send((signal) => client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey }), { abortSignal: signal })).pipe(
        Effect.map((out) =>
          Option.some<Head>({
            etag: unquote(out.ETag) ?? "",
            token: out.Metadata?.[writeTokenHeader],
            deleted: out.Metadata?.[deletedHeader] === "true"
          })
        ),
        Effect.catch((failure) => (isNotFound(failure.cause) ? Effect.succeedNone : Effect.fail(storageError(`read ${objectKey}`, failure.cause))))
      )

    /** Reads a whole object into one buffer of its announced length (one copy of it in memory). */
    const getObject = (objectKey: string) =>
      send(async (signal) => {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey }), { abortSignal: signal })
        const body = out.Body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined
        const onAbort = () => body?.destroy?.()
        signal.addEventListener("abort", onAbort)
        try {
          return { bytes: await readAll(body, out.ContentLength), etag: unquote(out.ETag) ?? "" }
        } finally {
          signal.removeEventListener("abort", onAbort)
        }
      }).pipe(
        Effect.map(Option.some),
        Effect.catch((failure) => (isNotFound(failure.cause) ? Effect.succeedNone : Effect.fail(failure)))
      )

    /**
     * A conditional PUT that tells a lost race (conflict) from a lost answer. On anything but
     * success it reads the object again: our write token there means we won; otherwise a 412 is
     * a conflict, and a 409/5xx/network failure is retried while the condition still holds.
     */
    const conditionalPut = (
      key: string,
      objectKey: string,
      body: string,
      token: string,
      precondition: Precondition,
      metadata: Record<string, string>
    ): Effect.Effect<string, Storage.StorageError | Storage.StorageConflict> => {
      const attempt = (tries: number): Effect.Effect<string, Storage.StorageError | Storage.StorageConflict> =>
        send((signal) =>
          client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: objectKey,
              Body: body,
              ContentType: "application/json",
              Metadata: { ...metadata, [writeTokenHeader]: token },
              ...("ifMatch" in precondition ? { IfMatch: precondition.ifMatch } : { IfNoneMatch: precondition.ifNoneMatch })
            }),
            { abortSignal: signal }
          )
        ).pipe(
          Effect.flatMap((out) => {
            const etag = unquote(out.ETag)
            return etag !== undefined && etag !== "" ? Effect.succeed(etag) : versionAfterWrite(key, objectKey, token)
          }),
          Effect.catch((failure) => {
            const status = statusOf(failure.cause)
            const uncertain = status === undefined || status === 409 || status >= 500
            // If-Match on a missing key: 412 on Ceph, 404 NoSuchKey on AWS; both mean the condition failed.
            if (status === 404 && "ifMatch" in precondition && !isNoSuchBucket(failure.cause)) {
              return Effect.fail(new Storage.StorageConflict({ key }))
            }
            if (status !== 412 && !uncertain) return Effect.fail(storageError(`write ${objectKey}`, failure.cause))
            return Effect.flatMap(head(objectKey), (current) => {
              if (Option.isSome(current) && current.value.token === token) return Effect.succeed(current.value.etag)
              const holds = "ifMatch" in precondition
                ? Option.isSome(current) && current.value.etag === precondition.ifMatch
                : Option.isNone(current)
              if (status === 412 || !holds) return Effect.fail(new Storage.StorageConflict({ key }))
              if (tries >= 6) return Effect.fail(storageError(`write ${objectKey} after ${tries + 1} attempts`, failure.cause))
              return Effect.sleep(Math.random() * 20 * 2 ** tries).pipe(Effect.andThen(attempt(tries + 1)))
            })
          })
        )
      return attempt(0)
    }

    /** The version our write produced, when the server's answer carried no ETag. */
    const versionAfterWrite = (key: string, objectKey: string, token: string) =>
      Effect.flatMap(head(objectKey), (current) =>
        Option.isSome(current) && current.value.token === token
          ? Effect.succeed(current.value.etag)
          // Our write happened but was overwritten before we could look. Not a conflict: a
          // caller retrying on conflict would apply its change twice.
          : Effect.fail(new Storage.StorageError({ message: `S3: document ${key} was written, but replaced before its version could be read` })))

    const deleteObject = (objectKey: string, ifMatch?: string) =>
      send((signal) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey, IfMatch: ifMatch }), { abortSignal: signal })).pipe(
        Effect.asVoid,
        Effect.catch((failure) => (isNotFound(failure.cause) ? Effect.void : Effect.fail(failure)))
      )

    const list = (root: string, prefix: string, options: Storage.ListOptions | undefined) =>
      send((signal) =>
        client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: root + prefix,
            StartAfter: options?.cursor === undefined ? undefined : root + options.cursor,
            MaxKeys: Math.min(1000, Math.max(1, Math.floor(options?.limit ?? 1000))),
            EncodingType: "url"
          }),
          { abortSignal: signal }
        )
      ).pipe(
        Effect.map((out) => {
          const keys = (out.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [decodeListedKey(object.Key).slice(root.length)]))
          return { keys, cursor: out.IsTruncated === true && keys.length > 0 ? keys[keys.length - 1] : undefined }
        }),
        orStorageError(`list ${root}${prefix}`)
      )

    // ---- start-up ----------------------------------------------------------------------------

    if (options.createBucket ?? true) yield* ensureBucket(client, bucket, options)
    const conditionalDeletes = options.conditionalDeletes === "native" || options.conditionalDeletes === "tombstone"
      ? options.conditionalDeletes
      : yield* probeConditionalDelete(client, bucket, root)
    yield* Effect.logDebug(`S3 storage on bucket ${bucket}, prefix '${root}', conditional deletes: ${conditionalDeletes}`)

    // ---- documents ---------------------------------------------------------------------------

    const getDocument = Effect.fn("S3Storage.getDocument")(function*(key: string) {
      const found = yield* getObject(docsRoot + key).pipe(orStorageError(`read document ${key}`))
      if (Option.isNone(found)) return Option.none<Storage.VersionedDocument>()
      const value = yield* parseBody(key, new TextDecoder().decode(found.value.bytes))
      return Option.map(value, (value): Storage.VersionedDocument => ({ value, version: found.value.etag }))
    })

    const putDocument = Effect.fn("S3Storage.putDocument")(function*(key: string, value: string, condition: Storage.WriteCondition) {
      const objectKey = docsRoot + key
      const token = randomToken()
      const body = documentBody(token, value)
      if (condition === "any") {
        const out = yield* send((signal) =>
          client.send(
            new PutObjectCommand({ Bucket: bucket, Key: objectKey, Body: body, ContentType: "application/json", Metadata: { [writeTokenHeader]: token } }),
            { abortSignal: signal }
          )
        ).pipe(orStorageError(`write document ${key}`))
        return unquote(out.ETag) || (yield* versionAfterWrite(key, objectKey, token))
      }
      if (condition !== "absent") return yield* conditionalPut(key, objectKey, body, token, { ifMatch: condition.version }, {})
      // Absent: no object, or a tombstone (which reads as absent) replaced under its own ETag.
      for (let round = 0; round < 8; round++) {
        const created = yield* Effect.result(conditionalPut(key, objectKey, body, token, { ifNoneMatch: "*" }, {}))
        if (created._tag === "Success") return created.success
        if (created.failure._tag !== "StorageConflict") return yield* created.failure
        const current = yield* head(objectKey)
        if (Option.isNone(current)) continue
        if (!current.value.deleted) return yield* created.failure
        const replaced = yield* Effect.result(conditionalPut(key, objectKey, body, token, { ifMatch: current.value.etag }, {}))
        if (replaced._tag === "Success") return replaced.success
        if (replaced.failure._tag !== "StorageConflict") return yield* replaced.failure
      }
      return yield* new Storage.StorageConflict({ key })
    })

    const deleteDocument = Effect.fn("S3Storage.deleteDocument")(function*(key: string, condition: Storage.WriteCondition) {
      const objectKey = docsRoot + key
      const current = yield* head(objectKey)
      if (Option.isNone(current) || current.value.deleted) {
        // Tidy a kept tombstone when that cannot race with a create.
        if (Option.isSome(current) && condition === "any") yield* deleteObject(objectKey).pipe(orStorageError(`delete document ${key}`))
        return false
      }
      if (condition === "absent") return yield* new Storage.StorageConflict({ key })
      if (condition === "any") {
        yield* deleteObject(objectKey).pipe(orStorageError(`delete document ${key}`))
        return true
      }
      if (current.value.etag !== condition.version) return yield* new Storage.StorageConflict({ key })
      // The tombstone's conditional PUT is what decides, exactly once, which delete won.
      const token = randomToken()
      const outcome = yield* Effect.result(
        conditionalPut(key, objectKey, tombstoneBody(token), token, { ifMatch: condition.version }, { [deletedHeader]: "true" })
      )
      if (outcome._tag === "Failure") {
        if (outcome.failure._tag !== "StorageConflict") return yield* outcome.failure
        const now = yield* head(objectKey)
        if (Option.isNone(now) || now.value.deleted) return false
        return yield* outcome.failure
      }
      if (conditionalDeletes === "native") {
        // Best effort: a tombstone left behind still reads as absent.
        yield* deleteObject(objectKey, outcome.success).pipe(Effect.ignore)
      }
      return true
    })

    const listDocuments = Effect.fn("S3Storage.listDocuments")(function*(prefix: string, options?: Storage.ListOptions) {
      const page = yield* list(docsRoot, prefix, options)
      const documents = yield* Effect.forEach(
        page.keys,
        (key) => Effect.map(getDocument(key), Option.map((document) => ({ key, document }))),
        { concurrency: 16 }
      )
      // Deleted since the listing (or a tombstone): simply not on the page.
      return { items: documents.flatMap((document) => (Option.isSome(document) ? [document.value] : [])), cursor: page.cursor }
    })

    // ---- blobs -------------------------------------------------------------------------------

    const upload = (key: string, body: Uint8Array | ReadableStream<Uint8Array>, contentType: string | undefined): Effect.Effect<unknown, RequestFailure> =>
      Effect.suspend(() => {
        const upload = new Upload({
          client,
          params: { Bucket: bucket, Key: blobsRoot + key, Body: body, ContentType: contentType },
          partSize,
          queueSize,
          leavePartsOnError: false
        })
        // If the upload is interrupted while parts are in flight, the library aborts it once they
        // settle; this makes sure it is aborted even if that clean-up fails.
        const abortMultipart = Effect.suspend(() =>
          upload.uploadId === undefined
            ? Effect.void
            : send(() => client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: blobsRoot + key, UploadId: upload.uploadId }))).pipe(
              Effect.ignore
            )
        )
        return send((signal) => {
          signal.addEventListener("abort", () => void upload.abort())
          return upload.done()
        }).pipe(Effect.onInterrupt(() => abortMultipart))
      })

    const putBlob = Effect.fn("S3Storage.putBlob")(function*(key: string, bytes: Uint8Array, options?: { readonly contentType?: string }) {
      if (bytes.byteLength <= partSize) {
        yield* send((signal) =>
          client.send(
            new PutObjectCommand({ Bucket: bucket, Key: blobsRoot + key, Body: bytes, ContentType: options?.contentType }),
            { abortSignal: signal }
          )
        ).pipe(orStorageError(`write blob ${key}`))
        return
      }
      yield* upload(key, bytes, options?.contentType).pipe(orStorageError(`write blob ${key}`))
    })

    const putBlobStream = <E, R>(key: string, stream: Stream.Stream<Uint8Array, E, R>, options?: { readonly contentType?: string }) =>
      Effect.gen(function*() {
        // The input's own failure is kept and re-raised as it was, not as a storage error.
        let inputFailure: Cause.Cause<E> | undefined
        // The input runs in its own fiber, pulled one chunk at a time by the upload; aborting
        // `done` stops it however the upload ends, even while the library still holds its reader.
        const done = new AbortController()
        const body = Stream.toReadableStreamWith(
          stream.pipe(Stream.tapCause((cause) => Effect.sync(() => {
            inputFailure = cause
          }))),
          yield* Effect.context<R>(),
          { signal: done.signal }
        )
        return yield* upload(key, body, options?.contentType).pipe(
          Effect.catch((failure): Effect.Effect<never, Storage.StorageError | E> =>
            inputFailure !== undefined ? Effect.failCause(inputFailure) : Effect.fail(storageError(`write blob ${key}`, failure.cause))),
          Effect.ensuring(Effect.sync(() => done.abort())),
          Effect.asVoid
        )
      }).pipe(Effect.withSpan("S3Storage.putBlobStream"))

    const getBlob = Effect.fn("S3Storage.getBlob")(function*(key: string) {
      const found = yield* getObject(blobsRoot + key).pipe(orStorageError(`read blob ${key}`))
      return Option.map(found, (object) => object.bytes)
    })

    const getBlobStream = Effect.fn("S3Storage.getBlobStream")(function*(key: string) {
      const objectKey = blobsRoot + key
      const found = yield* head(objectKey)
      if (Option.isNone(found)) return Option.none<Stream.Stream<Uint8Array, Storage.StorageError>>()
      const etag = found.value.etag
      // Read when run, pinned to the version seen now, so a replaced blob is never read half old, half new.
      const stream = Stream.unwrap(
        send((signal) => client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey, IfMatch: etag }), { abortSignal: signal })).pipe(
          Effect.map((out) =>
            Stream.fromAsyncIterable(
              (out.Body ?? emptyBody()) as AsyncIterable<Uint8Array>,
              (cause) => storageError(`read blob ${key}`, cause)
            )
          ),
          Effect.mapError((failure) =>
            statusOf(failure.cause) === 412 || isNotFound(failure.cause)
              ? new Storage.StorageError({ message: `S3: blob ${key} changed or was deleted while it was being read`, cause: failure.cause })
              : storageError(`read blob ${key}`, failure.cause))
        )
      )
      return Option.some(stream)
    })

    const deleteBlob = Effect.fn("S3Storage.deleteBlob")(function*(key: string) {
      yield* deleteObject(blobsRoot + key).pipe(orStorageError(`delete blob ${key}`))
    })

    const listBlobs = Effect.fn("S3Storage.listBlobs")(function*(prefix: string, options?: Storage.ListOptions) {
      const page = yield* list(blobsRoot, prefix, options)
      return { items: page.keys, cursor: page.cursor }
    })

    const capabilities: S3Capabilities = { crossProcessConsistency: true, conditionalDeletes }
    return {
      capabilities,
      putBlob,
      getBlob,
      getBlobStream,
      putBlobStream,
      deleteBlob,
      listBlobs,
      getDocument,
      putDocument,
      deleteDocument,
      listDocuments
    }
  })

const emptyBody = async function*(): AsyncGenerator<Uint8Array> {}

/** The SDK client's settings from the options (credentials from the default chain unless given). */
export const clientConfig = (options: Options): S3ClientConfig => ({
  region: options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
  ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
  forcePathStyle: options.forcePathStyle ?? options.endpoint !== undefined,
  ...(options.credentials === undefined ? {} : { credentials: { ...options.credentials } }),
  maxAttempts: options.maxAttempts ?? 4,
  // Ceph rejects the SDK's default trailing checksums on streamed bodies; S3 does not need them.
  requestChecksumCalculation: "WHEN_REQUIRED",
  responseChecksumValidation: "WHEN_REQUIRED"
})

const readAll = async (body: AsyncIterable<Uint8Array> | undefined, length: number | undefined): Promise<Uint8Array> => {
  if (body === undefined) return new Uint8Array(0)
  if (length !== undefined) {
    const out = new Uint8Array(length)
    let at = 0
    for await (const chunk of body) {
      if (at + chunk.byteLength > length) throw new Error(`the body is longer than its Content-Length ${length}`)
      out.set(chunk, at)
      at += chunk.byteLength
    }
    if (at !== length) throw new Error(`the body ended after ${at} of ${length} bytes`)
    return out
  }
  const chunks: Array<Uint8Array> = []
  let total = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    total += chunk.byteLength
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

const request = <A>(what: string, run: (signal: AbortSignal) => Promise<A>) =>
  Effect.tryPromise({ try: (signal) => run(signal), catch: (cause) => cause })
    .pipe(Effect.mapError((cause) => ({ what, cause })))

/** Creates the bucket when it does not exist (two servers starting at once both succeed). */
const ensureBucket = (client: S3Client, bucket: string, options: Options) =>
  Effect.gen(function*() {
    const exists = yield* request(`reach bucket ${bucket}`, (signal) => client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: signal })).pipe(
      Effect.as(true),
      Effect.catch((failure) => (isNotFound(failure.cause) ? Effect.succeed(false) : Effect.fail(failure)))
    )
    if (exists) return
    const region = yield* Effect.promise(() => client.config.region())
    yield* request(`create bucket ${bucket}`, (signal) =>
      client.send(
        new CreateBucketCommand({
          Bucket: bucket,
          // AWS wants the region named outside us-east-1; other servers have their own names.
          ...(options.endpoint === undefined && region !== "us-east-1" ? { CreateBucketConfiguration: { LocationConstraint: region as BucketLocationConstraint } } : {})
        }),
        { abortSignal: signal }
      )).pipe(
        Effect.catch((failure) => (nameOf(failure.cause) === "BucketAlreadyOwnedByYou" ? Effect.void : Effect.fail(failure)))
      )
    yield* Effect.logInfo(`S3 bucket '${bucket}' did not exist and was created`)
  }).pipe(Effect.mapError((failure) => storageError(failure.what, failure.cause)))

/**
 * Whether the server honours If-Match on DELETE: a probe object deleted under a wrong ETag must
 * survive. Also proves at start that the credentials can write, read and delete.
 */
const probeConditionalDelete = (client: S3Client, bucket: string, root: string) =>
  Effect.gen(function*() {
    const key = `${root}.formwright-probe/${randomToken()}`
    yield* request(`write to bucket ${bucket}`, (signal) =>
      client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: "probe" }), { abortSignal: signal }))
    const refused = yield* request(`delete from bucket ${bucket}`, (signal) =>
      client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, IfMatch: "0123456789abcdef0123456789abcdef" }), { abortSignal: signal })).pipe(
        Effect.as(false),
        Effect.catch((failure) => (statusOf(failure.cause) === 412 ? Effect.succeed(true) : Effect.fail(failure)))
      )
    const survived = yield* request(`read from bucket ${bucket}`, (signal) =>
      client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal })).pipe(
        Effect.as(true),
        Effect.catch((failure) => (isNotFound(failure.cause) ? Effect.succeed(false) : Effect.fail(failure)))
      )
    if (survived) yield* request(`delete from bucket ${bucket}`, (signal) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal }))
    return refused && survived ? "native" as const : "tombstone" as const
  }).pipe(Effect.mapError((failure) => storageError(failure.what, failure.cause)))

/** The Storage service on an S3 bucket (created when missing, unless `createBucket: false`). */
export const layer = (options: Options): Layer.Layer<Storage.Storage, Storage.StorageError> =>
  Layer.effect(Storage.Storage, Effect.map(make(options), Storage.make))

/**
 * The S3 settings from the environment: `FORMWRIGHT_S3_BUCKET` (required),
 * `FORMWRIGHT_S3_PREFIX`, `FORMWRIGHT_S3_ENDPOINT`, `FORMWRIGHT_S3_REGION` and
 * `FORMWRIGHT_S3_FORCE_PATH_STYLE`; credentials come from the AWS SDK's standard chain
 * (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, instance roles, ...).
 */
export const config: Config.Config<Options> = Config.all({
  bucket: Config.String("FORMWRIGHT_S3_BUCKET"),
  prefix: Config.String("FORMWRIGHT_S3_PREFIX").pipe(Config.withDefault("")),
  endpoint: optionalString("FORMWRIGHT_S3_ENDPOINT"),
  region: optionalString("FORMWRIGHT_S3_REGION"),
  forcePathStyle: Config.Boolean("FORMWRIGHT_S3_FORCE_PATH_STYLE").pipe(Config.option, Config.map(Option.getOrUndefined))
})

function optionalString(name: string): Config.Config<string | undefined> {
  return Config.String(name).pipe(Config.option, Config.map((value) => Option.getOrUndefined(Option.filter(value, (s) => s.trim() !== ""))))
}

/** `layer` configured from the environment (see `config`). */
export const layerConfig: Layer.Layer<Storage.Storage, Storage.StorageError | Config.ConfigError> = Layer.unwrap(Effect.map(config, layer))
