/**
 * Typed facts: what a source says, by meaning (`SemanticType`) and by whose it is (`Role`), with
 * values normalised (names split, dates as ISO `YYYY-MM-DD`, one-line addresses split when the
 * split is unambiguous) and the evidence they came from. Keys in any vocabulary the field
 * vocabulary knows ("First name", "given_name", "Vorname", "Prénom", nested `spouse.first_name`),
 * and prose (`Prose.ts`) end up in the same shape, so resolution compares meanings only.
 */
import type { FieldRole, SemanticType } from "../FormField.ts"
import * as FieldFormat from "../understand/FieldFormat.ts"
import * as Vocabulary from "../understand/Vocabulary.ts"
import * as Dates from "./Dates.ts"
import type { Fact } from "./Fact.ts"
import * as Phones from "./Phones.ts"

export interface TypedFact {
  readonly type: SemanticType
  readonly role: FieldRole
  /** For `role: "dependent"`: which one, 1-based. */
  readonly dependent_index?: number
  /** Normalised: dates are `YYYY-MM-DD`, everything else trimmed text. */
  readonly value: string
  readonly source: string
  readonly confidence: number
  /** Where the value came from and how it was transformed ("key 'Date of birth' = '08/19/1979'"). */
  readonly evidence: string
  /** For `role: "other"`: the words that say who the person is ("emergency contact", "sister"). */
  readonly relation?: string
  /** For `national_id`: which kind its key names (`Vocabulary.idSchemeOf`); none for a plain identity number. */
  readonly scheme?: string
}

type Draft = Omit<TypedFact, "source" | "confidence">

const dateTypes: ReadonlySet<SemanticType> = new Set([
  "birth_date", "signature_date", "marriage_date", "start_date", "end_date", "issue_date", "expiry_date", "established_date", "date"
])
export const isDateType = (type: SemanticType): boolean => dateTypes.has(type)

/**
 * A date as `YYYY-MM-DD`: ISO, numeric with separators (the order from the day above 12, else
 * `order`), or with a month name in English, German, French or Spanish (`Dates.ts`). Undefined
 * when it is not a full date or the day and month cannot be told apart.
 */
export const parseDate = (text: string, order?: "MDY" | "DMY"): string | undefined => Dates.parseDate(text, order)

/** The order a key's or a text's language implies for numeric dates. */
const orderOfLanguage = (text: string): "MDY" | "DMY" | undefined => {
  const lang = Vocabulary.languageOf(text)
  return lang === undefined ? undefined : lang === "en" ? "MDY" : "DMY"
}

const NAME_SUFFIXES = new Set(["jr", "sr", "ii", "iii", "iv"])
const PARTICLES = new Set(["van", "von", "de", "del", "della", "der", "den", "da", "di", "du", "le", "la", "ter", "ten", "zu"])

/** A courtesy title ("Dr.", "Mrs", "Frau"): what a `title` key holds when it is not a job title. */
const COURTESY_TITLE = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|dame|herr|frau|m|mme|mlle|sr|sra|srta|don|dona)\.?$/i
/** The titles taken off the front of a name: not "Don" or "Dona", which are given names too, nor a bare "M". */
const TITLE_BEFORE_NAME = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|dame|herr|frau|m\.|mme|mlle|sr|sra|srta)\.?$/i

/**
 * A name without the courtesy title before it ("Mr Oliver Pritchard" → "Oliver Pritchard", "Mr");
 * a title with one word after it ("Mr Smith") stays, since no given name would be left.
 */
export const withoutCourtesyTitle = (name: string): { name: string; prefix?: string } => {
  const m = name.trim().match(/^(\S+)\s+(\S+\s+\S.*)$/u)
  return m && TITLE_BEFORE_NAME.test(m[1]!) ? { name: m[2]!, prefix: m[1]! } : { name: name.trim() }
}

/**
 * A full name's parts: given, middle (every name between), family (with its particles). With
 * `twoSurnames` (Spanish names: "Lucía Fernández Ortega"), a name of three words or more ends
 * with two family names and has no middle name. A courtesy title is the caller's to take off
 * first (`withoutCourtesyTitle`).
 */
