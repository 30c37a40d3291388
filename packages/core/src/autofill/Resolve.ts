/**
 * Resolution by meaning: each fillable field whose meaning and owner field understanding knows
 * (`semantic`) takes the fact of the same type, role and dependent number, from the most trusted
 * source (`text_info`, then profiles, then documents: the facts' order), written the way the
 * field asks (`Format`). Yes/no questions are answered by `Questions`. Anything uncertain stays
 * empty; every match names its fact and how it was transformed.
 */
import type { FieldValue, FormField, SemanticType } from "../FormField.ts"
import { ownLabel } from "../understand/Semantic.ts"
import * as Vocabulary from "../understand/Vocabulary.ts"
import { isDateType, type TypedFact, usStateCode, withoutHouseNumber } from "./Facts.ts"
import { formatText, numberWords, valueFor } from "./Format.ts"
import * as Questions from "./Questions.ts"

export interface Resolved {
  readonly field: FormField
  readonly value: FieldValue
  readonly fact: TypedFact
  /** How the fact's value became the field's ("date as MM/DD/YYYY", "segment 2 of 3"). */
  readonly transform: string
}

/** Types a choice field (box or group) can be set from. */
const choiceTypes: ReadonlySet<SemanticType> = new Set(["filing_status", "marital_status", "sex", "state", "country", "nationality", "unit", "languages"])

// Kinds of other people; a fact about one kind fills only a field about the same kind.
const relationKinds: ReadonlyArray<RegExp> = [
  / (?:emergenc\w*|notfall\w*|urgence|emergencia) /,
  / (?:parents?|father|mother|vater|mutter|eltern|pere|mere|padre|madre) /,
  / (?:witness\w*|zeugen?|temoin|testigo) /,
  / (?:doctor|physician|medecin|arzt|medico) /,
  / (?:sister|brother|sibling|schwester|bruder|soeur|frere|hermana|hermano) /,
  / (?:guardian|vormund|tuteur|tutor) /,
  / (?:contact|kontakt\w*|ansprechpartner\w*|signator\w*|authori[sz]ed|zeichnungsberechtigt\w*|signataire|firmante|completed by|completing|ausgefullt von|rempli par|cumplimentado por|completado por) /
]

const EMERGENCY = 0
const CONTACT = relationKinds.length - 1

const kindsOf = (text: string): ReadonlySet<number> => {
  const t = Vocabulary.normalize(text)
  const kinds = new Set(relationKinds.flatMap((re, i) => (re.test(t) ? [i] : [])))
  // An emergency contact is whom to call in an emergency, not an organisation's contact person.
  if (kinds.has(EMERGENCY)) kinds.delete(CONTACT)
  return kinds
}

/** Whether a field has a label of its own, not just its PDF name. */
const hasOwnLabel = (field: FormField): boolean =>
  field.name.trim() !== "" && Vocabulary.normalize(field.name) !== Vocabulary.normalize(partialName(field.form_name))

/** Whether `below` sits right under `above`, over most of its width. */
const stackedUnder = (above: FormField, below: FormField): boolean => {
  if (above.page !== below.page) return false
  const [x1, y1, x2, y2] = below.rect, [ax1, ay1, ax2] = above.rect
  const h = y2 - y1
  return ay1 >= y2 - 2 && ay1 - y2 <= 1.5 * h && Math.min(x2, ax2) - Math.max(x1, ax1) >= 0.5 * (x2 - x1)
}

/** Whether `before` is just left of `field` on its line, or right above it. */
const leadsTo = (before: FormField, field: FormField): boolean => {
  if (before.page !== field.page) return false
  const [x1, y1, x2, y2] = field.rect, [bx1, by1, bx2, by2] = before.rect
  const h = y2 - y1
  const sameLine = Math.min(y2, by2) - Math.max(y1, by1) >= 0.5 * Math.min(h, by2 - by1) && bx2 <= x1 + 2 && x1 - bx2 <= 4 * h
  const above = by1 >= y2 - 2 && by1 - y2 <= 2 * h && bx1 <= x2 && x1 <= bx2
  return sameLine || above
}

const distance = (a: FormField, b: FormField) => Math.hypot(a.rect[0] - b.rect[0], a.rect[1] - b.rect[1])

