/**
 * Resolution by meaning: each fillable field whose meaning and owner field understanding knows
 * (`semantic`) takes the fact of the same type, role and dependent number, from the most trusted
 * source (`text_info`, then profiles, then documents: the facts' order), written the way the
 * field asks (`format`: date pattern or part, digits only, segments of a split number, capitals,
 * length). Check boxes and radio groups are set by meaning only when exactly one option's caption
 * says the fact. Anything uncertain stays empty; every match names its fact and how it was
 * transformed.
 */
import type { FieldFormat, FieldValue, FormField, SemanticType } from "../FormField.ts"
import { ownLabel } from "../understand/Semantic.ts"
import * as Vocabulary from "../understand/Vocabulary.ts"
import { isDateType, type TypedFact, usStateCode } from "./Facts.ts"

export interface Resolved {
  readonly field: FormField
  readonly value: FieldValue
  readonly fact: TypedFact
  /** How the fact's value became the field's ("date as MM/DD/YYYY", "segment 2 of 3"). */
  readonly transform: string
}

const pad = (n: number | string, width = 2) => String(n).padStart(width, "0")

/** An ISO date written in a pattern of D, M and Y letters (`MM/DD/YYYY`, `DDMMYY`, `YYYY-MM-DD`). */
export const formatDate = (isoDate: string, pattern: string): string => {
  const [y, m, d] = isoDate.split("-")
  return pattern.replace(/Y{2,4}|M{1,2}|D{1,2}/g, (part) =>
    part[0] === "Y" ? (part.length === 2 ? y!.slice(2) : y!) : part[0] === "M" ? pad(Number(m)) : pad(Number(d))
  )
}

const patternOfOrder = (order: FieldFormat["date_order"]) => (order === "DMY" ? "DD/MM/YYYY" : order === "YMD" ? "YYYY-MM-DD" : "MM/DD/YYYY")

// How identifiers split into boxes on a line: SSN 3-2-4, EIN 2-7, US phone 3-3-4.
const groupsOf: Partial<Record<SemanticType, ReadonlyArray<number>>> = { ssn: [3, 2, 4], itin: [3, 2, 4], ein: [2, 7], phone: [3, 3, 4], fax: [3, 3, 4] }

const digitTypes: ReadonlySet<SemanticType> = new Set(["ssn", "itin", "ein", "tax_id", "national_id", "phone", "fax", "postal_code"])

/** The fact's value written for a text field, or undefined when it cannot be written there faithfully. */
export const formatText = (field: FormField, fact: TypedFact): { value: string; transform: string } | undefined => {
  const format = field.semantic?.format ?? {}
  let value = fact.value
  const how: Array<string> = []
  const segment = format.segment
  if (isDateType(fact.type) && !format.date_part && segment && segment.count === 3) {
    // A date in three boxes: the part of this box, in the form's order.
    const [y, m, d] = value.split("-")
    const order = format.date_order ?? "MDY"
    const letter = order[segment.index - 1]
    value = letter === "Y" ? y! : letter === "M" ? m! : d!
    how.push(`date part ${segment.index} of ${order}`)
  } else if (isDateType(fact.type)) {
    if (format.date_part) {
      const [y, m, d] = value.split("-")
      value = format.date_part === "year" ? y! : format.date_part === "month" ? m! : d!
      how.push(`date ${format.date_part}`)
    } else {
      const pattern = format.date_pattern ?? patternOfOrder(format.date_order)
      value = formatDate(value, pattern)
      how.push(`date as ${pattern}`)
    }
  }
  if (segment && segment.count > 1 && !isDateType(fact.type)) {
    const groups = groupsOf[fact.type]
    const digits = value.replace(/\D/g, "")
    // A US phone with its country code: the national number.
    const national = fact.type === "phone" || fact.type === "fax" ? digits.replace(/^1(?=\d{10}$)/, "") : digits
    if (!groups || groups.length !== segment.count || national.length !== groups.reduce((a, b) => a + b, 0)) return undefined
    const start = groups.slice(0, segment.index - 1).reduce((a, b) => a + b, 0)
    value = national.slice(start, start + groups[segment.index - 1]!)
    how.push(`segment ${segment.index} of ${segment.count}`)
  } else if (format.digits_only && (digitTypes.has(fact.type) || isDateType(fact.type))) {
    value = value.replace(/\D/g, "")
    how.push("digits only")
  }
  const limit = format.comb_cells ?? format.max_length ?? field.max_length
  if (limit !== undefined && limit > 0 && value.length > limit) {
    const digits = value.replace(/\D/g, "")
    if (digitTypes.has(fact.type) && digits.length <= limit && digits.length > 0) {
      value = digits
      how.push("digits only to fit")
    } else {
      return undefined
    }
  }
  if (format.upper_case) {
    value = value.toUpperCase()
    how.push("upper case")
  }
  return { value, transform: how.join(", ") || "as given" }
}

