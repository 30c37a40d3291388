/**
 * The autofill pipeline of a session, pure: a form's fields and the session's sources (the
 * `text_info`, the profiles, the documents' facts, and the sources that could not be read) in;
 * the values to write out, each with its evidence, and an account of the rest: why each other
 * field stays empty, what each source gave, and where sources disagree. Reading the sources and
 * writing the PDF are the caller's (`Sessions`); `report` turns a plan and what the filler wrote
 * into the session's result.
 */
import type { FieldValue, FormField } from "../FormField.ts"
import type { Conflict, Evidence, FilledField, SourceReport, UnfilledField, UnfilledReason } from "../Session.ts"
import * as Vocabulary from "../understand/Vocabulary.ts"
import { type Fact, fromLines, fromRecord, sourceConfidence } from "./Fact.ts"
import * as Facts from "./Facts.ts"
import * as Format from "./Format.ts"
import * as Matcher from "./Matcher.ts"
import * as Prose from "./Prose.ts"
import * as Resolve from "./Resolve.ts"

/** A source of a session after `text_info`, in priority order, named as `FilledField.source` names it. */
export type Source =
  /** A profile's `name` and `data` (`source`: `profile:<id>`). */
  | { readonly _tag: "Profile"; readonly source: string; readonly name: string; readonly data: Readonly<Record<string, unknown>> }
  /** The facts read from a document (`file:<id>`, `url:<url>`), `Documents.fromPdf` / `fromText`. */
  | { readonly _tag: "Document"; readonly source: string; readonly facts: ReadonlyArray<Fact> }
  /** A source that could not be read, and why (safe to show the client). */
  | { readonly _tag: "Unreadable"; readonly source: string; readonly reason: string }

export interface Input {
  readonly fields: ReadonlyArray<FormField>
  readonly textInfo?: string | undefined
  /** Profiles and documents in priority order: each profile followed by its files, then the session's files, then its URLs. */
  readonly sources?: ReadonlyArray<Source> | undefined
}

/** A value chosen for a field. */
export interface Match {
  readonly field: FormField
  readonly value: FieldValue
  readonly source: string
  /** The source's trust times the match's certainty, in [0, 1]. */
  readonly confidence: number
  readonly evidence: Evidence
}

export interface Plan {
  readonly fields: ReadonlyArray<FormField>
  /** In the order they are to be written: matches by meaning, then by name. */
  readonly matches: ReadonlyArray<Match>
  /** Why each field without a match stays empty, by field id. */
  readonly reasons: ReadonlyMap<string, { readonly reason: UnfilledReason; readonly detail: string }>
  readonly sources: ReadonlyArray<SourceReport>
  /** By field id, for the fields matched by meaning whose fact other sources contradict. */
  readonly conflicts: ReadonlyMap<string, Conflict>
}

/** What the filler did with a plan's matches (`FormFiller.FillResult`). */
export interface Written {
  readonly applied: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<{ readonly formName: string; readonly reason: string }>
}

/** The result a completed session records. */
export interface Report {
  readonly filled_fields: ReadonlyArray<FilledField>
  readonly unfilled_fields: ReadonlyArray<UnfilledField>
  readonly sources: ReadonlyArray<SourceReport>
  readonly conflicts: ReadonlyArray<Conflict>
}

/**
 * How certain a match is, before the source's own trust: a fact a key names is the field's
 * meaning for sure; one read from prose, or split or derived from another value (a name's
 * parts, an address's, an initial), may be read wrong; a match by name alone says nothing of
 * meaning.
 */
export const certainty = { meaning: 1, prose: 0.9, derived: 0.95, name: 0.8 } as const

const clamp = (n: number) => Math.min(1, Math.max(0, n))

// Shapes of `TypedFact.evidence`: `'key' = 'value'` with an optional `(how)`, `text: ...` for
// prose, `how from <evidence> + <evidence>` for a derived value.
const keyValueEvidence = /^'(.*?)' = '.*' \(([^()]*)\)$/s
const derivedEvidence = /^([^'][^']*?) from /

