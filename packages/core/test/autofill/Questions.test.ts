import { describe, expect, it } from "@effect/vitest"
import { fromProse } from "../../src/autofill/Prose.ts"
import { answerLanguage, answerYesNo, languagesIn } from "../../src/autofill/Questions.ts"
import type { FieldSemantic, FormField } from "../../src/FormField.ts"
import { formField, typedFact } from "./support.ts"

const box = (name: string, semantic: Partial<FieldSemantic> = {}, over: Partial<FormField> = {}): FormField =>
  formField(name, { type: "unknown", role: "self", ...semantic }, {
    form_type: "CheckBox",
    options: [{ label: "Yes", value: "Y" }, { label: "No", value: "N" }],
    ...over
  })

const fact = typedFact

describe("Questions.answerYesNo", () => {
  it("answers whether a person was ever married, is a U.S. citizen, or ever had a passport, with the box's own on-state", () => {
    expect(answerYesNo(box("Have you ever been married?"), [fact("marital_status", "Divorced")])?.value).toBe("Y")
    expect(answerYesNo(box("Have you ever been married?"), [fact("marital_status", "Single")])?.value).toBe("N")
    expect(answerYesNo(box("Spouse U.S. citizen?", { role: "spouse" }), [fact("nationality", "U.S. citizen", { role: "spouse" })])?.value).toBe("Y")
    // The holder's citizenship says nothing of the spouse's.
    expect(answerYesNo(box("Spouse U.S. citizen?", { role: "spouse" }), [fact("nationality", "U.S. citizen")])).toBeUndefined()
    expect(answerYesNo(box("Have you ever applied for or been issued a U.S. passport?"), [fact("passport_history", "Never applied for or issued")])?.value).toBe("N")
    // Without a word of what was applied for, no answer.
    expect(answerYesNo(box("Have you ever applied?"), [fact("passport_history", "Never")])).toBeUndefined()
  })

  it("answers a head-count threshold from an organisation's number of employees", () => {
    const question = "Do you employ 25 or fewer full-time employees in the United States? Select"
    const yes = box(`${question} Yes.`, { role: "employer" }, { options: [{ label: "Y", value: "Y" }] })
    const no = box(`${question} No.`, { role: "employer" }, { options: [{ label: "N", value: "N" }] })
    const small = [fact("employee_count", "23", { role: "employer" })]
    expect(answerYesNo(yes, small)?.value).toBe(true)
    expect(answerYesNo(no, small)).toBeUndefined()
    const large = [fact("employee_count", "1,200", { role: "employer" })]
    expect(answerYesNo(yes, large)).toBeUndefined()
    expect(answerYesNo(no, large)?.value).toBe(true)
  })

  it("answers whether an organisation is a nonprofit from its legal form", () => {
    const nonprofit = box("Are you a nonprofit organized as tax exempt or a governmental research organization?", { role: "employer" })
    expect(answerYesNo(nonprofit, [fact("legal_form", "Illinois limited liability company (for-profit)", { role: "employer" })])?.value).toBe("N")
    expect(answerYesNo(nonprofit, [fact("legal_form", "Not-for-profit corporation", { role: "employer" })])?.value).toBe("Y")
    // A legal form that says neither answers nothing.
    expect(answerYesNo(nonprofit, [fact("legal_form", "Limited liability company", { role: "employer" })])).toBeUndefined()
  })

  it("ticks a lone box only when its own caption is the answer", () => {
    const yes = box("Ever married: Yes", {}, { options: [{ label: "Yes", value: "On" }] })
    const no = box("Ever married: No", {}, { options: [{ label: "Yes", value: "On" }] })
    expect(answerYesNo(yes, [fact("marital_status", "Married")])?.value).toBe(true)
    expect(answerYesNo(no, [fact("marital_status", "Married")])).toBeUndefined()
  })
})

describe("Questions.answerLanguage", () => {
  it("ticks the boxes of the languages a person speaks, named in any of the form's languages", () => {
    expect([...languagesIn("français, allemand et anglais")].sort()).toEqual(["de", "en", "fr"])
    const facts = [fact("languages", "français, allemand")]
    const deutsch = box("I speak: Deutsch", {}, { options: [{ label: "Yes", value: "Yes" }] })
    const latin = box("I speak: Latin", {}, { options: [{ label: "Yes", value: "Yes" }] })
    expect(answerLanguage(deutsch, facts)?.value).toBe(true)
    expect(answerLanguage(latin, facts)).toBeUndefined()
    // A box named after a language but about something else ("German citizen") is no language box.
    expect(answerLanguage(box("Deutsch", {}, { options: [{ label: "Yes", value: "Yes" }] }), facts)).toBeUndefined()
  })
})

describe("Prose: nationality, languages and passport history", () => {
  it("reads them for the person the clause is about", () => {
    const facts = fromProse(
      "I am Ann Lee, a U.S. citizen. I married Tom Price, a French citizen. I speak English and Spanish. I have never applied for or held a passport.",
      "text_info",
      0.95
    )
    const said = facts.filter((f) => ["nationality", "languages", "passport_history"].includes(f.type)).map((f) => [f.type, f.role, f.value])
    expect(said).toEqual(expect.arrayContaining([
      ["nationality", "self", "U.S. citizen"],
      ["nationality", "spouse", "French"],
      ["languages", "self", "English and Spanish"],
      ["passport_history", "self", "Never"]
    ]))
  })
})
