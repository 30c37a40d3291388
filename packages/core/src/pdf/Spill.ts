/**
 * Large PDFs cross between the server and a worker process as files rather than inside messages.
 * A message is serialized whole on one side, then collected and deserialized whole on the other:
 * for a 50 MB PDF that is two or three more copies of it held at once, in each process. A file is
 * written from the sender's buffer and read once into the receiver's.
 *
 * Only a `Uint8Array` of `threshold` bytes or more is spilled: the value itself, or one of its own
 * properties (a task's `pdf`, a result's `pdf` or `png`); the rest still travels in the message.
 * Plain functions: the pool side (`PdfEngine`) and the worker side (`PdfWorker`) both use them.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { readFile, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"

/** Below this, a message is cheaper than a file. */
export const threshold = 2 * 1024 * 1024

const KEY = "formwright:spilled-file"

/** What stands in a message for bytes written to a file. */
interface Marker {
  readonly [KEY]: string
}

const isMarker = (value: unknown): value is Marker =>
  typeof value === "object" && value !== null && typeof (value as Record<string, unknown>)[KEY] === "string"

const isLarge = (value: unknown): value is Uint8Array => value instanceof Uint8Array && value.byteLength >= threshold

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !(value instanceof Uint8Array) && !Array.isArray(value)

/** The value with each large `Uint8Array` (itself, or an own property) replaced by `replace`'s result. */
const mapLarge = <R>(value: unknown, replace: (bytes: Uint8Array) => R): unknown => {
  if (isLarge(value)) return replace(value)
  if (!isRecord(value) || !Object.values(value).some(isLarge)) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isLarge(v) ? replace(v) : v]))
}

/** The markers of a value (itself, or its own properties). */
const markersOf = (value: unknown): ReadonlyArray<Marker> =>
  isMarker(value) ? [value] : isRecord(value) ? Object.values(value).filter(isMarker) : []

const fileIn = (dir: string) => join(dir, `${randomBytes(8).toString("hex")}.bin`)

const markerOf = (path: string): Marker => ({ [KEY]: path })

export interface Spilled {
  readonly value: unknown
  /** The files written, for the sender to remove once the receiver is done with them. */
  readonly files: ReadonlyArray<string>
}

/** `value` with its large bytes written to files in `dir` (the server's side: it must not block). */
export const spill = async (value: unknown, dir: string): Promise<Spilled> => {
  const writes: Array<Promise<void>> = []
  const files: Array<string> = []
  const replaced = mapLarge(value, (bytes) => {
    const path = fileIn(dir)
    files.push(path)
    writes.push(writeFile(path, bytes))
    return markerOf(path)
  })
  const results = await Promise.allSettled(writes)
  if (results.some((r) => r.status === "rejected")) {
    await removeAll(files)
    throw (results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason
  }
  return { value: replaced, files }
}

/** `value` with its large bytes written to files in `dir`, blocking (the worker's side, between tasks). */
export const spillSync = (value: unknown, dir: string): unknown =>
  mapLarge(value, (bytes) => {
    const path = fileIn(dir)
    writeFileSync(path, bytes)
    return markerOf(path)
  })

const restoreWith = (value: unknown, contents: ReadonlyMap<string, Uint8Array>): unknown => {
  const restored = (marker: Marker) => contents.get(marker[KEY])!
  if (isMarker(value)) return restored(value)
  if (!isRecord(value) || markersOf(value).length === 0) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isMarker(v) ? restored(v) : v]))
}

const asBytes = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)

/** `value` with its files read back, blocking; the files stay (the worker's side: the server removes them). */
export const restoreSync = (value: unknown): unknown =>
  restoreWith(value, new Map(markersOf(value).map((m) => [m[KEY], asBytes(readFileSync(m[KEY]))])))

/** `value` with its files read back and removed (the server's side, for a worker's result). */
export const restore = async (value: unknown): Promise<unknown> => {
  const paths = markersOf(value).map((m) => m[KEY])
  if (paths.length === 0) return value
  try {
    const contents = await Promise.all(paths.map(async (path) => [path, asBytes(await readFile(path))] as const))
    return restoreWith(value, new Map(contents))
  } finally {
    await removeAll(paths)
  }
}

/** Removes files, whether or not they are still there. */
export const removeAll = async (paths: ReadonlyArray<string>): Promise<void> => {
  await Promise.all(paths.map((path) => rm(path, { force: true })))
}

/** Removes a directory of spilled files and everything in it. */
export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true })

const PREFIX = "formwright-pdf-"
/** A spill directory's name: the prefix, the pid of the process that made it, a random suffix. */
const OWN_DIR = new RegExp(`^${PREFIX}(\\d+)-`)

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * A new directory for this process's spilled files under `parent`, named after the process; the
 * directories of processes that ended without removing theirs (killed) are removed first.
 */
export const makeDir = (parent: string): string => {
  for (const name of readdirSync(parent)) {
    const pid = Number(OWN_DIR.exec(name)?.[1])
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) removeDir(join(parent, name))
  }
  return mkdtempSync(join(parent, `${PREFIX}${process.pid}-`))
}
