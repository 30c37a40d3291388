/**
 * A field of a PDF form, in the shape contract.md gives to every route that shows fields.
 */
import { Schema } from "effect"
import { roles, semanticTypes } from "./understand/Vocabulary.ts"

/** The `form_type` values of contract.md. */
export const FormType = Schema.Literals(["Text", "CheckBox", "RadioButton", "ComboBox", "ListBox", "Signature", "PushButton"])
export type FormType = typeof FormType.Type

/** A choice (combo/list box) option or a radio/checkbox export value. */
export const FieldOption = Schema.Struct({
  /** What the person sees. */
  label: Schema.String,
  /** What the PDF stores when this option is chosen. */
  value: Schema.String
})
export type FieldOption = typeof FieldOption.Type

/** A field value: text, a checked state, or the chosen options of a list box. */
export const FieldValue = Schema.Union([Schema.String, Schema.Boolean, Schema.Array(Schema.String)])
export type FieldValue = typeof FieldValue.Type

/** What a field's value is: a name part, a date, an identifier, an address part... or `unknown`. */
export const SemanticType = Schema.Literals(semanticTypes)
export type SemanticType = typeof SemanticType.Type

/**
 * Whose value a field holds: the person filling the form (`self`), their `spouse`, a
 * `dependent`, an `other` person (emergency contact, parent, witness...), an `employer` or
 * business, a `preparer` (paid preparer, interpreter), or an `official` (for official use only).
 */
export const FieldRole = Schema.Literals(roles)
export type FieldRole = typeof FieldRole.Type

/** How a field wants its value written; every member is there only when the form says. */
export const FieldFormat = Schema.Struct({
  /** Comb fields: one character per cell, this many cells. */
  comb_cells: Schema.optionalKey(Schema.Int),
  max_length: Schema.optionalKey(Schema.Int),
  /** A date pattern in D, M, Y letters, e.g. `MM/DD/YYYY`, `DD.MM.YYYY`, `DDMMYYYY` (8 comb cells). */
  date_pattern: Schema.optionalKey(Schema.String),
  /** The order of day, month and year: from a pattern on the form, else from its language. */
  date_order: Schema.optionalKey(Schema.Literals(["MDY", "DMY", "YMD"])),
  /** A box that takes one part of a date ("Date of birth: month"). */
  date_part: Schema.optionalKey(Schema.Literals(["day", "month", "year"])),
  /** Only digits go in: no separators, no letters. */
  digits_only: Schema.optionalKey(Schema.Boolean),
  /** The form asks for capitals. */
  upper_case: Schema.optionalKey(Schema.Boolean),
  /**
   * One of `count` boxes on a line that hold one value between them (SSN groups, dollars and
   * cents); `index` is 1-based; `lengths`, when every box has a maximum length, gives each box's.
   */
  segment: Schema.optionalKey(Schema.Struct({ index: Schema.Int, count: Schema.Int, lengths: Schema.optionalKey(Schema.Array(Schema.Int)) })),
  /** A full name asked family name first ("Last, First, Middle"): written `Family, Given Middle`. */
  name_order: Schema.optionalKey(Schema.Literal("family_first"))
})
export type FieldFormat = typeof FieldFormat.Type

/** What field understanding made of a field: its meaning, whose it is, where it sits, its format. */
export const FieldSemantic = Schema.Struct({
  type: SemanticType,
  role: FieldRole,
  /** For `role: "dependent"`: which one, 1-based (a table row, or the number a label gives). */
  dependent_index: Schema.optionalKey(Schema.Int),
  /** The headings the field sits under, outermost first ("Part 3. Spouse", "Mailing address"). */
  section: Schema.optionalKey(Schema.Array(Schema.String)),
  format: Schema.optionalKey(FieldFormat),
  /**
   * The label printed beside the field ("Street Number and Name"), when `name` says more: on a
   * form set out in numbered parts the name also gives the part, heading and item number ("Part
   * 1. Information About You. Mailing Address. 3.b. Street Number and Name"), and for a check
   * box of a group its question.
   */
  label: Schema.optionalKey(Schema.String)
})
export type FieldSemantic = typeof FieldSemantic.Type

