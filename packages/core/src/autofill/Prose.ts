/**
 * Typed facts from prose (`text_info`) in English, German, French, Spanish and Italian: who is talked about
 * (the writer, a spouse, children in the order they are named, another person such as an
 * emergency contact, an employer), and what is said of them: names, dates by what they are dates
 * of, places of birth, identifiers by the words before them, phones, e-mails, addresses,
 * occupation, employer, sex, marital and filing status. A value whose meaning or owner the text does not make clear is left
 * out. `key: value` lines are read as profile keys.
 */
import type { FieldRole, SemanticType } from "../FormField.ts"
import * as Vocabulary from "../understand/Vocabulary.ts"
import { fromLines } from "./Fact.ts"
import * as Dates from "./Dates.ts"
import {
  asOrganizations,
  australianStates,
  BRITISH_POSTCODE,
  CANADIAN_POSTAL,
  canadianProvinces,
  derive,
  fromFacts,
  fromKeyValue,
  parseAddress,
  splitName,
  type TypedFact,
  unambiguous,
  usStateNamePattern,
  withoutCourtesyTitle
} from "./Facts.ts"
import * as OrganizationProse from "./OrganizationProse.ts"
import * as Phones from "./Phones.ts"
import * as Questions from "./Questions.ts"

interface Person {
  readonly role: FieldRole
  readonly dependent_index?: number
  /** For `role: "other"`: the words that say who the person is, carried to the clauses after. */
  readonly relation?: string
}

interface Marker extends Person {
  readonly at: number
  readonly end: number
}

const SELF: Person = { role: "self" }
/** The holder, in a paragraph that speaks of them as "he" or "she" (its first clause may open with their name). */
const HOLDER_IN_THIRD_PERSON: Person = { role: "self" }

/** The capitalised name right after a relation word ("my wife, Naomi Ruth Castellanos"), if any. */
const nameAfter = (clause: string, at: number): string | undefined =>
  clause.slice(at).match(new RegExp(`^[,:]?\\s+(${NAME})`, "u"))?.[1]

// What may stand between a relation word and the name it gives: "my wife's name is", "my son is
// called", "meine Frau heißt", "mon mari s'appelle", "mi esposa se llama", or a bare "is".
const NAMING = String.raw`(?:['’]s\s+name\s+is|\s+is\s+(?:called|named)|\s+named|\s+called|\s+hei(?:ß|ss)t|\s+s['’]appelle|\s+se\s+llama|\s+si\s+chiama)`
const BARE_IS = String.raw`\s+(?:is|ist|est|es|è)`

/**
 * The name a relation word gives ("my wife, Jane Smith", "my wife's name is Jane Smith", "my son is
 * Leo Smith"). After a bare "is", capitalised words followed by "at", "of" or "for" are a title
 * ("my husband is Head Nurse at ..."), not a name. With `givenAlone` (a spouse or a child), a
 * given name on its own too ("unsere Tochter Lena, geboren am …", "our son Leo and …").
 */
const nameOfRelation = (clause: string, at: number, givenAlone = false): string | undefined => {
  const rest = clause.slice(at)
  const named = nameAfter(clause, at) ?? rest.match(new RegExp(`^${NAMING}\\s+(${NAME})`, "u"))?.[1]
  if (named) return named
  const bare = rest.match(new RegExp(`^${BARE_IS}\\s+(${NAME})(?![\\p{L}'’-]|\\s+(?:at|of|for|with|in|bei|von|für|chez|de|en)\\b)`, "u"))
  if (bare) return bare[1]
  if (!givenAlone) return undefined
  const given = rest.match(GIVEN_ALONE)?.[1]
  return given !== undefined && !NOT_A_NAME.test(given) ? given : undefined
}

/** A given name alone right after a relation word, where the sentence goes on without more of it. */
const GIVEN_ALONE = new RegExp(
  `^(?:[,:]?\\s+|${NAMING}\\s+)([\\p{Lu}][\\p{Ll}'’-]+)(?=\\s*[,;.)]|\\s*$|\\s+(?:and|und|et|y|e|was|is|who|born|geboren|ist|est|es|è|n[ée]e?|nacid[oa]|nat[oa]|wurde)\\b)`,
  "u"
)
/** Capitalised words that start a clause, not a name ("our son. He", "my wife, Please"). */
const NOT_A_NAME = /^(?:He|She|It|They|We|I|Please|The|His|Her|Our|My|Er|Sie|Es|Wir|Il|Elle|Nous|Ella|Él|Lei|Lui)$/u

// A capitalised name word (accents, hyphens, apostrophes, and capitals inside: "O'Brien",
// "McDonald", "Jean-Luc", "DeLuca"), and a name of 2 to 4 of them.
const NAME_PART = "[\\p{Lu}](?:['’][\\p{Lu}])?[\\p{Ll}'’]*[\\p{Ll}](?:[\\p{Lu}][\\p{Ll}]+)*"
const NAME_WORD = `${NAME_PART}(?:-${NAME_PART})*`
const NAME = `${NAME_WORD}(?:\\s+(?:[\\p{Lu}]\\.|${NAME_WORD})){1,3}`

const spouseWords = "(?:my|our)\\s+(?:wife|husband|spouse|partner)|(?:married|marry)(?:\\s+to)?|ma\\s+femme|mon\\s+(?:mari|[ée]poux)|mon\\s+[ée]pouse|mari[ée]e?\\s+(?:avec|à)|meine\\s+(?:frau|ehefrau|partnerin)|mein(?:em)?\\s+(?:mann|ehemann|partner)|verheiratet\\s+mit|mi\\s+(?:esposa|esposo|marido|mujer|pareja)|casad[oa]\\s+con|mia\\s+moglie|mio\\s+marito|sposat[oa]\\s+con|spouse|wife|husband"
const childWords = "(?:my|our)\\s+(?:son|daughter|child)|\\bson\\b|\\bdaughter\\b|\\bfils\\b|(?<!jeune\\s)\\bfille\\b|\\bTochter\\b|\\bSohn\\b|\\bhij[oa]\\b|notre\\s+(?:fils|fille|enfant)|mon\\s+(?:fils|enfant)|ma\\s+fille|unser(?:e|en)?\\s+(?:sohn|tochter|kind)|mein(?:e|en)?\\s+(?:sohn|tochter|kind)|(?:mi|nuestr[oa])\\s+(?:hij[oa])|(?:mio|nostro)\\s+figlio|(?:mia|nostra)\\s+figlia"
const otherWords = "emergency|(?:my|our)\\s+(?:sister|brother|mother|father|parent|friend|neighbou?r|aunt|uncle|cousin|guardian)|\\bsister\\b|\\bbrother\\b|notfall|meine?\\s+(?:schwester|bruder|mutter|vater)|urgence|ma\\s+(?:s[œo]eur|m[èe]re)|mon\\s+(?:fr[èe]re|p[èe]re)|mi\\s+(?:herman[oa]|madre|padre)|emergencia|mia\\s+(?:sorella|madre)|mio\\s+(?:fratello|padre)|emergenza"
// The person who acts for an organisation: its contact person, its authorised signatory.
const representativeWords = "contact\\s+person|authori[sz]ed\\s+(?:signatory|representative|to\\s+sign)|signatory|legal\\s+representative|ansprechpartner(?:in)?|personne\\s+de\\s+contact|interlocut(?:eur|rice)|persona\\s+de\\s+contacto"
/**
 * An organisation's representative, named before the words that say so: "Its operations
 * director, Ada Byron, is the contact person", "Ada Byron is authorized to sign for it".
 * Groups: the title (optional), the name, the words.
 */
