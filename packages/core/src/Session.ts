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
  size_bytes: Schema.Finite
})
export type SessionFile = typeof SessionFile.Type

/**
 * Why a field has its value: the fact as its source named it (a key, the words of `text_info`),
 * what the fact means and whose it is, and how its value became the field's.
 */
export const Evidence = Schema.Struct({
  /** The key (`Date of birth`, `spouse › first_name`) or the words of the text the value came from. */
  fact: Schema.String,
  /** The fact's semantic type; `unknown` for a match by name alone. Plain strings, so a stored session outlives a change of the taxonomy. */
  type: Schema.String,
  /** Whose the fact is: `self`, `spouse`, `dependent`, `other`, `employer`... */
  role: Schema.String,
  /** How the fact's value was written into the field: `as given`, `date as MM/DD/YYYY`, `same name`... */
  transform: Schema.String
})
export type Evidence = typeof Evidence.Type

/** A field the filler wrote, and where its value came from. */
export const FilledField = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  name: Schema.String,
  value: FieldValue,
  /** `profile:<id>`, `text_info`, `file:<id>` or `url:<url>`. */
  source: Schema.String,
  /** The source's trust times how certain the match is, in [0, 1]. */
  confidence: Schema.Finite,
  /** Absent on sessions completed before evidence was recorded. */
  evidence: Schema.optionalKey(Evidence)
})
export type FilledField = typeof FilledField.Type

/**
 * Why a field stayed empty:
 * - `read_only`: the form does not let it be written;
 * - `signature`: a signature, or the date or place of signing: left to the person who signs;
 * - `excluded_role`: a paid preparer's or an official-use field, never filled;
 * - `uncertain_meaning`: what the field asks for, or whose value it is, is not known or is in
 *   doubt, and no source has a value under its name;
 * - `no_fact`: its meaning is known, and no source gave a fact of that meaning for that person;
 * - `no_fitting_value`: a source has the fact, but it cannot be written in this field faithfully
 *   (too long, no option says it, the wrong number of digits);
 * - `not_applied`: a value was chosen but the PDF filler could not write it.
 */
export const UnfilledReason = Schema.Literals([
  "read_only",
  "signature",
  "excluded_role",
  "uncertain_meaning",
  "no_fact",
  "no_fitting_value",
  "not_applied"
])
export type UnfilledReason = typeof UnfilledReason.Type

export const UnfilledField = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  name: Schema.String,
  /** Absent on sessions completed before reasons were recorded. */
  reason: Schema.optionalKey(UnfilledReason),
  /** The reason in a sentence a person can read. */
  detail: Schema.optionalKey(Schema.String)
})
export type UnfilledField = typeof UnfilledField.Type

/** What a session made of one of its sources. */
export const SourceReport = Schema.Struct({
  /** `text_info`, `profile:<id>`, `file:<id>` or `url:<url>`. */
  source: Schema.String,
  status: Schema.Literals(["read", "unreadable"]),
  /** How many facts it gave: `key: value` pairs (profile data, document fields and lines, text lines) and statements of prose. */
  facts: Schema.Finite,
  /** Why an unreadable source could not be read. */
  reason: Schema.optionalKey(Schema.String)
})
export type SourceReport = typeof SourceReport.Type

/** A value of one source for a field. */
export const SourcedValue = Schema.Struct({ source: Schema.String, value: Schema.String })
export type SourcedValue = typeof SourcedValue.Type

/**
 * Sources that disagree on the fact a filled field took (same meaning, person and dependent,
 * different values): the one chosen by source priority, and the others.
 */
export const Conflict = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  chosen: SourcedValue,
  others: Schema.Array(SourcedValue)
})
export type Conflict = typeof Conflict.Type

export const Session = Schema.Struct({
  id: SessionId,
  owner: UserId,
  form_id: FormId,
  status: SessionStatus,
  profile_ids: Schema.Array(Schema.String),
  file_urls: Schema.Array(Schema.String),
  text_info: Schema.optionalKey(Schema.String),
  files: Schema.Array(SessionFile),
  /** The filled PDF is flattened: values drawn into the pages, no form left. Absent means false. */
  flatten: Schema.optionalKey(Schema.Boolean),
  filled_fields: Schema.optionalKey(Schema.Array(FilledField)),
  unfilled_fields: Schema.optionalKey(Schema.Array(UnfilledField)),
  sources: Schema.optionalKey(Schema.Array(SourceReport)),
  conflicts: Schema.optionalKey(Schema.Array(Conflict)),
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
  files: Schema.optional(Schema.Finite.check(Schema.isLessThanOrEqualTo(sessionLimits.files)))
})