export const splitName = (full: string, twoSurnames = false): { given: string; middle?: string; family?: string; suffix?: string } | undefined => {
  const clean = full.replace(/\s+/g, " ").trim()
  if (clean === "" || /\d|@/.test(clean)) return undefined
  // "Last, First Middle"
  const comma = clean.match(/^([^,]+),\s*([^,]+)$/)
  if (comma && !NAME_SUFFIXES.has(Vocabulary.normalize(comma[2]!).trim())) {
    const [given, ...middle] = comma[2]!.trim().split(" ")
    return { given: given!, ...(middle.length > 0 ? { middle: middle.join(" ") } : {}), family: comma[1]!.trim() }
  }
  const words = clean.replace(/,/g, "").split(" ")
  let suffix: string | undefined
  if (words.length > 2 && NAME_SUFFIXES.has(Vocabulary.normalize(words[words.length - 1]!).trim())) suffix = words.pop()
  if (words.length === 1) return { given: words[0]! }
  let familyStart = words.length - 1
  while (familyStart > 1 && PARTICLES.has(words[familyStart - 1]!.toLowerCase())) familyStart--
  if (twoSurnames && familyStart > 1) {
    familyStart--
    while (familyStart > 1 && PARTICLES.has(words[familyStart - 1]!.toLowerCase())) familyStart--
    return { given: words.slice(0, familyStart).join(" "), family: words.slice(familyStart).join(" "), ...(suffix ? { suffix } : {}) }
  }
  const middle = words.slice(1, familyStart).join(" ")
  return {
    given: words[0]!,
    ...(middle ? { middle } : {}),
    family: words.slice(familyStart).join(" "),
    ...(suffix ? { suffix } : {})
  }
}

const usStates = Vocabulary.usStates
const stateCodes = new Set(Object.values(usStates))
/** A US state's two-letter code, from its code or its name; undefined otherwise. */
export const usStateCode = (text: string): string | undefined => {
  const t = text.trim()
  if (/^[A-Z]{2}$/.test(t) && stateCodes.has(t)) return t
  return usStates[Vocabulary.normalize(t).trim()]
}
/** State names as a pattern, as written in text (capitalised) or in lower case. */
export const usStateNamePattern = Object.keys(usStates)
  .flatMap((s) => [s, s.replace(/\b\w/g, (c) => c.toUpperCase())])
  .map((s) => s.replace(/ /g, "\\s+"))
  .join("|")

/**
 * The country a place names last ("Lyon, France", "Duluth, Minnesota": a US state is in the
 * United States), as written; undefined when its last part names no country, or names a country
 * and a state alike ("Georgia").
 */
export const countryOfPlace = (place: string): string | undefined => {
  const last = place.split(",").at(-1)!.trim()
  if (last === "") return undefined
  // "Chicago, IL": a two-letter code after a city is a US state's ("CA" is not Canada there).
  if (/^[A-Z]{2}$/.test(last)) return usStateCode(last) !== undefined && place.includes(",") ? "United States" : undefined
  const country = Phones.countryCode(last) !== undefined
  const state = usStateCode(last) !== undefined
  if (country && state) return undefined
  if (country) return last
  return state && place.includes(",") ? "United States" : undefined
}

export interface AddressParts {
  readonly street?: string
  readonly unit?: string
  readonly city?: string
  readonly state?: string
  readonly postal?: string
  readonly country?: string
}

/** Canada's provinces and territories by their postal codes. */
export const canadianProvinces = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"] as const
/** Australia's states and territories. */
export const australianStates = ["NSW", "VIC", "QLD", "SA", "WA", "TAS", "NT", "ACT"] as const
/** A Canadian postal code ("V2X 2V1") and a British postcode ("BS2 8QX", "SW1A 1AA"), as patterns. */
export const CANADIAN_POSTAL = "[A-Z]\\d[A-Z] ?\\d[A-Z]\\d"
export const BRITISH_POSTCODE = "[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}"
/** A flat or suite named before the street, as British addresses do ("Flat 3, 41 Wellington Road"). */
const UNIT_FIRST = /^((?:flat|apartment|apt|suite|unit)\.?\s*[\w-]+),\s*(.+)$/i

/**
 * A one-line address split into parts, only when its shape is unambiguous: US
 * "street[, unit], city, ST ZIP" (state by code or name), Canadian "street[, unit], city, PR A1A
 * 1A1", Australian "street, suburb NSW 2042", British "[flat, ]street, town POSTCODE" or
 * European "street, [CC-]ZIP city", each with the country after it or not.
 */
