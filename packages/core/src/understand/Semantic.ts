/**
 * What a field means: its semantic type (one taxonomy, `Vocabulary.semanticTypes`), whose value it
 * holds (its role: the person filling the form, their spouse, a dependent, an employer, a
 * preparer, an official...), and how the value is written. Worked out from the field's label,
 * the headings of its section and its own properties.
 */
import type { FormField } from "../FormField.ts"
import * as FieldFormat from "./FieldFormat.ts"
import type { Role, SemanticType } from "./Vocabulary.ts"
import * as Vocabulary from "./Vocabulary.ts"

/** What was understood of a field's meaning; the wire shape of `FormField.semantic`. */
export interface FieldSemantic {
  readonly type: SemanticType
  readonly role: Role
  /** 1-based, for `role: "dependent"`: which dependent (the table row, or the number in the label). */
  readonly dependent_index?: number
  /** The headings the field sits under, outermost first. */
  readonly section?: ReadonlyArray<string>
  readonly format?: FieldFormat.FieldFormat
  /** The label printed beside the field, when its name says more (see `Understood.name`). */
  readonly label?: string
}

/** Everything `describe` looks at for one field. */
export interface SemanticInput {
  readonly field: FormField
  /** The name given to the field (its /TU, else the printed label, else the partial name). */
  readonly label: string
  /** Whether `label` is the field's /TU. */
  readonly fromTooltip?: boolean | undefined
  /** The label printed next to the field, when one was found (may differ from a /TU). */
  readonly printed?: string | undefined
  /** The field's cleaned partial name (`dateOfBirth` → "Date of birth"): a last resort for its type. */
  readonly partialName: string
  /** Captions of a radio group's or check box's options. */
  readonly captions?: ReadonlyArray<string> | undefined
  /** The question a check box of a group answers ("Marital status" over "☐ Single ☐ Married"). */
  readonly question?: string | undefined
  readonly section?: ReadonlyArray<string> | undefined
  /** Text inside or right under the box: format hints ("mm/dd/yyyy"). */
  readonly hints?: string | undefined
  /** A signature field or a signature line is on the same line or right above or below. */
  readonly nearSignature?: boolean | undefined
  readonly formDateOrder?: FieldFormat.DateOrder | undefined
  readonly pageCapitals?: boolean | undefined
  /** The field is one of several boxes on a line that hold one value between them. */
  readonly segment?: FieldFormat.Segment | undefined
}

/** A long /TU's segments, last first ("Part 1. ... Mailing Address. 6. D. Enter City or Town."). */
const segments = (text: string): ReadonlyArray<string> =>
  text
    .split(/(?<=[.:?])\s+|\s+-\s+/)
    .map((s) => s.trim())
    .filter((s) => /\p{L}{2}/u.test(s))
    .reverse()

/**
 * A field's own label within a long /TU that also names its part and section ("Part 1.
 * Information About the Person or Organization Filing This Petition. Mailing Address. 3. B.
 * Enter Street Number and Name."): the sentence after the last item number ("Enter Street
 * Number and Name."), without instructions that follow it. The whole label when it numbers no item.
 */
export const ownLabel = (label: string): string => {
  const items = [...label.matchAll(/(?:^|\s)\d{1,2}\.(?:\s*[A-Za-z]\.)?\s+(?=\p{Lu})/gu)]
  const last = items.at(-1)
  if (last === undefined) return label
  const rest = label.slice(last.index! + last[0].length)
  const sentence = rest.match(/^.+?[.?:](?=\s|$)/u)?.[0] ?? rest
  return /\p{L}{3}/u.test(sentence) ? sentence.trim() : label
}

const firstKnown = (texts: ReadonlyArray<string | undefined>): SemanticType => {
  for (const text of texts) {
    if (text === undefined || text.trim() === "") continue
    const type = Vocabulary.typeOf(text)
    if (type !== "unknown") return type
  }
  return "unknown"
}

const nameTypes: ReadonlySet<SemanticType> = new Set(["given_name", "middle_name", "middle_initial", "given_name_and_middle_initial", "family_name", "full_name", "birth_name"])
const isDate = (type: SemanticType) => type === "date" || type.endsWith("_date")

/**
 * Whether `specific` is `general` said of one thing: a country of birth is a country, a place of
 * birth a city, state or country ("pais" printed before a box whose PDF name is "PAIS_NAC").
 */
const refines = (specific: SemanticType, general: SemanticType): boolean =>
  (specific === "birth_country" && general === "country") ||
  (specific === "birth_place" && (general === "city" || general === "state" || general === "country"))

/**
 * Two known meanings that cannot both be right: not one name part and another, a date and a
 * kind of date, nor a place and the place of birth.
 */
const disagree = (a: SemanticType, b: SemanticType): boolean =>
  a !== "unknown" && b !== "unknown" && a !== b && !(nameTypes.has(a) && nameTypes.has(b)) &&
  !(isDate(a) && isDate(b) && (a === "date" || b === "date")) && !refines(a, b) && !refines(b, a)

