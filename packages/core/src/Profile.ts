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
  size_bytes: Schema.Number,
  created: Schema.String
})
export type ProfileFile = typeof ProfileFile.Type

export const Profile = Schema.Struct({
  idInternal: ProfileId,
  userId: UserId,
  name: Schema.String,
  status: ProfileStatus,
  data: Schema.Record(Schema.String, Schema.String),
  files: Schema.Array(ProfileFile),
  created: Schema.String,
  updated: Schema.String
})
export type Profile = typeof Profile.Type

export class ProfileNotFound extends Schema.TaggedError<ProfileNotFound>()("ProfileNotFound", {
  profileId: Schema.String
}) {}

const ProfileName = Schema.String.check(Schema.isTrimmed(), Schema.isMinLength(1), Schema.isMaxLength(500))

/** Input of `Profiles.create`. */
export const CreateProfile = Schema.Struct({
  name: ProfileName,
  status: Schema.optional(ProfileStatus),
  data: Schema.optional(Schema.Record(Schema.String, Schema.String))
})
export type CreateProfile = typeof CreateProfile.Type

/** Input of `Profiles.update`: present members replace; in `data` a null removes a key. */
export const PatchProfile = Schema.Struct({
  name: Schema.optional(ProfileName),
  status: Schema.optional(ProfileStatus),
  data: Schema.optional(Schema.Record(Schema.String, Schema.NullOr(Schema.String)))
})
export type PatchProfile = typeof PatchProfile.Type
