import { describe, expect, it } from "@effect/vitest"
import type { TypedFact } from "../../src/autofill/Facts.ts"
import { formatDate, resolve, uncertain } from "../../src/autofill/Resolve.ts"
import type { FieldSemantic, FormField } from "../../src/FormField.ts"

const field = (name: string, semantic: FieldSemantic, over: Partial<FormField> = {}): FormField => ({
  id: `fld_${name}_${semantic.type}_${JSON.stringify(semantic.format ?? {})}`,
  name,
  form_name: `form[0].${name.replace(/\W+/g, "_")}[0]`,
  form_type: "Text",
  page: 1,
  rect: [0, 0, 10, 10],
  required: false,
  read_only: false,
  semantic,
  ...over
})

const fact = (type: TypedFact["type"], value: string, over: Partial<TypedFact> = {}): TypedFact => ({
  type,
  role: "self",
  value,
  source: "profile:p",
  confidence: 0.9,
  evidence: `test ${type}`,
  ...over
})

const values = (fields: ReadonlyArray<FormField>, facts: ReadonlyArray<TypedFact>) =>
  Object.fromEntries(resolve(fields, facts).map((r) => [r.field.id, r.value]))

describe("Resolve.formatDate", () => {
  it("writes an ISO date in a D/M/Y pattern", () => {
    expect(formatDate("1979-08-19", "MM/DD/YYYY")).toBe("08/19/1979")
    expect(formatDate("1979-08-19", "DD.MM.YY")).toBe("19.08.79")
    expect(formatDate("1979-08-03", "DDMMYYYY")).toBe("03081979")
  })
})

