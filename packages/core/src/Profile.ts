/**
 * A profile: a person's or company's facts, used as an autofill source.
 */
import { Schema } from "effect"
import { ProfileId, UserId } from "./Id.ts"

export const ProfileStatus = Schema.Literals(["Active", "Inactive"])
export type ProfileStatus = typeof ProfileStatus.Type

/** A document attached to a profile; its content feeds autofill. */
export const ProfileFile = Schema.Struct({
  id: Schema.String,
  file_name: Schema.String,
  content_type: Schema.String,
  size_bytes: Schema.Int,
  created: Schema.String
})
export type ProfileFile = typeof ProfileFile.Type

export const Profile = Schema.Struct({
  idInternal: ProfileId,
  userId: UserId,
  name: Schema.String,
  status: ProfileStatus,
  data: Schema.Record(Schema.String, Schema.Json),
  files: Schema.Array(ProfileFile),
  created: Schema.String,
  updated: Schema.String
})
export type Profile = typeof Profile.Type

export class ProfileNotFound extends Schema.TaggedError<ProfileNotFound>()("ProfileNotFound", {
  profileId: Schema.String
}) {}

/** The most a profile may hold, in characters or entries. */
export const profileLimits = {
  /** Characters of `name`. */
  name: 500,
  /**
   * Entries of `data`, the characters of each key and of each value (a number, list or object
   * counts its JSON), and of all together.
   */
  dataEntries: 1_000,
  dataKey: 200,
  dataValue: 10_000,
  dataTotal: 262_144,
  /** Files attached to one profile. */
  files: 100
} as const

const ProfileName = Schema.String.check(Schema.isTrimmed(), Schema.isMinLength(1), Schema.isMaxLength(profileLimits.name))

/** How deep a value of `data` may nest objects and lists (`address › city` is 2). */
const dataDepth = 6

/** Characters a value counts towards the limits: a string its own, anything else its JSON. */
const valueSize = (value: Schema.Json): number => (typeof value === "string" ? value.length : JSON.stringify(value).length)

const depthOf = (value: Schema.Json): number =>
  value !== null && typeof value === "object"
    ? 1 + Math.max(0, ...(Array.isArray(value) ? value : Object.values(value)).map(depthOf))
    : 0

/**
 * A value of `data`: a string, a number, a boolean, or a list or object of them (a nested
 * `address`, a list of `children`), as people write profiles; autofill reads every leaf with its
 * key path. Null is no value: a PATCH uses it to remove a key.
 */
const DataValue = Schema.Json.check(
  Schema.makeFilter((value: Schema.Json) =>
    value === null
      ? "Expected a string, number, boolean, list or object, not null"
      : valueSize(value) > profileLimits.dataValue
      ? `Expected a value of at most ${profileLimits.dataValue} characters`
      : depthOf(value) > dataDepth
      ? `Expected objects and lists nested at most ${dataDepth} deep`
      : undefined
  )
)

/** Characters of a profile's `data`, keys and values together. */
export const dataSize = (data: Readonly<Record<string, Schema.Json>>): number => {
  let total = 0
  for (const [key, value] of Object.entries(data)) total += key.length + (value === null ? 0 : valueSize(value))
  return total
}

/**
 * A whole `data` object within the limits (a PATCH is checked again once merged). Keys are
 * checked here: a record's key schema does not run its own checks.
 */
const checkData = Schema.makeFilter((data: Readonly<Record<string, Schema.Json>>) =>
  Object.keys(data).some((key) => key.length > profileLimits.dataKey)
    ? `Expected keys of at most ${profileLimits.dataKey} characters`
    : dataSize(data) > profileLimits.dataTotal
    ? `Expected at most ${profileLimits.dataTotal} characters of keys and values in all`
    : undefined
)

/** Input of `Profiles.create`. */
export const CreateProfile = Schema.Struct({
  name: ProfileName,
  status: Schema.optional(ProfileStatus),
  data: Schema.optional(Schema.Record(Schema.String, DataValue).check(Schema.isMaxProperties(profileLimits.dataEntries), checkData))
})
export type CreateProfile = typeof CreateProfile.Type

/** Input of `Profiles.update`: present members replace; in `data` a null removes a key. */
export const PatchProfile = Schema.Struct({
  name: Schema.optional(ProfileName),
  status: Schema.optional(ProfileStatus),
  data: Schema.optional(Schema.Record(Schema.String, Schema.NullOr(DataValue)).check(Schema.isMaxProperties(profileLimits.dataEntries), checkData))
})
export type PatchProfile = typeof PatchProfile.Type
