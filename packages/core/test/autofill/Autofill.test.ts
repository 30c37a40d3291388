import { describe, expect, it } from "@effect/vitest"
import * as Autofill from "../../src/autofill/Autofill.ts"
import type { Fact } from "../../src/autofill/Fact.ts"
import { formField } from "./support.ts"

const field = formField

const doc = (source: string, pairs: Record<string, string>): Autofill.Source => ({
  _tag: "Document",
  source,
  facts: Object.entries(pairs).map(([key, value]): Fact => ({ key, value, source, confidence: 0.8 }))
})

const profile = (id: string, data: Record<string, string>, name = "A profile"): Autofill.Source => ({ _tag: "Profile", source: `profile:${id}`, name, data })

/** The plan's values by field name. */
const values = (plan: Autofill.Plan) => Object.fromEntries(plan.matches.map((m) => [m.field.name, m.value]))
const byName = <A extends { readonly name: string }>(list: ReadonlyArray<A>) => Object.fromEntries(list.map((f) => [f.name, f]))

/** Every match written, as a filler that writes everything would report. */
const allWritten = (plan: Autofill.Plan): Autofill.Written => ({ applied: plan.matches.map((m) => m.field.form_name), skipped: [] })

const given = field("First name", { type: "given_name", role: "self" })
const family = field("Last name", { type: "family_name", role: "self" })
const birth = field("Date of birth", { type: "birth_date", role: "self", format: { date_pattern: "MM/DD/YYYY" } })
const spouse = field("Spouse's first name", { type: "given_name", role: "spouse" })
const phone = field("Phone", { type: "phone", role: "self" })
const notes = field("Notes", { type: "unknown", role: "self" })
const reference = field("Reference", { type: "unknown", role: "self" }, { read_only: true })
const signature = field("Signature", undefined, { form_type: "Signature" })
const preparer = field("Preparer's name", { type: "full_name", role: "preparer" })
const reset = field("Reset", undefined, { form_type: "PushButton" })
const postcode = field("Postcode", { type: "postal_code", role: "self", format: { comb_cells: 5 } })