export const FormField = Schema.Struct({
  /** Stable for the life of the form. */
  id: Schema.String,
  /**
   * Human-readable: `/TU`, else the field's accessible name read from the page (the label near
   * the widget, with its part, heading and item number on a form set out in numbered parts, and
   * its question for a check box of a group), else a cleaned partial name.
   */
  name: Schema.String,
  /** Full hierarchical PDF name, e.g. `topmostSubform[0].Page1[0].f1_01[0]`. */
  form_name: Schema.String,
  form_type: FormType,
  /** 1-based page of the field's first widget. */
  page: Schema.Int,
  /** `[x1, y1, x2, y2]` in PDF user space of that page (origin bottom-left). */
  rect: Schema.Array(Schema.Finite),
  required: Schema.Boolean,
  read_only: Schema.Boolean,
  options: Schema.optionalKey(Schema.Array(FieldOption)),
  max_length: Schema.optionalKey(Schema.Int),
  multiline: Schema.optionalKey(Schema.Boolean),
  comb: Schema.optionalKey(Schema.Boolean),
  value: Schema.optionalKey(FieldValue),
  /** Detection confidence in [0, 1], for fields a converter placed. */
  confidence: Schema.optionalKey(Schema.Finite),
  /** Field understanding, computed when the form is read: meaning, role, section and format. */
  semantic: Schema.optionalKey(FieldSemantic)
})
export type FormField = typeof FormField.Type

/** The most a client may write into a field (PUT /v1/forms/{id}), in characters or entries. */
export const fieldLimits = {
  /** `name` and `form_name`. */
  name: 1_000,
  /** Entries of `options`, and the characters of each label and value. */
  options: 1_000,
  optionText: 1_000,
  /** Characters of a text `value`, and entries of a list box's. */
  value: 10_000,
  values: 1_000,
  maxLength: 1_000_000
} as const

const boundedString = (max: number) => Schema.String.check(Schema.isMaxLength(max))

/**
 * A change to one field: `id` picks it, every other present member replaces the stored one and
 * is checked here (unknown members are ignored). `page` must also be a page of the form, which
 * only the form knows (`Forms.update` checks it).
 */
export const FieldPatch = Schema.Struct({
  id: Schema.String,
  name: Schema.optional(boundedString(fieldLimits.name)),
  form_name: Schema.optional(boundedString(fieldLimits.name)),
  form_type: Schema.optional(FormType),
  page: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  rect: Schema.optional(Schema.Tuple([Schema.Finite, Schema.Finite, Schema.Finite, Schema.Finite])),
  required: Schema.optional(Schema.Boolean),
  read_only: Schema.optional(Schema.Boolean),
  options: Schema.optional(
    Schema.Array(Schema.Struct({ label: boundedString(fieldLimits.optionText), value: boundedString(fieldLimits.optionText) })).check(
      Schema.isMaxLength(fieldLimits.options)
    )
  ),
  max_length: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: fieldLimits.maxLength }))),
  multiline: Schema.optional(Schema.Boolean),
  comb: Schema.optional(Schema.Boolean),
  value: Schema.optional(
    Schema.Union([
      boundedString(fieldLimits.value),
      Schema.Boolean,
      Schema.Array(boundedString(fieldLimits.value)).check(Schema.isMaxLength(fieldLimits.values))
    ])
  ),
  confidence: Schema.optional(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })))
})
export type FieldPatch = typeof FieldPatch.Type

/** Collapses a name to what matching compares: lower case, letters and digits, single spaces. */
export const normalizeName = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()

// Stored normalised (see normalizeName), so accented spellings ("sí", "όχι") match as well.
const checkedWords = new Set(["yes", "y", "true", "1", "x", "on", "checked", "oui", "ja", "si", "да", "ναι"])
const uncheckedWords = new Set(["no", "n", "false", "0", "off", "unchecked", "non", "nein", "нет", "οχι", ""])

/** What a word says of a check box: checked, unchecked (an empty value too), or nothing. */
export const checkboxWord = (text: string): boolean | undefined => {
  const word = normalizeName(text)
  return checkedWords.has(word) ? true : uncheckedWords.has(word) ? false : undefined
}
