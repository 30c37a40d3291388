/**
 * A stored form: the parsed definition of an uploaded (or converted) PDF and its owner.
 */
import { Schema } from "effect"
import { FieldPatch, FormField } from "./FormField.ts"
import { FormId, UserId } from "./Id.ts"

export const Instructions = Schema.Record(Schema.String, Schema.String)

export const Form = Schema.Struct({
  id: FormId,
  owner: UserId,
  file_name: Schema.String,
  /** How the form came to be: uploaded as is, or produced by a conversion job. */
  origin: Schema.Literals(["upload", "conversion"]),
  pages: Schema.Finite,
  size_bytes: Schema.Finite,
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

/** The most a client may store in a form's editable members (PUT /v1/forms/{id}). */
export const formLimits = {
  /** Characters of `as_text` (1 MiB). */
  asText: 1_048_576,
  /** Characters of `form_url`. */
  formUrl: 2_048,
  /** Entries of each instructions dictionary, and the characters of each key and each text. */
  instructions: 1_000,
  instructionKey: 1_000,
  instructionText: 10_000,
  /** Field changes in one update. */
  fields: 10_000
} as const

/** An http(s) URL, or "" for none: a `javascript:` or `data:` URL is never stored to be shown. */
const FormUrl = Schema.String.check(
  Schema.isMaxLength(formLimits.formUrl),
  Schema.makeFilter((value: string) => {
    if (value === "") return undefined
    const url = URL.parse(value)
    return url !== null && (url.protocol === "http:" || url.protocol === "https:") && url.host !== "" ? undefined : "Expected an http:// or https:// URL"
  })
)

const BoundedInstructions = Schema.Record(Schema.String, Schema.String.check(Schema.isMaxLength(formLimits.instructionText))).check(
  Schema.isMaxProperties(formLimits.instructions),
  // Record keys are not checked by the key schema's own checks: this filter does it.
  Schema.makeFilter((record: Readonly<Record<string, string>>) =>
    Object.keys(record).some((key) => key.length > formLimits.instructionKey)
      ? `Expected keys of at most ${formLimits.instructionKey} characters`
      : undefined
  )
)

/**
 * What `Forms.update` may change; absent members are kept. `fields` entries are matched by
 * `id`, and each entry's present members replace the stored field's (see FieldPatch). Lengths
 * are bounded by `formLimits`.
 */
export const FormPatch = Schema.Struct({
  as_text: Schema.optional(Schema.String.check(Schema.isMaxLength(formLimits.asText))),
  form_url: Schema.optional(FormUrl),
  fields: Schema.optional(Schema.Array(FieldPatch).check(Schema.isMaxLength(formLimits.fields))),
  group_instructions: Schema.optional(BoundedInstructions),
  line_by_line_instructions: Schema.optional(BoundedInstructions)
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