const REPRESENTATIVE_RE = new RegExp(
  `(?:\\b(?:[Ii]ts|[Oo]ur|[Tt]heir|[Tt]he\\s+company's|[Tt]he\\s+firm's|[Nn]otre|[Ss]on|[Ss]a|[Uu]nser(?:e|er)?|[Ii]hr(?:e|er)?|[Nn]uestr[oa]|[Ss]u)\\s+(\\p{Ll}[\\p{Ll} -]{2,40}?),\\s+)?(${NAME}),?\\s+(?:is|serves\\s+as|acts\\s+as|est|ist|es)\\s+(?:the\\s+|its\\s+|our\\s+|la\\s+|le\\s+|notre\\s+|unser(?:e|er)?\\s+|die\\s+|der\\s+|el\\s+)?(?:company's\\s+|firm's\\s+)?(${representativeWords})`,
  "u"
)
/**
 * An organisation's representative named after the words that say so: "Our contact person is
 * Dana Whitfield, CFO", "Ansprechpartnerin ist Frau Anna Huber, Geschäftsführerin". Groups: the
 * words, the name (a courtesy title before it allowed), the title after it (optional).
 */
const REPRESENTATIVE_NAMED_RE = new RegExp(
  `(${representativeWords})\\s+(?:is|ist|est|es|è)\\s+((?:(?:Mr|Mrs|Ms|Dr|Herr|Frau|M\\.|Mme|Sr|Sra|Don|Doña)\\.?\\s+)?${NAME})(?:,\\s+(?:(?:our|the|its|their|unser(?:e|er)?|notre|su|nuestr[oa])\\s+)?(\\p{L}[\\p{L} -]{1,40}?)(?=,|\\.|;|$))?`,
  "iu"
)

/**
 * Someone to contact, named after the word, with a title before or after the name ("please
 * contact Priya Raman, Chief Financial Officer, at 604-555-0150", "contact our CFO, Dana
 * Whitfield, at ..."). Groups: the title before (optional), the name, the title after (optional).
 */
const CONTACT_NAMED = new RegExp(
  `\\b(?:contact|kontaktieren\\s+Sie|contactez|contacte|contactar\\s+a)\\s+(?:(?:our|the|its|their)\\s+([A-Za-z][A-Za-z -]{1,40}?),\\s+)?(${NAME})(?:,\\s+(?:(?:our|the|its|their)\\s+)?([A-Za-z][A-Za-z -]{2,40}?),)?(?=,?\\s+(?:at|on|by|via|unter|au|al|en)\\b|[.;]|$)`,
  "gu"
)
// Matched with case: a word in capitals is not one of these ("ME", "MA" and "MI" are US states),
// nor is a name ("Mia", where "mia" is Italian for "my").
const selfWords = "\\bI\\b|\\bI'm\\b|\\b[Mm]y\\b|\\b[Mm]e\\b|\\b[Jj]e\\b|\\b[Jj]'|\\b[Mm]'|\\b[Mm]on\\b|\\b[Mm]a\\b|\\b[Mm]es\\b|\\b[Ii]ch\\b|\\b[Mm]ein\\w*\\b|\\b[Mm]ir\\b|\\b[Mm]ich\\b|\\b[Yy]o\\b|\\b[Mm]i\\b|\\b[Mm]is\\b|\\b[Ii]o\\b|\\bmi[oa]\\b|\\b[Ss]ono\\b|\\b[Aa]bito\\b|\\b[Ll]avoro\\b"
/** The writer speaking of themself, anywhere in a text (not global: `test` keeps no position). */
const SELF_WORDS = new RegExp(selfWords, "u")

/** The name a third-person text about the holder opens with, before what it says of them. */
const HOLDER_SUBJECT = new RegExp(`^\\s*(${NAME})(?=,?\\s+(?:was\\s+born|born|is\\s+(?:a|an|married|single|divorced|widowed)|lives|works|resides|has)\\b)`, "u")

/** The holder spoken of in the third person, in English. */
const THIRD_PERSON = /\b(?:[Hh]e|[Ss]he|[Hh]is|[Hh]im)\b|\b[Tt]he\s+applicant\b/u

