/** Fields and typed facts built by hand for the autofill tests. */
import type { TypedFact } from "../../src/autofill/Facts.ts"
import type { FieldSemantic, FormField } from "../../src/FormField.ts"

/**
 * A text field named `name`; its id also says its meaning and format, so two fields of one name
 * and different meanings stay apart.
 */
export const formField = (name: string, semantic: FieldSemantic | undefined, over: Partial<FormField> = {}): FormField => ({
  id: `fld_${name.replace(/\W+/g, "_")}${semantic ? `_${semantic.type}_${JSON.stringify(semantic.format ?? {})}` : ""}`,
  name,
  form_name: `form[0].${name.replace(/\W+/g, "_")}[0]`,
  form_type: "Text",
  page: 1,
  rect: [0, 0, 10, 10],
  required: false,
  read_only: false,
  ...(semantic ? { semantic } : {}),
  ...over
})

/** The holder's fact of `type`, from a profile. */
export const typedFact = (type: TypedFact["type"], value: string, over: Partial<TypedFact> = {}): TypedFact => ({
  type,
  role: "self",
  value,
  source: "profile:p",
  confidence: 0.9,
  evidence: `test ${type}`,
  ...over
})
