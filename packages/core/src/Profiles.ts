/**
 * The Profiles service: a user's stored people and companies, whose facts feed autofill.
 * Another user's profile is indistinguishable from a missing one.
 */
import { Cache, Context, Duration, Effect, Exit, Layer, Option, Schema } from "effect"
import * as Clock from "./Clock.ts"
import * as FileName from "./FileName.ts"
import type { ListResult } from "./Forms.ts"
import * as Id from "./Id.ts"
import { InvalidInput, validate } from "./InvalidInput.ts"
import * as MediaType from "./MediaType.ts"
import {
  CreateProfile,
  dataSize,
  PatchProfile,
  Profile,
  type ProfileFile,
  profileLimits,
  ProfileNotFound,
  ProfileStatus
} from "./Profile.ts"
import * as Storage from "./Storage.ts"
import { withUndo } from "./Undo.ts"

export interface ProfileQuery {
  /** Case-insensitive substring of the name. */
  readonly name?: string | undefined
  readonly status?: ProfileStatus | undefined
  readonly page: number
  readonly size: number
}

export type { CreateProfile, PatchProfile } from "./Profile.ts"

export interface AttachFile {
  readonly fileName: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

export interface ProfilesShape {
  readonly create: (owner: Id.UserId, input: CreateProfile) => Effect.Effect<Profile, InvalidInput | Storage.StorageError>
  readonly list: (owner: Id.UserId, query: ProfileQuery) => Effect.Effect<ListResult<Profile>, Storage.StorageError>
  readonly get: (owner: Id.UserId, id: string) => Effect.Effect<Profile, ProfileNotFound | Storage.StorageError>
  readonly update: (owner: Id.UserId, id: string, patch: PatchProfile) => Effect.Effect<Profile, ProfileNotFound | InvalidInput | Storage.StorageError>
  readonly delete: (owner: Id.UserId, id: string) => Effect.Effect<void, ProfileNotFound | Storage.StorageError>
  /** Attaches a document; its name is cleaned like a form's (FileName.clean), its type normalised. */
  readonly attachFile: (
    owner: Id.UserId,
    id: string,
    file: AttachFile
  ) => Effect.Effect<{ readonly profile: Profile; readonly file: ProfileFile }, ProfileNotFound | InvalidInput | Storage.StorageError>
  /** The bytes of an attached file (autofill reads them). */
  readonly fileBytes: (owner: Id.UserId, id: string, fileId: string) => Effect.Effect<Option.Option<Uint8Array>, Storage.StorageError>
}

export class Profiles extends Context.Service<Profiles, ProfilesShape>()("@formwright/core/Profiles") {}

/**
 * Profiles live under their owner, so a listing never reads other users' records; an owner
 * index of small entries (name, status, created) lets a listing read only the profiles of the
 * page it returns. `indexed` marks an owner whose index is complete: profiles from before the
 * index get their entries the first time the owner lists them.
 */
export const keys = {
  prefix: (owner: string) => `profiles/${owner}/`,
  profile: (owner: string, id: string) => `profiles/${owner}/${id}`,
  file: (owner: string, id: string, fileId: string) => `profiles/${owner}/${id}/files/${fileId}`,
  index: (owner: string) => `owners/${owner}/profiles/`,
  entry: (owner: string, id: string) => `owners/${owner}/profiles/${id}`,
  indexed: (owner: string) => `owners/${owner}/profile-index`
}

/** What a listing filters and sorts on. */
const ProfileEntry = Schema.Struct({ profile_id: Schema.String, name: Schema.String, status: ProfileStatus, created: Schema.String })
type ProfileEntry = typeof ProfileEntry.Type

const IndexMarker = Schema.Struct({ created: Schema.String })

/**
 * How long a listing may go on showing an owner's profiles as they were after another server
 * sharing the storage changed them (docs/storage-s3.md, "What each server remembers"); writes
 * through this server show at once. A busy owner's listings then read the index and the
 * page's profiles once a second, instead of every entry and profile on every request.
 */
export const listingCacheMs = 1_000

interface Snapshot {
  /** This server's write count for the owner when the snapshot was read. */
  readonly writes: number
  /** The owner's index, newest first. */
  readonly entries: ReadonlyArray<ProfileEntry>
  /** Profiles read since, by id (none: gone). */
  readonly profiles: Map<string, Option.Option<Profile>>
  /** Characters of `data` the profiles held come to (`dataSize`). */
  size: number
}

/**
 * Owners whose snapshot is kept at most (least recently listed go first), and the characters
 * of profile data one holds: memory stays bounded whatever the profiles hold.
 */
const snapshotOwners = 128
const snapshotDataBudget = 512 * 1024

const entryOf = (p: Profile): ProfileEntry => ({ profile_id: p.idInternal, name: p.name, status: p.status, created: p.created })

const newestFirst = (a: ProfileEntry, b: ProfileEntry) =>
  a.created < b.created ? 1 : a.created > b.created ? -1 : a.profile_id < b.profile_id ? 1 : a.profile_id > b.profile_id ? -1 : 0

const matches = (query: ProfileQuery, p: { readonly name: string; readonly status: ProfileStatus }) =>
  (query.name === undefined || p.name.toLowerCase().includes(query.name.toLowerCase())) &&
  (query.status === undefined || p.status === query.status)

export const layer: Layer.Layer<Profiles, never, Storage.Storage> = Layer.effect(
  Profiles,
  Effect.gen(function*() {
    const storage = yield* Storage.Storage

    const get = Effect.fn("Profiles.get")(function*(owner: Id.UserId, id: string) {
      if (!Id.isSafeSegment(id)) return yield* new ProfileNotFound({ profileId: id })
      const found = yield* storage.getJson(Profile, keys.profile(owner, id))
      if (Option.isNone(found)) return yield* new ProfileNotFound({ profileId: id })
      return found.value.value
    })

    const modify = <E>(owner: Id.UserId, id: string, f: (p: Profile) => Effect.Effect<Profile, E>) =>
      Effect.gen(function*() {
        if (!Id.isSafeSegment(id)) return yield* new ProfileNotFound({ profileId: id })
        const updated = yield* storage.updateJson(Profile, keys.profile(owner, id), f)
        if (Option.isNone(updated)) return yield* new ProfileNotFound({ profileId: id })
        return updated.value
      })

    /** Entries for every profile of an owner from before the index, once. */
    const ensureIndexed = (owner: Id.UserId) =>
      Effect.gen(function*() {
        if (Option.isSome(yield* storage.getJson(IndexMarker, keys.indexed(owner)))) return
        for (const { value } of yield* storage.listJson(Profile, keys.prefix(owner))) {
          yield* storage.putJson(ProfileEntry, keys.entry(owner, value.idInternal), entryOf(value))
        }
        yield* storage.createJson(IndexMarker, keys.indexed(owner), { created: Clock.nowIso() }).pipe(
          Effect.catchTag("StorageConflict", () => Effect.void)
        )
      })

    /**
     * What listings read, remembered for `listingCacheMs` per owner: the owner's index, sorted,
     * and the profiles read since. A write through this service forgets the owner's at once (and
     * a listing that was reading meanwhile does not keep what it read), so this server always
     * lists its own writes; another server's writes show once the snapshot expires. Concurrent
     * listings of one owner share one read of the index.
     */
    const writes = new Map<string, number>()
    const writeCount = (owner: string) => writes.get(owner) ?? 0
    const snapshots = yield* Cache.makeWith((owner: Id.UserId) =>
      Effect.gen(function*() {
        const before = writeCount(owner)
        yield* ensureIndexed(owner)
        const entries = (yield* storage.listJson(ProfileEntry, keys.index(owner))).map((entry) => entry.value).sort(newestFirst)
        return { writes: before, entries, profiles: new Map(), size: 0 } satisfies Snapshot as Snapshot
      }), {
      capacity: snapshotOwners,
      timeToLive: (exit) => Exit.isSuccess(exit) ? Duration.millis(listingCacheMs) : Duration.zero
    })
    const forget = (owner: Id.UserId) =>
      Effect.suspend(() => {
        writes.set(owner, writeCount(owner) + 1)
        return Cache.invalidate(snapshots, owner)
      })

    /** The profiles of `entries`, from the snapshot where it has them. */
    const profilesOf = (owner: Id.UserId, snapshot: Snapshot, entries: ReadonlyArray<ProfileEntry>) =>
      Effect.gen(function*() {
        const read = new Map<string, Option.Option<Profile>>()
        const missing = entries.filter((entry) => !snapshot.profiles.has(entry.profile_id))
        if (missing.length > 0) {
          yield* Effect.forEach(
            missing,
            (entry) =>
              Effect.map(storage.getJson(Profile, keys.profile(owner, entry.profile_id)), (found) => {
                read.set(entry.profile_id, Option.map(found, (f) => f.value))
              }),
            { concurrency: 16, discard: true }
          )
          // Kept only if no write of this server began since the snapshot was read, and within
          // the snapshot's budget (a page of large profiles is read again rather than held).
          if (snapshot.writes === writeCount(owner)) {
            for (const [id, profile] of read) {
              const size = Option.isSome(profile) ? dataSize(profile.value.data) : 0
              if (snapshot.size + size > snapshotDataBudget) break
              snapshot.size += size
              snapshot.profiles.set(id, profile)
            }
          }
        }
        return entries.map((entry) => read.get(entry.profile_id) ?? snapshot.profiles.get(entry.profile_id) ?? Option.none())
      })

    return Profiles.of({
      create: Effect.fn("Profiles.create")(function*(owner, raw) {
        const input = yield* validate(CreateProfile, raw)
        const now = Clock.nowIso()
        const profile: Profile = {
          idInternal: Id.ProfileId.make(Id.make("profile")),
          userId: owner,
          name: input.name,
          status: input.status ?? "Active",
          data: input.data ?? {},
          files: [],
          created: now,
          updated: now
        }
        // The entry first: a profile is never missing from its owner's listing, and an entry
        // whose profile could not be written goes with it.
        yield* withUndo(
          storage.insertJson(ProfileEntry, keys.entry(owner, profile.idInternal), entryOf(profile)),
          storage.deleteDocument(keys.entry(owner, profile.idInternal), "any"),
          storage.insertJson(Profile, keys.profile(owner, profile.idInternal), profile)
        )
        return profile
      }, (effect, owner) => Effect.ensuring(effect, forget(owner))),
      list: Effect.fn("Profiles.list")(function*(owner, query) {
        // A store that answers queries (PostgreSQL) filters, pages and counts in one go, fresh.
        if (storage.queryJson !== undefined) {
          const page = yield* storage.queryJson(Profile, keys.prefix(owner), {
            nameContains: query.name,
            status: query.status,
            offset: (query.page - 1) * query.size,
            limit: query.size
          })
          return { items: page.items.map((item) => item.value), total: page.total }
        }
        const snapshot = yield* Cache.get(snapshots, owner)
        const matching = snapshot.entries.filter((entry) => matches(query, entry))
        // Only the page's profiles are read, together. One whose entry is stale (gone, or renamed
        // by an update that stopped before its entry) is skipped for the next one and not counted.
        const items: Array<Profile> = []
        let skipped = 0
        let at = (query.page - 1) * query.size
        while (at < matching.length && items.length < query.size) {
          const batch = matching.slice(at, at + query.size - items.length)
          at += batch.length
          const found = yield* profilesOf(owner, snapshot, batch)
          for (const profile of found) {
            if (Option.isSome(profile) && matches(query, profile.value)) items.push(profile.value)
            else skipped++
          }
        }
        return { items, total: matching.length - skipped }
      }),
      get,
      update: Effect.fn("Profiles.update")(function*(owner, id, raw) {
        const patch = yield* validate(PatchProfile, raw)
        const updated = yield* modify(owner, id, (p) => {
          const data: Record<string, Schema.Json> = { ...p.data }
          for (const [k, v] of Object.entries(patch.data ?? {})) {
            if (v === null) delete data[k]
            else data[k] = v
          }
          // Each patch is within the limits; what it merges into must stay so too.
          if (Object.keys(data).length > profileLimits.dataEntries) {
            return Effect.fail(new InvalidInput({ field: "data", message: `Expected at most ${profileLimits.dataEntries} entries once merged` }))
          }
          if (dataSize(data) > profileLimits.dataTotal) {
            return Effect.fail(new InvalidInput({ field: "data", message: `Expected at most ${profileLimits.dataTotal} characters of keys and values in all once merged` }))
          }
          return Effect.succeed({ ...p, name: patch.name ?? p.name, status: patch.status ?? p.status, data, updated: Clock.nowIso() })
        })
        if (patch.name !== undefined || patch.status !== undefined) {
          yield* storage.putJson(ProfileEntry, keys.entry(owner, updated.idInternal), entryOf(updated))
        }
        return updated
      }, (effect, owner) => Effect.ensuring(effect, forget(owner))),
      delete: Effect.fn("Profiles.delete")(function*(owner, id) {
        const profile = yield* get(owner, id)
        yield* storage.deleteDocument(keys.profile(owner, id), "any").pipe(Effect.catchTag("StorageConflict", () => Effect.void))
        yield* storage.deleteDocument(keys.entry(owner, id), "any").pipe(Effect.catchTag("StorageConflict", () => Effect.void))
        for (const file of profile.files) yield* storage.deleteBlob(keys.file(owner, id, file.id))
      }, (effect, owner) => Effect.ensuring(effect, forget(owner))),
      attachFile: Effect.fn("Profiles.attachFile")(function*(owner, id, input) {
        const tooMany = () => new InvalidInput({ field: "file", message: `A profile holds at most ${profileLimits.files} files.` })
        if ((yield* get(owner, id)).files.length >= profileLimits.files) return yield* tooMany()
        const file: ProfileFile = {
          id: Id.make("file"),
          file_name: FileName.clean(input.fileName) ?? "document",
          content_type: MediaType.normalize(input.contentType),
          size_bytes: input.bytes.byteLength,
          created: Clock.nowIso()
        }
        // Bytes first: the record never names a file that is not there; a record that cannot be
        // updated (a full disk, a limit reached meanwhile) takes the bytes with it.
        const profile = yield* withUndo(
          storage.putBlob(keys.file(owner, id, file.id), input.bytes, { contentType: file.content_type }),
          storage.deleteBlob(keys.file(owner, id, file.id)),
          modify(owner, id, (p) =>
            p.files.length >= profileLimits.files
              ? Effect.fail(tooMany())
              : Effect.succeed({ ...p, files: [...p.files, file], updated: file.created }))
        )
        return { profile, file }
      }, (effect, owner) => Effect.ensuring(effect, forget(owner))),
      fileBytes: (owner, id, fileId) => storage.getBlob(keys.file(owner, id, fileId))
    })
  })
)
