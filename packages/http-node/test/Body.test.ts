/**
 * Multipart bodies as the routes read them (Body.multipart, busboy a slice at a time): the same
 * entries the platform's own FormData parser gives, large files intact, and a 400 for a body
 * that is not multipart.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import * as Body from "../src/handlers/Body.ts"
import { Errors } from "@formwright/api"

/** The bytes and content type a client sends for `form`. */
const encode = async (form: FormData) => {
  const request = new Request("http://localhost/", { method: "POST", body: form })
  return { bytes: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type")! }
}

describe("Body.multipart", () => {
  it.live("reads text fields, repeated names and files, a 10 MB file intact", () =>
    Effect.gen(function*() {
      const big = new Uint8Array(randomBytes(10 * 1024 * 1024))
      const form = new FormData()
      form.append("formId", "frm_1")
      form.append("profile_ids[]", "prf_1")
      form.append("profile_ids[]", "prf_2")
      form.append("text_info", "Name: Ada Lovelace\nCity: Zürich")
      form.append("files", new File([big], "scan.pdf", { type: "application/pdf" }))
      form.append("files", new File(["hello"], "note.txt", { type: "text/plain" }))
      const { bytes, contentType } = yield* Effect.promise(() => encode(form))
      const parsed = yield* Body.multipart(bytes, contentType, "standard")
      // The same entries as the platform's own parser.
      const platform = yield* Effect.promise(() => new Response(bytes, { headers: { "content-type": contentType } }).formData())
      const entries = (data: FormData) => [...data.entries()].map(([name, value]) => [name, typeof value === "string" ? value : `${value.name} ${value.type} ${value.size}`])
      expect(entries(parsed)).toEqual(entries(platform))
      expect(parsed.get("formId")).toBe("frm_1")
      expect(parsed.getAll("profile_ids[]")).toEqual(["prf_1", "prf_2"])
      // Line breaks travel as CRLF in multipart (the HTML form encoding).
      expect(parsed.get("text_info")).toBe("Name: Ada Lovelace\r\nCity: Zürich")
      const files = yield* Body.fileParts(parsed, "files")
      expect(files.map((f) => [f.name, f.type, f.bytes.length])).toEqual([["scan.pdf", "application/pdf", big.length], ["note.txt", "text/plain", 5]])
      expect(Buffer.compare(files[0]!.bytes, big)).toBe(0)
    }))

  it.live("answers 400 for a body cut short, a missing boundary or no multipart at all", () =>
    Effect.gen(function*() {
      const form = new FormData()
      form.append("files", new File(["%PDF-1.7"], "a.pdf", { type: "application/pdf" }))
      const { bytes, contentType } = yield* Effect.promise(() => encode(form))
      for (const [body, type] of [
        [bytes.subarray(0, bytes.length - 20), contentType],
        [bytes, "multipart/form-data"],
        [new TextEncoder().encode("{}"), "application/json"]
      ] as const) {
        const error = yield* Effect.flip(Body.multipart(body, type, "standard"))
        expect(error).toBeInstanceOf(Errors.BadRequest)
        expect(error.error_message).toBe("The multipart body is malformed.")
      }
    }))
})
