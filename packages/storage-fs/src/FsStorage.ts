/**
 * The Storage port on a local directory: the embedded default for a single machine.
 *
 * Layout under the data directory:
 * - `docs/` and `blobs/`: one file per key; each key segment becomes a percent-encoded directory
 *   or file name, and stored files end in `~.json` / `~.bin`. `~` never occurs in an encoded
 *   segment, so the file for key `a` and the directory for keys `a/...` cannot collide.
 * - `tmp/`: files being written. Every write goes to a fresh temp file, is fsynced and then
 *   renamed over its target (atomic on POSIX), so a process killed at any instant leaves either
 *   the old or the new content, never a mix. Keeping them out of `docs/` and `blobs/` means
 *   listings never see them and start-up cleanup reads one directory.
 * - `locks/`: per-document lock files, held only while a document write compares and renames.
 *
 * Document writes take an in-process per-key semaphore and then a lock file created with
 * O_EXCL, so conditional writes are atomic across fibers and across processes sharing the
 * directory. A lock whose holder died (its pid is gone) or that is older than `staleLockMs` is
 * broken, so a killed process never blocks a key for long.
 *
 * Key segments are not case-folded: on a case-insensitive file system (macOS, Windows defaults)
 * keys that differ only in case share a file. Formwright's keys are ids, which never do.
 */
import { Config, Effect, Exit, Layer, Option, Schema, Semaphore, Stream } from "effect"
import { Storage } from "@formwright/core"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs/promises"
import * as Os from "node:os"
import * as Path from "node:path"

/** Where the store lives and how it treats abandoned locks. */
export interface Options {
  /** The data directory; created (with parents) when the layer is built. */
  readonly directory: string
  /** A lock file older than this is presumed abandoned (default 10 s). */
  readonly staleLockMs?: number | undefined
  /** How long a document write waits for its lock before failing (default 30 s). */
  readonly lockTimeoutMs?: number | undefined
}

type Namespace = "docs" | "blobs"

const suffixes: Record<Namespace, string> = { docs: "~.json", blobs: "~.bin" }

// Linux NAME_MAX (255 bytes) less the longest suffix; encoded names are ASCII.
const maxSegmentLength = 255 - "~.json".length

// Temp files older than this cannot belong to a write still in progress.
const abandonedTempMs = 60 * 60 * 1000

const Envelope = Schema.fromJsonString(Schema.Struct({ version: Schema.String, value: Schema.String }))
const decodeEnvelope = Schema.decodeUnknownEffect(Envelope)

const LockOwner = Schema.fromJsonString(Schema.Struct({ pid: Schema.Number, host: Schema.String, token: Schema.String }))
const decodeLockOwner = Schema.decodeUnknownOption(LockOwner)

const errorCode = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined

const isCode = (cause: unknown, ...codes: ReadonlyArray<string>) => {
  const code = errorCode(cause)
  return code !== undefined && codes.includes(code)
}

/** No space left on the device, or the user's quota is used up: the store is full (507 at the edge). */
const isFull = (cause: unknown) => isCode(cause, "ENOSPC", "EDQUOT")

const fsTry = <A>(message: string, run: () => Promise<A>): Effect.Effect<A, Storage.StorageError> =>
  Effect.tryPromise({
    try: run,
    catch: (cause) =>
      new Storage.StorageError({
        message: `${message}: ${errorCode(cause) ?? (cause instanceof Error ? cause.message : String(cause))}`,
        ...(isFull(cause) ? { reason: "Full" as const } : {}),
        cause
      })
  })

/** Resolves to `undefined` instead of rejecting when the error has one of `codes`. */
const unless = <A>(promise: Promise<A>, ...codes: ReadonlyArray<string>): Promise<A | undefined> =>
  promise.catch((cause) => (isCode(cause, ...codes) ? undefined : Promise.reject(cause)))

/**
 * Percent-encodes everything outside [A-Za-z0-9._-] (UTF-8 bytes), plus the names `.` and `..`,
 * so any segment is a plain file name that stays inside its directory. The empty segment
 * becomes `%`, which no other segment encodes to.
 */
