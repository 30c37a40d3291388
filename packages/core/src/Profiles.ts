/**
 * The Profiles service: a user's stored people and companies, whose facts feed autofill.
 * Another user's profile is indistinguishable from a missing one.
 */
import { Context, Effect, Layer, Option } from "effect"
import * as Clock from "./Clock.ts"
import type { ListResult } from "./Forms.ts"
import * as Id from "./Id.ts"
import { CreateProfile, PatchProfile, Profile, type ProfileFile, ProfileNotFound, type ProfileStatus } from "./Profile.ts"
import { type InvalidInput, validate } from "./InvalidInput.ts"
import * as Storage from "./Storage.ts"

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
  readonly attachFile: (owner: Id.UserId, id: string, file: AttachFile) => Effect.Effect<{ readonly profile: Profile; readonly file: ProfileFile }, ProfileNotFound | Storage.StorageError>
  /** The bytes of an attached file (autofill reads them). */
  readonly fileBytes: (owner: Id.UserId, id: string, fileId: string) => Effect.Effect<Option.Option<Uint8Array>, Storage.StorageError>
}

export class Profiles extends Context.Service<Profiles, ProfilesShape>()("@formwright/core/Profiles") {}

/** Profiles live under their owner, so a listing never reads other users' records. */
export const keys = {
  prefix: (owner: string) => `profiles/${owner}/`,
  profile: (owner: string, id: string) => `profiles/${owner}/${id}`,
  file: (owner: string, id: string, fileId: string) => `profiles/${owner}/${id}/files/${fileId}`
}

const newestFirst = (a: Profile, b: Profile) =>
  a.created < b.created ? 1 : a.created > b.created ? -1 : a.idInternal < b.idInternal ? 1 : a.idInternal > b.idInternal ? -1 : 0

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

    const modify = (owner: Id.UserId, id: string, f: (p: Profile) => Profile) =>
      Effect.gen(function*() {
        if (!Id.isSafeSegment(id)) return yield* new ProfileNotFound({ profileId: id })
        const updated = yield* storage.updateJson(Profile, keys.profile(owner, id), (p) => Effect.succeed(f(p)))
        if (Option.isNone(updated)) return yield* new ProfileNotFound({ profileId: id })
        return updated.value
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
        yield* storage.insertJson(Profile, keys.profile(owner, profile.idInternal), profile)
        return profile
      }),
      list: Effect.fn("Profiles.list")(function*(owner, query) {
        const all = yield* storage.listJson(Profile, keys.prefix(owner))
        const needle = query.name?.toLowerCase()
        const matching = all
          .map((entry) => entry.value)
          .filter((p) => needle === undefined || p.name.toLowerCase().includes(needle))
          .filter((p) => query.status === undefined || p.status === query.status)
          .sort(newestFirst)
        const start = (query.page - 1) * query.size
        return { items: matching.slice(start, start + query.size), total: matching.length }
      }),
      get,
      update: Effect.fn("Profiles.update")(function*(owner, id, raw) {
        const patch = yield* validate(PatchProfile, raw)
        return yield* modify(owner, id, (p) => {
          const data: Record<string, string> = { ...p.data }
          for (const [k, v] of Object.entries(patch.data ?? {})) {
            if (v === null) delete data[k]
            else data[k] = v
          }
          return { ...p, name: patch.name ?? p.name, status: patch.status ?? p.status, data, updated: Clock.nowIso() }
        })
      }),
      delete: Effect.fn("Profiles.delete")(function*(owner, id) {
        const profile = yield* get(owner, id)
        yield* storage.deleteDocument(keys.profile(owner, id), "any").pipe(Effect.catchTag("StorageConflict", () => Effect.void))
        for (const file of profile.files) yield* storage.deleteBlob(keys.file(owner, id, file.id))
      }),
      attachFile: Effect.fn("Profiles.attachFile")(function*(owner, id, input) {
        yield* get(owner, id)
        const file: ProfileFile = {
          id: Id.make("file"),
          file_name: input.fileName,
          content_type: input.contentType,
          size_bytes: input.bytes.byteLength,
          created: Clock.nowIso()
        }
        // Bytes first: the record never names a file that is not there.
        yield* storage.putBlob(keys.file(owner, id, file.id), input.bytes, { contentType: input.contentType })
        const profile = yield* modify(owner, id, (p) => ({ ...p, files: [...p.files, file], updated: file.created }))
        return { profile, file }
      }),
      fileBytes: (owner, id, fileId) => storage.getBlob(keys.file(owner, id, fileId))
    })
  })
)
