/**
 * An in-memory Storage adapter for tests and examples: the whole store lives in two Maps and is
 * gone when the layer is released. Every operation runs synchronously on the Effect scheduler,
 * so conditional writes are trivially atomic within the process (and there is no other process).
 */
import { Effect, Layer, Option } from "effect"
import { Storage } from "@formwright/core"


const page = <A>(
  keys: Iterable<string>,
  prefix: string,
  options: Storage.ListOptions | undefined,
  item: (key: string) => A
): Storage.Page<A> => {
  const limit = Math.max(1, Math.floor(options?.limit ?? 1000))
  const cursor = options?.cursor
  const matching = Array.from(keys)
    .filter((key) => key.startsWith(prefix) && (cursor === undefined || Storage.compareKeys(key, cursor) > 0))
    .sort(Storage.compareKeys)
  const items = matching.slice(0, limit)
  return {
    items: items.map(item),
    cursor: matching.length > limit ? items[items.length - 1] : undefined
  }
}

const conflictsWith = (condition: Storage.WriteCondition, current: Storage.VersionedDocument | undefined): boolean =>
  condition === "any" ? false : condition === "absent" ? current !== undefined : current?.version !== condition.version

/** A fresh, empty in-memory backend. */
export const make = (): Storage.StorageBackend => {
  const blobs = new Map<string, Uint8Array>()
  const documents = new Map<string, Storage.VersionedDocument>()
  let lastVersion = 0

  return {
    capabilities: { crossProcessConsistency: false },

    // Copies on the way in and out: callers must not be able to mutate stored bytes.
    putBlob: Effect.fn("MemoryStorage.putBlob")(function*(key: string, bytes: Uint8Array) {
      blobs.set(key, Uint8Array.from(bytes))
    }),

    getBlob: Effect.fn("MemoryStorage.getBlob")(function*(key: string) {
      const bytes = blobs.get(key)
      return bytes === undefined ? Option.none() : Option.some(Uint8Array.from(bytes))
    }),

    deleteBlob: Effect.fn("MemoryStorage.deleteBlob")(function*(key: string) {
      blobs.delete(key)
    }),

    listBlobs: Effect.fn("MemoryStorage.listBlobs")(function*(prefix: string, options?: Storage.ListOptions) {
      return page(blobs.keys(), prefix, options, (key) => key)
    }),

    getDocument: Effect.fn("MemoryStorage.getDocument")(function*(key: string) {
      return Option.fromUndefinedOr(documents.get(key))
    }),

    putDocument: Effect.fn("MemoryStorage.putDocument")(function*(key: string, value: string, condition: Storage.WriteCondition) {
      if (conflictsWith(condition, documents.get(key))) return yield* new Storage.StorageConflict({ key })
      const version = String(++lastVersion)
      documents.set(key, { value, version })
      return version
    }),

    deleteDocument: Effect.fn("MemoryStorage.deleteDocument")(function*(key: string, condition: Storage.WriteCondition) {
      const current = documents.get(key)
      if (current === undefined) return false
      if (conflictsWith(condition, current)) return yield* new Storage.StorageConflict({ key })
      documents.delete(key)
      return true
    }),

    listDocuments: Effect.fn("MemoryStorage.listDocuments")(function*(prefix: string, options?: Storage.ListOptions) {
      return page(documents.keys(), prefix, options, (key) => ({ key, document: documents.get(key)! }))
    })
  }
}

/** The Storage service on a fresh in-memory store (one per layer build). */
export const layer: Layer.Layer<Storage.Storage> = Layer.sync(Storage.Storage, () => Storage.make(make()))
