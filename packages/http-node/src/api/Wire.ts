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
  pages: Schema.Number,
  fields: Schema.Array(FormField)
})

export const Instructions = Schema.Record(Schema.String, Schema.String)

export const FormDefinition = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("form"),
  file_name: Schema.String,
  pages: Schema.Number,
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
  total: Schema.Number,
  forms: Schema.Array(FormDefinition)
})

export const Deleted = Schema.Struct({ id: Schema.String, object: Schema.String, deleted: Schema.Literal(true) })

export const UpdateFormRequest = Schema.Struct({
  form: Schema.Struct({
    asText: Schema.optionalKey(Schema.String),
    form_url: Schema.optionalKey(Schema.String),
    fields: Schema.optionalKey(Schema.Array(Schema.Record(Schema.String, Schema.Unknown))),
    group_instructions: Schema.optionalKey(Instructions),
    line_by_line_instructions: Schema.optionalKey(Instructions)
  })
})

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
  text_info: Schema.optionalKey(Schema.String)
})

export const SessionCreated = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("session"),
  session_id: Schema.String
})

export const FilledField = Schema.Struct({
  field_id: Schema.String,
  form_name: Schema.String,
  name: Schema.String,
  value: Schema.Union([Schema.String, Schema.Boolean, Schema.Array(Schema.String)]),
  source: Schema.String,
  confidence: Schema.Number
})

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
  unfilled_fields: Schema.optionalKey(Schema.Array(Schema.Struct({ field_id: Schema.String, form_name: Schema.String, name: Schema.String }))),
  error_message: Schema.optionalKey(Schema.String)
})

export const ConversionStarted = Schema.Struct({ job_id: Schema.String })

export const ConversionStatus = Schema.Struct({
  status: Schema.Literals(["pending", "processing", "completed", "failed"]),
  progress: Schema.optionalKey(Schema.Struct({ pages_done: Schema.Number, pages_total: Schema.Number })),
  error_message: Schema.optionalKey(Schema.String),
  form_id: Schema.optionalKey(Schema.String),
  base64: Schema.optionalKey(Schema.String)
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
  data: Schema.Record(Schema.String, Schema.String)
})

export const ProfileList = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("profiles"),
  total: Schema.Number,
  profiles: Schema.Array(Profile)
})

export const CreateProfile = Schema.Struct({
  name: Schema.String,
  status: Schema.optionalKey(Schema.Literals(["Active", "Inactive"])),
  data: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
})

export const PatchProfile = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Literals(["Active", "Inactive"])),
  data: Schema.optionalKey(Schema.Record(Schema.String, Schema.NullOr(Schema.String)))
})

export const Health = Schema.Struct({ status: Schema.Literal("ok"), version: Schema.String })