describe("Resolve.resolve", () => {
  it("fills by type and role, formatted for the field, from the most trusted source first", () => {
    const fields = [
      field("First name", { type: "given_name", role: "self" }),
      field("Spouse's first name", { type: "given_name", role: "spouse" }),
      field("Date of birth", { type: "birth_date", role: "self", format: { date_pattern: "DD.MM.YYYY" } }),
      field("DOB", { type: "birth_date", role: "self", format: { date_part: "year" } }),
      field("SSN", { type: "ssn", role: "self", format: { segment: { index: 2, count: 3 } } }),
      field("Social security number", { type: "ssn", role: "self", format: { digits_only: true, comb_cells: 9 } }),
      field("Child 2 name", { type: "full_name", role: "dependent", dependent_index: 2 }),
      field("Last name", { type: "family_name", role: "self", format: { upper_case: true } })
    ]
    const facts = [
      fact("given_name", "Ada", { source: "text_info", confidence: 0.95 }),
      fact("given_name", "Augusta"),
      fact("given_name", "William", { role: "spouse" }),
      fact("birth_date", "1815-12-10"),
      fact("ssn", "987-65-4320"),
      fact("full_name", "Anne King", { role: "dependent", dependent_index: 1 }),
      fact("full_name", "Ralph King", { role: "dependent", dependent_index: 2 }),
      fact("family_name", "Lovelace")
    ]
    expect(Object.values(values(fields, facts))).toEqual(["Ada", "William", "10.12.1815", "1815", "65", "987654320", "Ralph King", "LOVELACE"])
  })

  it("leaves empty what does not fit or whose owner is in doubt", () => {
    const fields = [
      field("Zip", { type: "postal_code", role: "self", format: { max_length: 3 } }),
      field("Designee's name", { type: "full_name", role: "self" }),
      field("Parent 1 last name", { type: "family_name", role: "self" }),
      field("Additional phone number", { type: "phone", role: "self" }),
      field("Address line 2", { type: "street_address", role: "self" }),
      field("Date", { type: "date", role: "self" }),
      field("Preparer's name", { type: "full_name", role: "preparer" }),
      field("Child name", { type: "full_name", role: "dependent" })
    ]
    const facts = [
      fact("postal_code", "60564"),
      fact("full_name", "Ada Lovelace"),
      fact("family_name", "Lovelace"),
      fact("phone", "555-0100"),
      fact("street_address", "1 Main St"),
      fact("date", "2020-01-15"),
      fact("full_name", "Ralph King", { role: "dependent", dependent_index: 1 })
    ]
    expect(values(fields, facts)).toEqual({})
    expect(uncertain(fields[1]!)).toBe(true)
  })

  it("fills another person's field only for the same kind of person", () => {
    const fields = [
      field("Emergency contact phone", { type: "phone", role: "other" }),
      field("Parent 1 phone", { type: "phone", role: "other" })
    ]
    const out = values(fields, [fact("phone", "(555) 010-0164", { role: "other", relation: "Emergency contact phone" })])
    expect(Object.values(out)).toEqual(["(555) 010-0164"])
  })

  it("sets radio groups, check boxes and dropdowns by meaning when exactly one option says the fact", () => {
    const fields = [
      field("Filing status", { type: "filing_status", role: "self" }, {
        form_type: "RadioButton",
        options: [{ label: "Single", value: "1" }, { label: "Married filing jointly", value: "2" }, { label: "Married filing separately", value: "3" }]
      }),
      field("Married filing jointly", { type: "filing_status", role: "self" }, { form_type: "CheckBox", options: [{ label: "Married filing jointly", value: "On" }] }),
      field("Single", { type: "filing_status", role: "self" }, { form_type: "CheckBox", options: [{ label: "Single", value: "On" }] }),
      field("State", { type: "state", role: "self" }, { form_type: "ComboBox", options: [{ label: "IL", value: "IL" }, { label: "IN", value: "IN" }] }),
      field("Occupation", { type: "occupation", role: "self" }, { form_type: "CheckBox" })
    ]
    const out = values(fields, [fact("filing_status", "Married filing jointly"), fact("state", "Illinois"), fact("occupation", "Engineer")])
    expect(Object.values(out)).toEqual(["2", true, "IL"])
  })

  it("splits a date over three boxes in the form's order", () => {
    const fields = [1, 2, 3].map((index) => field(`DOB ${index}`, { type: "birth_date", role: "self", format: { date_order: "MDY", segment: { index, count: 3 } } }))
    expect(Object.values(values(fields, [fact("birth_date", "1979-08-19")]))).toEqual(["08", "19", "1979"])
  })

  it("leaves contact boxes of one owner under different labels empty, and boxes whose PDF name names another meaning", () => {
    const fields = [
      field("Phone no", { type: "phone", role: "self" }),
      field("Daytime phone number", { type: "phone", role: "self" }),
      field("City", { type: "city", role: "self" }, { form_name: "form[0].Applicant Address Country[0]" }),
      field("City", { type: "city", role: "self" }, { id: "real_city", form_name: "form[0].Applicant Address City[0]" })
    ]
    expect(values(fields, [fact("phone", "(555) 010-0100"), fact("city", "Springfield")])).toEqual({ real_city: "Springfield" })
  })

  it("writes the whole address into an address line when the form has no city or postal box for that person", () => {
    const fields = [field("Address of principal", { type: "street_address", role: "self" })]
    const facts = [fact("street_address", "1 Main St"), fact("address", "1 Main St, Springfield, OH 45501")]
    expect(Object.values(values(fields, facts))).toEqual(["1 Main St, Springfield, OH 45501"])
    const withCity = [...fields, field("City", { type: "city", role: "self" })]
    expect(Object.values(values(withCity, [...facts, fact("city", "Springfield")]))).toEqual(["1 Main St", "Springfield"])
  })

  it("judges a long /TU by its own item, but a place named anywhere in it keeps the field empty", () => {
    const company = field("Part 1. If an individual is filing, answer Item Numbers 1. A. through 1. C. If a company is filing, answer Item Number 2. 2. Enter Company or Organization Name.", { type: "organization", role: "employer" })
    const worksite = field("Part 6. Worksite Location. For Item Numbers 9. A. through 9. E., provide the address where the person will work. 9. A. Enter Street Number and Name.", { type: "street_address", role: "employer" })
    expect(uncertain(company)).toBe(false)
    expect(uncertain(worksite)).toBe(true)
    expect(values([company, worksite], [fact("organization", "Acme Ltd", { role: "employer" }), fact("street_address", "1 Main St", { role: "employer" })])).toEqual({ [company.id]: "Acme Ltd" })
  })

  it("fills an authorised signatory's fields from an organisation's contact person", () => {
    const family = field("Part 8. 3. A. Enter Authorized Signatory's Family Name (Last Name).", { type: "family_name", role: "other" })
    const facts = [fact("family_name", "Byron", { role: "other", relation: "Contact person" }), fact("family_name", "Smith", { role: "other", relation: "Emergency contact" })]
    expect(values([family], facts)).toEqual({ [family.id]: "Byron" })
  })
})