describe("Autofill.plan", () => {
  it("takes facts by meaning in source priority (text_info, profiles, documents), then by name for fields of unknown meaning", () => {
    const plan = Autofill.plan({
      fields: [given, family, birth, notes],
      textInfo: "First name: Ada",
      sources: [profile("p1", { "Given name": "Augusta", "Family name": "Lovelace", "Date of birth": "1815-12-10" }), doc("file:f1", { Notes: "From a file" })]
    })
    expect(values(plan)).toEqual({ "First name": "Ada", "Last name": "Lovelace", "Date of birth": "12/10/1815", Notes: "From a file" })
    // Meaning first, then name: the order the filler is given.
    expect(plan.matches.map((m) => m.field.name)).toEqual(["First name", "Last name", "Date of birth", "Notes"])
  })

  it("gives every match its evidence, and a confidence of the source's trust times the match's certainty", () => {
    const plan = Autofill.plan({
      fields: [given, family, birth, notes],
      textInfo: "My name is Ada Lovelace.",
      sources: [profile("p1", { "Date of birth": "1815-12-10" }), doc("file:f1", { Notes: "n" })]
    })
    const matches = byName(plan.matches.map((m) => ({ ...m, name: m.field.name })))
    expect(matches["Date of birth"]!.evidence).toEqual({ fact: "Date of birth", type: "birth_date", role: "self", transform: "date as MM/DD/YYYY" })
    expect(matches["Date of birth"]!.confidence).toBeCloseTo(0.9)
    // Read from prose: the words of the text, less certain than a key.
    expect(matches["First name"]!.evidence).toMatchObject({ type: "given_name", role: "self", transform: "as given" })
    expect(matches["First name"]!.evidence.fact).toContain("Ada Lovelace")
    expect(matches["First name"]!.confidence).toBeCloseTo(0.95 * Autofill.certainty.prose)
    // By name alone.
    expect(matches.Notes!.evidence).toEqual({ fact: "Notes", type: "unknown", role: "self", transform: "same name" })
    expect(matches.Notes!.confidence).toBeCloseTo(0.8 * Autofill.certainty.name)
    for (const m of plan.matches) {
      expect(m.confidence).toBeGreaterThan(0)
      expect(m.confidence).toBeLessThanOrEqual(1)
    }
  })

  it("says how a split value was made", () => {
    const plan = Autofill.plan({ fields: [given, family], sources: [profile("p1", { Name: "Ada Lovelace" })] })
    const first = plan.matches.find((m) => m.field.id === given.id)!
    expect(first.value).toBe("Ada")
    expect(first.evidence).toEqual({ fact: "Name", type: "given_name", role: "self", transform: "given name of the full name" })
    expect(first.confidence).toBeCloseTo(0.9 * Autofill.certainty.derived)
  })

  it("gives every field left empty a reason", () => {
    const plan = Autofill.plan({
      fields: [given, spouse, phone, notes, reference, signature, preparer, postcode, reset],
      sources: [profile("p1", { "First name": "Ada", "Spouse's first name": "William", Postcode: "1234567" })]
    })
    const outcome = Autofill.report(plan, allWritten(plan))
    expect(outcome.filled_fields.map((f) => f.name).sort()).toEqual(["First name", "Spouse's first name"])
    const reasons = Object.fromEntries(outcome.unfilled_fields.map((f) => [f.name, f.reason]))
    expect(reasons).toEqual({
      Phone: "no_fact",
      Notes: "uncertain_meaning",
      Reference: "read_only",
      Signature: "signature",
      "Preparer's name": "excluded_role",
      // Seven digits do not go in five cells.
      Postcode: "no_fitting_value"
    })
    for (const f of outcome.unfilled_fields) expect(f.detail).toMatch(/\w/)
    // A push button is no field to fill: in neither list.
    expect(outcome.unfilled_fields.map((f) => f.name)).not.toContain("Reset")
  })

  it("reports a value the filler did not write as not applied, with the filler's reason", () => {
    const plan = Autofill.plan({ fields: [given, family], textInfo: "First name: Ada\nLast name: Lovelace" })
    const outcome = Autofill.report(plan, { applied: [given.form_name], skipped: [{ formName: family.form_name, reason: "The field is locked." }] })
    expect(outcome.filled_fields.map((f) => f.name)).toEqual(["First name"])
    expect(outcome.unfilled_fields).toEqual([
      { field_id: family.id, form_name: family.form_name, name: "Last name", reason: "not_applied", detail: "The field is locked." }
    ])
  })

  it("reports conflicts: same meaning and person, different values, chosen by source priority", () => {
    const plan = Autofill.plan({
      fields: [given, family, birth, phone],
      textInfo: "Phone: +1 (555) 123-4567",
      sources: [
        profile("p1", { "First name": "Ada", "Last name": "Lovelace", "Date of birth": "1815-12-10", Phone: "555 123 4567" }),
        // The same date written another way, and the same name in capitals: no conflict.
        doc("url:https://example.com/a.txt", { "First name": "ADA", "Last name": "Byron", "Date of birth": "10 December 1815" }),
        doc("file:f2", { "Last name": "King" })
      ]
    })
    const outcome = Autofill.report(plan, allWritten(plan))
    expect(outcome.conflicts).toEqual([
      {
        field_id: family.id,
        form_name: family.form_name,
        chosen: { source: "profile:p1", value: "Lovelace" },
        others: [{ source: "url:https://example.com/a.txt", value: "Byron" }, { source: "file:f2", value: "King" }]
      }
    ])
  })

  it("reports each source: what it gave, and the unreadable ones with their reason, in order", () => {
    const plan = Autofill.plan({
      fields: [given],
      textInfo: "First name: Ada\nI was born on 10 December 1815 in London.",
      sources: [
        profile("p1", { "First name": "Ada", City: "London" }),
        { _tag: "Unreadable", source: "profile:gone", reason: "The profile no longer exists." },
        doc("file:f1", { Notes: "x" }),
        { _tag: "Unreadable", source: "url:https://example.com/x", reason: "HTTP 404" }
      ]
    })
    expect(plan.sources).toEqual([
      { source: "text_info", status: "read", facts: expect.any(Number) },
      { source: "profile:p1", status: "read", facts: 2 },
      { source: "profile:gone", status: "unreadable", facts: 0, reason: "The profile no longer exists." },
      { source: "file:f1", status: "read", facts: 1 },
      { source: "url:https://example.com/x", status: "unreadable", facts: 0, reason: "HTTP 404" }
    ])
    // The `key: value` line and the prose's statement of the birth date.
    expect(plan.sources[0]!.facts).toBeGreaterThanOrEqual(2)
  })

  it("no sources, or text it cannot read: nothing filled, every field with a reason", () => {
    for (const textInfo of [undefined, "", "これは日本語の文章です。名前は書いていません。"]) {
      const plan = Autofill.plan({ fields: [given, family, notes], textInfo, sources: [] })
      const outcome = Autofill.report(plan, allWritten(plan))
      expect(outcome.filled_fields).toEqual([])
      expect(outcome.conflicts).toEqual([])
      expect(outcome.unfilled_fields.map((f) => [f.name, f.reason])).toEqual([["First name", "no_fact"], ["Last name", "no_fact"], ["Notes", "uncertain_meaning"]])
      expect(outcome.sources).toEqual(textInfo ? [{ source: "text_info", status: "read", facts: 0 }] : [])
    }
  })

  it("a profile's own name is its label, not the person's name", () => {
    const plan = Autofill.plan({ fields: [given, family], sources: [profile("p1", {}, "Ada Lovelace")] })
    expect(plan.matches).toEqual([])
    expect(plan.sources).toEqual([{ source: "profile:p1", status: "read", facts: 0 }])
  })
})
