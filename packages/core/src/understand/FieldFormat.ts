/**
 * How a field wants its value written: comb cells and length, the date pattern a label or a
 * hint asks for (`MM/DD/YYYY`, `TT.MM.JJJJ`, `JJ/MM/AAAA`) or the form's language implies, the
 * part of a date or number a box takes, digits only, capitals.
 */
import type { SemanticType } from "./Vocabulary.ts"
import { normalize } from "./Vocabulary.ts"

/** Order of day, month and year in a date. */
export type DateOrder = "MDY" | "DMY" | "YMD"

/** Which part of a split value a box takes (a date split into boxes, a number into groups). */
export type ValuePart = "day" | "month" | "year"

/** The format a field asks for; every member optional. */
export interface FieldFormat {
  /** Comb fields: one character per cell, this many cells. */
  readonly comb_cells?: number
  readonly max_length?: number
  /** A date pattern in `D`, `M`, `Y` letters, e.g. `MM/DD/YYYY`, `DD.MM.YYYY`, `DDMMYYYY`. */
  readonly date_pattern?: string
  readonly date_order?: DateOrder
  /** For a box that takes one part of a date. */
  readonly date_part?: ValuePart
  /** Only digits go in (no separators, no letters). */
  readonly digits_only?: boolean
  /** Write in capitals. */
  readonly upper_case?: boolean
  /** One of several boxes on a line that hold one value (a number in groups, dollars and cents). */
  readonly segment?: Segment
  /** A full name asked family name first ("Last, First, Middle"). */
  readonly name_order?: "family_first"
}

/**
 * Box `index` (1-based) of `count` on a line that hold one value between them; `lengths`, when
 * every box has a maximum length, the characters each takes ("13 cells, then a 2-cell key").
 */
export interface Segment {
  readonly index: number
  readonly count: number
  readonly lengths?: ReadonlyArray<number>
}

// Day, month and year letters of the languages' own patterns: English D/M/Y, German T(ag)/M/J(ahr),
// French J(our)/M/A(nnée), Spanish and Portuguese D/M/A(ño), Italian G(iorno)/M/A(nno).
const GROUP = "(?:d{1,2}|t{1,2}|j{1,4}|g{1,2}|m{1,2}|y{2,4}|a{2,4})"
const PATTERN = new RegExp(`(?:^|[^\\p{L}])(${GROUP}(?:([./\\- ]?)${GROUP}){1,2})(?=$|[^\\p{L}])`, "iu")

// The three parts named in words, in order, one separator between them: "MONTH/DAY/YEAR",
// "Tag.Monat.Jahr", "jour / mois / année", "día-mes-año".
const WORD_PART = "(month|monat|mois|mes|mese|day|tag|jour|d[ií]a|giorno|year|jahr|ann[ée]e|a[ñn]o|anno)"
const WORD_PATTERN = new RegExp(`(?:^|[^\\p{L}])${WORD_PART}\\s*([./\\-])\\s*${WORD_PART}\\s*\\2\\s*${WORD_PART}(?=$|[^\\p{L}])`, "iu")
const wordLetter = (word: string): string =>
  /^(?:month|monat|mois|mes|mese)$/i.test(word) ? "MM" : /^(?:day|tag|jour|d[ií]a|giorno)$/i.test(word) ? "DD" : "YYYY"

/** A date pattern spelled in words ("MONTH/DAY/YEAR" → "MM/DD/YYYY"), when it names each part once. */
const spelledOut = (text: string): string | undefined => {
  const m = text.match(WORD_PATTERN)
  if (!m) return undefined
  const letters = [m[1]!, m[3]!, m[4]!].map(wordLetter)
  return new Set(letters).size === 3 ? letters.join(m[2]!) : undefined
}

/**
 * The date pattern a text spells ("(mm/dd/yyyy)", "TT.MM.JJJJ", "JJ/MM/AAAA", "aaaa-mm-jj"),
 * rewritten in D, M, Y letters; undefined when it spells none (or only month and day).
 */
export const datePattern = (text: string): string | undefined => {
  const match = text.match(PATTERN)
  if (!match) return spelledOut(text)
  const raw = match[1]!
  const groups = raw.split(/[./\- ]/).length > 1 ? raw.split(/[./\- ]/) : raw.match(/(.)\1*/g) ?? []
  const lower = raw.toLowerCase()
  // J is the day in French (with A for the year) and the year in German (with T for the day).
  const jIsYear = /t/.test(lower) || (!/a/.test(lower) && groups.some((g) => /^j{4}$/i.test(g)))
  const letters = groups.map((g) => {
    const c = g[0]!.toLowerCase()
    const letter = c === "d" || c === "t" || c === "g" ? "D" : c === "m" ? "M" : c === "y" || c === "a" ? "Y" : jIsYear ? "Y" : "D"
    return letter.repeat(g.length)
  })
  const order = letters.map((l) => l[0]).join("")
  if (!/^(?:MDY|DMY|YMD|YDM|MY|DM|MD)$/.test(order) || !order.includes("Y") && letters.length < 3) return undefined
  if (new Set(order).size !== order.length) return undefined
  const separator = raw.match(/[./\- ]/)?.[0] ?? ""
  return letters.join(separator)
}

/** The order of a pattern from `datePattern`, when it has all three parts. */
export const orderOf = (pattern: string): DateOrder | undefined => {
  const order = pattern.replace(/[^DMY]/g, "").replace(/(.)\1+/g, "$1")
  return order === "MDY" || order === "DMY" || order === "YMD" ? order : undefined
}

