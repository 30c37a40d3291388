/**
 * Identifiers: a short prefix per kind plus a ULID, so ids sort by creation time,
 * never repeat, and say what they name when they show up in a log.
 */
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