/** Sentences and clauses: a new subject starts after `.`, `;` or `!` (not inside "U.S." or "S.à r.l."). */
const clauses = (text: string): ReadonlyArray<{ text: string; at: number }> => {
  const out: Array<{ text: string; at: number }> = []
  const re = /(?<![A-Z]|\b\d{1,2}|\b[a-z]{1,2}\.[a-z]|\br\.l)[.;!?](?=\s+[\p{Lu}\d(]|\s*$)|;/gu
  let start = 0
  for (const m of text.matchAll(re)) {
    const end = m.index! + 1
    out.push({ text: text.slice(start, end), at: start })
    start = end
  }
  if (start < text.length) out.push({ text: text.slice(start), at: start })
  return out
}

/** Person markers of a clause, in order. Children are numbered in the order the text names them. */
const markersOf = (clause: string, state: { children: Array<string> }): ReadonlyArray<Marker> => {
  const found: Array<Marker> = []
  const add = (re: RegExp, person: (m: RegExpMatchArray) => Person | undefined) => {
    for (const m of clause.matchAll(re)) {
      const at = m.index!, end = at + m[0].length
      if (found.some((f) => at < f.end && end > f.at)) continue
      const p = person(m)
      if (p) found.push({ ...p, at, end })
    }
  }
  add(new RegExp(`(?:${childWords})`, "giu"), (m) => {
    const name = nameOfRelation(clause, m.index! + m[0].length, true)
    if (!name) return undefined
    const first = name.split(/\s+/)[0]!
    let index = state.children.indexOf(first)
    if (index < 0) {
      state.children.push(first)
      index = state.children.length - 1
    }
    return { role: "dependent", dependent_index: index + 1 }
  })
  add(new RegExp(representativeWords, "giu"), (m) => ({ role: "other", relation: m[0].toLowerCase() }))
  add(CONTACT_NAMED, () => ({ role: "other", relation: "contact person" }))
  add(new RegExp(otherWords, "giu"), (m) => ({ role: "other", relation: m[0].toLowerCase() }))
  add(new RegExp(spouseWords, "giu"), () => ({ role: "spouse" }))
  add(new RegExp(selfWords, "gu"), () => SELF)
  add(/\b(?:we|our|wir|unser\w*|nous|notre|nos)\b/giu, () => ({ role: "self" }))
  return found.sort((a, b) => a.at - b.at)
}

/** The person a value at `at` of a clause is about: the last marker before it, else the clause's previous owner. */
const ownerAt = (markers: ReadonlyArray<Marker>, at: number, fallback: Person): Person => {
  let owner = fallback
  for (const m of markers) if (m.at <= at) owner = m
  return owner
}

// Relation nouns as the relationship a form asks for, in the holder's language.
const relationshipWords: Record<string, string> = {
  son: "Son", daughter: "Daughter", sister: "Sister", brother: "Brother", mother: "Mother", father: "Father", wife: "Wife", husband: "Husband",
  fils: "Fils", fille: "Fille", soeur: "Sœur", frere: "Frère", mere: "Mère", pere: "Père", femme: "Femme", mari: "Mari",
  hijo: "Hijo", hija: "Hija", hermano: "Hermano", hermana: "Hermana", madre: "Madre", padre: "Padre", esposa: "Esposa", esposo: "Esposo", marido: "Marido",
  sohn: "Sohn", tochter: "Tochter", schwester: "Schwester", bruder: "Bruder", mutter: "Mutter", vater: "Vater", frau: "Frau", mann: "Mann"
}

interface Found {
  readonly type: SemanticType
  readonly value: string
  readonly at: number
  readonly evidence: string
  /** The person this fact is about when the text names it directly (a name after "my wife"). */
  readonly person?: Person
  /** For `national_id`: which kind the words before it name (`Vocabulary.idSchemeOf`). */
  readonly scheme?: string
}

/** What a date is a date of, by the words just before it (or just after "On <date> I married"). */
const dateKind = (before: string, after: string): SemanticType | undefined => {
  // "born in El Paso, Texas on": the place may stand between the word and the date.
  if (BORN_AT_PLACE_ON.test(before.slice(-80))) return "birth_date"
  const b = before.toLowerCase().slice(-40)
  const near = (re: RegExp) => re.test(b)
  const kinds: Array<[SemanticType, RegExp]> = [
    ["birth_date", /(?:born|birth|n[ée]e?\s+le|geboren|geb\.|nac[íi](?:d[oa])?|nat[oa])\s*(?:on|am|le|el|il)?\s*[,:]?\s*$/u],
    ["marriage_date", /(?:married|wedding|mari[ée]e?s?|verheiratet|heirat\w*|casad[oa]s?|nos\s+casamos|boda|sposat[oa]|matrimonio)\s*(?:on|am|le|el|il|since|seit|depuis|desde(?:\s+el)?|dal)?\s*$/u],
    ["start_date", /(?:since|depuis\s+le|depuis|seit\s+dem|seit|desde\s+el|desde|dal|started\s+on|hired\s+on|starting)\s*$/u],
    // "My birthday is", "date of birth in numbers:", "DOB".
    ["birth_date", /(?:birthday|birth\s*date|date\s+of\s+birth|\bdob)\b[^.;\d]{0,20}$/u]
  ]
  for (const [kind, re] of kinds) if (near(re)) return kind
  // German sets the word after the date: "am 3. Mai 1984 (in Köln) geboren".
  if (/^\s*(?:in\s+[^.;,\d]{1,40}?\s+)?geboren\b/u.test(after.slice(0, 60))) return "birth_date"
  const a = after.toLowerCase().slice(0, 25)
  if (/^\s*,?\s*(?:i|we|ich|wir|je|nous)\s+(?:got\s+)?(?:married|marry|heirateten|haben\s+geheiratet|me\s+suis\s+mari|nous\s+sommes\s+mari)/u.test(a)) return "marriage_date"
  return undefined
}

const BORN = String.raw`(?:[Bb]orn|[Nn][ée]e?|[Gg]eboren|[Nn]acid[oa]|[Nn]ac[íi]|[Nn]at[oa])`
const PLACE = `${NAME_WORD}(?:[\\s-]${NAME_WORD})*(?:,\\s+${NAME_WORD}(?:\\s${NAME_WORD})*|\\s+\\([^)]+\\))?`
const BORN_AT_PLACE_ON = new RegExp(`\\b${BORN}\\s+(?:in|at|à|a|en)\\s+[^.;:\\d]{2,60}?\\s+(?:on|le|am|el|il)\\s*$`, "u")
/** "born in Duluth, Minnesota", "née à Nancy", "geboren in Köln", "nacida en Sevilla": the place (group 1). */
const BORN_IN = new RegExp(`\\b${BORN}\\s+(?:in|à|a|en)\\s+(${PLACE})`, "gu")

const idKinds: ReadonlyArray<[SemanticType, RegExp]> = [
  ["ssn", /(?:social\s+security(?:\s+number)?|ssn|s[ée]curit[ée]\s+sociale|sozialversicherungsnummer|nir)\b[^.;\d]{0,25}$/iu],
  ["ein", /(?:employer\s+identification(?:\s+number)?|\bein|siret|siren)\b[^.;\d]{0,25}$/iu],
  ["national_id", /(?:national\s+insurance(?:\s+number)?|alien\s+(?:registration\s+)?number|\bA-?number|identification\s+national\w*|national\s+(?:id\w*|identification)(?:\s+number)?|matricule\)?|identity\s+card\s+number|personalausweis\w*|\bdni\b|\bnie\b|documento\s+nacional\s+de\s+identidad|carta\s+d['’]identit[àa])[^.;\d]{0,25}$/iu],
  ["passport_number", /(?:passport\s+(?:number|no\.?)|num[ée]ro\s+de\s+passeport|reisepassnummer|passaporto)[^.;\d]{0,25}$/iu],
  ["tax_id", /(?:steuer-?id\w*|steuernummer|tax\s+id\w*|num[ée]ro\s+fiscal|\bnif\b|\bcif\b|tax\s+file\s+number|business\s+number|codice\s+fiscale|partita\s+iva|vat\s+(?:number|no\.?))[^.;\d]{0,25}$/iu],
  ["phone", /(?:phone|telephone|\bmobile\s+is|t[ée]l[ée]phone|telefon\w*|tel[ée]fono|\btel\b\.?|\bt[ée]l\b\.?|mobile|m[óo]vil|\bcell(?:ular)?\b|cellulare|\bhandy\b|portable|joindre\s+au|reach\s+(?:me|us|him|her)\s+(?:at|on)|ring\s+(?:me|us)\s+on|erreichbar\s+unter|\bunter|call|text\s+(?:me|us))[^.;\d]{0,25}$/iu],
  ["fax", /(?:fax|t[ée]l[ée]copie)[^.;\d]{0,15}$/iu],
  // "please contact Priya Raman, Chief Financial Officer, at 604-555-0150".
  ["phone", /\bcontact\s+[^.;\d]{2,80}?\s(?:at|on|unter|au|al)\s*$/iu]
]

/** Words before an address that make it a past one. */
const FORMER_ADDRESS = /\b(?:previously|formerly|used\s+to|former|prior|previous|old|früher|ehemals|anciennement|autrefois|antes|anteriormente|in\s+passato)\b[^.;\d]{0,30}$/iu

const letteredKinds: ReadonlySet<SemanticType> = new Set(["national_id", "passport_number", "tax_id", "driver_license"])
const NUMBER_RE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)\s*)?\d[\d\s./-]{5,}\d(?:[\s]?\d{2})?/g
/** A code of 8 to 20 capitals and digits, with two digits and a letter at least. */
const MIXED_CODE_RE = /(?<![\p{L}\d])(?=[A-Z\d]*\d[A-Z\d]*\d)(?=[A-Z\d]*[A-Z])[A-Z\d]{8,20}(?![\p{L}\d])/gu
const EMAIL_RE = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g
const STREET_WORDS = `(?:${["road", "rd", "street", "st", "avenue", "ave", "boulevard", "blvd", "drive", "dr", "lane", "ln", "court", "ct", "place", "pl", "way", "terrace", "parkway", "circle", "highway", "hwy", "close", "crescent", "gardens", "grove", "hill", "square", "mews", "row", "walk"].flatMap((w) => [w, w.charAt(0).toUpperCase() + w.slice(1)]).join("|")})`
const US_ADDRESS_RE = new RegExp(
  `\\b\\d{1,6}\\s+(?:[\\p{Lu}\\d][\\p{L}\\d'.-]*\\s+){0,4}${STREET_WORDS}\\.?(?:,?\\s+(?:[Aa]pt|[Aa]partment|[Ss]uite|[Ss]te|[Uu]nit|#)\\.?\\s*[\\w-]+)?,\\s+[\\p{Lu}][\\p{L} .'-]{0,40}?,?\\s+(?:[A-Z]{2}|${usStateNamePattern})\\s+\\d{5}(?:-\\d{4})?`,
  "gu"
)
// "2200 Lougheed Highway, Suite 410, Maple Ridge, BC V2X 2V1[, Canada]".
const CA_ADDRESS_RE = new RegExp(
  `\\b\\d{1,6}\\s+(?:[\\p{Lu}\\d][\\p{L}\\d'.-]*\\s+){0,4}${STREET_WORDS}\\.?(?:\\s+[NSEW]\\b)?(?:,?\\s+(?:[Aa]pt|[Aa]partment|[Ss]uite|[Ss]te|[Uu]nit|#)\\.?\\s*[\\w-]+)?,\\s+[\\p{Lu}][\\p{L} .'-]{0,40}?,?\\s+(?:${canadianProvinces.join("|")})\\s+${CANADIAN_POSTAL}(?:,\\s+Canada)?`,
  "gu"
)
// "12 Smith Street, Newtown NSW 2042[, Australia]".
const AU_ADDRESS_RE = new RegExp(
  `(?:\\b(?:Unit|Apartment|Apt|Level)\\s+[\\w-]+,\\s+)?\\b\\d{1,6}[A-Za-z]?\\s+(?:[\\p{Lu}][\\p{L}'.-]*\\s+){0,4}${STREET_WORDS}\\.?,\\s+[\\p{Lu}][\\p{L} .'-]{0,40}?,?\\s+(?:${australianStates.join("|")})\\s+\\d{4}(?:,\\s+Australia)?(?!\\d)`,
  "gu"
)
// "Flat 3, 41 Wellington Road, Bristol BS2 8QX[, United Kingdom]".
const UK_ADDRESS_RE = new RegExp(
  `(?:\\b(?:Flat|Apartment|Apt|Suite|Unit)\\s+[\\w-]+,\\s+)?\\b\\d{1,5}[A-Za-z]?\\s+(?:[\\p{Lu}][\\p{L}'.-]*\\s+){0,4}${STREET_WORDS},\\s+[\\p{Lu}][\\p{L} .'-]{0,40}?,?\\s+${BRITISH_POSTCODE}(?:,\\s+(?:United Kingdom|UK|England|Scotland|Wales|Northern Ireland))?`,
  "gu"
)
const EU_ADDRESS_RE = /\b\d{1,4}(?:\s?(?:bis|ter|[a-z]))?,?\s+(?:rue|avenue|av\.|boulevard|bd|place|chemin|all[ée]e|impasse|route|quai|cours)\s+[^,;]+?,\s+(?:[A-Z]{1,2}-)?\d{4,5}\s+[\p{Lu}][\p{L}'-]+(?:[\s-][\p{Lu}][\p{L}'-]+)*|\b[\p{Lu}][\p{L}-]*(?:stra(?:ß|ss)e|str\.|weg|platz|gasse|allee|ring|damm|chaussee|ufer|markt|steig|pfad|berg|hof|graben|kamp|feld|tor)\s+\d+\s?[a-z]?,\s+(?:D-|A-|CH-)?\d{4,5}\s+[\p{Lu}][\p{L}-]+|\b(?:[Cc]alle|C\/|[Aa]venida|[Aa]vda\.|[Pp]laza|[Pp]aseo|[Cc]amino|[Rr]onda|[Tt]ravesía)\s+[^,;\d]{2,40}?,?\s+\d+(?:\s?[A-Za-z])?(?:,\s*\d+º?\s*[A-Za-z]?)?,\s+\d{5}\s+[\p{Lu}][\p{L}-]+(?:\s[\p{Lu}][\p{L}-]+)*|\b(?:[Vv]ia|[Vv]iale|[Pp]iazza|[Pp]iazzale|[Cc]orso|[Ll]argo|[Vv]icolo|[Ss]trada|[Ll]ungomare)\s+[^,;\d]{2,40}?,?\s+\d+(?:\s?[A-Za-z]|\/\d+)?,\s+\d{5}\s+[\p{Lu}][\p{L}'-]+(?:\s[\p{Lu}][\p{L}'-]+)*(?:\s+\([A-Z]{2}\))?/gu

