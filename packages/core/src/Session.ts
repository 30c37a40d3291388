/**
 * An autofill session: a form, the sources to fill it from, and, once done, the filled PDF.
 */
import { Schema } from "effect"
import { FieldValue } from "./FormField.ts"
import { FormId, SessionId, UserId } from "./Id.ts"

export const SessionStatus = Schema.Literals(["pending", "processing", "completed", "failed"])
export type SessionStatus = typeof SessionStatus.Type

/** A file uploaded with the session (multipart `files`). */
export const SessionFile = Schema.Struct({
  id: Schema.String,
  file_name: Schema.String,
  content_type: Schema.String,
  size_bytes: Schema.Number
})
export type SessionFile = typeof SessionFile.Type

/** A field the filler wrote, and where its value came from. */
export const FilledField = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  name: Schema.String,
  value: FieldValue,
  /** `profile:<id>`, `text_info`, `file:<id>` or `url:<url>`. */
  source: Schema.String,
  confidence: Schema.Number
})
export type FilledField = typeof FilledField.Type

export const UnfilledField = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  name: Schema.String
})
export type UnfilledField = typeof UnfilledField.Type

export const Session = Schema.Struct({
  id: SessionId,
  owner: UserId,
  form_id: FormId,
  status: SessionStatus,
  profile_ids: Schema.Array(Schema.String),
  file_urls: Schema.Array(Schema.String),
  text_info: Schema.optionalKey(Schema.String),
  files: Schema.Array(SessionFile),
  filled_fields: Schema.optionalKey(Schema.Array(FilledField)),
  unfilled_fields: Schema.optionalKey(Schema.Array(UnfilledField)),
  error_message: Schema.optionalKey(Schema.String),
  created: Schema.String,
  updated: Schema.String
})
export type Session = typeof Session.Type

export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()("SessionNotFound", {
  sessionId: Schema.String
}) {}

/** The filled PDF was asked for before the session completed. */
export class SessionNotReady extends Schema.TaggedError<SessionNotReady>()("SessionNotReady", {
  sessionId: Schema.String,
  status: SessionStatus
}) {}

/** The most a session may carry, in entries or characters. */
export const sessionLimits = {
  profileIds: 100,
  fileUrls: 20,
  /** Characters of one URL of `file_urls`. */
  fileUrl: 2_048,
  /** Uploaded files (multipart `files`). */
  files: 20,
  /** Characters of `text_info`. */
  textInfo: 1_000_000
} as const

/** The source fields of `Sessions.create`, checked before anything is stored. */
export const CreateSessionInput = Schema.Struct({
  formId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  profileIds: Schema.optional(Schema.Array(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))).check(Schema.isMaxLength(sessionLimits.profileIds))),
  fileUrls: Schema.optional(Schema.Array(Schema.String.check(Schema.isMaxLength(sessionLimits.fileUrl))).check(Schema.isMaxLength(sessionLimits.fileUrls))),
  textInfo: Schema.optional(Schema.String.check(Schema.isMaxLength(sessionLimits.textInfo))),
  /** How many files were uploaded with the session. */
  files: Schema.optional(Schema.Number.check(Schema.isLessThanOrEqualTo(sessionLimits.files)))
})