/** The kinds of other person a field's own words name. */
const ownKinds = (field: FormField): ReadonlySet<number> => kindsOf([field.name, partialName(field.form_name), ...(field.semantic?.section ?? [])].join(" "))

/** Whether a fact about another person is about the one the field asks for: a shared relation word. */
const sameOther = (fieldKinds: ReadonlySet<number>, fact: TypedFact): boolean => {
  const factKinds = kindsOf(fact.relation ?? "")
  return [...fieldKinds].some((k) => factKinds.has(k))
}

const sameOwner = (field: FormField, fact: TypedFact, kindsOfField: (field: FormField) => ReadonlySet<number> = ownKinds): boolean => {
  const semantic = field.semantic!
  if (semantic.role === "other" && fact.role === "other") return sameOther(kindsOfField(field), fact)
  // A marriage's date and a joint return's filing status are the couple's: the holder's and the spouse's.
  if ((fact.type === "marriage_date" || fact.type === "filing_status") && fact.role === "self" && semantic.role === "spouse") return true
  // The holder's dates of employment, also where the employer's part of a form asks for them.
  if ((fact.type === "start_date" || fact.type === "end_date") && fact.role === "self" && semantic.role === "employer") return true
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
  // An organisation's "Name" is its name.
  return related(["employer", "organization", "full_name", "family_name"]) || related(names) || related(places) || (taxIds.includes(a) && taxIds.includes(b) && (a === "tax_id" || b === "tax_id")) || (isDateType(a) && isDateType(b))
}

/** The last part of a field's PDF name as words ("Line6b_StreetNumberName[0]" → "Line6b Street Number Name"). */
const partialName = (formName: string) =>
  (formName.split(".").pop() ?? formName).replace(/\[\d+\]/g, " ").replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2").replace(/_/g, " ").trim()

// Places that are not the holder's own address or organisation: where something happened or is done.
const conditional = /^ (?:[a-z] )?(?:if (?:yes|so|you answered yes|you checked yes|the answer is yes)|falls ja|wenn ja|si oui|si c est le cas|en caso afirmativo|si es asi|de ser asi) /
const onlyIfDifferent = / (?:only )?if (?:it is |this is )?different from|only if different|if not the same as|falls abweichend|wenn abweichend|si differente?s? de|seulement si differente?|si es distint[ao]|si es diferente|solo si difiere /
const otherPlaces = / (?:facility|worksite|work site|site|location|establishment|premises|lieu de travail|arbeitsort|etablissement|court|tribunal|gericht|juzgado|destination|destino|origin|origen|provenance|zielort|herkunftsort) /
// Second values: a person's facts are their primary ones.
const secondValues = / (?:additional|alternate|alternative|other|secondary|previous|former|prior|most recent|weitere|autres?|otros?|anciens?) /
// Headings and instructions with those words that qualify no value ("Other Information",
// "If you need additional copies"): taken out before `secondValues` looks.
const secondValueNoise = / (?:additional|other|weitere|autres?|otras?|otros?) (?:information|informations|info|details|angaben|renseignements|informacion|copies|pages|sheets|space) /g
// "Current spouse or most recent spouse": the current one, which is the one a person has.
const currentOrLast = / (?:current|present) (\w+ )?or (?:the )?(?:most recent|last|former) /g
const hasSecondValue = (normalized: string) => secondValues.test(normalized.replace(secondValueNoise, "  ").replace(currentOrLast, " current $1"))
const numberTypes: ReadonlySet<SemanticType> = new Set([
  "ssn", "itin", "ein", "tax_id", "national_id", "passport_number", "driver_license", "iban", "bic", "phone", "fax", "postal_code", "house_number", "unit", "age",
  "industry_code", "employee_count", "gross_income", "net_income"
])

/**
 * Why the field's own label leaves its meaning or owner in doubt, or undefined when it does not:
 * it names another person than the understood role, another meaning, a second value or address
 * line, an organisation, or a possessive of someone who is not the holder.
 */
