/**
 * Response bodies of the /v1 contract (interface.md's fields, plus contract.md's additions).
 */
import { Schema } from "effect"
import { FormField } from "@formwright/core/FormField"
import { ProfileFile } from "@formwright/core/Profile"

export { FormField }

export const UploadResult = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("upload_form"),
  form_id: Schema.String,
  file_name: Schema.String,
  pages: Schema.Int,
  fields: Schema.Array(FormField)
})

export const Instructions = Schema.Record(Schema.String, Schema.String)

export const FormDefinition = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("form"),
  file_name: Schema.String,
  pages: Schema.Int,
  processed: Schema.Boolean,
  as_text: Schema.String,
  form_url: Schema.optionalKey(Schema.String),
  fields: Schema.Array(FormField),
  group_instructions: Instructions,
  line_by_line_instructions: Instructions,
  created: Schema.String,
  updated: Schema.String
})

export const FormList = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("forms"),
  total: Schema.Int,
  forms: Schema.Array(FormDefinition)
})

export const Deleted = Schema.Struct({ id: Schema.String, object: Schema.String, deleted: Schema.Literal(true) })

/*
 * JSON values described as such: a bare record of any value would be declared `{type: "object"}`
 * alone, which generated clients (openapi-typescript) read as an object with no members.
 */
const FieldMember = Schema.Json.annotate({ description: "The member's new value." })
const DataValue = Schema.Json.annotate({ description: "Any JSON value: a string, number, boolean, list, object or null." })
const ProfileData = Schema.Record(Schema.String, DataValue)

const updateMembers = {
  /** The text of the form, as interface.md spells it in the request. */
  asText: Schema.optionalKey(Schema.String),
  /** The same member as responses spell it; either spelling is accepted, both must agree. */
  as_text: Schema.optionalKey(Schema.String),
  form_url: Schema.optionalKey(Schema.String),
  fields: Schema.optionalKey(Schema.Array(Schema.Record(Schema.String, FieldMember)).annotate({
    description: "Changes to fields: in each, `id` picks the field and every other member given (`name`, `form_name`, `form_type`, `page`, `rect`, `required`, `read_only`, `options`, `max_length`, `multiline`, `comb`, `value`, `confidence`) replaces the stored one."
  })),
  group_instructions: Schema.optionalKey(Instructions),
  line_by_line_instructions: Schema.optionalKey(Instructions)
}

const FormUpdate = Schema.Struct(updateMembers)

/**
 * Any other member of `form` is refused: dropped in silence, the caller would be told
 * `updated: true` for a change that never happened. Typed as the plain struct: the rest's
 * `never` values would otherwise make the known members unassignable in the client.
 */
const OtherMember = Schema.String.check(Schema.makeFilter((key: string) => !Object.hasOwn(updateMembers, key)))
const ClosedFormUpdate = Schema.StructWithRest(FormUpdate, [
  Schema.Record(
    OtherMember,
    Schema.Never.annotate({
      message: "not a member of a form update (asText (or as_text), form_url, fields, group_instructions, line_by_line_instructions)."
    })
  )
]) as unknown as typeof FormUpdate

export const UpdateFormRequest = Schema.Struct({ form: ClosedFormUpdate })

export const UpdateFormResult = Schema.Struct({
  id: Schema.String,
  created: Schema.String,
  object: Schema.Literal("update_form"),
  updated: Schema.Boolean,
  form: Schema.Struct({
    as_text: Schema.String,
    form_url: Schema.optionalKey(Schema.String),
    fields: Schema.Array(FormField),
    group_instructions: Instructions,
    line_by_line_instructions: Instructions
  })
})

export const CreateSessionJson = Schema.Struct({
  form_id: Schema.String,
  profile_ids: Schema.optionalKey(Schema.Array(Schema.String)),
  file_urls: Schema.optionalKey(Schema.Array(Schema.String)),
  text_info: Schema.optionalKey(Schema.String),
  flatten: Schema.optionalKey(Schema.Boolean.annotate({
    description: "Flatten the filled PDF: every value and check mark is drawn into its page and no form field is left. Default false."
  }))
})

export const SessionCreated = Schema.Struct({
  id: Schema.String.annotate({ description: "The id of this creation response (`cs_...`), not of the session: poll `session_id`." }),
  object: Schema.Literal("session"),
  session_id: Schema.String.annotate({ description: "The session's id (`ses_...`): poll `GET /v1/sessions/{session_id}` until it is completed." })
})