export const parseAddress = (text: string): AddressParts | undefined => {
  const t = text.replace(/\s+/g, " ").trim().replace(/[.;]$/, "")
  const canadian = t.match(new RegExp(`^(.+?),\\s*(?:((?:apt|apartment|suite|ste|unit|#)\\.?\\s*[\\w-]+),\\s*)?([A-Za-z][\\p{L} .'-]{0,40}?),?\\s+(${canadianProvinces.join("|")}),?\\s+(${CANADIAN_POSTAL})(?:,\\s*(Canada))?$`, "iu"))
  if (canadian && /\d/.test(canadian[1]!)) {
    return { street: canadian[1]!.trim(), ...(canadian[2] ? { unit: canadian[2].trim() } : {}), city: canadian[3]!.trim(), state: canadian[4]!, postal: canadian[5]!, country: "Canada" }
  }
  const australian = t.match(new RegExp(`^(.+?),\\s*(?:((?:unit|apt|apartment|suite|level)\\.?\\s*[\\w-]+),\\s*)?([A-Za-z][\\p{L} .'-]{0,40}?),?\\s+(${australianStates.join("|")}),?\\s+(\\d{4})(?:,\\s*(Australia))?$`, "iu"))
  if (australian && /\d/.test(australian[1]!)) {
    const first = australian[1]!.match(UNIT_FIRST)
    const unit = australian[2] ?? first?.[1]
    return {
      street: (first ? first[2]! : australian[1]!).trim(),
      ...(unit ? { unit: unit.trim() } : {}),
      city: australian[3]!.trim(),
      state: australian[4]!.toUpperCase(),
      postal: australian[5]!,
      country: "Australia"
    }
  }
  const british = t.match(new RegExp(`^(.+?),\\s*([\\p{Lu}][\\p{L} .'-]{0,40}?),?\\s+(${BRITISH_POSTCODE})(?:,\\s*(United Kingdom|UK|England|Scotland|Wales|Northern Ireland|Great Britain))?$`, "u"))
  if (british && /\d/.test(british[1]!)) {
    const flat = british[1]!.match(UNIT_FIRST)
    return {
      street: (flat ? flat[2]! : british[1]!).trim(),
      ...(flat ? { unit: flat[1]!.trim() } : {}),
      city: british[2]!.trim(),
      postal: british[3]!,
      country: british[4] === undefined || british[4] === "UK" ? "United Kingdom" : british[4]
    }
  }
  const us = t.match(new RegExp(`^(.+?),\\s*(?:((?:apt|apartment|suite|ste|unit|#)\\.?\\s*[\\w-]+),\\s*)?([A-Za-z][A-Za-z .'-]{0,40}?),?\\s+([A-Z]{2}|${usStateNamePattern})\\.?,?\\s+(\\d{5}(?:-\\d{4})?)$`, "i"))
  if (us) {
    const state = usStateCode(us[4]!)
    if (state && /\d/.test(us[1]!)) {
      return { street: us[1]!.trim(), ...(us[2] ? { unit: us[2].trim() } : {}), city: us[3]!.trim(), state, postal: us[5]!, country: "United States" }
    }
  }
  // "Via Po 18, 10123 Torino (TO)": an Italian city with its province's code.
  const eu = t.match(/^(.+?),\s*(?:([A-Z]{1,2})-)?(\d{4,5})\s+([\p{Lu}][\p{L}' -]+?)(?:\s+\(([A-Z]{2})\))?(?:,\s*([\p{Lu}][\p{L} ]+))?$/u)
  if (eu && /\d/.test(eu[1]!)) {
    return { street: eu[1]!.trim(), city: eu[4]!.trim(), ...(eu[5] ? { state: eu[5] } : {}), postal: eu[3]!, ...(eu[6] ? { country: eu[6].trim() } : {}) }
  }
  return undefined
}

// Words of a key that say whose the value is, not what it is ("First child's", "Spouse's"):
// taken out before the meaning is looked up, so "First child's name" is a name, not a first name.
const ownerWords = new RegExp(
  [
    "(?:first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th|\\d{1,2}(?:st|nd|rd|th)?|erste[rs]?|zweite[rs]?|dritte[rs]?|premier|premiere|deuxieme|troisieme|primer|primera|segundo|segunda)\\s+(?:child|dependent|dependant|kid|son|daughter|kind|enfant|hijo|hija)(?:'?s)?",
    "(?:child|dependent|dependant|kind|enfant)\\s*(?:no\\.?|n°|#)?\\s*\\d{1,2}(?:'?s)?",
    "(?:spouse|wife|husband|partner|ehepartner\\w*|conjoint\\w*|conyuge)(?:'?s)?"
  ].join("|"),
  "giu"
)

// Key words the vocabulary reads as another meaning than a profile key means by them.
const keyRules: ReadonlyArray<[RegExp, SemanticType]> = [
  [/(?:^| )(?:autres? prenoms?|other (?:given|first) names?|weitere vornamen|otros nombres|second prenom)(?: |$)/, "middle_name"],
  [/(?:^| )(?:since|depuis|seit|desde)(?: |$)/, "start_date"],
  // A profile's second address line ("address2", "address_line_2") holds the flat or suite.
  [/(?:^| )(?:(?:street )?address|adresse|addr) (?:line |ligne )?2$|(?:^| )complement d adresse$/, "unit"]
]

/**
 * A key as words: "givenName", "spouseFirstName" and "child1_name", as programs name their
 * keys, read as "given Name", "spouse First Name" and "child 1 name".
 */
const keyWords = (key: string): string =>
  key.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").replace(/(\p{L})(\d)/gu, "$1 $2")

/**
 * Types a parent key narrows when the last key is one bare word: `placeOfBirth › city` is where
 * the person was born, not the city they live in; `birth › date` is the birth date; `employer ›
 * name` is a company's name, not a person's. (`employer › contactName` stays a person's.)
 */
const narrowedBy: ReadonlyMap<SemanticType, ReadonlySet<SemanticType>> = new Map([
  ["city", new Set<SemanticType>(["birth_place"])],
  ["state", new Set<SemanticType>(["birth_place"])],
  ["country", new Set<SemanticType>(["birth_country", "nationality"])],
  ["date", dateTypes],
  ["full_name", new Set<SemanticType>(["organization", "employer"])]
])

/** The type a key path names: its last key first, else the whole path; a parent key may narrow it. */
const typeOfKey = (path: ReadonlyArray<string>): SemanticType => {
  const last = (path[path.length - 1] ?? "").replace(/_/g, " ")
  const whole = path.join(" ").replace(/_/g, " ")
  const byKey = keyRules.find(([re]) => re.test(Vocabulary.normalize(whole).trim()))
  if (byKey) return byKey[1]
  const typeOf = (text: string) => {
    const words = text.replace(/[’]/g, "'").replace(ownerWords, " ").trim()
    return Vocabulary.typeOf(words === "" ? text : words)
  }
  const own = typeOf(last)
  if (own === "unknown") return typeOf(whole)
  if (path.length > 1 && /^ \p{L}+ $/u.test(Vocabulary.normalize(last))) {
    const narrowed = typeOf(whole)
    if (narrowedBy.get(own)?.has(narrowed)) return narrowed
  }
  return own
}

/** Types whose value holds digits; "none" or "never issued" is no value of theirs. */
const numberTypes: ReadonlySet<SemanticType> = new Set([
  "ssn", "itin", "ein", "tax_id", "national_id", "passport_number", "driver_license", "phone", "fax", "postal_code", "house_number", "age", "iban",
  "industry_code", "employee_count", "gross_income", "net_income"
])

/** Keys that name a fact but not one the taxonomy has: kept out rather than guessed. */
const isBooleanWord = (v: string) => /^(?:true|false|yes|no|oui|non|ja|nein)$/i.test(v)

/**
 * Typed facts from one named value (a key path such as `["spouse", "first_name"]`, a value):
 * the key's meaning and role by the vocabulary, the value normalised and, for full names and
 * one-line addresses, split into their parts.
 */
export const fromKeyValue = (
  fullPath: ReadonlyArray<string>,
  raw: string,
  orderHint?: "MDY" | "DMY",
  phoneCountry?: Phones.CountryCode
): ReadonlyArray<Draft> => {
  // Array positions ("children › 2 › name") number dependents; they are not words of the key.
  const position = fullPath.find((p) => /^\d{1,2}$/.test(p))
  const path = fullPath.filter((p) => !/^\d{1,2}$/.test(p)).map(keyWords)
  const keyText = path.join(" ").replace(/_/g, " ")
  const value = raw.replace(/\s+/g, " ").trim()
  if (value === "") return []
  let type = typeOfKey(path)
  if (type === "occupation" && COURTESY_TITLE.test(value)) type = "name_prefix"
  // "U.S. passport: never applied for or issued": a history, not a number.
  if (/\b(?:passports?|reisepass|passeport|pasaporte)\b/i.test(keyText) && !/\d/.test(value)) type = "passport_history"
  // "Name" of a person, "Emergency contact" alone: a full name.
  if (type === "unknown" && /(?:^| )(?:name|contact|nom|nombre)$/i.test(Vocabulary.normalize(keyText).trim())) type = "full_name"
  // "Contact person", "Authorized to sign for the company": the person, not the organisation.
  const representative = Vocabulary.namesRepresentative(keyText)
  if (representative && (type === "unknown" || type === "organization")) type = "full_name"
  if (type === "unknown" || type === "signature" || type === "signature_date" || type === "signature_place") return []
  if (isBooleanWord(value) && !["filing_status", "marital_status", "sex", "nationality"].includes(type)) return []
  if (numberTypes.has(type) && !/\d/.test(value)) return []
  // A US SSN, ITIN or EIN has nine digits (a French NIR fifteen): "ssnLast4": "4321" is part of one, not one.
  if ((type === "ssn" || type === "itin" || type === "ein") && value.replace(/\D/g, "").length < 9) return []
  const ownerText = keyText.replace(/['’]s\b/g, "")
  // The employee's start date under an employer key ("With the employer since") is the holder's.
  const keyRole = (Vocabulary.roleOf(ownerText) ?? "self") as FieldRole
  const role: FieldRole = keyRole === "employer" && (type === "start_date" || type === "end_date") ? "self" : keyRole
  const dependent = role === "dependent" ? (Vocabulary.dependentIndexOf(ownerText) ?? (position ? Number(position) : undefined)) : undefined
  // A dependent with no number cannot be told from the others.
  if (role === "dependent" && dependent === undefined) return []
  const scheme = type === "national_id" ? Vocabulary.idSchemeOf(keyText) : undefined
  const base = {
    role,
    ...(dependent !== undefined ? { dependent_index: dependent } : {}),
    ...(role === "other" ? { relation: keyText } : {}),
    ...(scheme !== undefined ? { scheme } : {})
  }
  const evidence = `'${keyText}' = '${value}'`
  const out: Array<Draft> = []
  const add = (t: SemanticType, v: string, how?: string) => out.push({ ...base, type: t, value: v, evidence: how ? `${evidence} (${how})` : evidence })
  // A date under a key of another meaning ("Employer since: 15/02/2016") says something else.
  if (!isDateType(type) && parseDate(value, "MDY") !== undefined) return []
  if (isDateType(type)) {
    // A key that spells its pattern ("Date of Birth (DD/MM/YYYY)") says the order itself.
    const spelled = FieldFormat.datePattern(keyText)
    const keyOrder = spelled === undefined ? undefined : FieldFormat.orderOf(spelled)
    const date = parseDate(value, keyOrder === "MDY" || keyOrder === "DMY" ? keyOrder : orderHint ?? orderOfLanguage(keyText))
    if (date) add(type, date, "date")
    return out
  }
  if (type === "full_name") {
    // A representative given with their title ("Graciela Ortiz, Operations Director"): two
    // words or more on each side of one comma, where "Ortiz, Graciela" has one.
    const withTitle = representative ? value.match(/^([^,]+\s[^,]+),\s*([^,]+\s[^,]+)$/) : null
    if (withTitle) {
      out.push(...fromKeyValue(fullPath, withTitle[1]!, orderHint).map((d) => ({ ...d, evidence: `${evidence} (name before the title)` })))
      add("occupation", withTitle[2]!.trim(), "title after the name")
      return out
    }
    const titled = withoutCourtesyTitle(value)
    add("full_name", titled.name)
    if (titled.prefix !== undefined) add("name_prefix", titled.prefix, "courtesy title before the name")
    const parts = splitName(titled.name, Vocabulary.languageOf(keyText) === "es")
    if (parts && parts.family) {
      add("given_name", parts.given, "given name of the full name")
      add("family_name", parts.family, "family name of the full name")
      if (parts.middle) add("middle_name", parts.middle, "middle name of the full name")
    }
    return out
  }
  if (type === "street_address" || type === "address") {
    const parts = parseAddress(value)
    if (parts) {
      if (parts.street) add("street_address", parts.street, "street of the address")
      if (parts.unit) add("unit", parts.unit, "unit of the address")
      if (parts.city) add("city", parts.city, "city of the address")
      if (parts.state) add("state", parts.state, "state of the address")
      if (parts.postal) add("postal_code", parts.postal, "postal code of the address")
      return out
    }
    // "1850 Main Street, Suite 210": the street and its unit.
    const unit = value.match(/^(\d.+?),\s*((?:apt|apartment|suite|ste|unit|flr|floor|#)\.?\s*[\w-]+)$/i)
    if (unit) {
      add("street_address", unit[1]!, "street without its unit")
      add("unit", unit[2]!, "unit of the street address")
      return out
    }
    add(type === "address" ? "address" : "street_address", value)
    return out
  }
  if (type === "phone" || type === "fax") {
    // A valid number as its country writes it (another country's with its country code); one
    // the phone metadata does not know is kept as given: the key says what it is.
    const phone = Phones.parsePhone(value, phoneCountry)
    if (phone && phone.formatted !== value) add(type, phone.formatted, "phone number")
    else add(type, value)
    return out
  }
  if (type === "state") {
    add("state", usStateCode(value) ?? value)
    return out
  }
  add(type, value)
  return out
}

/** The house number of a street line, before ("14 rue des Lilas", "2286 Quarry Road") or after it ("Hauptstraße 12a"). */
export const houseNumberOf = (street: string): string | undefined =>
  street.match(/^(\d{1,5}[a-zA-Z]?)(?:\s?(?:bis|ter))?,?\s+\p{L}/u)?.[1] ?? street.match(/\p{L}\.?\s+(\d{1,5}\s?[a-zA-Z]?)$/u)?.[1]

/** A street line without its house number ("14 rue des Lilas" → "rue des Lilas"). */
export const withoutHouseNumber = (street: string): string =>
  street.replace(/^\d{1,5}[a-zA-Z]?(?:\s?(?:bis|ter))?,?\s+(?=\p{L})/u, "").replace(/(?<=\p{L}\.?)\s+\d{1,5}\s?[a-zA-Z]?$/u, "").trim()

/**
 * The first statement of each kind (`keyOf`), leaving out every kind a text states twice with
 * different values: a text that says two things of one kind is unclear, and neither is kept.
 */
export const unambiguous = <A extends { readonly value: string }>(items: ReadonlyArray<A>, keyOf: (item: A) => string): Array<A> => {
  const values = new Map<string, Set<string>>()
  for (const item of items) values.set(keyOf(item), (values.get(keyOf(item)) ?? new Set()).add(item.value.toLowerCase()))
  const seen = new Set<string>()
  return items.filter((item) => {
    const key = keyOf(item)
    if ((values.get(key)?.size ?? 0) > 1 || seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const groupKey = (f: { role: string; dependent_index?: number }) => `${f.role}#${f.dependent_index ?? ""}`

/**
 * Values derived from others of the same person: middle initial, "given M", full name, family
 * name of a dependent who has only a given name is not guessed. A derived fact never replaces a
 * given one.
 */
export const derive = (facts: ReadonlyArray<TypedFact>): ReadonlyArray<TypedFact> => {
  const out = [...facts]
  const groups = new Map<string, Array<TypedFact>>()
  for (const f of facts) {
    const k = `${f.source}|${groupKey(f)}`
    groups.set(k, [...(groups.get(k) ?? []), f])
  }
  for (const group of groups.values()) {
    const first = (t: SemanticType) => group.find((f) => f.type === t)
    const has = (t: SemanticType) => out.some((f) => f.type === t && f.source === group[0]!.source && groupKey(f) === groupKey(group[0]!))
    const base = group[0]!
    const push = (type: SemanticType, value: string, from: ReadonlyArray<TypedFact>, how: string) => {
      if (has(type)) return
      out.push({
        type,
        role: base.role,
        ...(base.relation !== undefined ? { relation: base.relation } : {}),
        ...(base.dependent_index !== undefined ? { dependent_index: base.dependent_index } : {}),
        value,
        source: base.source,
        confidence: Math.min(...from.map((f) => f.confidence)),
        evidence: `${how} from ${from.map((f) => f.evidence).join(" + ")}`
      })
    }
    const given = first("given_name"), middle = first("middle_name"), family = first("family_name")
    if (middle) push("middle_initial", middle.value.charAt(0).toUpperCase(), [middle], "initial")
    if (given && middle) push("given_name_and_middle_initial", `${given.value} ${middle.value.charAt(0).toUpperCase()}`, [given, middle], "given name and middle initial")
    if (given && !middle && family) push("given_name_and_middle_initial", given.value, [given], "given name, no middle name")
    if (given && family) push("full_name", [given.value, middle?.value, family.value].filter(Boolean).join(" "), [given, ...(middle ? [middle] : []), family], "full name")
    const birthPlace = first("birth_place")
    const birthCountry = birthPlace ? countryOfPlace(birthPlace.value) : undefined
    if (birthPlace && birthCountry) push("birth_country", birthCountry, [birthPlace], "country of the place of birth")
    const city = first("city"), postal = first("postal_code")
    // A US state or a Canadian province is written "City, ST ZIP"; an Italian province's code
    // after its city, in brackets ("10123 Torino (TO)").
    const region = first("state")
    const state = region && (usStateCode(region.value) || (canadianProvinces as ReadonlyArray<string>).includes(region.value)) ? region : undefined
    if (city && state && postal) push("city_state_postal", `${city.value}, ${state.value} ${postal.value}`, [city, state, postal], "city, state ZIP")
    const street = first("street_address"), unit = first("unit")
    const number = street ? houseNumberOf(street.value) : undefined
    if (street && number) push("house_number", number, [street], "house number of the street address")
    if (street && city && postal) {
      // British addresses put the flat first and the postcode after the town, as Canadian ones
      // do after the province; the rest of Europe puts the postal code first.
      const british = new RegExp(`^${BRITISH_POSTCODE}$`, "i").test(postal.value) && !region
      // Australian addresses end "Newtown NSW 2042".
      const australian = region !== undefined && (australianStates as ReadonlyArray<string>).includes(region.value) && /^\d{4}$/.test(postal.value)
      const streetLine = unit ? (british ? `${unit.value}, ${street.value}` : `${street.value}, ${unit.value}`) : street.value
      const province = !state && region ? region : undefined
      const place = state
        ? `${city.value}, ${state.value} ${postal.value}`
        : british
        ? `${city.value} ${postal.value}`
        : australian
        ? `${city.value} ${region!.value} ${postal.value}`
        : `${postal.value} ${city.value}${province ? ` (${province.value})` : ""}`
      push("address", `${streetLine}, ${place}`, [street, ...(unit ? [unit] : []), city, ...(region ? [region] : []), postal], "one-line address")
    }
  }
  return out
}

/**
 * The country of a source's phone numbers written without their country code: the country it
 * names ("Country: France"), else the one of its keys' language (`Phones.countryOfLanguage`).
 */
const phoneCountry = (facts: ReadonlyArray<Fact>): Phones.CountryCode | undefined => {
  if (!facts.some((f) => /\d/.test(f.value))) return undefined
  return countryNamed(facts) ?? Phones.countryOfLanguage(Vocabulary.languageOf(facts.map((f) => f.key).join(" . ")))
}

/**
 * The order a source writes numeric dates in: the one its dates that can be read one way only
 * agree on ("11/30/1976" makes "05/09/1978" the 9th of May), else its keys' language (French
 * keys write 23/09/1987) or, for keys in English of a profile or text (not a document, `file:`
 * or `url:`), the country its holder lives in.
 */
const dateOrderOf = (facts: ReadonlyArray<Fact>, document: boolean): "MDY" | "DMY" | undefined => {
  const numeric = facts.flatMap((f) => {
    const m = f.value.match(/^\s*(\d{1,2})[./-](\d{1,2})[./-]\d{2,4}\s*$/)
    return m ? [[Number(m[1]), Number(m[2])] as const] : []
  })
  const monthFirst = numeric.some(([a, b]) => a <= 12 && b > 12)
  const dayFirst = numeric.some(([a, b]) => a > 12 && b <= 12)
  if (monthFirst !== dayFirst) return monthFirst ? "MDY" : "DMY"
  const byLanguage = orderOfLanguage(facts.map((f) => pathOf(f).join(" ")).join(" . "))
  // English keys are written the world over: where the holder lives (a country, a phone number's
  // country code) says more. A British profile's "02/11/1984" is the 2nd of November. Not so a
  // document: a filled US form writes a British holder's dates month first, as it asks.
  return byLanguage === "DMY" || document ? byLanguage : orderOfHome(facts) ?? byLanguage
}

/** The countries that write numeric dates month first (CLDR's short date patterns). */
const monthFirstCountries: ReadonlySet<string> = new Set(["US", "PR", "GU", "VI", "AS", "MP", "UM", "PH", "FM", "MH", "PW", "BZ"])

/** The order a country writes numeric dates in; undefined for Canada, which writes both. */
const orderOfCountry = (country: Phones.CountryCode): "MDY" | "DMY" | undefined =>
  country === "CA" ? undefined : monthFirstCountries.has(country) ? "MDY" : "DMY"

/** The country a source's country value names ("United Kingdom", "DE"), if any. */
const countryNamed = (facts: ReadonlyArray<Fact>): Phones.CountryCode | undefined =>
  facts
    .filter((f) => typeOfKey(f.key.split(/\s+›\s+/)) === "country")
    .map((f) => Phones.countryCode(f.value))
    .find((code) => code !== undefined)

/**
 * The date order of the country a source's holder lives in: the country it names, else the one
 * its phone numbers' country codes agree on (+44 is Britain or a Crown dependency, all day first).
 */
const orderOfHome = (facts: ReadonlyArray<Fact>): "MDY" | "DMY" | undefined => {
  const named = countryNamed(facts)
  if (named !== undefined) return orderOfCountry(named)
  const orders = new Set(
    facts
      .filter((f) => typeOfKey(f.key.split(/\s+›\s+/)) === "phone")
      .flatMap((f) => Phones.countriesOf(f.value))
      .map(orderOfCountry)
  )
  return orders.size === 1 ? [...orders][0] : undefined
}

const CONTACT_GROUP = /^ (?:primary |main |business )?(?:contact|point of contact|poc|kontakt|ansprechpartner\w*|interlocuteur|contacto) $/
const nameTypes: ReadonlySet<SemanticType> = new Set(["full_name", "given_name", "family_name"])
/** A fact's key path, each key as words ("spouse › dateOfBirth" → "spouse", "date Of Birth"). */
const pathOf = (fact: Fact): ReadonlyArray<string> => fact.key.split(/\s+›\s+/).map(keyWords)
/** A group of a fact's keys: its source and its path up to key `i`. */
const groupOf = (fact: Fact, path: ReadonlyArray<string>, i: number) => `${fact.source}\u0000${path.slice(0, i + 1).join(" › ")}`

/**
 * The key paths (source and path up to the group) of the "contact" groups that name someone
 * (`contact: {firstName, lastName, email}`): a person other than the holder, the organisation's
 * contact person. A "contact" group with only a phone and an e-mail is the holder's own.
 */
const contactPeople = (facts: ReadonlyArray<Fact>): ReadonlySet<string> => {
  const groups = new Set<string>()
  for (const fact of facts) {
    const path = pathOf(fact)
    for (let i = 0; i < path.length - 1; i++) {
      if (CONTACT_GROUP.test(Vocabulary.normalize(path[i]!)) && nameTypes.has(typeOfKey(path.slice(i + 1)))) groups.add(groupOf(fact, path, i))
    }
  }
  return groups
}

/** A fact's key path, its contact group (if it names someone) said to be the contact person. */
const contactPersonPath = (fact: Fact, people: ReadonlySet<string>): ReadonlyArray<string> => {
  const path = pathOf(fact)
  for (let i = 0; i < path.length - 1; i++) {
    if (people.has(groupOf(fact, path, i))) return [...path.slice(0, i), "contact person", ...path.slice(i + 1)]
  }
  return path
}

/** Typed facts from flat `key: value` facts (profiles, documents, `key: value` lines), in order. */
export const fromFacts = (facts: ReadonlyArray<Fact>): ReadonlyArray<TypedFact> => {
  const orderBySource = new Map<string, "MDY" | "DMY" | undefined>()
  for (const source of new Set(facts.map((f) => f.source))) {
    orderBySource.set(source, dateOrderOf(facts.filter((f) => f.source === source), /^(?:file|url):/.test(source)))
  }
  const phoneCountryBySource = new Map<string, Phones.CountryCode | undefined>()
  const phoneCountryOf = (source: string) => {
    if (!phoneCountryBySource.has(source)) phoneCountryBySource.set(source, phoneCountry(facts.filter((f) => f.source === source)))
    return phoneCountryBySource.get(source)
  }
  const people = contactPeople(facts)
  const typed = facts.flatMap((fact) =>
    fromKeyValue(contactPersonPath(fact, people), fact.value, orderBySource.get(fact.source), phoneCountryOf(fact.source)).map((d) => ({
      ...d,
      source: fact.source,
      confidence: fact.confidence
    }))
  )
  return derive(asOrganizations(typed))
}

const personTypes: ReadonlySet<SemanticType> = new Set(["given_name", "family_name", "full_name", "birth_date", "ssn"])

/**
 * A source about an organisation (it has a business name or an EIN and no name, birth date or
 * SSN of its holder): its own address, phone and e-mail are the organisation's, whose role is
 * `employer` on forms, not the person's filling them.
 */
export const asOrganizations = (facts: ReadonlyArray<TypedFact>): ReadonlyArray<TypedFact> => {
  const organizations = new Set<string>()
  for (const source of new Set(facts.map((f) => f.source))) {
    const own = facts.filter((f) => f.source === source)
    const business = own.some((f) => f.type === "organization" || f.type === "ein")
    const person = own.some((f) => f.role === "self" && personTypes.has(f.type))
    if (business && !person) organizations.add(source)
  }
  // The holder's employer is the employer, whoever's key or sentence named it.
  return facts.map((f) =>
    (organizations.has(f.source) && f.role === "self") || (f.type === "employer" && f.role === "self") ? { ...f, role: "employer" as const } : f
  )
}