const norm = (s: string) => Vocabulary.normalize(s.replace(/\([^)]*\)/g, " ")).trim()

/** Whether an option caption says the fact: one contains the other as whole words. */
const says = (caption: string, value: string): boolean => {
  const c = norm(caption), v = norm(value)
  if (c === "" || v === "" || c.length < 3) return false
  return ` ${v} `.includes(` ${c} `) || ` ${c} `.includes(` ${v} `)
}

/** The one option of a choice field the fact names, or undefined (none, or more than one). */
const pickOption = (field: FormField, fact: TypedFact): string | undefined => {
  const options = field.options ?? []
  const state = fact.type === "state" ? usStateCode(fact.value) : undefined
  const exact = options.filter((o) => norm(o.value) === norm(fact.value) || norm(o.label) === norm(fact.value) || (state !== undefined && (o.value === state || o.label === state)))
  if (exact.length === 1) return exact[0]!.value
  if (fact.type === "state" || fact.type === "country") return undefined
  const loose = options.filter((o) => says(o.label, fact.value) || says(o.value, fact.value))
  return loose.length === 1 ? loose[0]!.value : undefined
}

/** The value the fact gives the field, or undefined when it cannot say it faithfully. */
export const valueFor = (field: FormField, fact: TypedFact): { value: FieldValue; transform: string } | undefined => {
  switch (field.form_type) {
    case "Text": {
      return formatText(field, fact)
    }
    case "ComboBox":
    case "ListBox": {
      const option = pickOption(field, fact)
      if (option !== undefined) return { value: field.form_type === "ListBox" ? [option] : option, transform: "option" }
      return field.form_type === "ComboBox" && (field.options ?? []).length === 0 ? formatText(field, fact) : undefined
    }
    case "RadioButton": {
      const option = pickOption(field, fact)
      return option !== undefined ? { value: option, transform: "option" } : undefined
    }
    case "CheckBox": {
      // A box of a group: ticked when its own caption (name or option label) says the fact.
      const captions = [field.name, ...(field.options ?? []).map((o) => o.label)]
      if ((field.options ?? []).length > 1) {
        const option = pickOption(field, fact)
        return option !== undefined ? { value: option, transform: "option" } : undefined
      }
      return captions.some((c) => says(c, fact.value)) ? { value: true, transform: "caption says the fact" } : undefined
    }
    default:
      return undefined
  }
}

/** Types a choice field (box or group) can be set from. */
const choiceTypes: ReadonlySet<SemanticType> = new Set(["filing_status", "marital_status", "sex", "state", "country", "nationality"])

// Kinds of other people; a fact about one kind fills only a field about the same kind.
const relationKinds: ReadonlyArray<RegExp> = [
  / (?:emergenc\w*|notfall\w*|urgence|emergencia) /,
  / (?:parents?|father|mother|vater|mutter|eltern|pere|mere|padre|madre) /,
  / (?:witness\w*|zeugen?|temoin|testigo) /,
  / (?:doctor|physician|medecin|arzt|medico) /,
  / (?:sister|brother|sibling|schwester|bruder|soeur|frere|hermana|hermano) /,
  / (?:guardian|vormund|tuteur|tutor) /,
  / (?:contact|kontakt\w*|ansprechpartner\w*|signator\w*|authori[sz]ed|zeichnungsberechtigt\w*|signataire|firmante) /
]

const kindsOf = (text: string): ReadonlySet<number> => {
  const t = Vocabulary.normalize(text)
  return new Set(relationKinds.flatMap((re, i) => (re.test(t) ? [i] : [])))
}

/** Whether a fact about another person is about the one the field asks for: a shared relation word. */
const sameOther = (field: FormField, fact: TypedFact): boolean => {
  const fieldKinds = kindsOf([field.name, partialName(field.form_name), ...(field.semantic?.section ?? [])].join(" "))
  const factKinds = kindsOf(fact.relation ?? "")
  return [...fieldKinds].some((k) => factKinds.has(k))
}