/** Why a filled field has its value. */
export const Evidence = Schema.Struct({
  fact: Schema.String.annotate({ description: "The key (or the words of `text_info`) the value came from, as the source named it." }),
  type: Schema.String.annotate({ description: "The fact's semantic type; `unknown` for a match by name alone." }),
  role: Schema.String.annotate({ description: "Whose the fact is: `self`, `spouse`, `dependent`, `other`, `employer`..." }),
  transform: Schema.String.annotate({ description: "How the value was written into the field: `as given`, `date as MM/DD/YYYY`, `same name`..." })
})

export const FilledField = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  name: Schema.String,
  value: Schema.Union([Schema.String, Schema.Boolean, Schema.Array(Schema.String)]),
  source: Schema.String,
  confidence: Schema.Finite.annotate({ description: "The source's trust times the certainty of the match, in [0, 1]." }),
  evidence: Schema.optionalKey(Evidence)
})

export const UnfilledField = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  name: Schema.String,
  reason: Schema.optionalKey(
    Schema.Literals(["read_only", "signature", "excluded_role", "uncertain_meaning", "no_fact", "no_fitting_value", "not_applied"]).annotate({
      description: "Why the field stayed empty (docs/http-api.md lists the codes)."
    })
  ),
  detail: Schema.optionalKey(Schema.String)
})

export const SourceReport = Schema.Struct({
  source: Schema.String.annotate({ description: "`text_info`, `profile:<id>`, `file:<id>` or `url:<url>`." }),
  status: Schema.Literals(["read", "unreadable"]),
  facts: Schema.Int.annotate({ description: "Facts the source gave: `key: value` pairs and statements of prose." }),
  reason: Schema.optionalKey(Schema.String.annotate({ description: "Why an unreadable source could not be read." }))
})

const SourcedValue = Schema.Struct({ source: Schema.String, value: Schema.String })

export const Conflict = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  chosen: SourcedValue,
  others: Schema.Array(SourcedValue)
}).annotate({ description: "Sources that disagree on the fact a filled field took; source priority chose." })

export const SessionStatus = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("session"),
  session_id: Schema.String,
  form_id: Schema.String,
  status: Schema.Literals(["pending", "processing", "completed", "failed"]),
  created: Schema.String,
  updated: Schema.String,
  filled_form_base64: Schema.optionalKey(Schema.String),
  filled_form_url: Schema.optionalKey(Schema.String),
  filled_fields: Schema.optionalKey(Schema.Array(FilledField)),
  unfilled_fields: Schema.optionalKey(Schema.Array(UnfilledField)),
  sources: Schema.optionalKey(Schema.Array(SourceReport)),
  conflicts: Schema.optionalKey(Schema.Array(Conflict)),
  error_message: Schema.optionalKey(Schema.String)
})

export const ConversionStarted = Schema.Struct({ job_id: Schema.String })

export const ConversionStatus = Schema.Struct({
  status: Schema.Literals(["pending", "processing", "completed", "failed"]),
  progress: Schema.optionalKey(Schema.Struct({ pages_done: Schema.Int, pages_total: Schema.Int })),
  error_message: Schema.optionalKey(Schema.String),
  form_id: Schema.optionalKey(Schema.String),
  base64: Schema.optionalKey(Schema.String),
  /** Once completed: the path of the PNG review picture of the created form's first page. */
  preview_url: Schema.optionalKey(Schema.String)
})

/** A document attached to a profile, as the core stores it. */
export { ProfileFile }

export const Profile = Schema.Struct({
  name: Schema.String,
  userId: Schema.String,
  status: Schema.Literals(["Active", "Inactive"]),
  created: Schema.String,
  updated: Schema.String,
  idInternal: Schema.String,
  files: Schema.Array(ProfileFile),
  data: ProfileData.annotate({
    description: "The person's or company's facts: strings, numbers, booleans, lists or nested objects, under any keys."
  })
})

export const ProfileList = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("profiles"),
  total: Schema.Int,
  profiles: Schema.Array(Profile)
})

export const CreateProfile = Schema.Struct({
  name: Schema.String,
  status: Schema.optionalKey(Schema.Literals(["Active", "Inactive"])),
  data: Schema.optionalKey(ProfileData)
})

export const PatchProfile = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Literals(["Active", "Inactive"])),
  data: Schema.optionalKey(ProfileData.annotate({ description: "Present keys replace; a null removes the key." }))
})

export const Health = Schema.Struct({ status: Schema.Literal("ok"), version: Schema.String })
