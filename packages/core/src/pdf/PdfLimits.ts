/**
 * The limits PDF work runs under, and the checks that apply them before a library expands
 * anything: a page count, and the decompressed size of every Flate stream, so a small file that
 * inflates to gigabytes (a "zip bomb" in an object or content stream) is refused up front
 * instead of after it has filled the memory.
 */
import { Context, Effect } from "effect"
import { constants, createInflate, inflateSync } from "node:zlib"
import { PdfRejected } from "./PdfError.ts"

export interface Limits {
  /** Pages at most; checked from the page tree before any page is walked. */
  readonly maxPages: number
  /** Decompressed bytes of any one Flate stream. */
  readonly maxStreamBytes: number
  /**
   * Decompressed bytes of any one Flate stream that is neither an image nor a font program:
   * page content, form XObjects, object streams. Readers turn these into operators or objects,
   * which costs far more memory per byte than pixels (16 MiB of `q Q` is 8 million operators,
   * about 500 MiB in a worker that analyses the page), so they get a lower cap.
   */
  readonly maxContentStreamBytes: number
  /** Decompressed bytes of all Flate streams together. */
  readonly maxDecodedBytes: number
  /**
   * Fields a form may have. Real forms have hundreds, the largest a few thousand; every field
   * is understood, stored and sent on every read of the form, so a form of tens of thousands
   * would make each of those slow for everyone.
   */
  readonly maxFields: number
  /** Text items read from one page; the rest of a page past it is ignored. */
  readonly maxTextItemsPerPage: number
}

const MiB = 1024 * 1024

export const defaults: Limits = {
  maxPages: 2_000,
  maxStreamBytes: 256 * MiB,
  maxContentStreamBytes: 16 * MiB,
  maxDecodedBytes: 1024 * MiB,
  maxFields: 5_000,
  maxTextItemsPerPage: 50_000
}

/** The limits in force for the current PDF work (the defaults unless a layer sets others). */
export class PdfLimits extends Context.Reference<Limits>("@formwright/core/PdfLimits", { defaultValue: () => defaults }) {}