const sameOwner = (field: FormField, fact: TypedFact): boolean => {
  const semantic = field.semantic!
  if (semantic.role === "other" && fact.role === "other") return sameOther(field, fact)
  // A marriage's date and a joint return's filing status are the couple's: the holder's and the spouse's.
  if ((fact.type === "marriage_date" || fact.type === "filing_status") && fact.role === "self" && semantic.role === "spouse") return true
  if (semantic.role !== fact.role) return false
  if (semantic.role === "dependent") return semantic.dependent_index !== undefined && semantic.dependent_index === fact.dependent_index
  return true
}

// Possessives that name the person filling the form, not someone else.
const selfPossessives = /^(?:your|applicant|applicants|taxpayer|taxpayers|employee|employees|principal|principals|petitioner|petitioners|claimant|claimants|insured|holder|holders|owner|owners|my|his|her|their)$/

// Whose-words the vocabulary has no role for yet: someone else's data.
const otherPeople = / (?:ayant droit|ayants droit|designee|designees|beneficiar\w*|parent \d|parents?|agent|attorney in fact) /

/** Type pairs a label and the field understanding may disagree on without doubt (a name part of a name). */
const sameFamily = (a: SemanticType, b: SemanticType) => {
  const names: ReadonlyArray<SemanticType> = ["given_name", "middle_name", "middle_initial", "given_name_and_middle_initial", "family_name", "full_name"]
  const places: ReadonlyArray<SemanticType> = ["address", "street_address", "city_state_postal"]
  // A "tax number" is whichever number the holder is taxed under: an EIN, an SSN, an ITIN.
  const taxIds: ReadonlyArray<SemanticType> = ["tax_id", "ein", "ssn", "itin"]
  const related = (group: ReadonlyArray<SemanticType>) => group.includes(a) && group.includes(b)
  return related(names) || related(places) || (taxIds.includes(a) && taxIds.includes(b) && (a === "tax_id" || b === "tax_id")) || (isDateType(a) && isDateType(b))
}

/**
 * Whether the field's own label leaves its meaning or owner in doubt: it names another person
 * than the understood role, another meaning, a second address line, or a possessive of someone
 * who is not the holder.
 */
/** The last part of a field's PDF name as words ("Line6b_StreetNumberName[0]" → "Line6b Street Number Name"). */
const partialName = (formName: string) =>
  (formName.split(".").pop() ?? formName).replace(/\[\d+\]/g, " ").replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2").replace(/_/g, " ").trim()

// Places that are not the holder's own address or organisation: where something happened or is done.
const otherPlaces = / (?:facility|worksite|work site|site|location|establishment|premises|lieu de travail|arbeitsort|etablissement) /
// Second values: a person's facts are their primary ones.
const secondValues = / (?:additional|alternate|alternative|other|secondary|previous|former|prior|most recent|weitere|autres?|otros?|anciens?) /
// A number asked for: not a name or an address.
const numberWords = / (?:n|no|nr|num|numero|number|nummer|numro) /
const numberTypes: ReadonlySet<SemanticType> = new Set([
  "ssn", "itin", "ein", "tax_id", "national_id", "passport_number", "driver_license", "iban", "bic", "phone", "fax", "postal_code", "house_number", "unit", "age"
])

