/**
 * A stored form: the parsed definition of an uploaded (or converted) PDF and its owner.
 */
import { Schema } from "effect"
import { FormField } from "./FormField.ts"
import { FormId, UserId } from "./Id.ts"

export const Instructions = Schema.Record(Schema.String, Schema.String)

export const Form = Schema.Struct({
  id: FormId,
  owner: UserId,
  file_name: Schema.String,
  /** How the form came to be: uploaded as is, or produced by a conversion job. */
  origin: Schema.Literals(["upload", "conversion"]),
  pages: Schema.Number,
  size_bytes: Schema.Number,
  fields: Schema.Array(FormField),
  as_text: Schema.String,
  form_url: Schema.optionalKey(Schema.String),
  group_instructions: Instructions,
  line_by_line_instructions: Instructions,
  processed: Schema.Boolean,
  created: Schema.String,
  updated: Schema.String
})
export type Form = typeof Form.Type

/**
 * What `Forms.update` may change; absent members are kept. `fields` entries are matched by
 * `id`, and each entry's present members replace the stored field's (checked as a FormField).
 */
export const FormPatch = Schema.Struct({
  as_text: Schema.optional(Schema.String),
  form_url: Schema.optional(Schema.String),
  fields: Schema.optional(Schema.Array(Schema.StructWithRest(Schema.Struct({ id: Schema.String }), [Schema.Record(Schema.String, Schema.Unknown)]))),
  group_instructions: Schema.optional(Instructions),
  line_by_line_instructions: Schema.optional(Instructions)
})
export type FormPatch = {
  readonly as_text?: string | undefined
  readonly form_url?: string | undefined
  readonly fields?: ReadonlyArray<{ readonly id: string } & Partial<Omit<FormField, "id">>> | undefined
  readonly group_instructions?: Record<string, string> | undefined
  readonly line_by_line_instructions?: Record<string, string> | undefined
}

export class FormNotFound extends Schema.TaggedError<FormNotFound>()("FormNotFound", {
  formId: Schema.String
}) {}

/** The form exists but belongs to another user (403, unlike other kinds, by contract). */
export class FormForbidden extends Schema.TaggedError<FormForbidden>()("FormForbidden", {
  formId: Schema.String
}) {}
