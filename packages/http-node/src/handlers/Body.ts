/**
 * Reading request bodies within the configured limit, and classifying their content type.
 */
import busboy from "busboy"
import { Context, Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as WireErrors from "./WireErrors.ts"

/** The largest body accepted, in bytes (FORMWRIGHT_MAX_UPLOAD_BYTES). */
export class MaxUploadBytes extends Context.Reference<number>("@formwright/http-node/MaxUploadBytes", {
  defaultValue: () => 50 * 1024 * 1024
}) {}

/** The media type of the request, lower case, without parameters ("" when absent). */
export const mediaType = (request: HttpServerRequest.HttpServerRequest): string =>
  (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()

const tooLarge = <F extends WireErrors.Family>(family: F, limit: number) =>
  WireErrors.fail(family, 413, `The body is larger than the limit of ${limit} bytes.`)

/** How reading a body fails: over the limit, or cut short by the client. */
export type ReadError<F extends WireErrors.Family> = WireErrors.WireError<F, 413 | 400>

/**
 * The whole body, refused with 413 as soon as it passes the limit (by Content-Length when the
 * client sent one, else while reading), so an oversized upload never sits in memory.
 */
export const read = <F extends WireErrors.Family>(request: HttpServerRequest.HttpServerRequest, family: F): Effect.Effect<Uint8Array, ReadError<F>> =>
  Effect.gen(function*() {
    const limit = yield* MaxUploadBytes
    const declared = Number(request.headers["content-length"] ?? Number.NaN)
    if (Number.isFinite(declared) && declared > limit) return yield* tooLarge(family, limit)
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    const body = yield* Effect.callback<Uint8Array | "too-large", ReadError<F>>((resume) => {
      // With a Content-Length the body goes into one buffer of that size as it arrives, rather
      // than being joined at the end: one large copy at once would stall the event loop.
      const sized = Number.isFinite(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : undefined
      const chunks: Array<Buffer> = []
      let size = 0
      let done = false
      const detach = () => {
        incoming.off("data", onData)
        incoming.off("end", onEnd)
        incoming.off("error", onBroken)
        incoming.off("close", onBroken)
      }
      const finish = (result: Effect.Effect<Uint8Array | "too-large", ReadError<F>>) => {
        if (done) return
        done = true
        detach()
        resume(result)
      }
      const onData = (chunk: Buffer) => {
        size += chunk.length
        if (size > limit) {
          // Stop reading; the rest of the upload is discarded as it arrives.
          incoming.resume()
          return finish(Effect.succeed("too-large"))
        }
        // Node's parser delivers no more than Content-Length says.
        if (sized) chunk.copy(sized, size - chunk.length)
        else chunks.push(chunk)
      }
      const onEnd = () =>
        finish(Effect.succeed(
          sized ? new Uint8Array(sized.buffer, sized.byteOffset, Math.min(size, sized.length)) : new Uint8Array(Buffer.concat(chunks, size))
        ))
      // A client that disconnects mid-body ends the request with 'close' (and often 'error')
      // before 'end': a 400 that nobody receives, and nothing is stored from half a body.
      const onBroken = () => finish(WireErrors.fail(family, 400, "The request body could not be read: the connection closed before it ended."))
      incoming.on("data", onData)
      incoming.once("end", onEnd)
      incoming.once("error", onBroken)
      incoming.once("close", onBroken)
      // Interrupted (the server noticed the disconnect first): stop listening and drop the chunks.
      return Effect.sync(detach)
    })
    if (body === "too-large") return yield* tooLarge(family, limit)
    return body
  })

/** How much of a multipart body is parsed before the event loop is given back. */
const multipartSlice = 256 * 1024

/**
 * A multipart body parsed by busboy, a slice at a time with the event loop given back between
 * slices: the platform's own parser (`Response.formData()`) takes a 10 MB body in one go, which
 * held every other request up for about 100 ms. Parts with a file name are files, as there
 * (busboy keeps only its last path segment).
 */
export const multipart = <F extends WireErrors.Family>(
  bytes: Uint8Array,
  contentType: string,
  family: F
): Effect.Effect<FormData, WireErrors.WireError<F, 400>> =>
  Effect.callback<FormData, "malformed">((resume) => {
    let parser: busboy.Busboy
    try {
      // The whole body is already within the upload limit: no part is cut short.
      parser = busboy({ headers: { "content-type": contentType }, limits: { fieldSize: bytes.length + 1 } })
    } catch {
      resume(Effect.fail("malformed"))
      return
    }
    const form = new FormData()
    let settled = false
    let parsed = false
    let filesOpen = 0
    const settle = (result: Effect.Effect<FormData, "malformed">) => {
      if (settled) return
      settled = true
      resume(result)
    }
    const done = () => {
      if (parsed && filesOpen === 0) settle(Effect.succeed(form))
    }
    parser.on("field", (name, value) => form.append(name, value))
    parser.on("file", (name, stream, info) => {
      filesOpen++
      const chunks: Array<Buffer<ArrayBuffer>> = []
      stream.on("data", (chunk: Buffer<ArrayBuffer>) => chunks.push(chunk))
      // A body cut short inside a file fails the file's stream too; unheard, that would throw.
      stream.on("error", () => settle(Effect.fail("malformed")))
      stream.on("end", () => {
        // As the platform's parser: a part without a file name is text, whatever its type.
        if (info.filename === undefined) form.append(name, Buffer.concat(chunks).toString("utf8"))
        else form.append(name, new File(chunks, info.filename, { type: info.mimeType }))
        filesOpen--
        done()
      })
    })
    parser.on("error", () => settle(Effect.fail("malformed")))
    parser.on("close", () => {
      parsed = true
      done()
    })
    let at = 0
    const feed = () => {
      if (settled) return
      const end = Math.min(bytes.length, at + multipartSlice)
      parser.write(bytes.subarray(at, end))
      at = end
      if (at < bytes.length) setImmediate(feed)
      else parser.end()
    }
    feed()
    return Effect.sync(() => {
      settled = true
      parser.destroy()
    })
  }).pipe(Effect.catch(() => WireErrors.fail(family, 400, "The multipart body is malformed.")))

/** A file part of a multipart form, with its bytes. */
export interface FilePart {
  readonly name: string
  readonly type: string
  readonly bytes: Uint8Array
}

export const fileParts = (form: FormData, field: string): Effect.Effect<ReadonlyArray<FilePart>> =>
  Effect.promise(async () => {
    const parts: Array<FilePart> = []
    for (const entry of form.getAll(field)) {
      if (typeof entry === "string") continue
      parts.push({ name: entry.name, type: entry.type || "application/octet-stream", bytes: new Uint8Array(await entry.arrayBuffer()) })
    }
    return parts
  })

/** The body as JSON, with a 400 naming the problem when it is not. */
export const json = <F extends WireErrors.Family>(bytes: Uint8Array, family: F): Effect.Effect<unknown, WireErrors.WireError<F, 400>> =>
  Effect.try({
    try: () => JSON.parse(new TextDecoder().decode(bytes)) as unknown,
    catch: () => WireErrors.make(family, 400, "The body is not valid JSON.")
  })
