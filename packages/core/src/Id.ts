/**
 * Identifiers: a short prefix per kind plus a ULID, so ids sort by creation time,
 * never repeat, and say what they name when they show up in a log.
 */
import { createHash } from "node:crypto"
import { Schema } from "effect"
import { ulid } from "ulid"

/** The prefixes of contract.md, one per kind of identifier. */
export const prefixes = {
  form: "frm",
  field: "fld",
  session: "ses",
  job: "job",
  profile: "prf",
  file: "file",
  upload: "upl",
  sessionCreated: "cs",
  updateForm: "uf",
  profileList: "pl",
  error: "error",
  apiKey: "key",
  event: "evt",
  formList: "fl",
  request: "req",
  flatCheck: "fc"
} as const

export type Kind = keyof typeof prefixes

/**
 * Random bytes for ULIDs, drawn from the system's CSPRNG 4 KiB at a time: `ulid()` alone asks
 * it for one byte per character, 16 calls per id, which showed in the cost of every request.
 */
const pool = new Uint8Array(4096)
let poolAt = pool.length
const pooledRandom = (): number => {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool)
    poolAt = 0
  }
  // A byte over 256 maps onto the 32 characters evenly, as ulid's own generator does.
  return pool[poolAt++]! / 256
}

/** A new identifier of the given kind, e.g. `frm_01JD...`. */
export const make = (kind: Kind): string => `${prefixes[kind]}_${ulid(undefined, pooledRandom)}`

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/**
 * The identifier of the given kind that `parts` always map to, shaped like `make`'s (26 Crockford
 * base32 characters from a SHA-256 of the parts): what must keep its id when it is made again, as
 * the final event of a job re-published by a retried run, so receivers see one id.
 */
export const derive = (kind: Kind, ...parts: ReadonlyArray<string>): string => {
  const digest = createHash("sha256").update(parts.join("\u0000")).digest()
  let text = ""
  let bits = 0
  let value = 0
  for (const byte of digest) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5 && text.length < 26) {
      bits -= 5
      text += crockford[(value >>> bits) & 31]
    }
    value &= (1 << bits) - 1
    if (text.length === 26) break
  }
  return `${prefixes[kind]}_${text}`
}

/** Owner of a resource: the user behind an API key. */
export const UserId = Schema.String.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

export const FormId = Schema.String.pipe(Schema.brand("FormId"))
export type FormId = typeof FormId.Type

export const SessionId = Schema.String.pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type

export const JobId = Schema.String.pipe(Schema.brand("JobId"))
export type JobId = typeof JobId.Type

export const ProfileId = Schema.String.pipe(Schema.brand("ProfileId"))
export type ProfileId = typeof ProfileId.Type

export const FileId = Schema.String.pipe(Schema.brand("FileId"))
export type FileId = typeof FileId.Type

/** Keys used to build storage paths must not escape their folder. */
export const isSafeSegment = (id: string): boolean => /^[A-Za-z0-9_-]{1,128}$/.test(id)