/** The date order a form's language implies when nothing on the form says. */
export const orderOfLanguage = (language: string | undefined): DateOrder | undefined => {
  if (language === undefined) return undefined
  if (language === "en") return "MDY"
  if (["ja", "zh", "ko", "hu", "lt"].includes(language)) return "YMD"
  return "DMY"
}

// The part's word last ("Date of birth: month"), or its letters first in a PDF name ("DD_NAC", "YY_FECHA").
const partRules: ReadonlyArray<{ readonly part: ValuePart; readonly pattern: RegExp }> = [
  { part: "day", pattern: / (?:day|dd|tag|tt|jour|jj|dia|giorno|gg) $|^ (?:dd|tt|jj|gg) \w/ },
  { part: "month", pattern: / (?:month|mm|monat|mois|mes|mese|maand) $|^ mm \w/ },
  { part: "year", pattern: / (?:year|yyyy|yy|jahr|jjjj|annee|aaaa|ano|anno|jaar) $|^ (?:yyyy|yy|jjjj|aaaa|aa) \w/ }
]

/** The part of a date a label names as its last word ("Date of birth: month", "Tag", "yyyy"). */
export const datePartOf = (label: string): ValuePart | undefined => {
  const text = normalize(label)
  return partRules.find((r) => r.pattern.test(text))?.part
}

const DIGITS_HINT = /\b(?:digits?|numbers only|numeric|no dashes|ziffern|chiffres|digitos|cifras)\b/i
const CAPITALS_HINT = /\b(?:capital letters|block capitals|block letters|upper ?case|in capitals|print in capitals|druckbuchstaben|grossbuchstaben|großbuchstaben|majuscules|mayusculas|mayúsculas|stampatello)\b/i

// "(Last, First & Middle)", "Nom, prénom", "Apellidos y nombre", "Name, Vorname": the family name first.
const FAMILY_FIRST = / (?:last|family|sur) ?(?:name)? (?:and )?(?:first|given) (?:name)?|(?:nom|nom de famille) (?:et )?prenoms?|apellidos? (?:y )?nombre|(?:familien|nach)?name (?:und )?vornamen? /

/** Types whose value is a number however it is written (a comb takes its digits only). */
const numeric: ReadonlySet<SemanticType> = new Set([
  "ssn", "itin", "ein", "tax_id", "phone", "fax", "birth_date", "signature_date", "marriage_date", "start_date", "end_date", "issue_date",
  "expiry_date", "established_date", "date", "age", "industry_code", "employee_count"
])

export interface FormatInput {
  readonly type: SemanticType
  readonly label: string
  /** The field's own name in the PDF ("DD_NAC"), which may name the part of a date it holds. */
  readonly partialName?: string | undefined
  /** Other text that may hint at a format: the printed label, text inside or under the box. */
  readonly hints: string
  readonly maxLength?: number | undefined
  readonly comb?: boolean | undefined
  /** The date order the rest of the form or its language gives. */
  readonly formDateOrder?: DateOrder | undefined
  /** The page asks for capitals. */
  readonly pageCapitals?: boolean | undefined
  readonly segment?: Segment | undefined
}

const isDate = (type: SemanticType) => type.endsWith("_date") || type === "date"

/** The format of one field; undefined when nothing is known. */
export const formatOf = (input: FormatInput): FieldFormat | undefined => {
  const out: {
    comb_cells?: number
    max_length?: number
    date_pattern?: string
    date_order?: DateOrder
    date_part?: ValuePart
    digits_only?: boolean
    upper_case?: boolean
    segment?: Segment
    name_order?: "family_first"
  } = {}
  if (input.segment) out.segment = input.segment
  if (input.maxLength !== undefined) out.max_length = input.maxLength
  if (input.comb && input.maxLength !== undefined) out.comb_cells = input.maxLength
  const text = `${input.label} ${input.hints}`
  if (isDate(input.type)) {
    const spelled = datePattern(input.label)
    const pattern = spelled ?? datePattern(input.hints)
    // "Date of birth: yyyy" names a part; "dd.mm.yyyy" spells a whole date.
    const part = spelled ? undefined : datePartOf(input.label) ?? (input.partialName ? datePartOf(input.partialName) : undefined)
    if (part) out.date_part = part
    const order = (pattern && orderOf(pattern)) ?? input.formDateOrder
    if (pattern && !part) out.date_pattern = pattern
    else if (!part && input.comb && input.maxLength === 8 && order) {
      // Eight cells hold a date without separators.
      out.date_pattern = order === "MDY" ? "MMDDYYYY" : order === "DMY" ? "DDMMYYYY" : "YYYYMMDD"
    } else if (!part && input.comb && input.maxLength === 6 && order) {
      out.date_pattern = order === "MDY" ? "MMDDYY" : order === "DMY" ? "DDMMYY" : "YYMMDD"
    }
    if (order) out.date_order = order
  }
  if ((input.type === "full_name" || input.type === "family_name" || input.type === "middle_name") && FAMILY_FIRST.test(normalize(input.label))) {
    out.name_order = "family_first"
  }
  if (DIGITS_HINT.test(text) || (input.comb && numeric.has(input.type))) out.digits_only = true
  if (CAPITALS_HINT.test(text) || input.pageCapitals) out.upper_case = true
  return Object.keys(out).length > 0 ? out : undefined
}

/** Whether a page's text asks for capitals ("Please write in CAPITAL LETTERS"). */
export const asksForCapitals = (pageText: string): boolean => CAPITALS_HINT.test(pageText)