const encodeSegment = (segment: string): string => {
  if (segment === "") return "%"
  if (segment === "." || segment === "..") return segment.replaceAll(".", "%2E")
  return encodeURIComponent(segment).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** The segment a name encodes, or undefined for names this adapter never writes. */
const decodeSegment = (name: string): string | undefined => {
  if (name === "%") return ""
  try {
    const segment = decodeURIComponent(name)
    return segment !== "" && !segment.includes("/") && encodeSegment(segment) === name ? segment : undefined
  } catch {
    return undefined
  }
}


const isProcessAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (cause) {
    // EPERM: the process exists but belongs to someone else.
    return isCode(cause, "EPERM")
  }
}

const randomToken = () => Crypto.randomBytes(12).toString("base64url")

/** Mutual exclusion per key between the fibers of this process. */
const makeKeyedMutex = () => {
  const entries = new Map<string, { readonly semaphore: Semaphore.Semaphore; users: number }>()
  return <A, E, R>(key: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      let entry = entries.get(key)
      if (entry === undefined) {
        entry = { semaphore: Semaphore.makeUnsafe(1), users: 0 }
        entries.set(key, entry)
      }
      const held = entry
      held.users++
      return held.semaphore.withPermit(effect).pipe(
        Effect.ensuring(Effect.sync(() => {
          if (--held.users === 0) entries.delete(key)
        }))
      )
    })
}

