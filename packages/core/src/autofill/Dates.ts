/**
 * Full dates (day, month and year all written) in values and in prose of English, German, French
 * and Spanish (and month names of Italian, Portuguese and Dutch), as ISO `YYYY-MM-DD`. Dates written with words are read by chrono-node (its strict
 * parsers of the four languages); this module adds only what no library does here:
 *
 * - numeric dates whose day and month could be swapped ("03/04/2001") follow the order the
 *   caller gives (MDY, DMY) and are left unread without one; two-digit years are 1941-2040;
 * - month-name dates the chrono locales miss ("3 März 1980" without the period, "Jänner 3 1980",
 *   "3 Dez 1990", a month name of another language than the text's);
 * - nothing is taken that a reader would have to complete: a date without its year ("March 14"),
 *   its day ("March 1988") or relative to today ("yesterday", "vor 3 Tagen") is no date. The
 *   reference date given to chrono is fixed, so the same text always gives the same dates.
 *
 * chrono-node is loaded on first use, so processes that never read a date do not pay for it.
 */
import { createRequire } from "node:module"
import type * as ChronoLocale from "chrono-node/en"
import * as Vocabulary from "../understand/Vocabulary.ts"

export type DateOrder = "MDY" | "DMY"

/** A date found in a text: its value and where it is written (`text.slice(at, end)`). */
export interface FoundDate {
  readonly value: string
  readonly at: number
  readonly end: number
  readonly text: string
}

type Chrono = ChronoLocale.Chrono

let parsers: ReadonlyArray<Chrono> | undefined
/** The strict parsers of the four languages; strict mode reads no casual expression ("tomorrow"). */
const chronos = (): ReadonlyArray<Chrono> => {
  if (parsers === undefined) {
    const require = createRequire(import.meta.url)
    parsers = ["en", "de", "fr", "es"].map((locale) => (require(`chrono-node/${locale}`) as typeof ChronoLocale).strict)
  }
  return parsers
}
/** A fixed "today": whatever chrono would take relative to it is refused below anyway. */
const reference = { instant: new Date(Date.UTC(2000, 0, 1)), timezone: 0 }

// Month names (normalised, no accents) of English, German, French and Spanish, with abbreviations,
// and of Italian, Portuguese and Dutch ("7 maggio 1991", "7 de maio de 1991", "7 mei 1991"),
// whose dates chrono's four parsers do not read.
const monthWords: ReadonlyArray<ReadonlyArray<string>> = [
  ["january", "jan", "januar", "janvier", "enero", "janner", "gennaio", "janeiro", "januari"],
  ["february", "feb", "februar", "fevrier", "febrero", "fev", "febbraio", "fevereiro", "februari"],
  ["march", "mar", "marz", "mars", "marzo", "marco", "maart"],
  ["april", "apr", "avril", "abril", "avr", "aprile"],
  ["may", "mai", "mayo", "maggio", "maio", "mei"],
  ["june", "jun", "juni", "juin", "junio", "giugno", "junho"],
  ["july", "jul", "juli", "juillet", "julio", "juil", "luglio", "julho"],
  ["august", "aug", "aout", "agosto", "augustus"],
  ["september", "sep", "sept", "septembre", "septiembre", "setiembre", "settembre", "setembro"],
  ["october", "oct", "oktober", "octobre", "octubre", "okt", "ottobre", "outubro"],
  ["november", "nov", "novembre", "noviembre", "novembro"],
  ["december", "dec", "dezember", "decembre", "diciembre", "dez", "dicembre", "dezembro"]
]
const monthOf = (word: string): number | undefined => {
  const w = Vocabulary.normalize(word).trim()
  const index = monthWords.findIndex((names) => names.includes(w))
  return index >= 0 ? index + 1 : undefined
}

const pad = (n: number) => String(n).padStart(2, "0")
const valid = (y: number, m: number, d: number) => {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1000 || y > 2999) return false
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}
const iso = (y: number, m: number, d: number) => (valid(y, m, d) ? `${y}-${pad(m)}-${pad(d)}` : undefined)
const fullYear = (y: string) => (y.length === 2 ? (Number(y) > 40 ? 1900 + Number(y) : 2000 + Number(y)) : Number(y))

const YEAR_FIRST = /^(\d{4})[-./](\d{1,2})[-./](\d{1,2})$/
/** An ISO 8601 date and time, as programs write dates ("1984-11-02T00:00:00Z"): the date as written. */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/
const NUMERIC = /^(\d{1,2})[-./ ](\d{1,2})[-./ ](\d{4}|\d{2})$/
/** A numeric date written in a longer text, with or without a year first. */
const NUMERIC_IN_TEXT = /(?<!\d)(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./](?:\d{4}|\d{2}))(?![\d])/

/**
 * A numeric date: year first, else day and month in the order a day above 12 shows, else in
 * `order`; undefined when they cannot be told apart.
 */