/** The fact as its source named it: its key (or keys, for a derived value), or the words of the text. */
export const factLabel = (fact: Facts.TypedFact): string => {
  const own = "key" in fact && typeof fact.key === "string" ? fact.key : undefined
  if (own !== undefined && own !== "") return own
  const keys = [...fact.evidence.matchAll(/'(.*?)' = '/gs)].map((m) => m[1]!)
  if (keys.length > 0) return [...new Set(keys)].join(" + ")
  const text = fact.evidence.indexOf("text: ")
  if (text >= 0) {
    const words = fact.evidence.slice(text + "text: ".length).trim()
    return /^'[^']*'$/.test(words) ? words.slice(1, -1) : words
  }
  return fact.evidence
}

const isProse = (fact: Facts.TypedFact) => fact.evidence.startsWith("text: ") || / from text: /.test(fact.evidence)

/** How the fact's value was made from what the source said (a split, a derivation), if it was. */
const madeBy = (fact: Facts.TypedFact): string | undefined => {
  const keyed = fact.evidence.match(keyValueEvidence)
  // "date": the value was only parsed; the field's transform says how it is written.
  if (keyed) return keyed[2] === "date" ? undefined : keyed[2]
  return fact.evidence.match(derivedEvidence)?.[1]
}

const evidenceOf = (resolved: Resolve.Resolved): { evidence: Evidence; certainty: number } => {
  const made = madeBy(resolved.fact)
  const steps = [made, resolved.transform === "as given" ? undefined : resolved.transform].filter((s): s is string => s !== undefined && s !== "")
  return {
    evidence: {
      fact: factLabel(resolved.fact),
      type: resolved.fact.type,
      role: resolved.fact.role,
      transform: steps.length > 0 ? steps.join(", ") : "as given"
    },
    certainty: (isProse(resolved.fact) ? certainty.prose : certainty.meaning) * (made !== undefined ? certainty.derived : 1)
  }
}

// Values compared for a conflict: numbers by their digits, text by its words.
const digitTypes = new Set(["ssn", "itin", "ein", "tax_id", "national_id", "passport_number", "driver_license", "iban", "phone", "fax", "postal_code", "house_number", "age"])
const comparable = (fact: Facts.TypedFact): string => {
  if (digitTypes.has(fact.type)) {
    const digits = fact.value.replace(/\D/g, "")
    if (digits !== "") return fact.type === "phone" || fact.type === "fax" ? digits.replace(/^1(?=\d{10}$)/, "") : digits
  }
  return Vocabulary.normalize(fact.value).trim()
}

const samePerson = (a: Facts.TypedFact, b: Facts.TypedFact) =>
  a.type === b.type && a.role === b.role && a.dependent_index === b.dependent_index && a.scheme === b.scheme &&
  // Two other people (an emergency contact, a parent) are the same one only when named alike.
  (a.role !== "other" || Vocabulary.normalize(a.relation ?? "") === Vocabulary.normalize(b.relation ?? ""))

const conflictOf = (resolved: Resolve.Resolved, typed: ReadonlyArray<Facts.TypedFact>): Conflict | undefined => {
  const chosen = resolved.fact
  const chosenValue = comparable(chosen)
  const others: Array<{ source: string; value: string }> = []
  const seen = new Set<string>()
  for (const fact of typed) {
    if (fact.source === chosen.source || !samePerson(fact, chosen)) continue
    const value = comparable(fact)
    if (value === chosenValue || seen.has(`${fact.source}\u0000${value}`)) continue
    seen.add(`${fact.source}\u0000${value}`)
    others.push({ source: fact.source, value: fact.value })
  }
  return others.length === 0
    ? undefined
    : { field_id: resolved.field.id, form_name: resolved.field.form_name, chosen: { source: chosen.source, value: chosen.value }, others }
}

const signatureTypes = new Set(["signature", "signature_date", "signature_place"])
const words = (type: string) => type.replace(/_/g, " ")
const people: Record<string, string> = { self: "the holder", spouse: "the spouse", other: "the other person", employer: "the employer" }
const whose = (field: FormField) => {
  const semantic = field.semantic!
  return semantic.role === "dependent" ? `dependent ${semantic.dependent_index ?? ""}`.trim() : people[semantic.role] ?? semantic.role
}

/**
 * Why a field nothing was matched to stays empty. Resolution does not say why it passed a
 * field over, so this asks the same questions in the same order: the field's own kind, then its
 * meaning, then the facts of that meaning and person.
 */
const reasonFor = (
  field: FormField,
  typed: ReadonlyArray<Facts.TypedFact>,
  doubts: Resolve.FormDoubts
): { reason: UnfilledReason; detail: string } => {
  const semantic = field.semantic
  if (field.read_only) return { reason: "read_only", detail: "The field is read-only." }
  if (field.form_type === "Signature" || (semantic !== undefined && signatureTypes.has(semantic.type))) {
    return { reason: "signature", detail: "Signatures, and the date and place of signing, are left to the person who signs." }
  }
  if (semantic?.role === "preparer" || semantic?.role === "official") {
    return { reason: "excluded_role", detail: `A field for the ${semantic.role === "preparer" ? "preparer" : "official use"} is never filled.` }
  }
  if (semantic === undefined || semantic.type === "unknown") {
    return { reason: "uncertain_meaning", detail: "What the field asks for is not known, and no source has a value under its name." }
  }
  if (semantic.type === "date") return { reason: "uncertain_meaning", detail: "The field asks for a date without saying which one." }
  const doubt = Resolve.uncertainty(field, doubts)
  if (doubt !== undefined) {
    return { reason: "uncertain_meaning", detail: `The field's label leaves in doubt whether it asks for the ${words(semantic.type)} of ${whose(field)}: ${doubt}.` }
  }
  const wanted = (type: string) => type === semantic.type || (semantic.type === "street_address" && type === "address")
  const candidates = typed.filter((f) =>
    wanted(f.type) && f.role === semantic.role && (semantic.role !== "dependent" || f.dependent_index === semantic.dependent_index)
  )
  if (candidates.length === 0) return { reason: "no_fact", detail: `No source gave the ${words(semantic.type)} of ${whose(field)}.` }
  if (candidates.every((f) => Format.valueFor(field, f) === undefined)) {
    return { reason: "no_fitting_value", detail: `The ${words(semantic.type)} the sources gave cannot be written in this field as it asks (format, length or options).` }
  }
  return {
    reason: "uncertain_meaning",
    detail: `Which ${words(semantic.type)} the field asks for is in doubt (a table row, one of several boxes of the same kind, or another person).`
  }
}

/** The statements of `text_info`'s prose (a name with its parts is one statement). */
const proseStatements = (typed: ReadonlyArray<Facts.TypedFact>) =>
  new Set(typed.filter((f) => f.source === "text_info" && f.evidence.startsWith("text: ")).map((f) => f.evidence)).size

/** The values the sources give the form's fields, with their evidence, and the account of the rest. */
export const plan = (input: Input): Plan => {
  const { fields, textInfo } = input
  // Facts in priority order: text typed for this session, profiles, then documents.
  const facts: Array<Fact> = []
  // How many facts each source gave, by its position in `input.sources`.
  const given: Array<number> = []
  const lines = textInfo ? fromLines(textInfo, "text_info", sourceConfidence.textInfo) : []
  facts.push(...lines)
  for (const source of input.sources ?? []) {
    if (source._tag === "Profile") {
      const data = fromRecord(source.data as Record<string, unknown>, source.source, sourceConfidence.profile)
      facts.push(...data)
      facts.push(...fromRecord({ name: source.name }, source.source, sourceConfidence.profile * 0.9))
      given.push(data.length)
    } else if (source._tag === "Document") {
      facts.push(...source.facts)
      given.push(source.facts.length)
    } else {
      given.push(0)
    }
  }
  // Facts by meaning first (prose and `key: value` lines of text_info, then profiles and
  // documents by their keys). Name equality (`Matcher`) only fills fields whose meaning is
  // not understood: on the others it was measured to add invented values. A profile's own
  // name is its label, not a person's name: it is no fact of meaning.
  const typed = [
    ...(textInfo ? Prose.fromProse(textInfo, "text_info", sourceConfidence.textInfo) : []),
    ...Facts.fromFacts(facts.filter((f) => f.source !== "text_info" && !(f.key === "name" && f.confidence < sourceConfidence.profile)))
  ]
  const resolved = Resolve.resolve(fields, typed)
  const resolvedIds = new Set(resolved.map((r) => r.field.id))
  const byName = Matcher.match(fields.filter((f) => !resolvedIds.has(f.id) && (f.semantic?.type ?? "unknown") === "unknown"), facts)
  const matches: Array<Match> = [
    ...resolved.map((r): Match => {
      const { evidence, certainty: sure } = evidenceOf(r)
      return { field: r.field, value: r.value, source: r.fact.source, confidence: clamp(r.fact.confidence * sure), evidence }
    }),
    ...byName.map((m): Match => ({
      field: m.field,
      value: m.value,
      source: m.fact.source,
      confidence: clamp(m.fact.confidence * certainty.name),
      evidence: { fact: m.fact.key, type: "unknown", role: Vocabulary.roleOf(m.fact.key) ?? "self", transform: "same name" }
    }))
  ]
  const matched = new Set(matches.map((m) => m.field.id))
  const doubts = Resolve.formDoubts(fields)
  const reasons = new Map(
    fields.filter((f) => !matched.has(f.id) && f.form_type !== "PushButton").map((f) => [f.id, reasonFor(f, typed, doubts)] as const)
  )
  const conflicts = new Map(resolved.flatMap((r) => {
    const conflict = conflictOf(r, typed)
    return conflict ? [[r.field.id, conflict] as const] : []
  }))
  const sources: Array<SourceReport> = [
    ...(textInfo ? [{ source: "text_info", status: "read" as const, facts: lines.length + proseStatements(typed) }] : []),
    ...(input.sources ?? []).map((source, i): SourceReport =>
      source._tag === "Unreadable"
        ? { source: source.source, status: "unreadable", facts: 0, reason: source.reason }
        : { source: source.source, status: "read", facts: given[i]! }
    )
  ]
  return { fields, matches, reasons, sources, conflicts }
}

/** The session's result: what the filler wrote, why every other field is empty, the sources, the conflicts. */
export const report = (planned: Plan, written: Written): Report => {
  const applied = new Set(written.applied)
  const skipped = new Map(written.skipped.map((s) => [s.formName, s.reason] as const))
  const filled = planned.matches.filter((m) => applied.has(m.field.form_name))
  const filledIds = new Set(filled.map((m) => m.field.id))
  const chosen = new Map(planned.matches.map((m) => [m.field.id, m] as const))
  return {
    filled_fields: filled.map((m) => ({
      field_id: m.field.id,
      form_name: m.field.form_name,
      name: m.field.name,
      value: m.value,
      source: m.source,
      confidence: m.confidence,
      evidence: m.evidence
    })),
    unfilled_fields: planned.fields
      .filter((f) => !filledIds.has(f.id) && f.form_type !== "PushButton")
      .map((f) => {
        const why = chosen.has(f.id)
          ? { reason: "not_applied" as const, detail: skipped.get(f.form_name) ?? "The PDF filler could not write the value." }
          : planned.reasons.get(f.id) ?? { reason: "uncertain_meaning" as const, detail: "No value was found for the field." }
        return { field_id: f.id, form_name: f.form_name, name: f.name, reason: why.reason, detail: why.detail }
      }),
    sources: planned.sources,
    conflicts: filled.flatMap((m) => planned.conflicts.get(m.field.id) ?? [])
  }
}
