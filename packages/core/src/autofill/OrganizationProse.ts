/**
 * What a paragraph about an organisation says of it: its name, kind of business, industry code,
 * founding date, head count and income ("Acme Tools LLC is a family-owned tool maker founded on
 * May 3, 1998. It has 40 employees and a gross annual income of $2,100,000."). English, German,
 * French and Spanish phrasings. `Prose` decides whose paragraph it is and keeps these facts only
 * for an organisation's.
 *
 * Written by hand: no library reads these statements, and each is one pattern of a few words
 * around a number or a name.
 */
import type { SemanticType } from "../understand/Vocabulary.ts"
import { parseDate, unambiguous } from "./Facts.ts"

export interface OrganizationStatement {
  readonly type: SemanticType
  readonly value: string
  /** Where in the text the statement starts. */
  readonly at: number
  readonly evidence: string
}

// Legal forms that end an organisation's name.
const LEGAL_FORM =
  "(?:L\\.?L\\.?C\\.?|L\\.?L\\.?P\\.?|Inc\\.?|Incorporated|Ltd\\.?|Limited|Corp\\.?|Corporation|PLC|LP|GmbH(?:\\s?&\\s?Co\\.?\\s?KG)?|AG|KG|OHG|UG|e\\.\\s?V\\.|SAS|SARL|S\\.?A\\.?R\\.?L\\.?|S\\.à\\s?r\\.l\\.|SA|S\\.A\\.|S\\.L\\.|SL|S\\.?C\\.?A\\.?|BV|NV)"
// A name: capitalised words (or "&", "and", "of") before a legal form.
const ORGANIZATION_NAME = `[\\p{Lu}][\\p{L}\\d'’.-]*(?:\\s+(?:[\\p{Lu}\\d][\\p{L}\\d'’.-]*|&|and|of|und|et|y|de)){0,6},?\\s+${LEGAL_FORM}(?![\\p{L}])`
// The name as the subject of its paragraph's first sentence ("Acme LLC is", "Die Muster GmbH ist",
// "Acme Inc. (operating as Acme Tools) is"), or said by its people ("We are Acme LLC").
const SUBJECT_NAME = new RegExp(
  `(?:^|[.!?]\\s+|\\n)(?:(?:The|Die|Der|Das|La|Le|L'|El)\\s+)?(${ORGANIZATION_NAME})(?:\\s*\\([^()]{1,80}\\))?\\s+(?:is|was|has|ist|war|hat|est|a|es|fue|tiene)\\b|\\b(?:We\\s+are|Wir\\s+sind|Nous\\s+sommes|Somos)\\s+(${ORGANIZATION_NAME})`,
  "gu"
)

const AMOUNT = "(?:[$€£]\\s?)?\\d{1,3}(?:[,.\\s’']\\d{3})+(?:[.,]\\d{2})?(?:\\s?(?:[$€£]|USD|EUR|GBP|dollars|euros?))?|(?:[$€£]\\s?)\\d+(?:[.,]\\d{2})?"

const patterns: ReadonlyArray<[SemanticType, RegExp]> = [
  [
    "industry_code",
    /\b(?:NAICS|SIC|NACE|NAF|APE|CNAE|WZ)(?:\s+(?:code|Code|Kode|Schlüssel))?(?:\s+(?:is|ist|est|es|of|:|=))?\s+(\d{2,6}(?:\.\d{1,2})?[A-Z]?)(?![\p{L}\d])/gu
  ],
  [
    "employee_count",
    /\b(\d{1,3}(?:[,.\s]\d{3})*|\d+)\s+(?:(?:full[- ]time|part[- ]time|permanent|fest\s?angestellte)\s+)?(?:employees|staff members|members of staff|workers|Mitarbeiter(?:innen)?|Mitarbeitende|Beschäftigte|Angestellte|salariés|employés|empleados|trabajadores)\b/giu
  ],
  // "We employ 48 people", "It employs 12 staff", "beschäftigt 30 Personen", "emploie 25 personnes".
  [
    "employee_count",
    /\b(?:employ(?:s|ed)?|beschäftig(?:t|en)|emploie|emploient|emplea|emplean)\s+(\d{1,3}(?:[,.\s]\d{3})*|\d+)\s+(?:people|persons|staff|Personen|personnes|personas)\b/giu
  ],
  [
    "gross_income",
    new RegExp(`\\b(?:gross\\s+(?:annual\\s+)?(?:income|revenue|receipts|sales)|annual\\s+(?:gross\\s+)?(?:revenue|turnover)|(?:Jahres)?umsatz|Bruttoeinnahmen|chiffre\\s+d['’]affaires(?:\\s+annuel)?|revenu\\s+brut|ingresos\\s+brutos|facturaci[óo]n\\s+anual)(?:\\s+(?:of|is|was|von|de|est|es|:|beträgt))*\\s+(${AMOUNT})`, "giu")
  ],
  [
    "net_income",
    new RegExp(`\\b(?:net\\s+(?:annual\\s+)?(?:income|profit|earnings)|(?:Jahres)?überschuss|Reingewinn|Nettoeinkommen|r[ée]sultat\\s+net|b[ée]n[ée]fice\\s+net|revenu\\s+net|ingresos\\s+netos|beneficio\\s+neto)(?:\\s+(?:of|is|was|von|de|est|es|:|beträgt))*\\s+(${AMOUNT})`, "giu")
  ]
]