const numericDate = (t: string, order?: DateOrder): string | undefined => {
  let m = t.match(YEAR_FIRST)
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]))
  m = t.match(NUMERIC)
  if (!m) return undefined
  const a = Number(m[1]), b = Number(m[2]), y = fullYear(m[3]!)
  if (a > 12 && b <= 12) return iso(y, b, a)
  if (b > 12 && a <= 12) return iso(y, a, b)
  if (a === b) return iso(y, a, b)
  // Dots between the parts are written day first ("2.11.1984" in German, Russian, Norwegian…);
  // no country writes its dates month first with dots.
  if (order === "DMY" || /^\d{1,2}\.\d{1,2}\.\d{2,4}$/.test(t)) return iso(y, b, a)
  if (order === "MDY") return iso(y, a, b)
  return undefined
}

// Month-name dates in any of the four languages, day or month first: "Jänner 3 1980", "3 März 1980".
const MONTH_FIRST = /(?<![\p{L}\d])(\p{L}+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)/gu
const DAY_FIRST = /(?<![\p{L}\d])(\d{1,2})(?:\.|er|st|nd|rd|th)?\s+(?:de\s+)?(\p{L}+)\.?\s+(?:de\s+)?(\d{4})(?!\d)/gu

/** Words chrono takes into a date that are not part of it ("am 3. März", "le 5 mai"). */
const LEADING_WORDS = /^(?:\p{Ll}{1,3}\s+)+(?=\d)/u

interface Candidate {
  readonly at: number
  readonly end: number
  readonly value: string | undefined
}

const chronoCandidates = (text: string, order: DateOrder | undefined): Array<Candidate> => {
  const out: Array<Candidate> = []
  for (const chrono of chronos()) {
    for (const result of chrono.parse(text, reference, { forwardDate: false })) {
      const start = result.start
      if (!start.isCertain("year") || !start.isCertain("month") || !start.isCertain("day")) continue
      if ([...start.tags(), ...result.tags()].some((tag) => /relative|casual/i.test(tag))) continue
      const lead = result.text.match(LEADING_WORDS)?.[0].length ?? 0
      const at = result.index + lead
      const written = result.text.slice(lead)
      // A numeric date: the order of its day and month is the caller's to say, not the locale's.
      const numeric = written.match(NUMERIC_IN_TEXT)
      if (numeric) {
        const numAt = at + numeric.index!
        out.push({ at: numAt, end: numAt + numeric[0].length, value: numericDate(numeric[0], order) })
        continue
      }
      // The year must be written: nothing is completed from the reference date.
      const year = start.get("year")
      if (year === null || !written.includes(String(year))) continue
      const value = iso(year, start.get("month") ?? 0, start.get("day") ?? 0)
      if (value) out.push({ at, end: result.index + result.text.length, value })
    }
  }
  return out
}

const monthNameCandidates = (text: string): Array<Candidate> => {
  const out: Array<Candidate> = []
  for (const m of text.matchAll(MONTH_FIRST)) {
    const month = monthOf(m[1]!)
    if (month) out.push({ at: m.index!, end: m.index! + m[0].length, value: iso(Number(m[3]), month, Number(m[2])) })
  }
  for (const m of text.matchAll(DAY_FIRST)) {
    const month = monthOf(m[2]!)
    if (month) out.push({ at: m.index!, end: m.index! + m[0].length, value: iso(Number(m[3]), month, Number(m[1])) })
  }
  return out
}

/**
 * The full dates of a text, in order, with their spans. `order` says how to read numeric dates
 * whose day and month could be swapped (MDY for English text, DMY for German, French or Spanish);
 * without it they are left out. Where two readings of the same words disagree, neither is kept.
 */
export const findDates = (text: string, order?: DateOrder): ReadonlyArray<FoundDate> => {
  if (!/\d/.test(text)) return []
  const candidates = [...chronoCandidates(text, order), ...monthNameCandidates(text)]
    .sort((a, b) => (b.end - b.at) - (a.end - a.at) || a.at - b.at)
  const taken: Array<Candidate> = []
  const refused = new Set<Candidate>()
  for (const c of candidates) {
    const overlap = taken.filter((t) => c.at < t.end && c.end > t.at)
    if (overlap.length === 0) {
      taken.push(c)
      continue
    }
    // The same words read as another day: the text is unclear there.
    for (const t of overlap) if (t.at === c.at && t.end === c.end && t.value !== c.value) refused.add(t)
  }
  return taken
    .filter((c) => !refused.has(c) && c.value !== undefined)
    .sort((a, b) => a.at - b.at)
    .map((c) => ({ value: c.value!, at: c.at, end: c.end, text: text.slice(c.at, c.end) }))
}

/**
 * A value as `YYYY-MM-DD` when the whole value is one full date: ISO, numeric with separators
 * (the order from a day above 12, else `order`), or with a month name in English, German, French
 * or Spanish. Undefined when it is not a date, not a full one, or its day and month cannot be
 * told apart.
 */
export const parseDate = (text: string, order?: DateOrder): string | undefined => {
  const t = text.trim()
  const stamped = t.match(ISO_DATE_TIME)
  if (stamped) return numericDate(stamped[1]!, order)
  if (YEAR_FIRST.test(t) || NUMERIC.test(t)) return numericDate(t, order)
  const found = findDates(t, order)
  if (found.length !== 1) return undefined
  const date = found[0]!
  const rest = t.slice(0, date.at) + t.slice(date.end)
  return /^[\s.,;:]*$/.test(rest) ? date.value : undefined
}
