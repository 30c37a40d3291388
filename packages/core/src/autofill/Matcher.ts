/**
 * The first filler: a field is filled when a fact's key matches the field's name, its full PDF
 * name or its last name part, after normalisation (case, spacing, punctuation, accents), and the
 * key does not contradict what the field is understood to ask for: its meaning and whose data it
 * is (`semantic`). The first matching fact in source order wins.
 */
import type { FieldValue, FormField } from "../FormField.ts"
import { checkboxWord, normalizeName } from "../FormField.ts"
import * as Vocabulary from "../understand/Vocabulary.ts"
import type { Fact } from "./Fact.ts"

export interface Match {
  readonly field: FormField
  readonly value: FieldValue
  readonly fact: Fact
}

const compact = (s: string) => normalizeName(s).replace(/ /g, "")

/** Names a field answers to: its human name, its full name and the last part of it. */
const namesOf = (field: FormField): ReadonlySet<string> => {
  const last = field.form_name.split(".").pop() ?? field.form_name
  const withoutIndex = last.replace(/\[\d+\]/g, "")
  return new Set([field.name, field.form_name, last, withoutIndex].map(compact).filter((n) => n !== ""))
}


const chooseOption = (field: FormField, raw: string): string | undefined => {
  const wanted = compact(raw)
  const option = field.options?.find((o) => compact(o.value) === wanted || compact(o.label) === wanted)
  return option?.value
}

/** The value a fact gives a field of this type, or undefined when it cannot apply. */
export const valueFor = (field: FormField, raw: string): FieldValue | undefined => {
  switch (field.form_type) {
    case "Text":
      return raw
    case "CheckBox":
      return checkboxWord(raw) ?? (chooseOption(field, raw) !== undefined ? true : undefined)
    case "RadioButton":
      return chooseOption(field, raw)
    case "ComboBox":
      return chooseOption(field, raw) ?? (field.options && field.options.length > 0 ? undefined : raw)
    case "ListBox": {
      const chosen = raw.split(/[,;]/).map((part) => chooseOption(field, part.trim())).filter((v): v is string => v !== undefined)
      return chosen.length > 0 ? chosen : undefined
    }
    default:
      return undefined
  }
}

/**
 * Whether a fact's key can speak for the field: the person the key is about (the holder, unless
 * it names a spouse, a dependent, an employer...) is the one the field asks about, and a key with
 * a known meaning has the field's meaning. A preparer's or an official's field takes nothing.
 */
const agrees = (field: FormField, key: string): boolean => {
  const semantic = field.semantic
  if (semantic === undefined) return true
  if (semantic.role === "preparer" || semantic.role === "official") return false
  if ((Vocabulary.roleOf(key) ?? "self") !== semantic.role) return false
  const type = Vocabulary.typeOf(key)
  return semantic.type === "unknown" || type === "unknown" || type === semantic.type
}

/** Matches facts (in priority order) to the fillable fields of a form. */
export const match = (fields: ReadonlyArray<FormField>, facts: ReadonlyArray<Fact>): ReadonlyArray<Match> => {
  const byKey = new Map<string, Array<Fact>>()
  for (const fact of facts) {
    const key = compact(fact.key)
    if (key === "") continue
    const list = byKey.get(key) ?? []
    list.push(fact)
    byKey.set(key, list)
  }
  const matches: Array<Match> = []
  for (const field of fields) {
    if (field.read_only || field.form_type === "Signature" || field.form_type === "PushButton") continue
    let found: Match | undefined
    for (const name of namesOf(field)) {
      for (const fact of byKey.get(name) ?? []) {
        if (!agrees(field, fact.key)) continue
        const value = valueFor(field, fact.value)
        if (value !== undefined && (found === undefined || facts.indexOf(fact) < facts.indexOf(found.fact))) {
          found = { field, value, fact }
        }
      }
    }
    if (found) matches.push(found)
  }
  return matches
}