const describe = (bytes: number) => (bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${bytes} bytes`)

/** Refuses a document with more pages than `maxPages`. */
export const checkPages = (pages: number): Effect.Effect<void, PdfRejected> =>
  Effect.flatMap(Effect.service(PdfLimits), (limits) =>
    pages > limits.maxPages
      ? Effect.fail(new PdfRejected({ reason: "TooManyPages", message: `The PDF has ${pages} pages; the limit is ${limits.maxPages}.` }))
      : Effect.void)

/** Refuses a form with more fields than `maxFields`. */
export const checkFields = (fields: number): Effect.Effect<void, PdfRejected> =>
  Effect.flatMap(Effect.service(PdfLimits), (limits) =>
    fields > limits.maxFields
      ? Effect.fail(new PdfRejected({ reason: "TooManyFields", message: `The form has ${fields} fields; the limit is ${limits.maxFields}.` }))
      : Effect.void)

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))
const streamKeyword = ascii("stream")
const endstreamKeyword = ascii("endstream")

const indexOf = (bytes: Uint8Array, needle: Uint8Array, from: number): number => {
  const first = needle[0]!
  for (let i = bytes.indexOf(first, from); i >= 0 && i + needle.length <= bytes.length; i = bytes.indexOf(first, i + 1)) {
    let j = 1
    while (j < needle.length && bytes[i + j] === needle[j]) j++
    if (j === needle.length) return i
  }
  return -1
}

const objKeyword = ascii("obj")
/** An image's dictionary, or a font program's (`/Length1` of FontFile and FontFile2, or the subtype of FontFile3). */
const pixelsOrGlyphs = /\/Subtype\s*\/(?:Image|Type1C|CIDFontType0C|OpenType)\b|\/Length1\b/

/** How far before `stream` a stream's dictionary is looked for. */
const dictionaryWindow = 4096

/**
 * Whether the dictionary before the `stream` keyword at `keyword` is an image's or a font
 * program's: the text from the last `obj` before it (within a few KiB). A stream whose
 * dictionary cannot be found counts as content, the stricter case.
 */
const isImageOrFont = (bytes: Uint8Array, keyword: number): boolean => {
  const from = Math.max(0, keyword - dictionaryWindow)
  let start = from
  for (let i = indexOf(bytes, objKeyword, from); i >= 0 && i < keyword; i = indexOf(bytes, objKeyword, i + 1)) start = i
  return pixelsOrGlyphs.test(Buffer.from(bytes.buffer, bytes.byteOffset + start, keyword - start).toString("latin1"))
}

/**
 * The data of every `stream ... endstream` in the file that starts like zlib data, and whether
 * it is an image or a font program (`bulk`). Found by the keywords rather than by parsing objects: a damaged file is
 * scanned as well as a sound one, and a stream the libraries would find is found here too (they
 * also fall back to the keywords).
 */
function* zlibStreams(bytes: Uint8Array): Generator<{ readonly data: Uint8Array; readonly bulk: boolean }> {
  let at = 0
  for (;;) {
    const keyword = indexOf(bytes, streamKeyword, at)
    if (keyword < 0) return
    at = keyword + streamKeyword.length
    // `endstream` contains `stream`: skip it.
    if (keyword >= 3 && bytes[keyword - 3] === 0x65 && bytes[keyword - 2] === 0x6e && bytes[keyword - 1] === 0x64) continue
    let start = at
    if (bytes[start] === 0x0d) start++
    if (bytes[start] === 0x0a) start++
    const cmf = bytes[start]
    const flg = bytes[start + 1]
    // A zlib header: deflate method, and a check value that makes the pair divisible by 31.
    if (cmf === undefined || flg === undefined || (cmf & 0x0f) !== 8 || ((cmf << 8) | flg) % 31 !== 0) continue
    const end = indexOf(bytes, endstreamKeyword, start)
    const stop = end < 0 ? bytes.length : end
    yield { data: bytes.subarray(start, stop), bulk: isImageOrFont(bytes, keyword) }
    at = stop
  }
}

/** Deflate cannot expand data more than about 1032 times, which bounds what a stream can hold unread. */
const maxDeflateRatio = 1032

/** A stream whose output is at most this big is inflated in one call; bigger ones are counted as they stream. */
const inflateAtOnceBytes = 8 * MiB

/** Bytes `data` inflates to, counting at most `cap + 1` and never holding a large output. */
const inflatedSize = (data: Uint8Array, cap: number): Promise<number> => {
  if (data.length * maxDeflateRatio <= inflateAtOnceBytes) {
    try {
      // A truncated stream counts for what it yields before the damage, as a reader would see it.
      return Promise.resolve(inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH }).length)
    } catch {
      return Promise.resolve(0)
    }
  }
  return new Promise((resolve) => {
    let size = 0
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      resolve(size)
    }
    const inflate = createInflate({ chunkSize: 64 * 1024, finishFlush: constants.Z_SYNC_FLUSH })
    inflate.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > cap) {
        inflate.destroy()
        settle()
      }
    })
    inflate.on("end", settle)
    inflate.on("error", settle)
    inflate.on("close", settle)
    inflate.end(data)
  })
}

/**
 * Refuses a document whose Flate streams inflate past the limits, before any PDF library
 * decodes them. Counting stops at the limit, so a bomb costs at most the limit's worth of
 * decompression time and a few chunks of memory.
 *
 * A stream too short to pass its own limit even at deflate's largest ratio is not inflated
 * while the bounds of all such streams still fit in the total: only when they might not are
 * they inflated (the largest first) to count exactly. The answer, and the message, are those of
 * inflating every stream in order: a skipped stream could fail neither its own limit nor the
 * total.
 */
export const checkStreams = (bytes: Uint8Array): Effect.Effect<void, PdfRejected> =>
  Effect.gen(function*() {
    const limits = yield* PdfLimits
    // A file too small to hold anything past the limits needs no look inside.
    const smallest = Math.min(limits.maxStreamBytes, limits.maxContentStreamBytes, limits.maxDecodedBytes)
    if (bytes.length * maxDeflateRatio <= smallest) return
    /** Bytes the streams inflated so far hold. */
    let total = 0
    /** Streams not inflated (yet), and the most they can hold together. */
    const skipped: Array<Uint8Array> = []
    let skippedBound = 0
    /** Inflates skipped streams, the largest first, until `room` more bytes fit in the total whatever they hold. */
    const makeRoom = (room: number) =>
      Effect.gen(function*() {
        if (total + skippedBound + room <= limits.maxDecodedBytes) return
        skipped.sort((a, b) => b.length - a.length)
        while (skipped.length > 0 && total + skippedBound + room > limits.maxDecodedBytes) {
          const next = skipped.shift()!
          skippedBound -= next.length * maxDeflateRatio
          total += yield* Effect.promise(() => inflatedSize(next, next.length * maxDeflateRatio))
        }
      })
    for (const { data, bulk } of zlibStreams(bytes)) {
      const streamLimit = bulk ? limits.maxStreamBytes : Math.min(limits.maxStreamBytes, limits.maxContentStreamBytes)
      const bound = data.length * maxDeflateRatio
      if (bound <= streamLimit) {
        yield* makeRoom(bound)
        if (total + skippedBound + bound <= limits.maxDecodedBytes) {
          skipped.push(data)
          skippedBound += bound
          continue
        }
      }
      // While streams stay skipped there is room for this one's whole limit, so it is counted
      // against the same budget as if every stream before it had been inflated.
      yield* makeRoom(streamLimit)
      const budget = Math.min(streamLimit, limits.maxDecodedBytes - total - skippedBound)
      const size = yield* Effect.promise(() => inflatedSize(data, budget))
      if (size > streamLimit) {
        return yield* new PdfRejected({
          reason: "TooLargeDecoded",
          message: bulk
            ? `The PDF holds a compressed stream that expands past the limit of ${describe(streamLimit)}.`
            : `The PDF holds a compressed page description that expands past the limit of ${describe(streamLimit)}.`
        })
      }
      total += size
      // Past the total only if the skipped streams hold more than it leaves them: count them.
      yield* makeRoom(0)
      if (total + skippedBound > limits.maxDecodedBytes) {
        return yield* new PdfRejected({
          reason: "TooLargeDecoded",
          message: `The PDF's compressed streams expand past the limit of ${describe(limits.maxDecodedBytes)} in all.`
        })
      }
    }
  })
