/**
 * Yes/no questions a form asks with check boxes, answered from facts the way a careful person
 * would: "Have you ever been married?" from a marital status, "Spouse U.S. citizen?" from the
 * spouse's citizenship, "Ever applied for a passport?" from a passport history, "Do you employ 25
 * or fewer employees?" from a head count, "Are you a nonprofit?" from a legal form, and "I speak: ☐ Deutsch ☐ Français" from the languages
 * a person speaks. A question is answered only
 * when a fact says so outright; otherwise its boxes stay empty.
 */
import type { FieldValue, FormField } from "../FormField.ts"
import { ownLabel } from "../understand/Semantic.ts"
import * as Vocabulary from "../understand/Vocabulary.ts"
import type { TypedFact } from "./Facts.ts"

export interface Answer {
  readonly value: FieldValue
  readonly fact: TypedFact
  readonly transform: string
}

type YesNo = "yes" | "no"

// Captions that answer yes or no.
const YES = / (?:yes|ja|oui|si) /
const NO = / (?:no|nein|non) /

/** The question a box answers: its label, else its PDF name, without a trailing "Yes"/"No". */
const questionOf = (field: FormField): string => Vocabulary.normalize(`${ownLabel(field.name)} . ${field.form_name.split(".").pop() ?? ""}`)

/** The answer a box gives when ticked: from its option captions, else from its own label's last word. */
interface Box {
  readonly answer: YesNo
  readonly value: FieldValue
}

const answerOfBox = (field: FormField): ReadonlyArray<Box> => {
  const options = field.options ?? []
  if (options.length > 1) {
    return options.flatMap((o): ReadonlyArray<Box> => {
      const caption = Vocabulary.normalize(`${o.label} ${o.value}`)
      return YES.test(caption) ? [{ answer: "yes" as const, value: o.value }] : NO.test(caption) ? [{ answer: "no" as const, value: o.value }] : []
    })
  }
  // "Ever married: Yes", "... organization? Select Yes.", else the box's on-state ("Y", "N").
  const last = Vocabulary.normalize(field.name).trim().split(" ").at(-1) ?? ""
  const onState = Vocabulary.normalize(options[0]?.value ?? "").trim()
  const says = (word: string): YesNo | undefined =>
    /^(?:yes|ja|oui|si)$/.test(word) ? "yes" : /^(?:no|nein|non)$/.test(word) ? "no" : undefined
  const answer = says(last) ?? (onState === "y" || onState === "j" ? "yes" : onState === "n" ? "no" : says(onState))
  return answer ? [{ answer, value: true }] : []
}

const citizenWords = / (?:citizen\w*|citizenship|staatsburger\w*|staatsangehorig\w*|citoyen\w*|nationalite|ciudadan\w*|nacionalidad) /
const usWords = / (?:u s|us|united states|american|amerikanisch\w*|americain\w*|estadounidense) /
const everMarriedWords = / (?:ever (?:been )?married|have you (?:ever )?been married|jemals verheiratet|deja ete marie\w*|alguna vez casad\w*) /
const passportHistoryWords = / (?:ever (?:applied|been issued|had|held)|previously (?:applied|issued|held)) /
const passportWords = / (?:passports?|reisepass\w*|passeports?|pasaportes?) /

const nonprofitWords = / (?:non ?profit|not for profit|tax exempt|gemeinnutzig\w*|sans but lucratif|sin fines de lucro) /
const employeeWords = / (?:employees?|employ|staff|workers|mitarbeiter\w*|beschaftigte\w*|salaries|employes|empleados|trabajadores) /

/** A head-count threshold a question asks about ("25 or fewer", "more than 50", "at least 10"). */
const thresholdOf = (question: string): { readonly holds: (n: number) => boolean } | undefined => {
  const m = question.match(/ (\d+) or (?:fewer|less) | (?:fewer|less) than (\d+) | (\d+) or more | (?:more than|over) (\d+) | at least (\d+) /)
  if (!m) return undefined
  const [, orFewer, fewerThan, orMore, moreThan, atLeast] = m
  if (orFewer) return { holds: (n) => n <= Number(orFewer) }
  if (fewerThan) return { holds: (n) => n < Number(fewerThan) }
  if (orMore) return { holds: (n) => n >= Number(orMore) }
  if (moreThan) return { holds: (n) => n > Number(moreThan) }
  return { holds: (n) => n >= Number(atLeast) }
}