/** A backend on `options.directory`, creating its directories and clearing abandoned temp files. */
export const make = Effect.fn("FsStorage.make")(function*(options: Options) {
  const root = Path.resolve(options.directory)
  const tmpDir = Path.join(root, "tmp")
  const locksDir = Path.join(root, "locks")
  const staleLockMs = options.staleLockMs ?? 10_000
  const lockTimeoutMs = options.lockTimeoutMs ?? 30_000
  const host = Os.hostname()
  // Temp names carry the host so that only this host judges them by pid.
  const hostTag = Crypto.createHash("sha256").update(host).digest("hex").slice(0, 8)

  for (const dir of [Path.join(root, "docs"), Path.join(root, "blobs"), tmpDir, locksDir]) {
    yield* fsTry(`Could not create storage directory ${dir}`, () => Fs.mkdir(dir, { recursive: true }))
  }
  yield* removeAbandonedTempFiles(tmpDir, hostTag)

  // ---- paths -------------------------------------------------------------------------------

  const encodeSegments = (key: string, segments: ReadonlyArray<string>) =>
    Effect.try({
      try: () => {
        const names = segments.map(encodeSegment)
        if (names.some((name) => name.length > maxSegmentLength)) throw new Error("a key segment is too long for a file name")
        return names
      },
      // encodeURIComponent throws on lone surrogates.
      catch: (cause) =>
        new Storage.StorageError({
          message: `Invalid storage key ${JSON.stringify(key)}: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause
        })
    })

  const pathOf = (namespace: Namespace, key: string) =>
    Effect.map(encodeSegments(key, key.split("/")), (names) => {
      const dir = Path.join(root, namespace, ...names.slice(0, -1))
      return { dir, file: Path.join(dir, names[names.length - 1] + suffixes[namespace]) }
    })

  // ---- durable writes ----------------------------------------------------------------------

  const syncDirectory = async (dir: string) => {
    // Some platforms cannot open or fsync a directory; the rename is still atomic there.
    const handle = await unless(Fs.open(dir, "r"), "EISDIR", "EPERM", "EACCES")
    if (handle === undefined) return
    try {
      await unless(handle.sync(), "EINVAL", "EPERM", "EBADF")
    } finally {
      await handle.close()
    }
  }

  const makeDirectory = async (dir: string) => {
    const first = await Fs.mkdir(dir, { recursive: true })
    if (first === undefined) return
    // New directories are only durable once the directory holding each of them is synced.
    for (let current = dir; ; current = Path.dirname(current)) {
      const parent = Path.dirname(current)
      await syncDirectory(parent)
      if (current === first || parent === current) break
    }
  }

  // Uninterruptible: an abandoned promise could otherwise rename an older write over a newer
  // one, or finish after the document lock was released.
  const writeAtomically = (dir: string, file: string, bytes: Uint8Array | string, message: string) =>
    Effect.uninterruptible(fsTry(message, async () => {
      await makeDirectory(dir)
      const temp = Path.join(tmpDir, `${hostTag}-${process.pid}-${randomToken()}`)
      try {
        const handle = await Fs.open(temp, "wx")
        try {
          await handle.writeFile(bytes)
          await handle.sync()
        } finally {
          await handle.close()
        }
        await Fs.rename(temp, file)
      } catch (cause) {
        await unless(Fs.unlink(temp), "ENOENT")
        throw cause
      }
      await syncDirectory(dir)
    }))

  const removeFile = (dir: string, file: string, message: string) =>
    Effect.uninterruptible(fsTry(message, async () => {
      const removed = await unless(Fs.unlink(file).then(() => true), "ENOENT", "ENOTDIR")
      if (removed) await syncDirectory(dir)
      return removed === true
    }))

  // ---- cross-process document locks --------------------------------------------------------

  const lockPathOf = (key: string) => Path.join(locksDir, `${Crypto.createHash("sha256").update(`docs\u0000${key}`).digest("hex")}.lock`)

  const isStale = (text: string, modifiedAt: number) => {
    if (Date.now() - modifiedAt > staleLockMs) return true
    const owner = decodeLockOwner(text)
    return Option.isSome(owner) && owner.value.host === host && !isProcessAlive(owner.value.pid)
  }

  /** Creates the lock file, or reports the content of a stale one standing in the way. */
  const tryLock = async (path: string, content: string): Promise<"locked" | "busy" | { readonly stale: string }> => {
    const handle = await unless(Fs.open(path, "wx"), "EEXIST")
    if (handle !== undefined) {
      try {
        await handle.writeFile(content)
      } catch (cause) {
        // On a full disk the file is created but its content cannot be written: an empty lock
        // would hold the key until it went stale, so it goes now.
        await handle.close().catch(() => undefined)
        await unless(Fs.unlink(path), "ENOENT")
        throw cause
      }
      await handle.close()
      return "locked"
    }
    const stat = await unless(Fs.stat(path), "ENOENT")
    if (stat === undefined) return "busy"
    const text = (await unless(Fs.readFile(path, "utf8"), "ENOENT")) ?? ""
    return isStale(text, stat.mtimeMs) ? { stale: text } : "busy"
  }

  /**
   * Removes a stale lock. Breakers serialize on a second lock file, and remove the lock only if
   * it still holds the content judged stale: otherwise two processes breaking the same lock at
   * once could remove the fresh lock the faster one just took.
   */
  const breakLock = async (path: string, staleContent: string) => {
    const breaker = `${path}.break`
    const handle = await unless(Fs.open(breaker, "wx"), "EEXIST")
    if (handle === undefined) {
      // A breaker that died mid-break would otherwise block the key forever.
      const stat = await unless(Fs.stat(breaker), "ENOENT")
      if (stat !== undefined && Date.now() - stat.mtimeMs > staleLockMs) await unless(Fs.unlink(breaker), "ENOENT")
      return
    }
    try {
      await handle.close()
      const current = await unless(Fs.readFile(path, "utf8"), "ENOENT")
      if (current === staleContent) await unless(Fs.unlink(path), "ENOENT")
    } finally {
      await unless(Fs.unlink(breaker), "ENOENT")
    }
  }

  const acquireLock = (key: string) =>
    Effect.gen(function*() {
      const path = lockPathOf(key)
      const token = randomToken()
      const content = JSON.stringify({ pid: process.pid, host, token })
      const deadline = Date.now() + lockTimeoutMs
      for (let attempt = 0; ; attempt++) {
        const outcome = yield* fsTry(`Could not lock document ${key}`, () => tryLock(path, content))
        if (outcome === "locked") return { path, content }
        if (outcome !== "busy") {
          yield* fsTry(`Could not break the stale lock on document ${key}`, () => breakLock(path, outcome.stale))
          continue
        }
        if (Date.now() > deadline) {
          return yield* new Storage.StorageError({ message: `Timed out after ${lockTimeoutMs} ms waiting for the lock on document ${key}` })
        }
        // Locks are held for a compare-and-rename only: poll fast, with jitter so waiters spread out.
        yield* Effect.sleep(Math.random() * Math.min(2 + attempt, 25))
      }
    })

  const releaseLock = (lock: { readonly path: string; readonly content: string }) =>
    fsTry(`Could not unlock ${lock.path}`, async () => {
      // Our lock may have been broken as stale and taken by another writer: leave theirs alone.
      const current = await unless(Fs.readFile(lock.path, "utf8"), "ENOENT")
      if (current === lock.content) await unless(Fs.unlink(lock.path), "ENOENT")
    }).pipe(Effect.ignore)

  const withKeyMutex = makeKeyedMutex()

  /** Runs `effect` holding the key's lock in this process and in every process on the directory. */
  const withDocumentLock = <A, E>(key: string, effect: Effect.Effect<A, E>) =>
    withKeyMutex(key, Effect.acquireUseRelease(acquireLock(key), () => Effect.uninterruptible(effect), releaseLock))

  // ---- documents ---------------------------------------------------------------------------

  const readDocument = (key: string, file: string) =>
    fsTry(`Could not read document ${key}`, () => unless(Fs.readFile(file, "utf8"), "ENOENT", "ENOTDIR")).pipe(
      Effect.flatMap((text) =>
        text === undefined
          ? Effect.succeedNone
          : decodeEnvelope(text).pipe(
            Effect.map((document): Option.Option<Storage.VersionedDocument> => Option.some(document)),
            Effect.mapError((cause) => new Storage.StorageError({ message: `Stored document ${key} is not a valid record envelope`, cause }))
          )
      )
    )

  const conflictsWith = (condition: Storage.WriteCondition, current: Option.Option<Storage.VersionedDocument>) =>
    condition === "any"
      ? false
      : condition === "absent"
      ? Option.isSome(current)
      : Option.isNone(current) || current.value.version !== condition.version

  // ---- listing -----------------------------------------------------------------------------

  /**
   * Keys under `prefix` after `cursor`, in key order, at most `limit + 1` (the extra one tells
   * whether another page exists). Directories are walked in the order of the keys they hold, so
   * the walk stops as soon as it has enough instead of reading the whole tree.
   */
  const collectKeys = (namespace: Namespace, prefix: string, cursor: string | undefined, limit: number) =>
    Effect.gen(function*() {
      const suffix = suffixes[namespace]
      const cut = prefix.lastIndexOf("/") + 1
      const names = yield* encodeSegments(prefix, cut === 0 ? [] : prefix.slice(0, cut - 1).split("/"))
      const found: Array<string> = []

      const walk = (dir: string, keyPrefix: string, startsWith: string): Effect.Effect<void, Storage.StorageError> =>
        Effect.gen(function*() {
          const entries = yield* fsTry(
            `Could not list ${dir}`,
            () => unless(Fs.readdir(dir, { withFileTypes: true }), "ENOENT", "ENOTDIR")
          )
          const children: Array<{ readonly key: string; readonly dir?: string }> = []
          for (const entry of entries ?? []) {
            if (entry.isDirectory()) {
              const segment = decodeSegment(entry.name)
              if (segment?.startsWith(startsWith)) children.push({ key: `${keyPrefix}${segment}/`, dir: Path.join(dir, entry.name) })
            } else if (entry.isFile() && entry.name.endsWith(suffix)) {
              const segment = decodeSegment(entry.name.slice(0, -suffix.length))
              if (segment?.startsWith(startsWith)) children.push({ key: `${keyPrefix}${segment}` })
            }
          }
          children.sort((a, b) => Storage.compareKeys(a.key, b.key))
          for (const child of children) {
            if (found.length > limit) return
            if (child.dir === undefined) {
              if (cursor === undefined || Storage.compareKeys(child.key, cursor) > 0) found.push(child.key)
            } else if (cursor === undefined || Storage.compareKeys(child.key, cursor) > 0 || cursor.startsWith(child.key)) {
              yield* walk(child.dir, child.key, "")
            }
          }
        })

      yield* walk(Path.join(root, namespace, ...names), prefix.slice(0, cut), prefix.slice(cut))
      const items = found.slice(0, limit)
      return { items, cursor: found.length > limit ? items[items.length - 1] : undefined }
    })

  const pageLimit = (options: Storage.ListOptions | undefined) => Math.max(1, Math.floor(options?.limit ?? 1000))

  // ---- the backend -------------------------------------------------------------------------

  const backend: Storage.StorageBackend = {
    capabilities: { crossProcessConsistency: true },

    putBlob: Effect.fn("FsStorage.putBlob")(function*(key: string, bytes: Uint8Array) {
      const path = yield* pathOf("blobs", key)
      yield* writeAtomically(path.dir, path.file, bytes, `Could not write blob ${key}`)
    }),

    getBlob: Effect.fn("FsStorage.getBlob")(function*(key: string) {
      const path = yield* pathOf("blobs", key)
      const bytes = yield* fsTry(`Could not read blob ${key}`, () => unless(Fs.readFile(path.file), "ENOENT", "ENOTDIR"))
      return bytes === undefined ? Option.none() : Option.some(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    }),

    // Streamed like every write: into a temp file, fsynced, renamed over the target, so a failed
    // or interrupted upload leaves the previous blob (or none) and only a temp file to remove.
    putBlobStream: <E, R>(key: string, stream: Stream.Stream<Uint8Array, E, R>) =>
      Effect.gen(function*() {
        const path = yield* pathOf("blobs", key)
        const temp = Path.join(tmpDir, `${hostTag}-${process.pid}-${randomToken()}`)
        const message = `Could not write blob ${key}`
        yield* Effect.acquireUseRelease(
          fsTry(message, () => Fs.open(temp, "wx")),
          (handle) =>
            Stream.runForEach(stream, (chunk) =>
              fsTry(message, async () => {
                for (let at = 0; at < chunk.byteLength;) at += (await handle.write(chunk, at, chunk.byteLength - at)).bytesWritten
              })).pipe(
                Effect.andThen(fsTry(message, () => handle.sync())),
                Effect.andThen(Effect.uninterruptible(fsTry(message, async () => {
                  await makeDirectory(path.dir)
                  await Fs.rename(temp, path.file)
                  await syncDirectory(path.dir)
                })))
              ),
          (handle, exit) =>
            Effect.promise(async () => {
              await handle.close().catch(() => undefined)
              if (Exit.isFailure(exit)) await Fs.unlink(temp).catch(() => undefined)
            })
        )
      }).pipe(Effect.withSpan("FsStorage.putBlobStream")),

    // The file is opened when the stream runs; if it was replaced or removed since it was found,
    // the stream fails rather than read another blob than the one reported.
    getBlobStream: Effect.fn("FsStorage.getBlobStream")(function*(key: string) {
      const path = yield* pathOf("blobs", key)
      const found = yield* fsTry(`Could not read blob ${key}`, () => unless(Fs.stat(path.file), "ENOENT", "ENOTDIR"))
      if (found === undefined) return Option.none<Stream.Stream<Uint8Array, Storage.StorageError>>()
      const changed = () => new Storage.StorageError({ message: `Blob ${key} changed or was deleted while it was being read` })
      const stream = Stream.unwrap(
        Effect.acquireRelease(
          fsTry(`Could not read blob ${key}`, () => unless(Fs.open(path.file, "r"), "ENOENT", "ENOTDIR")),
          (handle) => Effect.promise(() => handle?.close().catch(() => undefined) ?? Promise.resolve())
        ).pipe(
          Effect.flatMap((handle) =>
            handle === undefined
              ? Effect.fail(changed())
              : Effect.flatMap(fsTry(`Could not read blob ${key}`, () => handle.stat()), (stat) =>
                stat.ino !== found.ino || stat.dev !== found.dev
                  ? Effect.fail(changed())
                  : Effect.succeed(Stream.fromAsyncIterable(
                    handle.createReadStream({ autoClose: false, highWaterMark: 256 * 1024 }) as AsyncIterable<Uint8Array>,
                    (cause) => new Storage.StorageError({ message: `Could not read blob ${key}`, cause })
                  )))
          )
        )
      )
      return Option.some(stream)
    }),

    deleteBlob: Effect.fn("FsStorage.deleteBlob")(function*(key: string) {
      const path = yield* pathOf("blobs", key)
      yield* removeFile(path.dir, path.file, `Could not delete blob ${key}`)
    }),

    listBlobs: Effect.fn("FsStorage.listBlobs")(function*(prefix: string, options?: Storage.ListOptions) {
      return yield* collectKeys("blobs", prefix, options?.cursor, pageLimit(options))
    }),

    getDocument: Effect.fn("FsStorage.getDocument")(function*(key: string) {
      const path = yield* pathOf("docs", key)
      return yield* readDocument(key, path.file)
    }),

    // Conditional writes check once without the lock: versions are never reused, so a condition
    // that fails now can never hold again and the write fails fast instead of queueing for the
    // lock (what keeps a hot key moving). Under the lock they check again before writing.
    putDocument: Effect.fn("FsStorage.putDocument")(function*(key: string, value: string, condition: Storage.WriteCondition) {
      const path = yield* pathOf("docs", key)
      const check = condition === "any"
        ? Effect.void
        : Effect.flatMap(readDocument(key, path.file), (current) =>
          conflictsWith(condition, current) ? Effect.fail(new Storage.StorageConflict({ key })) : Effect.void)
      yield* check
      return yield* withDocumentLock(
        key,
        Effect.gen(function*() {
          yield* check
          const version = randomToken()
          yield* writeAtomically(path.dir, path.file, JSON.stringify({ version, value }), `Could not write document ${key}`)
          return version
        })
      )
    }),

    deleteDocument: Effect.fn("FsStorage.deleteDocument")(function*(key: string, condition: Storage.WriteCondition) {
      const path = yield* pathOf("docs", key)
      const check = Effect.flatMap(readDocument(key, path.file), (current) =>
        Option.isNone(current)
          ? Effect.succeed(false)
          : conflictsWith(condition, current)
          ? Effect.fail(new Storage.StorageConflict({ key }))
          : Effect.succeed(true))
      if (!(yield* check)) return false
      return yield* withDocumentLock(
        key,
        Effect.gen(function*() {
          if (!(yield* check)) return false
          return yield* removeFile(path.dir, path.file, `Could not delete document ${key}`)
        })
      )
    }),

    listDocuments: Effect.fn("FsStorage.listDocuments")(function*(prefix: string, options?: Storage.ListOptions) {
      const keys = yield* collectKeys("docs", prefix, options?.cursor, pageLimit(options))
      const documents = yield* Effect.forEach(
        keys.items,
        (key) => Effect.flatMap(pathOf("docs", key), (path) => Effect.map(readDocument(key, path.file), Option.map((document) => ({ key, document })))),
        { concurrency: 16 }
      )
      // A document deleted since the directory was read is simply not on the page.
      return { items: documents.flatMap((document) => Option.isSome(document) ? [document.value] : []), cursor: keys.cursor }
    })
  }
  return backend
})

/**
 * Deletes temp files no write can still be using: written by a process of this host that is
 * gone, or older than any write takes. Whatever fails here is left for the next start.
 */
const removeAbandonedTempFiles = (tmpDir: string, hostTag: string) =>
  fsTry(`Could not clean up ${tmpDir}`, async () => {
    const now = Date.now()
    for (const name of await Fs.readdir(tmpDir)) {
      const [tag, pid] = name.split("-")
      const path = Path.join(tmpDir, name)
      const ownerGone = tag === hostTag && pid !== undefined && !isProcessAlive(Number(pid))
      if (ownerGone) {
        await unless(Fs.unlink(path), "ENOENT")
        continue
      }
      const stat = await unless(Fs.stat(path), "ENOENT")
      if (stat !== undefined && now - stat.mtimeMs > abandonedTempMs) await unless(Fs.unlink(path), "ENOENT")
    }
  }).pipe(Effect.ignore)

/** The Storage service on a local directory (created if missing). */
export const layer = (options: Options): Layer.Layer<Storage.Storage, Storage.StorageError> =>
  Layer.effect(Storage.Storage, Effect.map(make(options), Storage.make))

/** `layer` on the directory named by `FORMWRIGHT_DATA_DIR` (default `./data`). */
export const layerConfig: Layer.Layer<Storage.Storage, Storage.StorageError | Config.ConfigError> = Layer.unwrap(
  Effect.map(Config.String("FORMWRIGHT_DATA_DIR").pipe(Config.withDefault("./data")), (directory) => layer({ directory }))
)
