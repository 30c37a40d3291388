/**
 * Formatting, the last stage of autofill: a fact's value written the way a field asks for it
 * (`format`: date pattern or part, digits only, segments of a split number, comb cells and length,
 * capitals, the number of a unit), or the option of a choice field that says the fact. Check
 * boxes and radio groups are set only when exactly one option's caption says the fact. Nothing is
 * written that the field cannot hold faithfully.
 */
import type { FieldFormat, FieldValue, FormField, SemanticType } from "../FormField.ts"
import { ownLabel } from "../understand/Semantic.ts"
import * as Vocabulary from "../understand/Vocabulary.ts"
import { isDateType, type TypedFact, usStateCode } from "./Facts.ts"
import * as Phones from "./Phones.ts"
import * as Questions from "./Questions.ts"

// A number asked for: not a name or an address.
export const numberWords = / (?:n|no|nr|num|numero|number|nummer|numro) /

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

const digitTypes: ReadonlySet<SemanticType> = new Set(["ssn", "itin", "ein", "tax_id", "national_id", "phone", "fax", "postal_code", "industry_code", "employee_count"])

// Kinds of unit, as an address writes them before the unit's number.
const unitKinds: ReadonlyArray<[string, RegExp]> = [
  ["apartment", /^(?:apt|apartment|appt|appartement|wohnung|whg|departamento|depto|dpto)$/],
  ["suite", /^(?:ste|suite)$/],
  ["floor", /^(?:flr|fl|floor|etage|stock|og|piso|planta)$/],
  ["unit", /^(?:unit|unite|room|rm|bureau)$/]
]
const unitDesignator = /^\s*(?:apt|apartment|appt|appartement|wohnung|whg|departamento|depto|dpto|ste|suite|flr|fl|floor|etage|stock|og|piso|planta|unit|unite|room|rm|bureau|#)\b\.?/i

/** The kinds of unit a text names ("Apt./Ste./Flr." → apartment, suite, floor). */
const unitKindsIn = (text: string): ReadonlyArray<string> => {
  const tokens = Vocabulary.normalize(text).trim().split(" ")
  return unitKinds.filter(([, re]) => tokens.some((t) => re.test(t))).map(([kind]) => kind)
}

const unitNumberOnly = (field: FormField) => {
  const label = ownLabel(field.name)
  return unitKindsIn(label).length > 1 || numberWords.test(Vocabulary.normalize(label))
}

const townWords = / (?:city|town|village|municipality|ville|commune|stadt|ort|gemeinde|ciudad|localidad|municipio) /
const regionWords = / (?:state|province|region|county|country|nation|pays|departement|land|bundesland|staat|provincia|estado|pais) /
const townOnly = (field: FormField) => {
  const label = Vocabulary.normalize(ownLabel(field.name))
  return townWords.test(label) && !regionWords.test(label)
}

/**
 * Whether a value's letters are part of it: a British postcode ("BS2 8QX"), a Spanish DNI
 * ("12345678Z"). Its digits alone are another value, not the same one without separators. An
 * identifier's leading letter is the exception: forms print it before the boxes ("A-" before an
 * A-Number's nine digits), so "A123456789" is written there as its digits.
 */
const hasLetters = (value: string, type: SemanticType): boolean =>
  type !== "postal_code" && /^\s*[A-Z]{1,2}[\s-]?\d[\d\s-]*$/.test(value) ? false : /\p{L}/u.test(value)

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
    // The groups a kind of number is written in (SSN 3-2-4), else the boxes' own lengths when
    // the value fills them exactly (a 13-digit number and its 2-digit key).
    const groups = groupsOf[fact.type] ?? segment.lengths
    if (hasLetters(value, fact.type)) return undefined
    // Phone boxes of 3, 3 and 4 digits are North American: a number of another country ("0941
    // 123456", ten digits in Germany) does not go into them.
    if ((fact.type === "phone" || fact.type === "fax") && !Phones.parsePhone(value, "US")?.e164.startsWith("+1")) return undefined
    const digits = value.replace(/\D/g, "")
    // A US phone with its country code: the national number.
    const national = fact.type === "phone" || fact.type === "fax" ? digits.replace(/^1(?=\d{10}$)/, "") : digits
    if (!groups || groups.length !== segment.count || national.length !== groups.reduce((a, b) => a + b, 0)) return undefined
    const start = groups.slice(0, segment.index - 1).reduce((a, b) => a + b, 0)
    value = national.slice(start, start + groups[segment.index - 1]!)
    how.push(`segment ${segment.index} of ${segment.count}`)
  } else if (format.digits_only && (digitTypes.has(fact.type) || isDateType(fact.type))) {
    if (hasLetters(value, fact.type)) return undefined
    value = value.replace(/\D/g, "")
    how.push("digits only")
  }
  // A unit box whose label names the kind of unit, or asks for its number ("Apt./Ste./Flr.
  // Number", with a check box per kind beside it), takes the number without the word.
  if (fact.type === "unit" && unitNumberOnly(field)) {
    const number = value.replace(unitDesignator, "").replace(/^[\s.#:-]+/, "").trim()
    if (number !== "" && number !== value) {
      value = number
      how.push("unit number without its kind")
    }
  }
  // A birth place box that asks for the town alone ("City/Town/Village of Birth", the country
  // asked in a box of its own) takes the place's first part: "El Paso, Texas" → "El Paso".
  if (fact.type === "birth_place" && townOnly(field) && value.includes(",")) {
    value = value.slice(0, value.indexOf(",")).trim()
    how.push("town of the place")
  }
  const limit = format.comb_cells ?? format.max_length ?? field.max_length
  if (limit !== undefined && limit > 0 && value.length > limit) {
    const digits = value.replace(/\D/g, "")
    if (digitTypes.has(fact.type) && !hasLetters(value, fact.type) && digits.length <= limit && digits.length > 0) {
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

/**
 * The words that say one sex, in the languages the vocabulary reads; a profile often holds a
 * code ("M", "F") where a form offers boxes captioned in words ("Male", "Féminin"), or the reverse.
 */
const sexWords = {
  male: ["M", "Male", "Man", "Masculine", "Masculin", "Masculino", "Männlich", "Mann", "Homme", "Hombre", "H"],
  female: ["F", "Female", "Woman", "Feminine", "Féminin", "Femenino", "Weiblich", "Frau", "Femme", "Mujer", "W"]
} as const

/** Every spelling of the sex `value` says, itself first; just `value` when it says none. */
const sexSpellings = (value: string): ReadonlyArray<string> => {
  const v = norm(value)
  for (const words of [sexWords.male, sexWords.female]) {
    if (words.some((w) => norm(w) === v)) return [value, ...words.filter((w) => norm(w) !== v)]
  }
  return [value]
}

/** The value the fact gives the field, or undefined when it cannot say it faithfully. */
export const valueFor = (field: FormField, fact: TypedFact): { value: FieldValue; transform: string } | undefined => {
  if (fact.type === "sex" && field.form_type !== "Text") {
    for (const spelling of sexSpellings(fact.value)) {
      const chosen = valueAsSpelled(field, { ...fact, value: spelling })
      if (chosen !== undefined) return spelling === fact.value ? chosen : { ...chosen, transform: `${chosen.transform} (${spelling})` }
    }
    return undefined
  }
  return valueAsSpelled(field, fact)
}

/** `valueFor` with the fact's value exactly as it is spelled. */
const valueAsSpelled = (field: FormField, fact: TypedFact): { value: FieldValue; transform: string } | undefined => {
  switch (field.form_type) {
    case "Text": {
      return formatText(field, fact)
    }
    case "ComboBox":
    case "ListBox": {
      // A list of languages: every option that names one the person speaks.
      if (fact.type === "languages" && field.form_type === "ListBox") {
        const spoken = Questions.languagesIn(fact.value)
        const chosen = (field.options ?? []).filter((o) => {
          const code = Questions.languageOf(o.label) ?? Questions.languageOf(o.value)
          return code !== undefined && spoken.has(code)
        })
        return chosen.length > 0 ? { value: chosen.map((o) => o.value), transform: "the options of the languages spoken" } : undefined
      }
      const option = pickOption(field, fact)
      if (option !== undefined) return { value: field.form_type === "ListBox" ? [option] : option, transform: "option" }
      return field.form_type === "ComboBox" && (field.options ?? []).length === 0 ? formatText(field, fact) : undefined
    }
    case "RadioButton": {
      const option = pickOption(field, fact)
      return option !== undefined ? { value: option, transform: "option" } : undefined
    }
    case "CheckBox": {
      // The box of a kind of unit ("☐ Apt. ☐ Ste. ☐ Flr."): ticked for the kind the address names.
      if (fact.type === "unit") {
        const boxKinds = unitKindsIn(ownLabel(field.name))
        const factKind = unitKindsIn(fact.value.match(unitDesignator)?.[0] ?? "")
        return boxKinds.length === 1 && factKind.length === 1 && boxKinds[0] === factKind[0] ? { value: true, transform: `box of the unit's kind (${factKind[0]})` } : undefined
      }
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
