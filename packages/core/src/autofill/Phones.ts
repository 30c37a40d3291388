/**
 * Phone numbers, read by libphonenumber-js (its `min` metadata: each country's number lengths and
 * leading digits, enough to tell a phone number from another string of digits). A number written
 * without its country code is read as a number of the default country the caller infers from the
 * rest of what it knows (`countryOfLanguage`, `countryCode`); a number that is not valid there is
 * no phone number.
 *
 * libphonenumber-js is loaded on first use, so processes that never read a phone do not pay for it.
 */
import { createRequire } from "node:module"
import type * as PhoneLib from "libphonenumber-js/min"
import * as Vocabulary from "../understand/Vocabulary.ts"

export type CountryCode = PhoneLib.CountryCode

export interface Phone {
  /** The national significant number, digits only ("6305550137", "639984217"). */
  readonly national: string
  /** E.164 ("+16305550137"). */
  readonly e164: string
  /** The country the number belongs to, when its country code tells ("US", "FR"). */
  readonly country?: CountryCode
  /** As written in its own country when that is the default country, else internationally. */
  readonly formatted: string
}

/** A phone number found in a text, with where it is written (`text.slice(at, end)`). */
export interface FoundPhone extends Phone {
  readonly at: number
  readonly end: number
  readonly text: string
}

let lib: typeof PhoneLib | undefined
const phoneLib = (): typeof PhoneLib => (lib ??= createRequire(import.meta.url)("libphonenumber-js/min") as typeof PhoneLib)

const describe = (number: PhoneLib.PhoneNumber, defaultCountry: CountryCode | undefined): Phone => ({
  national: number.nationalNumber,
  e164: number.number,
  ...(number.country !== undefined ? { country: number.country } : {}),
  formatted: number.country !== undefined && number.country === defaultCountry ? number.formatNational() : number.formatInternational()
})

/**
 * A value that is one phone number, valid in its country: written with its country code, or
 * without it as a number of `defaultCountry`. Undefined otherwise (not a number, a number of
 * another length or with other leading digits than the country's, several numbers).
 */
export const parsePhone = (text: string, defaultCountry?: CountryCode): Phone | undefined => {
  const t = text.trim()
  if (!/\d/.test(t)) return undefined
  const number = phoneLib().parsePhoneNumberFromString(t, { ...(defaultCountry !== undefined ? { defaultCountry } : {}), extract: false })
  return number?.isValid() ? describe(number, defaultCountry) : undefined
}

/**
 * The countries a number written with its country code may be of, valid or not: "+44 7700
 * 900123" (a number kept for fiction) is of Great Britain, Guernsey, the Isle of Man or Jersey.
 * Empty for a number without its country code.
 */
export const countriesOf = (text: string): ReadonlyArray<CountryCode> => {
  const t = text.trim().replace(/^00(?=\d)/, "+")
  if (!t.startsWith("+")) return []
  return phoneLib().parsePhoneNumberFromString(t)?.getPossibleCountries() ?? []
}

/**
 * The countries a text names by their English, German, French, Spanish, Italian, Portuguese or
 * Dutch name ("Geelong, Australia", "en France"), in the order it names them.
 */
export const countriesNamedIn = (text: string): ReadonlyArray<CountryCode> => {
  const found = new Set<CountryCode>()
  // Country names are one to three capitalised words ("Australia", "United Kingdom", "New Zealand").
  for (const m of text.matchAll(/(?<![\p{L}])\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+){0,2}/gu)) {
    const words = m[0].split(/\s+/)
    // The longest run of words that names a country, from the first word.
    for (let n = words.length; n > 0; n--) {
      const code = countryName(words.slice(0, n).join(" "))
      if (code !== undefined) {
        found.add(code)
        break
      }
    }
  }
  return [...found]
}

/** The valid phone numbers written in a text, in order, with their spans. */
export const findPhones = (text: string, defaultCountry?: CountryCode): ReadonlyArray<FoundPhone> => {
  if (!/\d{2}/.test(text)) return []
  return phoneLib()
    .findPhoneNumbersInText(text, defaultCountry !== undefined ? { defaultCountry } : {})
    .filter((found) => found.number.isValid())
    .map((found) => ({
      ...describe(found.number, defaultCountry),
      at: found.startsAt,
      end: found.endsAt,
      text: text.slice(found.startsAt, found.endsAt)
    }))
}

const languageCountries: Readonly<Record<string, CountryCode>> = { en: "US", de: "DE", fr: "FR", es: "ES", it: "IT", pt: "PT", nl: "NL" }
/**
 * The country whose numbers a text or profile in a language most likely holds: the United States
 * for English (as dates in English are read month first), Germany, France, Spain, Italy,
 * Portugal, the Netherlands.
 */
export const countryOfLanguage = (language: string | undefined): CountryCode | undefined =>
  language === undefined ? undefined : languageCountries[language]

let names: Map<string, CountryCode> | undefined
/**
 * The country a value names, by its code ("FR") or its name in English, German, French, Spanish,
 * Italian, Portuguese or Dutch ("France", "Deutschland", "États-Unis", "Italia"); undefined otherwise.
 */
export const countryCode = (value: string): CountryCode | undefined => {
  const t = value.trim()
  if (/^[A-Z]{2}$/.test(t) && phoneLib().isSupportedCountry(t)) return t
  return countryName(t)
}

/** The country a name names, in any of the languages of `countryCode`. */
const countryName = (name: string): CountryCode | undefined => {
  const { getCountries } = phoneLib()
  if (names === undefined) {
    names = new Map()
    for (const language of ["en", "de", "fr", "es", "it", "pt", "nl"]) {
      const display = new Intl.DisplayNames([language], { type: "region", fallback: "none" })
      for (const code of getCountries()) {
        const shown = display.of(code)
        if (shown !== undefined) names.set(Vocabulary.normalize(shown).trim(), code)
      }
    }
  }
  return names.get(Vocabulary.normalize(name).trim())
}
