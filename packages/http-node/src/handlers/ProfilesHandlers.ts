/**
 * Handlers of the profiles group.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Id, Profiles } from "@formwright/core"
import { Api } from "../Api.ts"
import { CurrentUser } from "../api/Authorization.ts"
import * as Wire from "../api/Wire.ts"
import * as Body from "./Body.ts"
import * as InvalidRequest from "./InvalidRequest.ts"
import * as Query from "./Query.ts"
import { fail, handle, json } from "./Respond.ts"
import * as Out from "./Wire.ts"

const statuses = new Set(["Active", "Inactive"])

const jsonBody = (request: Parameters<typeof Body.read>[0]) =>
  Effect.gen(function*() {
    if (Body.mediaType(request) !== "application/json") return yield* fail("standard", 415, "Expected application/json")
    return yield* Body.json(yield* Body.read(request, "standard"), "standard")
  })

export const ProfilesHandlers = HttpApiBuilder.group(Api, "profiles", (handlers) =>
  Effect.gen(function*() {
    const profiles = yield* Profiles.Profiles
    return handlers
      .handleRaw("list", ({ request }) =>
        handle("standard", Effect.gen(function*() {
          const user = yield* CurrentUser
          const params = new URL(request.url, "http://x").searchParams
          const { page, size } = yield* Query.paging(params)
          const status = yield* Query.single("standard", params, "status")
          if (status !== undefined && !statuses.has(status)) {
            return yield* fail("standard", 400, `Invalid status: expected Active or Inactive, got '${status}'.`)
          }
          const result = yield* profiles.list(user.id, {
            name: yield* Query.single("standard", params, "name"),
            status: status as "Active" | "Inactive" | undefined,
            page,
            size
          })
          return json(200, { id: Id.make("profileList"), object: "profiles", total: result.total, profiles: result.items.map(Out.profile) })
        })))
      .handleRaw("create", ({ request }) =>
        handle("standard", Effect.gen(function*() {
          const user = yield* CurrentUser
          const input = yield* Query.decode("standard", Wire.CreateProfile, yield* jsonBody(request))
          if (input.name.trim() === "") return yield* fail("standard", 400, "Invalid name: must not be empty.")
          return json(201, Out.profile(yield* profiles.create(user.id, input)))
        })))
      .handleRaw("get", ({ params }) =>
        handle("standard", Effect.gen(function*() {
          const user = yield* CurrentUser
          return json(200, Out.profile(yield* profiles.get(user.id, params.id)))
        })))
      .handleRaw("update", ({ params, request }) =>
        handle("standard", Effect.gen(function*() {
          const user = yield* CurrentUser
          const patch = yield* Query.decode("standard", Wire.PatchProfile, yield* jsonBody(request))
          return json(200, Out.profile(yield* profiles.update(user.id, params.id, patch)))
        })))
      .handleRaw("delete", ({ params }) =>
        handle("standard", Effect.gen(function*() {
          const user = yield* CurrentUser
          yield* profiles.delete(user.id, params.id)
          return json(200, { id: params.id, object: "profile", deleted: true })
        })))
      .handleRaw("attachFile", ({ params, request }) =>
        handle("standard", Effect.gen(function*() {
          const user = yield* CurrentUser
          const type = Body.mediaType(request)
          yield* profiles.get(user.id, params.id)
          const bytes = yield* Body.read(request, "standard")
          let file: { fileName: string; contentType: string; bytes: Uint8Array }
          if (type === "multipart/form-data") {
            const form = yield* Body.multipart(bytes, request.headers["content-type"] ?? "", "standard")
            const [part] = yield* Body.fileParts(form, "file")
            if (!part) return yield* fail("standard", 400, "Invalid file: the multipart body has no file field named 'file'.")
            file = { fileName: part.name, contentType: part.type, bytes: part.bytes }
          } else if (type !== "") {
            file = { fileName: request.headers["x-file-name"] ?? "document", contentType: type, bytes }
          } else {
            return yield* fail("standard", 415, "Expected multipart/form-data or a document content type")
          }
          if (file.bytes.byteLength === 0) return yield* fail("standard", 400, "Invalid file: it is empty.")
          const result = yield* profiles.attachFile(user.id, params.id, file)
          return json(201, Out.profile(result.profile))
        })))
  })).pipe(Layer.provide(InvalidRequest.layer))