// "established on April 18, 2011", "gegründet am 18.04.2011", "fondée le 18 avril 2011".
const FOUNDED =
  /\b(?:established|founded|incorporated|formed|organized|gegründet|errichtet|fond[ée]e?|cr[ée]{2}e?|constitu[ée]e?|constituida|fundada|creada)\s+(?:on|in|am|le|el|en|the)?\s*((?:[^;.]|\.(?=\d|\s+\p{L})){6,30}?\d{4})\b/giu

// "is a for-profit civil engineering firm", "ist ein Ingenieurbüro": the kind of business, English only.
const KIND_OF_BUSINESS =
  /\b(?:is|was)\s+an?\s+(?:(?:for-profit|not-for-profit|non-?profit|privately[- ]held|private|public|small|family[- ]owned|independent|(?:[A-Z][a-z]+)-based)\s+)*([a-z][a-z-]+(?:\s+[a-z][a-z-]+){0,3})\s+(?:firm|company|business|practice|agency|consultancy|contractor|studio|shop|manufacturer|provider|partnership)\b/gu

const PROFIT_STATUS =
  /\b(?:is|was|ist|est|es)\s+(?:an?|ein(?:e)?|une?|una?)\s+(for[- ]profit|not[- ]for[- ]profit|non[- ]?profit|gemeinnützige[rs]?|(?:organisme|association)\s+sans\s+but\s+lucratif|sin\s+fines\s+de\s+lucro)\b/giu

/** The organisation's statements in `text`, in order. A statement found twice with two values is dropped. */
export const statements = (text: string): ReadonlyArray<OrganizationStatement> => {
  const out: Array<OrganizationStatement> = []
  for (const m of text.matchAll(SUBJECT_NAME)) {
    const name = (m[1] ?? m[2])!
    out.push({ type: "organization", value: name.trim(), at: m.index! + m[0].indexOf(name), evidence: `'${m[0].trim()}'` })
  }
  for (const [type, re] of patterns) {
    for (const m of text.matchAll(re)) out.push({ type, value: m[1]!.trim(), at: m.index!, evidence: `'${m[0].trim()}'` })
  }
  for (const m of text.matchAll(FOUNDED)) {
    // Only a whole date: "founded in 2011" says no day.
    const order = /\b(?:am|le|el)\s*$/u.test(m[0].slice(0, m[0].length - m[1]!.length)) ? "DMY" : undefined
    const date = parseDate(m[1]!.trim(), order)
    if (date) out.push({ type: "established_date", value: date, at: m.index!, evidence: `'${m[0].trim()}'` })
  }
  // "is a for-profit civil engineering firm", "ist ein gemeinnütziger Verein": whether it works for profit.
  for (const m of text.matchAll(PROFIT_STATUS)) {
    const nonprofit = !/^for[- ]profit$/iu.test(m[1]!)
    out.push({ type: "legal_form", value: nonprofit ? "Nonprofit" : "For-profit", at: m.index!, evidence: `'${m[0].trim()}'` })
  }
  for (const m of text.matchAll(KIND_OF_BUSINESS)) {
    const kind = m[1]!.trim()
    // "is a company", "is a small company": no kind named.
    if (/^(?:limited|liability|holding|parent|large|new|good|great)$/u.test(kind)) continue
    out.push({ type: "business_type", value: kind.charAt(0).toUpperCase() + kind.slice(1), at: m.index!, evidence: `'${m[0].trim()}'` })
  }
  return unambiguous(out.sort((a, b) => a.at - b.at), (s) => s.type)
}
