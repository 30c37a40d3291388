import { describe, expect, it } from "@effect/vitest"
import { fromLines, fromRecord } from "../src/autofill/Fact.ts"
import * as Matcher from "../src/autofill/Matcher.ts"
import type { FormField } from "../src/FormField.ts"

const field = (over: Partial<FormField> & Pick<FormField, "form_name" | "name">): FormField => ({
  id: `fld_${over.form_name}`,
  form_type: "Text",
  page: 1,
  rect: [0, 0, 10, 10],
  required: false,
  read_only: false,
  ...over
})

describe("Fact.fromLines", () => {
  it("reads `key: value` lines and ignores the rest", () => {
    const facts = fromLines("Given name: Ada\nno colon here\n: empty key\nEmpty value:\n12:30\nhttps://x.y\nCity :  Paris ", "text_info", 0.9)
    expect(facts.map((f) => [f.key, f.value])).toEqual([["Given name", "Ada"], ["City", "Paris"]])
  })
})

describe("Matcher.match", () => {
  const fields = [
    field({ form_name: "applicant.first_name[0]", name: "First name" }),
    field({ form_name: "topmostSubform[0].Page1[0].f1_02[0]", name: "Last name" }),
    field({ form_name: "agree", name: "I agree", form_type: "CheckBox", options: [{ label: "Yes", value: "Yes" }] }),
    field({ form_name: "colour", name: "Colour", form_type: "RadioButton", options: [{ label: "Red", value: "R" }, { label: "Blue", value: "B" }] }),
    field({ form_name: "country", name: "Country", form_type: "ComboBox", options: [{ label: "France", value: "FR" }] }),
    field({ form_name: "langs", name: "Languages", form_type: "ListBox", options: [{ label: "English", value: "en" }, { label: "Français", value: "fr" }] }),
    field({ form_name: "locked", name: "Locked", read_only: true }),
    field({ form_name: "sig", name: "Signature", form_type: "Signature" })
  ]

  it("matches by name, full name or last name part, ignoring case, spacing, punctuation and accents", () => {
    const facts = [
      ...fromLines("FIRST-NAME: Ada\nf1_02: Lovelace\nI agree: yes\ncolour: blue\ncountry: france\nlanguages: english, francais\nLocked: no\nSignature: x", "text_info", 0.95)
    ]
    const values = Object.fromEntries(Matcher.match(fields, facts).map((m) => [m.field.form_name, m.value]))
    expect(values).toEqual({
      "applicant.first_name[0]": "Ada",
      "topmostSubform[0].Page1[0].f1_02[0]": "Lovelace",
      agree: true,
      colour: "B",
      country: "FR",
      langs: ["en", "fr"]
    })
  })

  it("prefers the earlier source and skips values a field cannot take", () => {
    const facts = [
      ...fromLines("colour: green\nFirst name: From text", "text_info", 0.95),
      ...fromRecord({ "first name": "From profile", colour: "Red" }, "profile:prf_1", 0.9)
    ]
    const matches = Matcher.match(fields, facts)
    const first = matches.find((m) => m.field.name === "First name")!
    expect([first.value, first.fact.source]).toEqual(["From text", "text_info"])
    const colour = matches.find((m) => m.field.name === "Colour")!
    expect([colour.value, colour.fact.source]).toEqual(["R", "profile:prf_1"])
  })

  it("reads check box words in several languages and leaves unknown words alone", () => {
    const box = [fields[2]!]
    expect(Matcher.match(box, fromLines("I agree: Oui", "t", 1))[0]?.value).toBe(true)
    expect(Matcher.match(box, fromLines("I agree: nein", "t", 1))[0]?.value).toBe(false)
    expect(Matcher.match(box, fromLines("I agree: perhaps", "t", 1))).toEqual([])
  })
})

describe("Matcher.match keeps to what a field is understood to ask", () => {
  const understood = (name: string, type: NonNullable<FormField["semantic"]>["type"], role: NonNullable<FormField["semantic"]>["role"]) =>
    field({ form_name: name.replace(/\W+/g, "_"), name, semantic: { type, role } })

  it("a spouse's, a preparer's or an official's field never takes the holder's own data", () => {
    const fields = [
      understood("First name", "given_name", "self"),
      understood("Spouse first name", "given_name", "spouse"),
      understood("Preparer name", "full_name", "preparer"),
      understood("Name", "full_name", "official")
    ]
    const facts = fromLines("First name: Ada\nSpouse first name: William\nPreparer name: Ada Lovelace\nName: Ada Lovelace", "text_info", 0.95)
    const values = Object.fromEntries(Matcher.match(fields, facts).map((m) => [m.field.name, m.value]))
    expect(values).toEqual({ "First name": "Ada", "Spouse first name": "William" })
  })

  it("a key whose meaning contradicts the field's is not taken, even when the names match", () => {
    const fields = [understood("Country", "country", "self")]
    expect(Matcher.match(fields, fromLines("Country: Paris", "text_info", 0.95))).toHaveLength(1)
    // "Country" as a key means a country; a field understood as a city does not take it.
    expect(Matcher.match([understood("Country", "city", "self")], fromLines("Country: France", "text_info", 0.95))).toHaveLength(0)
  })
})