export const uncertainty = (field: FormField, doubts: FormDoubts = noDoubts): string | undefined => {
  const semantic = field.semantic!
  const labelled = field.name.trim() !== "" && field.name !== "undefined"
  const partial = partialName(field.form_name)
  // Within a long /TU, the field's own item: its part and section headings are in `semantic`.
  const label = labelled ? ownLabel(field.name) : partial
  const text = Vocabulary.normalize(label.replace(/['’]s\b/g, ""))
  for (const words of [label, partial]) {
    const role = Vocabulary.roleOf(words.replace(/['’]s\b/g, ""))
    if (role !== undefined && role !== semantic.role) return `the label names the ${role}`
    if (semantic.role !== "dependent" && Vocabulary.dependentIndexOf(words) !== undefined) return "the label numbers a dependent"
    const t = Vocabulary.normalize(words.replace(/['’]s\b/g, ""))
    if (semantic.role === "self" && otherPeople.test(t)) return "the label names someone else"
    // A row of a table lists several people or items: not the holder's one value.
    if (semantic.role !== "dependent" && / row ?\d+ |row\d+ /.test(t)) return "a row of a table"
    if (otherPlaces.test(t)) return "another place than the holder's"
    if (hasSecondValue(t)) return "a second value"
  }
  // A place or a second value named anywhere in a long /TU (its section: "Worksite Location. ...
  // 9. A. Enter Street Number and Name.") is not the holder's own.
  if (labelled && label !== field.name) {
    const whole = Vocabulary.normalize(field.name.replace(/['’]s\b/g, ""))
    if (otherPlaces.test(whole)) return "another place than the holder's"
    if (hasSecondValue(whole)) return "a second value"
  }
  if (doubts.alternateAddresses.has(addressBlockKey(field))) return "asked for only when it differs from an address given elsewhere"
  if (doubts.lists.has(field.id)) return "one line of a list asking for several values"
  // "Name and address of the body that pays your benefits": an organisation's, not the holder's.
  if (semantic.role === "self" && !organizationTypes.has(semantic.type) && organizationWords.test(text)) return "the label names an organisation"
  if (numberWords.test(text) && !numberTypes.has(semantic.type) && !isDateType(semantic.type) && semantic.type !== "street_address") return "the label asks for a number"
  // "If 'Yes,' give name and address": what it asks depends on the answer to a question, and
  // names someone the question is about.
  if (labelled && conditional.test(text)) return "it asks only after a yes to a question"
  // A label that continues a sentence ("and full name here") does not say whose value it is.
  if (labelled && /^\s*(?:and|or|und|oder|et|ou|y|o)\s/i.test(label)) return "the label continues a sentence"
  // The label, and the PDF name when it is made of words, must not name another meaning.
  // A label qualified by its heading ("Age/Blindness Dependents: (1) First name Last name") names
  // its meaning after the heading.
  const afterHeading = label.includes(": ") ? label.slice(label.lastIndexOf(": ") + 2) : label
  for (const words of labelled ? [afterHeading, partial] : [label]) {
    if (!/\p{L}{3}/u.test(words.replace(/\b[a-z]\d+\b/gi, ""))) continue
    const labelType = Vocabulary.typeOf(words.replace(/['’]s\b/g, "s"))
    if (labelType !== "unknown" && labelType !== semantic.type && !sameFamily(labelType, semantic.type)) return `the label says ${labelType}`
  }
  if (semantic.type === "street_address" && [text, Vocabulary.normalize(partial)].some((t) => / (?:line|ligne|zeile|linea|address|adresse|addr) 2 /.test(t))) return secondLineDoubt
  if (semantic.role === "self") {
    // English possessives ("Employer's", "Parents'"), not French or Italian elisions ("d'identité").
    for (const m of label.matchAll(/(\p{L}+)(?:['’]s|s['’])(?!\p{L})/gu)) {
      if (!selfPossessives.test(Vocabulary.normalize(m[1]!).trim())) return `the label names ${m[0]}`
    }
  }
  return undefined
}

/** Whether the field's meaning or owner is in doubt (`uncertainty` says why). */
export const uncertain = (field: FormField): boolean => uncertainty(field) !== undefined

/** An address block: the address fields of one owner under one section heading. */
const addressBlockKey = (field: FormField): string =>
  field.semantic && addressPartTypes.has(field.semantic.type) ? `${field.semantic.role}|${(field.semantic.section ?? []).join(" › ")}` : ""

/** What the form as a whole puts in doubt, for `uncertainty`: computed once per form by `formDoubts`. */
export interface FormDoubts {
  /**
   * The address blocks a form asks for only when they differ from another address ("Physical
   * Address: provide this information only if different from your mailing address"), by
   * `addressBlockKey`: the holder has one address in the sources, already written where it is
   * asked for. The words may be on any field of the block (its first one's /TU) or its heading.
   */
  readonly alternateAddresses: ReadonlySet<string>
  /**
   * The ids of fields that are lines of one list ("I have resided at the following addresses:"
   * then three lines): the same label (but for a line number), meaning, owner and section, in
   * boxes of one width stacked in one column. Which line holds the holder's one value, and what
   * the others hold, is in doubt.
   */
  readonly lists: ReadonlySet<string>
}

const noDoubts: FormDoubts = { alternateAddresses: new Set(), lists: new Set() }

/** What `fields`, taken together, put in doubt (see `FormDoubts`). */
export const formDoubts = (fields: ReadonlyArray<FormField>): FormDoubts => {
  const alternateAddresses = new Set(
    fields
      .filter((f) => addressBlockKey(f) !== "" && onlyIfDifferent.test(Vocabulary.normalize([f.name, ...(f.semantic!.section ?? [])].join(" . "))))
      .map(addressBlockKey)
  )
  const groups = new Map<string, Array<FormField>>()
  for (const f of fields) {
    const s = f.semantic
    // Parts of one value (a date over three boxes, comb segments) are no list.
    if (!s || s.type === "unknown" || s.format?.segment || f.name.trim() === "" || f.form_type !== "Text") continue
    // "Name [2]", "Nombre pdp2": numbered lines; "Address 2", "Address line 2" are the second
    // line of one address.
    const plain = f.name.replace(/\[\d+\]\s*$/, "")
    const label = Vocabulary.normalize(addressPartTypes.has(s.type) ? plain : plain.replace(/\d+\s*$/, "")).trim()
    const key = [f.page, s.type, s.role, s.dependent_index ?? "", (s.section ?? []).join(" › "), label].join("|")
    groups.set(key, [...(groups.get(key) ?? []), f])
  }
  // Lines of a list are boxes of one width stacked right under one another in one column.
  const stacked = (upper: FormField, lower: FormField) => {
    const [ux1, uy1, ux2] = upper.rect, [lx1, , lx2, ly2] = lower.rect
    const height = upper.rect[3] - uy1
    const gap = uy1 - ly2
    return Math.abs(ux1 - lx1) <= 3 && Math.abs(ux2 - ux1 - (lx2 - lx1)) <= 0.1 * (ux2 - ux1) && gap >= -1 && gap <= 1.5 * height
  }
  const lists = new Set<string>()
  for (const group of groups.values()) {
    const topDown = [...group].sort((a, b) => b.rect[1] - a.rect[1])
    topDown.forEach((f, i) => {
      const next = topDown[i + 1]
      if (next && stacked(f, next)) [f.id, next.id].forEach((id) => lists.add(id))
    })
  }
  return { alternateAddresses, lists }
}

/**
 * What kind of line a contact box's label asks for: a mobile, an evening, a work or home line, or
 * the plain one (also "daytime", "primary", "main", "direct").
 */
const lineKind = (normalizedLabel: string): "mobile" | "evening" | "work" | "home" | "primary" =>
  / (?:mobile|cell\w*|handy|portable|movil|celular|natel|sms) /.test(normalizedLabel)
    ? "mobile"
    : / (?:evening|night|abends?|soir) /.test(normalizedLabel)
    ? "evening"
    : / (?:work|business|office|dienstlich\w*|geschaftlich\w*|bureau|professionnel\w*|trabajo|oficina) /.test(normalizedLabel)
    ? "work"
    : / (?:home|privat\w*|domicile|casa|particulier) /.test(normalizedLabel)
    ? "home"
    : "primary"

// A heading or label that lets an organisation be the one filling ("Person or Organization Filing
// This Petition", "Company information").
const organizationWords = / (?:organi[sz]ations?|organism\w*|company|companies|business|firm|entity|unternehmen\w*|firma|betrieb\w*|entreprise|societe|organisme|empresa|entidad|organizacion) /

// What only an organisation has, or names one: a label asking for these may say "company".
const organizationTypes: ReadonlySet<SemanticType> = new Set([
  "organization", "employer", "ein", "business_type", "legal_form", "industry_code", "established_date", "employee_count", "gross_income", "net_income"
])

/** Whether a field of the holder may hold an organisation's value: its label or headings name one. */
const mayBeOrganization = (field: FormField): boolean =>
  organizationWords.test(Vocabulary.normalize([field.name, ...(field.semantic?.section ?? [])].join(" . ")))

/** The fact of another type about the same person from the same source (a city's postal code). */
const sibling = (facts: ReadonlyArray<TypedFact>, of: TypedFact, type: SemanticType): TypedFact | undefined =>
  facts.find((f) => f.type === type && f.source === of.source && f.role === of.role && f.dependent_index === of.dependent_index)

// The words of a US address's boxes; "Province", "Postal Code", "Region" are the foreign ones.
const usPlaceWords = / (?:zip|zip code|state) /

/** Whether a state or postal code fact belongs to a US address: its owner's state is a US state. */
const isUsAddress = (fact: TypedFact, facts: ReadonlyArray<TypedFact>): boolean => {
  const state = fact.type === "state" ? fact : sibling(facts, fact, "state")
  return state !== undefined && usStateCode(state.value) !== undefined
}

const secondLineDoubt = "a second address line"
const LINE_TWO = / (?:(?:street |mailing |home )?address|addr|adresse|anschrift|direccion)(?: line| ligne| zeile| linea)? 2 /

const addressPartTypes: ReadonlySet<SemanticType> = new Set(["address", "street_address", "house_number", "unit", "city", "county", "state", "postal_code", "city_state_postal", "country"])
// Address blocks that are not where the holder lives and gets mail now.
const secondaryAddressWords = / (?:permanent|previous|former|prior|foreign|temporary|alternate|vacation|holiday|abroad|outside (?:the )?(?:united states|u s|us|country)|standige\w*|fruhere\w*|vorherige\w*|permanente?|precedente|anterior|temporal|temporaire|a l etranger|en el extranjero) /

/** Whether a field's label or PDF name puts it in a permanent, previous or foreign address block. */
const isSecondaryAddress = (field: FormField): boolean =>
  secondaryAddressWords.test(Vocabulary.normalize(`${ownLabel(field.name)} ${partialName(field.form_name)}`))

/**
 * The second line of an address for a field: its owner's city with the postal code before it
 * (Europe) or the state and ZIP after it (US), all from one source.
 */
const placeLine = (
  field: FormField,
  facts: ReadonlyArray<TypedFact>,
  owns: (field: FormField, fact: TypedFact) => boolean
): Omit<Resolved, "field"> | undefined => {
  for (const city of facts) {
    if (city.type !== "city" || !owns(field, city)) continue
    const postal = sibling(facts, city, "postal_code"), state = sibling(facts, city, "state")
    if (!postal) return undefined
    const value = state ? `${city.value}, ${state.value} ${postal.value}` : `${postal.value} ${city.value}`
    const written = formatText(field, { ...city, value })
    return written ? { value: written.value, fact: city, transform: `second address line: ${state ? "city, state ZIP" : "postal code and city"}` } : undefined
  }
  return undefined
}

const NAME_AND_ADDRESS = / (?:name (?:and|&) (?:mailing )?address|nom et adresse|name und (?:anschrift|adresse)|nombre y (?:direccion|domicilio)) /

/** An owner's name and one-line address, from one source ("Acme LLC, 12 Main St, Springfield, IL 62701"). */
const nameAndAddress = (
  field: FormField,
  facts: ReadonlyArray<TypedFact>,
  owns: (field: FormField, fact: TypedFact) => boolean
): Omit<Resolved, "field"> | undefined => {
  const nameTypes: ReadonlyArray<SemanticType> = field.semantic?.role === "employer" ? ["organization", "employer"] : ["full_name"]
  for (const address of facts) {
    if (address.type !== "address" || !owns(field, address)) continue
    const name = facts.find((f) => nameTypes.includes(f.type) && f.role === address.role && f.dependent_index === address.dependent_index)
    if (!name) return undefined
    const written = formatText(field, { ...address, value: `${name.value}, ${address.value}` })
    return written ? { value: written.value, fact: address, transform: `name and address (${name.evidence})` } : undefined
  }
  return undefined
}

/** A full name family name first ("Castellanos, Naomi Ruth"), from the name parts of one source. */
const familyFirst = (
  field: FormField,
  facts: ReadonlyArray<TypedFact>,
  owns: (field: FormField, fact: TypedFact) => boolean
): Omit<Resolved, "field"> | undefined => {
  for (const family of facts) {
    if (family.type !== "family_name" || !owns(field, family)) continue
    const given = sibling(facts, family, "given_name"), middle = sibling(facts, family, "middle_name")
    if (!given) return undefined
    const written = formatText(field, { ...family, type: "full_name", value: `${family.value}, ${[given.value, middle?.value].filter(Boolean).join(" ")}` })
    return written ? { value: written.value, fact: family, transform: "family name first" } : undefined
  }
  return undefined
}

/** The distinct own labels, normalised, of the fields of each key. */
const labelsBy = (fields: ReadonlyArray<FormField>, keyOf: (field: FormField) => string): Map<string, Set<string>> => {
  const labels = new Map<string, Set<string>>()
  for (const f of fields) labels.set(keyOf(f), (labels.get(keyOf(f)) ?? new Set()).add(Vocabulary.normalize(ownLabel(f.name))))
  return labels
}

/** Whose contact box a field is: type, role, dependent number, and for other people their kind. */
const contactKey = (f: FormField): string => `${f.semantic!.type}|${ownerKey(f)}`

/** Whose a field is: role, dependent number, and for other people their kind. */
const ownerKey = (f: FormField): string => {
  const sem = f.semantic!
  const kinds = sem.role === "other" ? [...kindsOf([f.name, partialName(f.form_name)].join(" "))].join(",") : ""
  return `${sem.role}|${sem.dependent_index ?? ""}|${kinds}`
}

/** Resolves facts (most trusted first) against the fields of a form. */
export const resolve = (fields: ReadonlyArray<FormField>, facts: ReadonlyArray<TypedFact>): ReadonlyArray<Resolved> => {
  const out: Array<Resolved> = []
  // Headings of tables (sections holding rows "…_Row_2"): a field under one is a row's, not the holder's.
  const lastHeading = (f: FormField) => f.semantic?.section?.[f.semantic.section.length - 1]
  const tables = new Set(
    fields.filter((f) => / row ?\d+ |row\d+ /.test(Vocabulary.normalize(`${f.name} ${partialName(f.form_name)}`))).flatMap((f) => lastHeading(f) ?? [])
  )
  const doubts = formDoubts(fields)
  const houseBoxes = new Set(fields.filter((f) => f.semantic?.type === "house_number").map((f) => f.semantic!.role))
  // Owners whose city or postal code has a box of its own: their street boxes take the street only.
  const placeBoxes = new Set(
    fields.filter((f) => f.semantic && ["city", "postal_code", "city_state_postal"].includes(f.semantic.type)).map((f) => f.semantic!.role)
  )
  // Several contact boxes of one owner under different labels ("Phone no" twice, "Home phone" and
  // "Work phone"): which one is the person's own line is in doubt, so none is filled; unless one
  // box is the plain or daytime line and the others say what else they are ("Mobile", "Evening").
  const contactLabels = labelsBy(
    fields.filter((f) => f.semantic && ["phone", "fax", "email"].includes(f.semantic.type) && !f.semantic.format?.segment),
    contactKey
  )
  const contactInDoubt = (field: FormField) => {
    const labels = contactLabels.get(contactKey(field))
    if (!labels || labels.size <= 1) return false
    const primary = [...labels].filter((l) => lineKind(l) === "primary")
    return primary.length !== 1 || lineKind(Vocabulary.normalize(ownLabel(field.name))) !== "primary"
  }
  // An owner with a US box and a foreign one for the same part ("State" and "Province", "ZIP
  // Code" and "Postal Code"): whether this is the US one, so an address goes to the boxes of its country.
  const placeKey = (f: FormField) => `${f.semantic!.type}|${f.semantic!.role}|${f.semantic!.dependent_index ?? ""}`
  const placeBoxLabels = labelsBy(fields.filter((f) => f.semantic?.type === "state" || f.semantic?.type === "postal_code"), placeKey)
  const domesticBox = (f: FormField): boolean | undefined => {
    const labels = placeBoxLabels.get(placeKey(f))
    if (!labels || labels.size < 2) return undefined
    const us = [...labels].map((l) => usPlaceWords.test(l))
    if (!us.includes(true) || !us.includes(false)) return undefined
    return usPlaceWords.test(Vocabulary.normalize(ownLabel(f.name)))
  }
  // An owner with two address blocks, one of them the permanent, previous or foreign one
  // ("Mailing address" and "Permanent address (if different)"): the holder's one address goes to
  // the other block only, whichever parts each block has a box for (a unit box in the permanent
  // block alone stays empty).
  const ownAddressBlock = new Set(
    fields.filter((f) => f.semantic && addressPartTypes.has(f.semantic.type) && !isSecondaryAddress(f)).map(ownerKey)
  )
  const secondaryBlock = (f: FormField) =>
    f.semantic !== undefined && addressPartTypes.has(f.semantic.type) && isSecondaryAddress(f) && ownAddressBlock.has(ownerKey(f))
  // A second address line ("Address line 2") of an owner whose city or postal code has a box of
  // its own holds the flat or suite, as people write it, and the street box the street alone.
  const unitLines = new Set(fields.filter((f) =>
    f.form_type === "Text" && f.semantic !== undefined && (f.semantic.type === "unknown" || f.semantic.type === "street_address") &&
    placeBoxes.has(f.semantic.role) && !isSecondaryAddress(f) && LINE_TWO.test(Vocabulary.normalize(ownLabel(f.name)))
  ))
  // Owners with a unit box of their own block, or such a line: their street boxes leave the unit to it.
  const unitBoxes = new Set(
    [...fields.filter((f) => f.semantic?.type === "unit" && !secondaryBlock(f)), ...unitLines].map((f) => f.semantic!.role)
  )
  // A field of another person that names no kind of person ("Relationship to applicant", "Title")
  // is the same person's as the field of another person just left of it on its line, or right
  // above it ("Emergency contact phone", "Completed by").
  const inheritedKinds = new Map<FormField, ReadonlySet<number>>()
  const others = fields.filter((f) => f.semantic?.role === "other").sort((a, b) => a.page - b.page || b.rect[3] - a.rect[3] || a.rect[0] - b.rect[0])
  for (const f of others) {
    const own = ownKinds(f)
    const neighbour = own.size > 0 ? undefined : others.filter((o) => (inheritedKinds.get(o)?.size ?? 0) > 0 && leadsTo(o, f))
      .sort((a, b) => distance(a, f) - distance(b, f))[0]
    inheritedKinds.set(f, neighbour ? inheritedKinds.get(neighbour)! : own)
  }
  const owns = (field: FormField, fact: TypedFact) => sameOwner(field, fact, (f) => inheritedKinds.get(f) ?? ownKinds(f))
  // Owners with a second address line: a box so named, or a box without a label of its own right
  // under an owner's street box, which continues it.
  const streets = fields.filter((f) => f.semantic?.type === "street_address")
  const continuations = new Set(
    fields.filter((f) =>
      f.form_type === "Text" && f.semantic?.type === "unknown" && !hasOwnLabel(f) &&
      streets.some((s) => s.semantic!.role === f.semantic!.role && stackedUnder(s, f))
    )
  )
  const secondLineOwners = new Set(
    [...streets.filter((f) => uncertainty(f, doubts) === secondLineDoubt), ...continuations].map((f) => f.semantic!.role)
  )
  // Facts of the holder's own, by type: an organisation's facts fill the holder's fields only where
  // the holder has none of that kind.
  const holderTypes = new Set(facts.filter((f) => f.role === "self").map((f) => f.type))
  const organizationMayFill = (field: FormField, type: SemanticType) =>
    field.semantic?.role === "self" && !holderTypes.has(type) && mayBeOrganization(field)
  // Whose facts answer a question: the field's owner, or an organisation where it may file.
  const answerable = (field: FormField, fact: TypedFact) => owns(field, fact) || (fact.role === "employer" && organizationMayFill(field, fact.type))
  for (const field of fields) {
    const semantic = field.semantic
    if (semantic && (contactInDoubt(field) || secondaryBlock(field))) continue
    const heading = lastHeading(field)
    if (heading !== undefined && tables.has(heading) && semantic?.role !== "dependent") continue
    if (!semantic || field.read_only || field.form_type === "Signature" || field.form_type === "PushButton") continue
    if (semantic.role === "preparer" || semantic.role === "official") continue
    // A yes/no question, or a language box under "I speak", answered by a fact.
    const answer = Questions.answerYesNo(field, facts, answerable) ?? Questions.answerLanguage(field, facts)
    if (answer) {
      out.push({ field, ...answer })
      continue
    }
    if (unitLines.has(field)) {
      const unit = facts.find((f) => f.type === "unit" && owns(field, f))
      const written = unit && formatText(field, unit)
      if (unit && written) out.push({ field, value: written.value, fact: unit, transform: `the unit on the second address line (${written.transform})` })
      continue
    }
    if (semantic.type === "unknown" && !continuations.has(field)) continue
    if (semantic.type === "signature" || semantic.type === "signature_date" || semantic.type === "signature_place") continue
    // A bare "date" says not which one.
    if (semantic.type === "date") continue
    if (field.form_type !== "Text" && field.form_type !== "ComboBox" && !choiceTypes.has(semantic.type)) continue
    const doubt = continuations.has(field) ? secondLineDoubt : uncertainty(field, doubts)
    // An address written on two lines with no city or postal box for its owner: the first line
    // takes the street, the second the place ("57100 Thionville", "Naperville, IL 60564").
    const twoLines = (semantic.type === "street_address" || continuations.has(field)) && !placeBoxes.has(semantic.role) && secondLineOwners.has(semantic.role)
    if (doubt === secondLineDoubt && twoLines) {
      const placed = placeLine(field, facts, owns)
      if (placed) out.push({ field, ...placed })
      continue
    }
    // "Name and address" in one box: the owner's name, then the one-line address (the label
    // naming both a name and an address is no doubt here).
    if (NAME_AND_ADDRESS.test(Vocabulary.normalize(ownLabel(field.name))) && field.form_type === "Text" && (doubt === undefined || doubt.startsWith("the label says"))) {
      const combined = nameAndAddress(field, facts, owns)
      if (combined) out.push({ field, ...combined })
      continue
    }
    if (doubt !== undefined) continue
    // An address line with no city or postal box for its owner anywhere on the form takes the whole address.
    const wanted: SemanticType = semantic.type === "street_address" && !placeBoxes.has(semantic.role) && !twoLines ? "address" : semantic.type
    if (wanted === "full_name" && semantic.format?.name_order === "family_first") {
      const named = familyFirst(field, facts, owns)
      if (named) out.push({ field, ...named })
      continue
    }
    // The employer's name, or a business's: whichever word its source used for the organisation.
    if (semantic.role === "employer" && (wanted === "organization" || wanted === "employer")) {
      const named = facts.find((f) => (f.type === "employer" || f.type === "organization") && f.role === "employer")
      const written = named && valueFor(field, named)
      if (named && written) out.push({ field, value: written.value, fact: named, transform: `the organisation's name (${written.transform})` })
      continue
    }
    const organizationMayHold = organizationMayFill(field, wanted)
    const domestic = domesticBox(field)
    // An A-number is not an online account number, nor a plain identity number.
    const scheme = wanted === "national_id" ? Vocabulary.idSchemeOf(ownLabel(field.name)) : undefined
    for (const fact of facts) {
      if (fact.type !== wanted) continue
      if (wanted === "national_id" && fact.scheme !== scheme) continue
      if (!owns(field, fact) && !(organizationMayHold && fact.role === "employer")) continue
      if (domestic !== undefined && domestic !== isUsAddress(fact, facts)) continue
      // An owner with a house number box of its own: the street box takes the street only; one
      // without a unit box: the street box takes the unit too ("48 Birch Lane, Apt 3").
      const unit = wanted === "street_address" && !unitBoxes.has(semantic.role)
        ? sibling(facts, fact, "unit")
        : undefined
      // The house number goes from the street before the unit joins it ("Flat 3" keeps its 3).
      const own = wanted === "street_address" && houseBoxes.has(semantic.role) ? withoutHouseNumber(fact.value) : fact.value
      // A British flat is written before the street ("Flat 3, 41 Wellington Road"), a US unit after it.
      const street = unit && !fact.value.includes(unit.value) ? (/^flat\b/i.test(unit.value) ? `${unit.value}, ${own}` : `${own}, ${unit.value}`) : own
      const given = street !== fact.value ? { ...fact, value: street } : fact
      const written = valueFor(field, given)
      if (written === undefined) continue
      const how = given === fact ? "" : houseBoxes.has(semantic.role) ? "street without its house number, " : "street with its unit, "
      out.push({ field, value: written.value, fact, transform: `${how}${written.transform}` })
      break
    }
  }
  return out
}