const maritalWords: ReadonlyArray<[RegExp, string]> = [
  [/\b(?:i\s+am|i'm|he\s+is|she\s+is)\s+(?:single|unmarried)\b|\bje\s+suis\s+c[ée]libataire\b|\bich\s+bin\s+ledig\b|\b(?:estoy|soy)\s+solter[oa]\b|\bsono\s+(?:nubile|celibe|single)\b/iu, "Single"],
  [/\b(?:i\s+am|i'm|he\s+is|she\s+is)\s+divorced\b|\bje\s+suis\s+divorc[ée]e?\b|\bich\s+bin\s+geschieden\b|\b(?:estoy|soy)\s+divorciad[oa]\b|\bsono\s+divorziat[oa]\b/iu, "Divorced"],
  [/\b(?:i\s+am|i'm)\s+(?:widowed|a\s+widow(?:er)?)\b|\band\s+a\s+widow(?:er)?\b|\bje\s+suis\s+veu(?:f|ve)\b|\bich\s+bin\s+verwitwet\b|\b(?:estoy|soy)\s+viud[oa]\b|\bsono\s+vedov[oa]\b/iu, "Widowed"],
  [/\b(?:i\s+am|i'm|he\s+is|she\s+is)\s+married\b|\bi\s+married\b|\bmy\s+(?:wife|husband)\b|\bje\s+suis\s+mari[ée]e?\b|\bich\s+bin\s+verheiratet\b|\bma\s+femme\b|\bmon\s+mari\b|\bmeine\s+(?:ehe)?frau\b|\bmein\s+(?:ehe)?mann\b|\b(?:estoy|soy)\s+casad[oa]\b|\bmi\s+(?:esposa|esposo|marido)\b|\bsono\s+sposat[oa]\b|\bmia\s+moglie\b|\bmio\s+marito\b/iu, "Married"]
]
// "I am female", "I'm single and male", "je suis une femme", "ich bin männlich": the person's sex.
const sexWords: ReadonlyArray<[RegExp, string]> = [
  [/\b(?:I\s+am|I'm|[Ss]he\s+is)\s+(?:[a-z]+\s+and\s+)?(?:an?\s+)?(?:female|woman)(?![\w-])|\b[Jj]e\s+suis\s+une\s+femme\b|\b[Ii]ch\s+bin\s+(?:eine\s+frau|weiblich)\b|\b[Ss]oy\s+(?:una\s+)?mujer\b|\b[Ss]ono\s+una\s+donna\b/u, "Female"],
  [/\b(?:I\s+am|I'm|[Hh]e\s+is)\s+(?:[a-z]+\s+and\s+)?(?:an?\s+)?(?:male|man)(?![\w-])|\b[Jj]e\s+suis\s+un\s+homme\b|\b[Ii]ch\s+bin\s+(?:ein\s+mann|m(?:ä|ae)nnlich)\b|\b[Ss]oy\s+(?:un\s+)?hombre\b|\b[Ss]ono\s+un\s+uomo\b/u, "Male"]
]
const filingWords: ReadonlyArray<[RegExp, string]> = [
  [/\b(?:file|filing)\s+(?:our\s+(?:taxes|tax\s+returns?|returns?)\s+)?jointly\b|\bjoint\s+(?:tax\s+)?return\b/iu, "Married filing jointly"],
  [/\b(?:file|filing)\s+(?:our\s+(?:taxes|returns?)\s+)?separately\b/iu, "Married filing separately"],
  [/\bhead\s+of\s+household\b/iu, "Head of household"]
]

// "a U.S. citizen", "a French citizen", "citizen of Canada", "de nationalité française",
// "deutsche Staatsangehörige", "de nacionalidad española".
const NATIONALITY_RES: ReadonlyArray<RegExp> = [
  /\b((?:U\.\s?S\.|US|American|United States)\s+(?:citizen|national))\b/gu,
  // "a British citizen" is British: a form's nationality box wants the demonym alone.
  /\b(?:an?|also\s+an?)\s+((?!U\.)[\p{Lu}][\p{Ll}]+)\s+citizen\b/gu,
  /\bcitizen\s+of\s+((?:the\s+)?[\p{Lu}][\p{L}]+(?:\s+[\p{Lu}][\p{L}]+)*)/gu,
  /\bde\s+nationalit[ée]\s+(\p{L}+)/giu,
  /\b(\p{L}+e[rn]?)\s+Staats(?:bürger|angehörig)\w*/gu,
  /\bde\s+nacionalidad\s+(\p{L}+)/giu,
  // "sono cittadina italiana", "di nazionalità italiana", "di cittadinanza italiana".
  /\b(?:cittadin[oa]|di\s+nazionalit[àa]|di\s+cittadinanza)\s+(\p{Ll}+)/gu
]
// "I speak French, German and English", "je parle français et allemand", "ich spreche Deutsch".
const LANGUAGES_RE = /\b(?:I\s+(?:can\s+)?speak|je\s+parle|ich\s+spreche|hablo|parlo)\s+([^.;:!?]{3,120})/giu
// "I have never applied for or held a U.S. passport", "je n'ai jamais eu de passeport".
const NO_PASSPORT_RE =
  /\bnever\s+(?:applied\s+for|had|held|owned|been\s+issued)(?:\s+(?:or|nor|and)\s+(?:applied\s+for|had|held|owned|been\s+issued))*\s+(?:an?\s+)?(?:U\.\s?S\.\s+)?passport|\bjamais\s+(?:eu|demand[ée]|obtenu|poss[ée]d[ée])\s+(?:de\s+|un\s+)?passeport|\b(?:noch\s+)?nie\s+(?:einen\s+)?(?:Reise)?pass\b|\bnunca\s+(?:he\s+)?(?:tenido|solicitado)\s+(?:un\s+)?pasaporte/iu

const OCCUPATION_STOP = /^(?:u\.?s\.?|citizen|resident|n[ée]e?|mari[ée]e?|c[ée]libataire|divorc|veu|de|du|en|à|au|a|the|an|ledig|verheiratet|geboren|single|married|widowed|divorced|born|not|never|also|retired|unemployed|mujer|hombre|nat[oa]|cittadin[oa]|nubile|celibe|sposat[oa]|divorziat[oa]|vedov[oa]|una?|uomo|donna|in|di|da)\b|^(?:solter|casad|viud|jubilad|espa[ñn]ol|italian)/iu

/**
 * Everything one clause says, with its position. Names are the person's own only where the text
 * introduces them ("My name is", "I am", a relation word right before the name).
 */
const findIn = (clause: string, phoneCountries: ReadonlyArray<Phones.CountryCode> = [], holderFirst = false): ReadonlyArray<Found> => {
  const found: Array<Found> = []
  const taken: Array<[number, number]> = []
  const free = (at: number, end: number) => !taken.some(([a, b]) => at < b && end > a)
  const take = (at: number, end: number) => taken.push([at, end])

  for (const m of clause.matchAll(EMAIL_RE)) {
    found.push({ type: "email", value: m[0].replace(/\.$/, ""), at: m.index!, evidence: `e-mail '${m[0]}'` })
    take(m.index!, m.index! + m[0].length)
  }
  for (const re of [US_ADDRESS_RE, CA_ADDRESS_RE, AU_ADDRESS_RE, UK_ADDRESS_RE, EU_ADDRESS_RE]) {
    for (const m of clause.matchAll(re)) {
      const at = m.index!, end = at + m[0].length
      if (!free(at, end)) continue
      const parts = parseAddress(m[0])
      if (!parts) continue
      take(at, end)
      // "I previously lived at ...", "my former address": not where the person lives now.
      if (FORMER_ADDRESS.test(clause.slice(Math.max(0, at - 40), at))) continue
      const add = (type: SemanticType, value: string | undefined) => value && found.push({ type, value, at, evidence: `address '${m[0]}'` })
      add("street_address", parts.street)
      add("unit", parts.unit)
      add("city", parts.city)
      add("state", parts.state)
      add("postal_code", parts.postal)
      // The country the address itself ends with ("…, BC V2X 2V1, Canada").
      if (parts.country !== undefined && m[0].endsWith(parts.country)) add("country", parts.country)
      // "en France", "in Germany" right after the address names its country.
      const country = clause.slice(end).match(/^,?\s+(?:in|en|au|aux|in\s+der|im)\s+([\p{Lu}][\p{L}-]+)/u)
      if (country) found.push({ type: "country", value: country[1]!, at, evidence: `country after the address '${country[0].trim()}'` })
    }
  }
  // Full dates (`Dates.ts`); numeric ones in the order of the clause's language.
  const order = /[a-zäöüéèàç]{4,}/iu.test(clause) && /\b(?:le|der|die|und|et|je|ich|il|di|sono|nata|nato)\b/iu.test(clause) ? "DMY" : "MDY"
  for (const date of Dates.findDates(clause, order)) {
    const at = date.at, end = date.end
    if (!free(at, end)) continue
    take(at, end)
    const kind = dateKind(clause.slice(0, at), clause.slice(end))
    if (kind) found.push({ type: kind, value: date.value, at, evidence: `'${clause.slice(Math.max(0, at - 25), end).trim()}'` })
    if (kind === "birth_date") {
      // "born on <date> in Duluth, Minnesota", "née le <date> à Nancy (Meurthe-et-Moselle)"
      const place = clause.slice(end).match(new RegExp(`^\\s*,?\\s*(?:in|à|a|en)\\s+(${PLACE})`, "u"))
      if (place) {
        found.push({ type: "birth_place", value: place[1]!, at, evidence: `'${place[0].trim()}' after the birth date` })
        take(end, end + place[0].length)
      }
    }
  }
  // "born in Duluth, Minnesota" wherever the date is, or with none.
  for (const m of clause.matchAll(BORN_IN)) {
    const at = m.index! + m[0].indexOf(m[1]!), end = at + m[1]!.length
    if (!free(at, end)) continue
    take(at, end)
    found.push({ type: "birth_place", value: m[1]!, at: m.index!, evidence: `'${m[0].trim()}'` })
  }
  // Phone numbers valid in their country (`Phones.ts`; one written without its country code, in
  // the first of `phoneCountries` where it is valid): after words that say so ("phone", "joindre
  // au", "fax"), or, with no such words, written as only phone numbers are (with their country
  // code, or their area code in brackets) and not after words naming an identifier.
  for (const phone of phoneCountries.flatMap((country) => Phones.findPhones(clause, country))) {
    if (!free(phone.at, phone.end)) continue
    const before = clause.slice(0, phone.at)
    const kind = idKinds.find(([, re]) => re.test(before))?.[0]
    const said = kind === "phone" || kind === "fax"
    if (!said && (kind !== undefined || !/^[+(]/.test(phone.text))) continue
    take(phone.at, phone.end)
    found.push({
      type: kind === "fax" ? "fax" : "phone",
      value: phone.text,
      at: phone.at,
      evidence: said ? `'${before.slice(-30).trim()} ${phone.text}'` : `phone '${phone.text}'`
    })
  }
  for (const m of clause.matchAll(NUMBER_RE)) {
    const raw = m[0].trim()
    const at = m.index!, end = at + m[0].length
    const digits = raw.replace(/\D/g, "").length
    if (!free(at, end) || digits < 6) continue
    const before = clause.slice(0, at)
    const kind = idKinds.find(([, re]) => re.test(before))?.[0]
    // Phone and fax numbers are the valid ones read above.
    if (!kind || kind === "phone" || kind === "fax") continue
    // The letters an identity or passport number is written with ("12345678Z", "X1234567L", "QQ 12 34 56 C").
    const lettered = letteredKinds.has(kind)
    const prefix = lettered ? before.match(/(?<!\p{L})[A-Z]{1,2}\s?$/u)?.[0] ?? "" : ""
    // Six digits are a number only with its letters (a National Insurance number); else seven at least.
    if (digits < 7 && prefix === "") continue
    take(at, end)
    // A letter after the digits ("12345678Z"), a letter after a space when letters lead too
    // ("QQ 12 34 56 C", a British National Insurance number), or letters and digits after the
    // digits ("123456789RT0001", a Canadian business number and its program account).
    const suffix = lettered
      ? clause.slice(end).match(prefix !== "" ? /^\s?[A-Z](?![\p{L}\d])/u : /^(?:[A-Z]{2}\d{4}|[A-Z])(?![\p{L}\d])/u)?.[0] ?? ""
      : ""
    const value = `${prefix}${raw}${suffix}`
    const said = before.slice(0, before.length - prefix.length)
    const scheme = kind === "national_id" ? Vocabulary.idSchemeOf(said.slice(-40)) : undefined
    found.push({ type: kind, value, at, evidence: `'${said.slice(-30).trim()} ${value}'`, ...(scheme !== undefined ? { scheme } : {}) })
  }
  // Identifiers of letters and digits mixed ("BNCGLI91E47L219X", an Italian codice fiscale), after the words that name them.
  for (const m of clause.matchAll(MIXED_CODE_RE)) {
    const at = m.index!, end = at + m[0].length
    if (!free(at, end)) continue
    const before = clause.slice(0, at)
    const kind = idKinds.find(([, re]) => re.test(before))?.[0]
    if (kind === undefined || !letteredKinds.has(kind)) continue
    take(at, end)
    const scheme = kind === "national_id" ? Vocabulary.idSchemeOf(before.slice(-40)) : undefined
    found.push({ type: kind, value: m[0], at, evidence: `'${before.slice(-30).trim()} ${m[0]}'`, ...(scheme !== undefined ? { scheme } : {}) })
  }
  // A text about the holder in the third person opens with their name ("John Carter was born …").
  const subject = holderFirst ? clause.match(HOLDER_SUBJECT) : null
  if (subject) found.push({ type: "full_name", value: subject[1]!, at: subject.index!, evidence: `'${subject[0].trim()}'`, person: SELF })
  // Names the text introduces.
  for (const m of subject ? [] : clause.matchAll(/(?:\bmy\s+name\s+is|\bI\s+am|\bI'm|\bje\s+m['’]appelle|\bje\s+suis|\bmon\s+nom\s+est|\bich\s+hei(?:ß|ss)e|\bmein\s+name\s+ist|\bich\s+bin|\bme\s+llamo|\bmi\s+nombre\s+es|\bsoy|\bmi\s+chiamo|\bil\s+mio\s+nome\s+è|^\s*(?:applicant|full\s+name|name|client|holder)\s*:)/giu)) {
    const name = nameAfter(clause, m.index! + m[0].length)
    if (name) {
      found.push({ type: "full_name", value: name, at: m.index!, evidence: `'${m[0]} ${name}'`, person: SELF })
      break
    }
  }
  const relation = new RegExp(`(?:${spouseWords}|${childWords}|${otherWords})`, "giu")
  const someoneElse = new RegExp(`^(?:${otherWords})$`, "iu")
  for (const m of clause.matchAll(relation)) {
    const end = m.index! + m[0].length
    const name = nameOfRelation(clause, end, !someoneElse.test(m[0]))
    if (name) {
      // A given name alone ("our son Leo") is no full name: the family name is not said.
      found.push({ type: /\s/.test(name) ? "full_name" : "given_name", value: name, at: end, evidence: `'${clause.slice(m.index!, end)} ${name}'` })
      // "our son Leo", "my sister, Karin": the relation word is the person's relationship.
      const noun = Vocabulary.normalize(m[0]).trim().split(" ").pop() ?? ""
      const relationship = relationshipWords[noun]
      if (relationship) found.push({ type: "relationship", value: relationship, at: end, evidence: `'${m[0]} ${name}'` })
    }
  }
  // An organisation's representative, named before the words that say so.
  const rep = clause.match(REPRESENTATIVE_RE)
  if (rep) {
    const person: Person = { role: "other", relation: rep[3]!.toLowerCase() }
    const at = rep.index! + rep[0].indexOf(rep[2]!)
    found.push({ type: "full_name", value: rep[2]!, at, evidence: `'${rep[0].trim()}'`, person })
    if (rep[1]) found.push({ type: "occupation", value: rep[1].charAt(0).toUpperCase() + rep[1].slice(1), at, evidence: `'${rep[0].trim()}'`, person })
  }
  // The representative named after the words ("Ansprechpartnerin ist Frau Anna Huber,
  // Geschäftsführerin", "La persona de contacto es Marta Ruiz, gerente").
  const named = rep ? null : clause.match(REPRESENTATIVE_NAMED_RE)
  if (named) {
    const person: Person = { role: "other", relation: named[1]!.toLowerCase() }
    const name = withoutCourtesyTitle(named[2]!).name
    const at = named.index! + named[0].indexOf(named[2]!)
    found.push({ type: "full_name", value: name, at, evidence: `'${named[0].trim()}'`, person })
    if (named[3]) found.push({ type: "occupation", value: named[3].charAt(0).toUpperCase() + named[3].slice(1), at, evidence: `'${named[0].trim()}'`, person })
  }
  // Someone to contact, named after the word: another person, with their title when given.
  for (const m of clause.matchAll(CONTACT_NAMED)) {
    const person: Person = { role: "other", relation: "contact person" }
    const at = m.index! + m[0].indexOf(m[2]!)
    found.push({ type: "full_name", value: m[2]!, at, evidence: `'${m[0].trim()}'`, person })
    // A title in capitals ("CFO") is kept as written; a worded one takes a capital.
    const title = m[3] ?? m[1]
    if (title) found.push({ type: "occupation", value: title.charAt(0).toUpperCase() + title.slice(1), at, evidence: `'${m[0].trim()}'`, person })
  }
  // Occupation: "I am a civil engineer", "a pharmacist" right after a name, "je suis comptable", "ich bin Lehrerin".
  const job = [
    ...clause.matchAll(/\b(?:I\s+am|I'm|I\s+work\s+as|works?\s+as|is)\s+(?:a|an)\s+([a-z][a-z -]{2,40}?)(?=\s+(?:and|at|for|with|who|since|in|working|employed|based|living|from)\b|[,.;]|$)/gu),
    ...clause.matchAll(/\bwork(?:s|ed|ing)?\s+(?:at|for)\s+[^,;.]{2,60}?\s+as\s+(?:a|an)\s+([a-z][a-z -]{2,40}?)(?=\s+(?:and|since|in)\b|[,.;]|$)/gu),
    ...clause.matchAll(/\p{Ll},\s+(?:a|an)\s+([a-z][a-z -]{2,40}?)(?=\s+(?:and|at|for|with|who|since|in|working|employed|based|living|from)\b|[,.;]|$)/gu),
    ...clause.matchAll(/\b[Jj]e\s+suis\s+([a-zà-ÿ][a-zà-ÿ -]{2,40}?)(?=\s+(?:et|chez|à|au|depuis|dans)(?=\s|$)|[,.;]|$)/gu),
    ...clause.matchAll(/\b[Ii]ch\s+(?:bin|arbeite\s+als)\s+([\p{Lu}][\p{Ll}-]{2,40})(?=\s+(?:und|bei|seit|in)\b|[,.;]|$)/gu),
    ...clause.matchAll(/\b(?:[Ss]oy|[Tt]rabajo\s+como)\s+(?:una?\s+)?([a-záéíóúñ][a-záéíóúñ -]{2,40}?)(?=\s+(?:y|en|de|desde|para)\b|[,.;]|$)/gu),
    ...clause.matchAll(/\b(?:[Ss]ono|[Ll]avoro\s+come)\s+(?:un[oa]?\s+|un'\s*)?([a-zàèéìòù][a-zàèéìòù -]{2,40}?)(?=\s+(?:e|presso|a|da|in|di|dal)\b|[,.;]|$)/gu)
  ]
  for (const m of job) {
    const word = m[1]!.trim()
    if (OCCUPATION_STOP.test(word) || /\bcitizen|resident|national\b/i.test(word)) continue
    found.push({ type: "occupation", value: word.charAt(0).toUpperCase() + word.slice(1), at: m.index! + m[0].indexOf(m[1]!), evidence: `'${m[0].trim()}'` })
  }
  // Employer: "worked for X since", "employed by X", "chez X,", "bei der X".
  // Also after the occupation: "I work as a nurse at X", "I'm an engineer with X".
  const employer = clause.match(/\b(?:work(?:ed|s|ing)?\s+(?:for|at)|(?:work(?:ed|s|ing)?\s+as|I\s+am|I'm|[Hh]e\s+is|[Ss]he\s+is)\s+(?:a|an)\s+[a-z][a-z -]{2,40}?\s+(?:at|for|with)|employed\s+(?:by|at)|employer\s+is|chez|bei(?:\s+der)?|trabajo\s+(?:en|para)|lavoro\s+(?:presso|per)|presso)\s+([\p{Lu}][\p{L}\p{N}&'’. -]*?)(?=\s*,|\s+(?:since|depuis|seit|as|comme|als|in|à|en|dal|come)\b|\s*;|\.\s|\.$|$)/u)
  if (employer && /\s/.test(employer[1]!.trim())) {
    found.push({ type: "employer", value: employer[1]!.trim(), at: employer.index!, evidence: `'${employer[0].trim()}'`, person: SELF })
    // An address right after the employer's name is the employer's.
    const after = employer.index! + employer[0].length
    for (const f of [...found]) {
      if (f.at >= after && f.at <= after + 3 && ["address", "street_address", "city", "state", "postal_code", "unit", "country"].includes(f.type)) {
        found.splice(found.indexOf(f), 1, { ...f, person: { role: "employer" } })
      }
    }
  }
  for (const [re, value] of sexWords) {
    const m = clause.match(re)
    if (m) {
      found.push({ type: "sex", value, at: m.index!, evidence: `'${m[0]}'` })
      break
    }
  }
  for (const [re, value] of maritalWords) {
    const m = clause.match(re)
    if (m) {
      found.push({ type: "marital_status", value, at: m.index!, evidence: `'${m[0]}'`, person: SELF })
      break
    }
  }
  for (const [re, value] of filingWords) {
    const m = clause.match(re)
    if (m) found.push({ type: "filing_status", value, at: m.index!, evidence: `'${m[0]}'`, person: SELF })
  }
  for (const re of NATIONALITY_RES) {
    for (const m of clause.matchAll(re)) found.push({ type: "nationality", value: m[1]!.trim(), at: m.index!, evidence: `'${m[0]}'` })
  }
  for (const m of clause.matchAll(LANGUAGES_RE)) {
    if (Questions.languagesIn(m[1]!).size > 0) found.push({ type: "languages", value: m[1]!.trim(), at: m.index!, evidence: `'${m[0]}'` })
  }
  const passport = clause.match(NO_PASSPORT_RE)
  if (passport) found.push({ type: "passport_history", value: "Never", at: passport.index!, evidence: `'${passport[0]}'` })
  return found
}

/** Typed facts from prose and `key: value` lines of one source. */
export const fromProse = (text: string, source: string, confidence: number): ReadonlyArray<TypedFact> => {
  const lineFacts = fromFacts(fromLines(text, source, confidence).filter((f) => f.key.split(/\s+/).length <= 6))
  const prose = text.split(/\r?\n/).filter((line) => !/^[^:]{1,60}:\s*\S/.test(line) || line.length > 120).join("\n")
  const state = { children: [] as Array<string> }
  const typed: Array<TypedFact> = []
  // Each paragraph starts with the writer as its subject; one that never speaks in the first
  // person is about someone else: an organisation when it names one, else nobody known.
  const paragraphOwner = (at: number): Person => {
    const start = Math.max(0, prose.lastIndexOf("\n\n", at))
    const end = prose.indexOf("\n\n", at)
    const paragraph = prose.slice(start, end < 0 ? prose.length : end)
    if (SELF_WORDS.test(paragraph)) return SELF
    // An organisation named as the subject ("Acme LLC is a ...") owns its paragraph, even where
    // "her direct line" speaks of its contact person; else a paragraph that says "he" or "she"
    // describes the holder in the third person ("Applicant: John Carter ... He lives at").
    if (OrganizationProse.statements(paragraph).some((s) => s.type === "organization")) return { role: "employer" }
    if (THIRD_PERSON.test(paragraph)) return HOLDER_IN_THIRD_PERSON
    return /\b(?:LLC|Inc|Ltd|GmbH|AG|SA|SARL|S\.?à\s?r\.?l|Corp(?:oration)?|company|firm|Firma|soci[ée]t[ée]|entreprise)\b/u.test(paragraph) ? { role: "employer" } : { role: "official" }
  }
  let owner: Person = paragraphOwner(0)
  // Phone numbers written without their country code are of the country of the text's language;
  // when that is not clear, of the United States in English-looking text (as numeric dates are
  // read month first there), else of the first of the other languages' countries where valid.
  const language = Vocabulary.languageOf(prose)
  // Spanish names end with two family names.
  const spanish = language === "es"
  const country = Phones.countryOfLanguage(language)
  // Then the countries the text names ("Geelong, Australia"): an Australian mobile written
  // "0412 345 678" is no US number.
  const named = Phones.countriesNamedIn(prose)
  const phoneCountries: ReadonlyArray<Phones.CountryCode> = [
    ...new Set([...(country ? [country] : /\b(?:le|der|die|und|et|je|ich)\b/iu.test(prose) ? ["DE", "FR", "ES"] as const : ["US"] as const), ...named])
  ]
  for (const clause of clauses(prose)) {
    const markers = markersOf(clause.text, state)
    const relation = [...clause.text.matchAll(new RegExp(otherWords, "giu"))].map((m) => m[0]).join(" ")
    // A clause about "it" or "its" (no first person) with an employer number speaks of an organisation.
    const firstPerson = SELF_WORDS.test(clause.text)
    // The first clause of a paragraph about the holder in the third person may open with their name.
    const opensParagraph = clause.at === 0 || /\n\s*\n\s*$/.test(prose.slice(0, clause.at)) || /^\s*\n\s*\n/.test(clause.text)
    const holderFirst = opensParagraph && owner === HOLDER_IN_THIRD_PERSON
    for (const f of findIn(clause.text, phoneCountries, holderFirst)) {
      const found = f.person ?? ownerAt(markers, f.at, owner)
      const person: Person = f.type === "ein" && (found.role === "self" || found.role === "other") && !firstPerson ? { role: "employer" } : found
      // Nobody known: no fact (`official` fields are never filled, but the fact is not kept either).
      if (person.role === "official") continue
      if (person.role === "dependent" && person.dependent_index === undefined) continue
      const base = {
        role: person.role,
        ...(person.dependent_index !== undefined ? { dependent_index: person.dependent_index } : {}),
        // Who the person is, and what the clause says they are to the writer ("In an emergency,
        // contact my sister"): both say which of a form's other people they are.
        ...(person.role === "other" && `${person.relation ?? ""} ${relation}`.trim() !== ""
          ? { relation: [...new Set([person.relation, relation].filter((r) => r !== undefined && r !== ""))].join(" ") }
          : {}),
        source,
        confidence,
        evidence: `text: ${f.evidence}`
      }
      if (f.type === "full_name") {
        // "My name is Mr Oliver Pritchard": the title is said apart from the name.
        const titled = withoutCourtesyTitle(f.value)
        typed.push({ ...base, type: "full_name", value: titled.name })
        if (titled.prefix !== undefined) typed.push({ ...base, type: "name_prefix", value: titled.prefix })
        const parts = splitName(titled.name, spanish)
        if (parts?.family) {
          typed.push({ ...base, type: "given_name", value: parts.given })
          typed.push({ ...base, type: "family_name", value: parts.family })
          if (parts.middle) typed.push({ ...base, type: "middle_name", value: parts.middle })
        }
      } else {
        typed.push({ ...base, type: f.type, value: f.value, ...(f.scheme !== undefined ? { scheme: f.scheme } : {}) })
      }
    }
    // A clause without its own subject continues the last one, within a paragraph.
    if (markers.length > 0) owner = markers[markers.length - 1]!
    const next = clause.at + clause.text.length
    if (/\n\s*\n\s*$/.test(clause.text) || /^\s*\n\s*\n/.test(prose.slice(next))) owner = paragraphOwner(next + 2)
  }
  // What a paragraph about an organisation says of it (its name, business, head count, income).
  for (const statement of OrganizationProse.statements(prose)) {
    if (paragraphOwner(statement.at).role !== "employer") continue
    typed.push({ type: statement.type, value: statement.value, role: "employer", source, confidence, evidence: `text: ${statement.evidence}` })
  }
  // The same type for the same person twice with different values: the text is unclear; drop both.
  const clear = unambiguous(typed, (f) => `${f.type}|${f.role}|${f.dependent_index ?? ""}|${f.scheme ?? ""}`)
  return [...lineFacts, ...derive(asOrganizations(clear))]
}

export { fromKeyValue }