export const uncertain = (field: FormField): boolean => {
  const semantic = field.semantic!
  const labelled = field.name.trim() !== "" && field.name !== "undefined"
  const partial = partialName(field.form_name)
  // Within a long /TU, the field's own item: its part and section headings are in `semantic`.
  const label = labelled ? ownLabel(field.name) : partial
  const text = Vocabulary.normalize(label.replace(/['’]s\b/g, ""))
  for (const words of [label, partial]) {
    const role = Vocabulary.roleOf(words.replace(/['’]s\b/g, ""))
    if (role !== undefined && role !== semantic.role) return true
    if (semantic.role !== "dependent" && Vocabulary.dependentIndexOf(words) !== undefined) return true
    const t = Vocabulary.normalize(words.replace(/['’]s\b/g, ""))
    if (semantic.role === "self" && otherPeople.test(t)) return true
    // A row of a table lists several people or items: not the holder's one value.
    if (semantic.role !== "dependent" && / row ?\d+ |row\d+ /.test(t)) return true
    if (otherPlaces.test(t) || secondValues.test(t)) return true
  }
  // A place or a second value named anywhere in a long /TU (its section: "Worksite Location. ...
  // 9. A. Enter Street Number and Name.") is not the holder's own.
  if (labelled && label !== field.name) {
    const whole = Vocabulary.normalize(field.name.replace(/['’]s\b/g, ""))
    if (otherPlaces.test(whole) || secondValues.test(whole)) return true
  }
  if (numberWords.test(text) && !numberTypes.has(semantic.type) && !isDateType(semantic.type) && semantic.type !== "street_address") return true
  // A label that continues a sentence ("and full name here") does not say whose value it is.
  if (labelled && /^\s*(?:and|or|und|oder|et|ou|y|o)\s/i.test(label)) return true
  // The label, and the PDF name when it is made of words, must not name another meaning.
  for (const words of labelled ? [label, partial] : [label]) {
    if (!/\p{L}{3}/u.test(words.replace(/\b[a-z]\d+\b/gi, ""))) continue
    const labelType = Vocabulary.typeOf(words.replace(/['’]s\b/g, "s"))
    if (labelType !== "unknown" && labelType !== semantic.type && !sameFamily(labelType, semantic.type)) return true
  }
  if (semantic.type === "street_address" && [text, Vocabulary.normalize(partial)].some((t) => / (?:line|ligne|zeile|linea|address|adresse|addr) 2 /.test(t))) return true
  if (semantic.role === "self") {
    for (const m of label.matchAll(/\b([\p{L}]+)['’]s?\b/gu)) {
      if (/['’]s?$/.test(m[0]) && !selfPossessives.test(Vocabulary.normalize(m[1]!).trim())) return true
    }
  }
  return false
}

/** Whose contact box a field is: type, role, dependent number, and for other people their kind. */
const contactKey = (f: FormField): string => {
  const sem = f.semantic!
  const kinds = sem.role === "other" ? [...kindsOf([f.name, partialName(f.form_name)].join(" "))].join(",") : ""
  return `${sem.type}|${sem.role}|${sem.dependent_index ?? ""}|${kinds}`
}

/** Resolves facts (most trusted first) against the fields of a form. */
export const resolve = (fields: ReadonlyArray<FormField>, facts: ReadonlyArray<TypedFact>): ReadonlyArray<Resolved> => {
  const out: Array<Resolved> = []
  // Headings of tables (sections holding rows "…_Row_2"): a field under one is a row's, not the holder's.
  const lastHeading = (f: FormField) => f.semantic?.section?.[f.semantic.section.length - 1]
  const tables = new Set(
    fields.filter((f) => / row ?\d+ |row\d+ /.test(Vocabulary.normalize(`${f.name} ${partialName(f.form_name)}`))).flatMap((f) => lastHeading(f) ?? [])
  )
  // Owners whose city or postal code has a box of its own: their street boxes take the street only.
  const placeBoxes = new Set(
    fields.filter((f) => f.semantic && ["city", "postal_code", "city_state_postal"].includes(f.semantic.type)).map((f) => f.semantic!.role)
  )
  // Several contact boxes of one owner under different labels ("Phone no" twice, "Home phone" and
  // "Work phone"): which one is the person's own line is in doubt, so none is filled.
  const contactLabels = new Map<string, Set<string>>()
  for (const f of fields) {
    const sem = f.semantic
    if (!sem || !["phone", "fax", "email"].includes(sem.type) || sem.format?.segment) continue
    contactLabels.set(contactKey(f), (contactLabels.get(contactKey(f)) ?? new Set()).add(Vocabulary.normalize(f.name)))
  }
  for (const field of fields) {
    const sem = field.semantic
    if (sem && (contactLabels.get(contactKey(field))?.size ?? 0) > 1) continue
    const heading = lastHeading(field)
    if (heading !== undefined && tables.has(heading) && field.semantic?.role !== "dependent") continue
    const semantic = field.semantic
    if (!semantic || field.read_only || field.form_type === "Signature" || field.form_type === "PushButton") continue
    if (semantic.type === "unknown" || semantic.role === "preparer" || semantic.role === "official") continue
    if (semantic.type === "signature" || semantic.type === "signature_date" || semantic.type === "signature_place") continue
    // A bare "date" says not which one.
    if (semantic.type === "date") continue
    if (field.form_type !== "Text" && field.form_type !== "ComboBox" && !choiceTypes.has(semantic.type)) continue
    if (uncertain(field)) continue
    // An address line with no city or postal box for its owner anywhere on the form takes the whole address.
    const wanted: SemanticType = semantic.type === "street_address" && !placeBoxes.has(semantic.role) ? "address" : semantic.type
    for (const fact of facts) {
      if (fact.type !== wanted || !sameOwner(field, fact)) continue
      const written = valueFor(field, fact)
      if (written === undefined) continue
      out.push({ field, value: written.value, fact, transform: written.transform })
      break
    }
  }
  return out
}
