import { describe, expect, it } from "@effect/vitest"
import type { FormField } from "../../src/FormField.ts"
import * as Semantic from "../../src/understand/Semantic.ts"

const field = (over: Partial<FormField> = {}): FormField => ({
  id: "fld_1",
  name: "x",
  form_name: "x",
  form_type: "Text",
  page: 1,
  rect: [0, 0, 100, 20],
  required: false,
  read_only: false,
  ...over
})

const describeLabel = (label: string, over: Partial<Semantic.SemanticInput> = {}) =>
  Semantic.describe({ field: field(), label, partialName: "f1 01", ...over })

describe("Semantic.describe", () => {
  it("gives no meaning when a /TU and the printed label ask for different things", () => {
    expect(describeLabel("State of", { fromTooltip: true, printed: "(Principal) currently living in the municipality of" }).type).toBe("unknown")
    // A kind of date and a date, or two parts of a name, agree.
    expect(describeLabel("Date Hired", { fromTooltip: true, printed: "Date" }).type).toBe("start_date")
    expect(describeLabel("Last name", { fromTooltip: true, printed: "Name" }).type).toBe("family_name")
  })

  it("takes the place of birth when one of a /TU and the printed label says which place the other means", () => {
    // "pais ____" printed on a prose form, the box named "PAIS_NAC" (país de nacimiento).
    expect(describeLabel("PAIS_NAC", { fromTooltip: true, printed: "pais" }).type).toBe("birth_country")
    expect(describeLabel("City", { fromTooltip: true, printed: "City of birth" }).type).toBe("birth_place")
    // A date box named after its part: the part, even when the printed label says none.
    const day = describeLabel("DD_NAC", { fromTooltip: true, printed: "nacido/a el", partialName: "DD_NAC" })
    expect(day).toMatchObject({ type: "birth_date", format: { date_part: "day" } })
    expect(describeLabel("YY_NAC", { fromTooltip: true, printed: "de", partialName: "YY_NAC" }).format).toMatchObject({ date_part: "year" })
  })

  it("reads the role from the names of the groups a field sits in, and an employer's name as its organisation's", () => {
    const preparerPhone = field()
    expect(describeLabel("Phone no", { field: { ...preparerPhone, form_name: "topmostSubform[0].Page2[0].PaidPreparer[0].Preparer[0].f2_35[0]" } }).role).toBe("preparer")
    expect(describeLabel("Phone no", { field: { ...preparerPhone, form_name: "topmostSubform[0].Page2[0].ThirdPartyDesignee[0].f2_24[0]" } }).role).toBe("other")
    expect(describeLabel("Phone no", { field: { ...preparerPhone, form_name: "topmostSubform[0].Page2[0].Signatures[0].f2_30[0]" } }).role).toBe("self")
    expect(describeLabel("Nom", { section: ["H) Désignation de l'employeur"] })).toMatchObject({ type: "organization", role: "employer" })
    // A person's family name stays one, whatever the section.
    expect(describeLabel("Family Name (Last Name)", { section: ["If a company is filing this petition"] })).toMatchObject({ type: "family_name", role: "employer" })
  })

  it("reads type and role from the label", () => {
    expect(describeLabel("Spouse's first name")).toEqual({ type: "given_name", role: "spouse" })
    expect(describeLabel("Name of employer")).toEqual({ type: "employer", role: "employer" })
  })

  it("leaves a block under a heading of the spouse and the children to someone else, not the person", () => {
    const family = ["Part 7. Information About the Spouse and All Children", "Person 3"]
    expect(describeLabel("Date of Birth (mm/dd/yyyy)", { section: family })).toMatchObject({ type: "birth_date", role: "other" })
    // A label or a nearer heading that says whose still decides.
    expect(describeLabel("Spouse's date of birth", { section: family }).role).toBe("spouse")
    expect(describeLabel("Date of birth", { section: [family[0]!, "Child 2"] })).toMatchObject({ role: "dependent", dependent_index: 2 })
  })

  it("takes the role from the section when the label does not say", () => {
    expect(describeLabel("First name", { section: ["Dependents"] })).toMatchObject({ type: "given_name", role: "dependent", section: ["Dependents"] })
    expect(describeLabel("Phone", { section: ["Part 1. You", "Emergency contact"] })).toMatchObject({ type: "phone", role: "other" })
    expect(describeLabel("Date", { section: ["For official use only"] })).toMatchObject({ role: "official" })
  })

  it("takes which date a box holds from its heading or PDF name when its label is only the pattern", () => {
    expect(describeLabel("MONTH/DAY/YEAR", { section: ["DATE OF BIRTH"] })).toMatchObject({ type: "birth_date", format: { date_pattern: "MM/DD/YYYY" } })
    expect(describeLabel("mm/dd/yyyy", { partialName: "Birthdate" }).type).toBe("birth_date")
    // A heading that names no date leaves it a bare date.
    expect(describeLabel("MONTH/DAY/YEAR", { section: ["Applicant"] }).type).toBe("date")
  })

  it("numbers a dependent from its label", () => {
    expect(describeLabel("Child 2: date of birth", { formDateOrder: "MDY" })).toMatchObject({
      type: "birth_date",
      role: "dependent",
      dependent_index: 2,
      format: { date_order: "MDY" }
    })
  })

  it("reads the item of a long tooltip rather than its headings", () => {
    expect(describeLabel("Part 1. Information About You. Mailing Address. 6. D. Enter City or Town.").type).toBe("city")
  })

  it("prefers the printed label, and falls back to the partial name", () => {
    expect(describeLabel("Line 12", { printed: "Geburtsdatum" }).type).toBe("birth_date")
    expect(describeLabel("f1 07", { partialName: "Date of birth" }).type).toBe("birth_date")
  })

  it("calls a bare date beside a signature the date of signing", () => {
    expect(describeLabel("Date", { nearSignature: true }).type).toBe("signature_date")
    expect(describeLabel("Date").type).toBe("date")
  })

  it("tells a group's meaning from its options", () => {
    const radio = field({ form_type: "RadioButton", options: [{ label: "1", value: "1" }, { label: "2", value: "2" }] })
    expect(Semantic.describe({ field: radio, label: "5)", partialName: "Gender1", captions: ["Male", "Female"] }).type).toBe("sex")
    // One option that happens to match tells nothing ("Marie Curie" is no marital status).
    const figures = field({ form_type: "RadioButton", options: ["Marcus Aurelius", "Ada Lovelace", "Marie Curie"].map((n) => ({ label: n, value: `${n} *` })) })
    expect(Semantic.describe({ field: figures, label: "Select your favorite historical figure", partialName: "Figures" }).type).toBe("unknown")
  })

  it("gives a yes/no question no meaning, whatever words it uses", () => {
    const yesNo = field({ form_type: "RadioButton", options: [{ label: "Yes", value: "Yes" }, { label: "No", value: "No" }, { label: "Unknown", value: "Unknown" }] })
    const asked = (label: string) => Semantic.describe({ field: yesNo, label, partialName: "q11" }).type
    expect(asked("Does the facility have a committee to address issues identified by the program?")).toBe("unknown")
    expect(asked("Is there a dedicated ventilator unit?")).toBe("unknown")
    // A lone check box's on-state ("Yes") is no answer: its caption's question still gives its meaning.
    const box = field({ form_type: "CheckBox", options: [{ label: "Yes", value: "Yes" }] })
    expect(Semantic.describe({ field: box, label: "Filing status: Other", partialName: "c3", captions: ["Other"] }).type).toBe("filing_status")
    // A box captioned "No" beside a question, one of its row, answers that question: it is no company name.
    const no = field({ form_type: "CheckBox", options: [{ label: "N", value: "N" }] })
    const question = "Are you a nonprofit organized as tax exempt or a governmental research organization?"
    expect(Semantic.describe({ field: no, label: `${question}: No`, partialName: "P1_Line5_Checkbox", captions: ["No"], question }).type).toBe("unknown")
    expect(Semantic.describe({ field: box, label: "Filing status: Other", partialName: "c3", captions: ["Other"], question: "Filing status" }).type).toBe(
      "filing_status"
    )
  })

  it("gives signature fields their own type", () => {
    expect(Semantic.describe({ field: field({ form_type: "Signature" }), label: "Sign here", partialName: "sig" }).type).toBe("signature")
  })

  it("reads a long /TU's own item, not its part and section headings", () => {
    const tu = "Part 1. Information About the Person or Organization Filing This Petition. Mailing Address. 3. B. Enter Street Number and Name."
    expect(Semantic.ownLabel(tu)).toBe("Enter Street Number and Name.")
    expect(Semantic.ownLabel("Part 1. Other Information. 4. Enter Employer Identification Number (EIN). Must be 9 digits; no dashes.")).toBe("Enter Employer Identification Number (EIN).")
    // Nothing numbered: the whole label.
    expect(Semantic.ownLabel("Your first name and middle initial")).toBe("Your first name and middle initial")
    // "Name" in the heading does not make the street a name; the /TU goes before printed text of a neighbour.
    expect(describeLabel(tu, { fromTooltip: true, printed: "In Care Of Name" }).type).toBe("street_address")
    // Without a /TU, the printed label still comes first.
    expect(describeLabel("Address", { printed: "Your first name and initial" }).type).toBe("given_name_and_middle_initial")
    // The item's own words give the meaning, not its headings' sentence that names an organisation.
    expect(describeLabel("Part 5. If a company or an organization is filing this petition, provide the following. 5. Enter Gross Annual Income.", { fromTooltip: true }).type).toBe("gross_income")
    expect(describeLabel("Part 5. If a company or an organization is filing this petition, provide the following. 8. Enter Type of Visa.", { fromTooltip: true }).type).toBe("unknown")
  })

  it("gives a field of the person who acts for an organisation the role of another person", () => {
    expect(describeLabel("Part 8. Contact Information. 3. A. Enter Authorized Signatory's Family Name (Last Name).", { fromTooltip: true })).toMatchObject({ type: "family_name", role: "other" })
  })
})
