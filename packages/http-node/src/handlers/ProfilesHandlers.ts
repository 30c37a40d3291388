/**
 * Handlers of the profiles group.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Id, type Profile, Profiles } from "@formwright/core"
import { Api, CurrentUser, Wire } from "@formwright/api"
import * as Answer from "./Answer.ts"
import * as Body from "./Body.ts"
import * as InvalidRequest from "./InvalidRequest.ts"
import * as WireErrors from "./WireErrors.ts"

/** A profile in its wire shape (the record holds nothing else, but its order is the contract's). */
const profile = (p: Profile.Profile): typeof Wire.Profile.Encoded => ({
  name: p.name,
  userId: p.userId,
  status: p.status,
  created: p.created,
  updated: p.updated,
  idInternal: p.idInternal,
  files: p.files,
  data: p.data
})

export const ProfilesHandlers = HttpApiBuilder.group(Api, "profiles", (handlers) =>
  Effect.gen(function*() {
    const profiles = yield* Profiles.Profiles
    return handlers
      .handle("list", ({ query }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          const result = yield* profiles.list(user.id, { name: query.name, status: query.status, page: query.page ?? 1, size: query.size ?? 10 })
          return Answer.trusted(Wire.ProfileList, { id: Id.make("profileList"), object: "profiles", total: result.total, profiles: result.items.map(profile) })
        })))
      .handle("create", ({ payload }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          if (payload.name.trim() === "") return yield* Effect.fail(WireErrors.badRequest("Invalid name: must not be empty."))
          return yield* profiles.create(user.id, payload)
        })))
      .handle("get", ({ params }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          return Answer.trusted(Wire.Profile, profile(yield* profiles.get(user.id, params.id)))
        })))
      .handle("update", ({ params, payload }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          return yield* profiles.update(user.id, params.id, payload)
        })))
      .handle("delete", ({ params }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          yield* profiles.delete(user.id, params.id)
          return { id: params.id, object: "profile", deleted: true as const }
        })))
      // Raw: the document is read as a stream within the limit (FormsHandlers.pdfUpload says why),
      // and any document type is taken as is, which a list of declared payloads cannot say; so
      // this route checks its content type itself, once the profile is known to exist.
      .handleRaw("attachFile", ({ params, request }) =>
        WireErrors.standard(Effect.gen(function*() {
          const user = yield* CurrentUser
          const type = Body.mediaType(request)
          yield* profiles.get(user.id, params.id)
          const bytes = yield* Body.read(request, "standard")
          let file: { fileName: string; contentType: string; bytes: Uint8Array }
          if (type === "multipart/form-data") {
            const form = yield* Body.multipart(bytes, request.headers["content-type"] ?? "", "standard")
            const [part] = yield* Body.fileParts(form, "file")
            if (!part) return yield* Effect.fail(WireErrors.badRequest("Invalid file: the multipart body has no file field named 'file'."))
            file = { fileName: part.name, contentType: part.type, bytes: part.bytes }
          } else if (type !== "") {
            file = { fileName: request.headers["x-file-name"] ?? "document", contentType: type, bytes }
          } else {
            return yield* WireErrors.fail("standard", 415, "Expected multipart/form-data or a document content type")
          }
          if (file.bytes.byteLength === 0) return yield* Effect.fail(WireErrors.badRequest("Invalid file: it is empty."))
          const result = yield* profiles.attachFile(user.id, params.id, file)
          return result.profile
        })))
  })).pipe(Layer.provide(InvalidRequest.layer))