/** The type of a field from its printed label, then the segments of its name, then its partial name. */
export const typeOf = (input: SemanticInput): SemanticType => {
  const { field } = input
  if (field.form_type === "Signature") return "signature"
  if (field.form_type === "PushButton") return "unknown"
  // A /TU is the form author's own word for the field, so it goes before the text printed near
  // the widget (which may belong to a neighbour); within a long /TU that numbers its items,
  // only the field's own item counts (the other sentences are its part's and section's headings).
  const own = ownLabel(input.label)
  const labelTexts = own !== input.label ? [own] : [...segments(input.label), input.label]
  const printedTexts = [...segments(input.printed ?? ""), input.printed]
  const fromLabels = firstKnown(
    input.fromTooltip ? [...labelTexts, ...printedTexts, input.question] : [...printedTexts, ...labelTexts, input.question]
  )
  // A /TU and the label printed before the box that ask for two different things ("State of"
  // over a blank printed "currently living in the municipality of"): one of them is wrong, and
  // which is in doubt.
  const fromPrinted = input.printed ? firstKnown(printedTexts) : "unknown"
  if (input.fromTooltip && input.printed && disagree(firstKnown(labelTexts), fromPrinted)) return "unknown"
  // One says which place the other means: the more exact meaning.
  if (refines(fromPrinted, fromLabels)) return fromPrinted
  const choice = field.form_type === "RadioButton" || field.form_type === "CheckBox" || field.form_type === "ComboBox" || field.form_type === "ListBox"
  // Options that only answer ("Yes", "No", "Unknown") make a yes/no question: it holds no name,
  // date or address, whatever words its question uses ("... committee to address issues?"). The
  // options as printed, else as the PDF names them; a lone box's on-state ("Yes") answers nothing,
  // but a box captioned "No" under a question, one of its row, is an answer of a yes/no question.
  const optionTexts = input.captions !== undefined && input.captions.length > 0 ? input.captions : (field.options ?? []).map((o) => o.label)
  const answersQuestion = input.question !== undefined && input.captions?.length === 1 && Vocabulary.yesOrNo(input.captions[0]!)
  if (choice && (answersQuestion || Vocabulary.answersOnly([...new Set(optionTexts)]))) return "unknown"
  const fromOptions = choice
    ? Vocabulary.typeOfOptions([...(input.captions ?? []), ...(field.options ?? []).flatMap((o) => [o.label, o.value])])
    : "unknown"
  // A check box captioned "Married" is about marital status even when its group has no label.
  const type = fromLabels !== "unknown" && !(choice && fromOptions !== "unknown" && fromLabels === "full_name") ? fromLabels : fromOptions
  const resolved = type !== "unknown" ? type : firstKnown([input.partialName])
  // A bare "Date" beside a signature is the date of signing.
  if (resolved === "date" && input.nearSignature) return "signature_date"
  // A box labelled only by its pattern ("MONTH/DAY/YEAR") under a heading that says which date
  // ("DATE OF BIRTH"), or whose PDF name does ("Birthdate"), is that date.
  if (resolved === "date" && FieldFormat.datePattern(own) !== undefined) {
    const named = firstKnown([input.section?.at(-1), input.partialName])
    if (isDate(named) && named !== "date") return named
  }
  return resolved
}

/** The names of the groups a field sits in, as words ("topmostSubform[0].PaidPreparer[0].f2_35" → "Paid Preparer"). */
const groupWords = (formName: string): string =>
  formName
    .split(".")
    .slice(0, -1)
    .map((part) => part.replace(/\[\d+\]/g, "").replace(/^#?(?:subform|area|topmostSubform|form\d*|Page\d+)$/i, ""))
    .filter((part) => /\p{L}{3}/u.test(part))
    .map((part) => part.replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2").replace(/_/g, " "))
    .reverse()
    .join(" . ")

/** The role of a field: named in its label first, else by the nearest heading of its section. */
export const roleOf = (input: SemanticInput): Role => {
  // As for the type, a /TU's own item speaks before the text printed near the widget, which may
  // be a neighbour's ("Interpreter's Daytime Telephone Number" printed under the signatory's box).
  const own = input.fromTooltip ? ownLabel(input.label) : undefined
  // The PDF name ("Emergency Contact City") and the names of the groups it sits in
  // ("PaidPreparer.Preparer.f2_35") before the headings, which may be a page away.
  const sources = [own, input.printed, ...segments(input.label).slice(0, 2), input.partialName, groupWords(input.field.form_name), ...[...(input.section ?? [])].reverse(), input.label]
  // A heading over the spouse's and the children's blocks leaves the field someone else's, not
  // the person's own, unless something nearer says whose.
  let family = false
  for (const text of sources) {
    if (text === undefined) continue
    if (Vocabulary.namesSpouseAndChildren(text)) {
      family = true
      continue
    }
    const role = Vocabulary.roleOf(text)
    if (role) return role
  }
  return family ? "other" : "self"
}

/** What a field means, as far as its label and section tell. */
export const describe = (input: SemanticInput): FieldSemantic => {
  const role = roleOf(input)
  // An employer's or a business's "Name" ("Nom") is its organisation's name; a "Family name
  // (Last name)" is a person's, whatever the section.
  const named = typeOf(input)
  const personal = /\b(?:family|last|surname|first|given|middle|nach|vor|apellidos?|prenom)/i.test(Vocabulary.normalize(`${ownLabel(input.label)} ${input.printed ?? ""}`))
  const type = role === "employer" && (named === "full_name" || named === "family_name") && !personal ? "organization" : named
  const index = role === "dependent"
    ? Vocabulary.dependentIndexOf(input.printed ?? "") ?? Vocabulary.dependentIndexOf(input.label) ??
      [...(input.section ?? [])].reverse().map(Vocabulary.dependentIndexOf).find((n) => n !== undefined)
    : undefined
  const format = FieldFormat.formatOf({
    type,
    label: input.printed ? `${input.printed} ${input.label}` : input.label,
    partialName: input.partialName,
    hints: input.hints ?? "",
    maxLength: input.field.max_length,
    comb: input.field.comb,
    formDateOrder: input.formDateOrder,
    pageCapitals: input.pageCapitals && (input.field.form_type === "Text" || input.field.form_type === "ComboBox"),
    segment: input.segment
  })
  return {
    type,
    role,
    ...(index !== undefined ? { dependent_index: index } : {}),
    ...(input.section && input.section.length > 0 ? { section: input.section } : {}),
    ...(format ? { format } : {})
  }
}