/** What a fact says, yes or no, to a question, or undefined when it says nothing to it. */
const answerFrom = (question: string, fact: TypedFact): YesNo | undefined => {
  const value = Vocabulary.normalize(fact.value)
  if (citizenWords.test(question) && usWords.test(question) && fact.type === "nationality") {
    if (usWords.test(value) && !/ (?:non|not) /.test(value)) return "yes"
    return undefined
  }
  if (everMarriedWords.test(question) && fact.type === "marital_status") {
    if (/ (?:married|divorced|widowed|separated|verheiratet|geschieden|verwitwet|marie\w*|divorce\w*|veu\w*|casad\w*|divorciad\w*|viud\w*) /.test(value)) return "yes"
    if (/ (?:single|never married|ledig|celibataire|solter\w*) /.test(value)) return "no"
    return undefined
  }
  if (fact.type === "employee_count" && employeeWords.test(question)) {
    const count = Number(fact.value.replace(/[^\d]/g, ""))
    const threshold = thresholdOf(question)
    if (!threshold || !Number.isFinite(count) || fact.value.replace(/[^\d]/g, "") === "") return undefined
    return threshold.holds(count) ? "yes" : "no"
  }
  // "Are you a nonprofit organized as tax exempt ...?": from the organisation's legal form.
  if (nonprofitWords.test(question) && fact.type === "legal_form") {
    if (nonprofitWords.test(value) || / (?:charit\w*|501 c) /.test(value)) return "yes"
    if (/ for profit /.test(value) && !/ not for profit /.test(value)) return "no"
    return undefined
  }
  if (passportHistoryWords.test(question) && passportWords.test(question) && fact.type === "passport_history") {
    return / (?:never|nie|jamais|nunca|no|none) /.test(value) ? "no" : undefined
  }
  return undefined
}

/** Whose question a box asks: the field's role, which facts must share. */
const sameRole = (field: FormField, fact: TypedFact) =>
  field.semantic?.role === fact.role && (fact.role !== "dependent" || field.semantic?.dependent_index === fact.dependent_index)

/** The answer to a yes/no box or group, or undefined. */
export const answerYesNo = (
  field: FormField,
  facts: ReadonlyArray<TypedFact>,
  owns: (field: FormField, fact: TypedFact) => boolean = sameRole
): Answer | undefined => {
  if (field.form_type !== "CheckBox" && field.form_type !== "RadioButton") return undefined
  const boxes = answerOfBox(field)
  if (boxes.length === 0) return undefined
  // The headings say what is applied for when the box does not ("Ever applied or issued?" on a
  // passport application).
  const asked = questionOf(field)
  const question = passportWords.test(asked) ? asked : `${asked}${Vocabulary.normalize((field.semantic?.section ?? []).join(" . "))}`
  for (const fact of facts) {
    if (!owns(field, fact)) continue
    const answer = answerFrom(question, fact)
    if (answer === undefined) continue
    const box = boxes.find((b) => b.answer === answer)
    // The fact answers, but this box is the other answer's: it stays off.
    if (!box) return undefined
    return { value: box.value, fact, transform: `answers "${answer}"` }
  }
  return undefined
}

// Languages by their names in the form languages Formwright reads, from ICU's own tables.
const LANGUAGE_CODES = ["en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "ar", "zh", "ja", "ko", "tr", "el", "sv", "da", "no", "fi", "cs", "hu", "ro", "he", "hi", "la", "eo", "lb", "uk"]
// Built on first use, not when the server loads autofill.
let languageNames: ReadonlyMap<string, string> | undefined
const namesOfLanguages = (): ReadonlyMap<string, string> =>
  languageNames ??= new Map(
    ["en", "de", "fr", "es"].flatMap((display) => {
      const names = new Intl.DisplayNames([display], { type: "language" })
      return LANGUAGE_CODES.flatMap((code) => {
        const name = names.of(code)
        return name ? [[Vocabulary.normalize(name).trim(), code] as const] : []
      })
    }).concat(LANGUAGE_CODES.flatMap((code) => {
      const own = new Intl.DisplayNames([code], { type: "language" }).of(code)
      return own ? [[Vocabulary.normalize(own).trim(), code] as const] : []
    }))
  )

/** The language a caption names ("Deutsch", "allemand", "German" → `de`), or undefined. */
export const languageOf = (caption: string): string | undefined => namesOfLanguages().get(Vocabulary.normalize(caption).trim())

/** The languages a list names ("français, allemand et anglais" → fr, de, en). */
export const languagesIn = (list: string): ReadonlySet<string> =>
  new Set(list.split(/\s*(?:,|;|\/|\band\b|\bund\b|\bet\b|\by\b)\s*/iu).flatMap((part) => languageOf(part) ?? []))

const speaksWords = / (?:i speak|languages? spoken|spoken languages?|languages?|sprachen|sprachkenntnisse|ich spreche|langues?(?: parlees)?|je parle|idiomas?|hablo|lenguas) /

/** A box captioned with a language under a question about languages, ticked when the person speaks it. */
export const answerLanguage = (field: FormField, facts: ReadonlyArray<TypedFact>): Answer | undefined => {
  if (field.form_type !== "CheckBox" || (field.options?.length ?? 0) > 1) return undefined
  const label = ownLabel(field.name)
  const caption = label.includes(":") ? label.slice(label.lastIndexOf(":") + 1) : label
  const code = languageOf(caption)
  if (code === undefined) return undefined
  const context = Vocabulary.normalize(`${label} ${(field.semantic?.section ?? []).join(" ")} ${field.form_name}`)
  if (!speaksWords.test(context)) return undefined
  const fact = facts.find((f) => f.type === "languages" && sameRole(field, f))
  if (!fact || !languagesIn(fact.value).has(code)) return undefined
  return { value: true, fact, transform: `speaks ${code}` }
}
