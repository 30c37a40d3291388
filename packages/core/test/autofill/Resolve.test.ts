import { describe, expect, it } from "@effect/vitest"
import type { TypedFact } from "../../src/autofill/Facts.ts"
import { formatDate } from "../../src/autofill/Format.ts"
import { formDoubts, resolve, uncertain, uncertainty } from "../../src/autofill/Resolve.ts"
import type { FieldSemantic, FormField } from "../../src/FormField.ts"
import { formField, typedFact } from "./support.ts"

const field = (name: string, semantic: FieldSemantic, over: Partial<FormField> = {}) => formField(name, semantic, over)
const fact = typedFact

const values = (fields: ReadonlyArray<FormField>, facts: ReadonlyArray<TypedFact>) =>
  Object.fromEntries(resolve(fields, facts).map((r) => [r.field.id, r.value]))

describe("Format.formatDate", () => {
  it("writes an ISO date in a D/M/Y pattern", () => {
    expect(formatDate("1979-08-19", "MM/DD/YYYY")).toBe("08/19/1979")
    expect(formatDate("1979-08-19", "DD.MM.YY")).toBe("19.08.79")
    expect(formatDate("1979-08-03", "DDMMYYYY")).toBe("03081979")
  })
})

describe("Resolve.resolve", () => {
  it("spreads a number over boxes of given lengths when it fills them exactly", () => {
    const segments = { count: 2, lengths: [13, 2] }
    const fields = [
      field("Numéro d'immatriculation", { type: "national_id", role: "self", format: { segment: { index: 1, ...segments }, comb_cells: 13 } }),
      field("Clé", { type: "national_id", role: "self", format: { segment: { index: 2, ...segments }, comb_cells: 2 } })
    ]
    expect(Object.values(values(fields, [fact("national_id", "2 87 09 54 395 047 80")]))).toEqual(["2870954395047", "80"])
    // One digit short: nothing is split by guess.
    expect(values(fields, [fact("national_id", "2 87 09 54 395 047 8")])).toEqual({})
  })

  it("never writes a value's digits alone when its letters are part of it", () => {
    const fields = [
      field("ZIP code", { type: "postal_code", role: "self", format: { digits_only: true } }),
      field("Zip", { type: "postal_code", role: "self", format: { max_length: 5 } }),
      field("Postcode", { type: "postal_code", role: "self" }),
      field("ZIP code", { type: "postal_code", role: "spouse", format: { digits_only: true } }),
      field("DNI", { type: "national_id", role: "self", format: { digits_only: true } }),
      field("Identification", { type: "national_id", role: "spouse", format: { digits_only: true, comb_cells: 9 } })
    ]
    // A British postcode is not "28", nor a DNI its digits without its letter; a ZIP+4 loses
    // only its dash, an A-Number the "A" the form prints before its boxes.
    const facts = [
      fact("postal_code", "BS2 8QX"),
      fact("postal_code", "60504-1234", { role: "spouse" }),
      fact("national_id", "12345678Z"),
      fact("national_id", "A123456789", { role: "spouse" })
    ]
    expect(Object.values(values(fields, facts))).toEqual(["BS2 8QX", "605041234", "123456789"])
  })

  it("splits only a North American number over phone boxes of 3, 3 and 4 digits", () => {
    const boxes = (role: "self" | "spouse") => [1, 2, 3].map((index) => field(`Phone ${role} ${index}`, { type: "phone", role, format: { segment: { index, count: 3 } } }))
    const fields = [...boxes("self"), ...boxes("spouse")]
    // A Hamburg number has ten digits too; it is not area code 094.
    const facts = [fact("phone", "(630) 555-0137"), fact("phone", "0941 123456", { role: "spouse" })]
    expect(Object.values(values(fields, facts))).toEqual(["630", "555", "0137"])
  })

  it("joins the unit to a street box that has none of its own: a US apartment after the street, a British flat before it", () => {
    const fields = [
      field("Rue", { type: "street_address", role: "self" }),
      field("Numéro", { type: "house_number", role: "self" }),
      field("Ville", { type: "city", role: "self" }),
      field("Street", { type: "street_address", role: "spouse" }),
      field("Town", { type: "city", role: "spouse" })
    ]
    const facts = [
      fact("street_address", "12 Birch Hollow Lane"),
      fact("unit", "Apt 3B"),
      fact("house_number", "12"),
      fact("city", "Springfield"),
      fact("street_address", "41 Wellington Road", { role: "spouse" }),
      fact("unit", "Flat 3", { role: "spouse" }),
      fact("city", "Bristol", { role: "spouse" })
    ]
    // The house number has a box of its own: it leaves the street, and the unit keeps all of itself.
    expect(Object.values(values(fields, facts))).toEqual(["Birch Hollow Lane, Apt 3B", "12", "Springfield", "Flat 3, 41 Wellington Road", "Bristol"])
  })

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

  it("gives a national id only to a box of the same kind of id", () => {
    const fields = [
      field("1. Alien Registration Number (A-Number)", { type: "national_id", role: "self" }),
      field("2. USCIS Online Account Number (if any)", { type: "national_id", role: "self" }),
      field("ID number", { type: "national_id", role: "self" })
    ]
    const got = values(fields, [fact("national_id", "A123456789", { scheme: "alien registration" })])
    expect(Object.values(got)).toEqual(["A123456789"])
    expect(got[fields[0]!.id]).toBe("A123456789")
    expect(values(fields, [fact("national_id", "12345678")])).toEqual({ [fields[2]!.id]: "12345678" })
  })

  it("writes the town alone in a box that asks for the town of birth", () => {
    const town = field("City/Town/Village of Birth", { type: "birth_place", role: "self" })
    const place = field("Place of birth (city and state)", { type: "birth_place", role: "self" })
    const got = values([town, place], [fact("birth_place", "El Paso, Texas")])
    expect(got).toEqual({ [town.id]: "El Paso", [place.id]: "El Paso, Texas" })
  })

  it("leaves an address asked outside the country to the person's other address", () => {
    const home = field("Present home address (number, street, and apt. no.)", { type: "street_address", role: "self" })
    const abroad = field("Give address outside the United States to which you want any refund mailed", { type: "street_address", role: "self" })
    const city = field("City, town or post office", { type: "city", role: "self" })
    expect(values([home, city, abroad], [fact("street_address", "908 Cedar Bend Drive"), fact("city", "Austin")])).toEqual({
      [home.id]: "908 Cedar Bend Drive",
      [city.id]: "Austin"
    })
  })

  it("leaves a unit box of the permanent address block empty when the mailing block has none, and puts the unit with the street", () => {
    const street = field("Mailing Address Line 1: Street", { type: "street_address", role: "self" })
    const city = field("City", { type: "city", role: "self" })
    const permanentUnit = field("Permanent address Apartment/Unit", { type: "unit", role: "self" })
    const got = values([street, city, permanentUnit], [fact("street_address", "41 Birch Hollow Lane"), fact("unit", "Apt 3B"), fact("city", "Springfield")])
    expect(got).toEqual({ [street.id]: "41 Birch Hollow Lane, Apt 3B", [city.id]: "Springfield" })
  })

  it("puts the unit on an address's second line when the city has a box of its own", () => {
    const street = field("Mailing Address Line 1: Street", { type: "street_address", role: "self" })
    const line2 = field("Address line 2", { type: "unknown", role: "self" })
    const city = field("City", { type: "city", role: "self" })
    const facts = [fact("street_address", "41 Birch Hollow Lane"), fact("unit", "Apt 3B"), fact("city", "Springfield")]
    expect(values([street, line2, city], facts)).toEqual({ [street.id]: "41 Birch Hollow Lane", [line2.id]: "Apt 3B", [city.id]: "Springfield" })
    // No unit: the line stays empty.
    expect(values([street, line2, city], facts.filter((f) => f.type !== "unit"))).toEqual({ [street.id]: "41 Birch Hollow Lane", [city.id]: "Springfield" })
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

  it("ticks the box of a sex given as a code, or in another language, and a code option for a sex given in words", () => {
    const boxes = [
      field("Gender. Select Male.", { type: "sex", role: "self" }, { form_type: "CheckBox", options: [{ label: "Male", value: "M" }] }),
      field("Gender. Select Female.", { type: "sex", role: "self" }, { form_type: "CheckBox", options: [{ label: "Female", value: "F" }] })
    ]
    expect(Object.values(values(boxes, [fact("sex", "M")]))).toEqual([true])
    expect(Object.keys(values(boxes, [fact("sex", "weiblich")]))).toEqual([boxes[1]!.id])
    const group = field("Sexe", { type: "sex", role: "self" }, {
      form_type: "RadioButton",
      options: [{ label: "H", value: "H" }, { label: "F", value: "F" }]
    })
    expect(values([group], [fact("sex", "Male")])).toEqual({ [group.id]: "H" })
    expect(values([group], [fact("sex", "Female")])).toEqual({ [group.id]: "F" })
    expect(values([group], [fact("sex", "unspecified")])).toEqual({})
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

describe("Resolve.resolve: organisations, places and contact lines", () => {
  const company = [
    fact("organization", "Acme Tools LLC", { role: "employer" }),
    fact("ein", "07-1234567", { role: "employer" }),
    fact("street_address", "12 Main Street", { role: "employer" }),
    fact("unit", "Suite 4", { role: "employer" }),
    fact("city", "Springfield", { role: "employer" }),
    fact("state", "IL", { role: "employer" }),
    fact("postal_code", "62701", { role: "employer" }),
    fact("employee_count", "40", { role: "employer" })
  ]

  it("lets an organisation's facts fill the filer's fields where a heading names an organisation", () => {
    const section = ["Part 1. Information About the Person or Organization Filing This Petition", "Mailing Address"]
    const fields = [
      field("Street number and name", { type: "street_address", role: "self", section }),
      field("City or town", { type: "city", role: "self", section }),
      field("ZIP code", { type: "postal_code", role: "self", section }),
      field("Enter Apartment, Suite or Floor Number.", { type: "unit", role: "self", section }),
      field("Check this box for Suite.", { type: "unit", role: "self", section }, { form_type: "CheckBox" }),
      field("Check this box for Apartment.", { type: "unit", role: "self", section }, { form_type: "CheckBox" }),
      field("Number of employees", { type: "employee_count", role: "employer" }),
      // An employee's own address: no heading names an organisation.
      field("Street", { type: "street_address", role: "self", section: ["Information about the employee"] })
    ]
    const got = values(fields, company)
    expect(got[fields[0]!.id]).toBe("12 Main Street")
    expect(got[fields[1]!.id]).toBe("Springfield")
    expect(got[fields[2]!.id]).toBe("62701")
    expect(got[fields[3]!.id]).toBe("4")
    expect(got[fields[4]!.id]).toBe(true)
    expect(got[fields[5]!.id]).toBeUndefined()
    expect(got[fields[6]!.id]).toBe("40")
    expect(got[fields[7]!.id]).toBeUndefined()
    // The holder's own facts of that kind win over the organisation's.
    expect(values(fields.slice(0, 3), [...company, fact("street_address", "9 Elm Road")])[fields[0]!.id]).toBe("9 Elm Road")
  })

  it("puts a US address in the State and ZIP boxes, not the Province and Postal Code boxes beside them", () => {
    const fields = [
      field("State", { type: "state", role: "self" }),
      field("Province", { type: "state", role: "self" }),
      field("ZIP Code", { type: "postal_code", role: "self" }),
      field("Postal Code", { type: "postal_code", role: "self" })
    ]
    const us = values(fields, [fact("state", "IL"), fact("postal_code", "62701")])
    expect([us[fields[0]!.id], us[fields[1]!.id], us[fields[2]!.id], us[fields[3]!.id]]).toEqual(["IL", undefined, "62701", undefined])
    const foreign = values(fields, [fact("state", "Ontario"), fact("postal_code", "K1A 0B1")])
    expect([foreign[fields[0]!.id], foreign[fields[1]!.id], foreign[fields[2]!.id], foreign[fields[3]!.id]]).toEqual([undefined, "Ontario", undefined, "K1A 0B1"])
  })

  it("gives a plain phone number to the daytime box, never to the mobile one beside it", () => {
    const fields = [
      field("Daytime Telephone Number", { type: "phone", role: "self" }),
      field("Mobile Telephone Number", { type: "phone", role: "self" })
    ]
    const got = values(fields, [fact("phone", "(630) 555-0100")])
    expect(got[fields[0]!.id]).toBe("(630) 555-0100")
    expect(got[fields[1]!.id]).toBeUndefined()
    // Two boxes of which neither is the plain line: in doubt, both stay empty.
    const homeAndWork = [field("Home phone", { type: "phone", role: "self" }), field("Work phone", { type: "phone", role: "self" })]
    expect(values(homeAndWork, [fact("phone", "(630) 555-0100")])).toEqual({})
  })

  it("writes an address on two lines when the form has no city or postal box", () => {
    const fields = [
      field("Adresse", { type: "street_address", role: "self" }, { form_name: "f[0].Adresse_ligne_1[0]" }),
      field("Adresse", { type: "street_address", role: "self" }, { id: "line2", form_name: "f[0].Adresse_ligne_2[0]" })
    ]
    const facts = [fact("street_address", "14 rue des Lilas"), fact("city", "Metz"), fact("postal_code", "57000"), fact("address", "14 rue des Lilas, 57000 Metz")]
    const got = values(fields, facts)
    expect(got[fields[0]!.id]).toBe("14 rue des Lilas")
    expect(got["line2"]).toBe("57000 Metz")
  })

  it("reads French elisions as no possessive, and a label naming an organisation as not the holder's", () => {
    expect(uncertain(field("Numéro d'identification", { type: "national_id", role: "self" }))).toBe(false)
    expect(uncertain(field("Employer's phone", { type: "phone", role: "self" }))).toBe(true)
    expect(uncertain(field("Nom et adresse de l'organisme qui verse vos prestations", { type: "street_address", role: "self" }))).toBe(true)
    // A heading's "Other Information" is no second value.
    expect(uncertain(field("Part 1. Other Information. 4. Enter Employer Identification Number.", { type: "ein", role: "employer" }))).toBe(false)
    expect(uncertain(field("Other phone number", { type: "phone", role: "self" }))).toBe(true)
  })
})

describe("Resolve.resolve: names family first, address blocks and other people's blocks", () => {
  it("writes a full name family name first where the label asks for it", () => {
    const fields = [field("Full name of spouse (Last, First, Middle)", { type: "full_name", role: "spouse", format: { name_order: "family_first" } })]
    const facts = [fact("given_name", "Naomi", { role: "spouse" }), fact("middle_name", "Ruth", { role: "spouse" }), fact("family_name", "Castell", { role: "spouse" })]
    expect(Object.values(values(fields, facts))).toEqual(["Castell, Naomi Ruth"])
  })

  it("leaves a permanent or previous address block empty when the form has another one for the holder", () => {
    const fields = [
      field("City", { type: "city", role: "self" }, { form_name: "f[0].Mailing_Address_City[0]" }),
      field("City", { type: "city", role: "self" }, { id: "permanent", form_name: "f[0].Permanent_Address_City[0]" })
    ]
    const got = values(fields, [fact("city", "Springfield")])
    expect(got[fields[0]!.id]).toBe("Springfield")
    expect(got["permanent"]).toBeUndefined()
    // Alone, a "Permanent address" block is the holder's address.
    expect(values(fields.slice(1), [fact("city", "Springfield")])).toEqual({ permanent: "Springfield" })
  })

  it("leaves an address block asked for only when it differs from another address empty", () => {
    const section = ["Part 1. Information About You", "Physical Address"]
    const fields = [
      field("Street Number and Name", { type: "street_address", role: "self", section: ["Part 1. Information About You", "Mailing Address"] }),
      field("Provide this information only if different from your mailing address. Street Number and Name", { type: "street_address", role: "self", section }, { id: "physical-street" }),
      field("City or Town", { type: "city", role: "self", section }, { id: "physical-city" })
    ]
    const got = values(fields, [fact("street_address", "12 Elm Street"), fact("city", "Springfield")])
    expect(got[fields[0]!.id]).toBe("12 Elm Street")
    expect(got["physical-street"]).toBeUndefined()
    expect(got["physical-city"]).toBeUndefined()
  })

  it("leaves a box asked for only after a yes empty", () => {
    const ifYes = field("If “Yes,” give name and address", { type: "street_address", role: "self" })
    expect(uncertainty(ifYes)).toBe("it asks only after a yes to a question")
    expect(uncertainty(field("Si oui, précisez l'adresse", { type: "street_address", role: "self" }))).toBe("it asks only after a yes to a question")
  })

  it("never gives an organisation's contact person to an emergency contact's boxes", () => {
    const section = ["EMERGENCY CONTACT INFORMATION"]
    const fields = [field("NAME", { type: "full_name", role: "other", section }), field("PHONE", { type: "phone", role: "other", section })]
    const contact = { role: "other" as const, relation: "contact person operations director" }
    expect(values(fields, [fact("full_name", "Graciela Ortiz", contact), fact("phone", "(630) 555-0186", contact)])).toEqual({})
    const sister = { role: "other" as const, relation: "emergency contact sister" }
    expect(values(fields.slice(0, 1), [fact("full_name", "Karin Halvorsen", sister)])).toEqual({ [fields[0]!.id]: "Karin Halvorsen" })
  })

  it("leaves the lines of a list empty: which one holds the holder's one value is in doubt", () => {
    const line = (n: number) =>
      field(`Street address [${n}]`, { type: "street_address", role: "self" }, { id: `line-${n}`, rect: [100, 500 - 20 * n, 500, 515 - 20 * n] })
    expect(values([line(1), line(2), line(3)], [fact("street_address", "12 Elm Street")])).toEqual({})
    // The same boxes side by side, or far apart, are no list.
    const apart = [line(1), { ...line(2), rect: [100, 100, 500, 115] }]
    expect(uncertainty(apart[0]!, formDoubts(apart))).toBeUndefined()
    expect(uncertainty(line(1), formDoubts([line(1), line(2)]))).toBe("one line of a list asking for several values")
  })

  it("gives a box of another person that names nobody to the person of the box left of it", () => {
    const fields = [
      field("Emergency contact phone", { type: "phone", role: "other" }, { rect: [300, 300, 400, 320] }),
      field("Relationship to applicant", { type: "relationship", role: "other" }, { rect: [405, 300, 500, 320] }),
      field("Relationship", { type: "relationship", role: "other" }, { id: "far", rect: [405, 100, 500, 120] })
    ]
    const facts = [fact("phone", "(218) 555-0100", { role: "other", relation: "emergency sister" }), fact("relationship", "Sister", { role: "other", relation: "emergency sister" })]
    const got = values(fields, facts)
    expect(got[fields[1]!.id]).toBe("Sister")
    expect(got["far"]).toBeUndefined()
  })
})

describe("Resolve.resolve: house numbers", () => {
  it("splits the house number off the street where the form has a box for it", () => {
    const fields = [
      field("Address 1", { type: "street_address", role: "self" }),
      field("House nr", { type: "house_number", role: "self" }),
      field("City", { type: "city", role: "self" })
    ]
    const facts = [fact("street_address", "14 rue des Lilas"), fact("house_number", "14"), fact("city", "Metz")]
    expect(Object.values(values(fields, facts))).toEqual(["rue des Lilas", "14", "Metz"])
    // Without a house number box, the street keeps its number.
    expect(Object.values(values([fields[0]!, fields[2]!], facts))).toEqual(["14 rue des Lilas", "Metz"])
  })
})

describe("Resolve.resolve: name and address in one box", () => {
  it("writes the owner's name, then the one-line address", () => {
    const fields = [field("Employer's name and address", { type: "employer", role: "employer" })]
    const facts = [fact("organization", "Acme Tools LLC", { role: "employer" }), fact("address", "12 Main Street, Springfield, IL 62701", { role: "employer" })]
    expect(Object.values(values(fields, facts))).toEqual(["Acme Tools LLC, 12 Main Street, Springfield, IL 62701"])
    // No address for the owner: nothing half-written.
    expect(values(fields, facts.slice(0, 1))).toEqual({})
  })
})

describe("Resolve.resolve: the holder's employment dates in the employer's part", () => {
  it("gives the holder's first date of employment to the employer's box for it", () => {
    const fields = [field("First date of employment", { type: "start_date", role: "employer", format: { date_order: "MDY" } })]
    expect(Object.values(values(fields, [fact("start_date", "2023-03-13")]))).toEqual(["03/13/2023"])
  })
})

describe("Resolve.resolve: a unit without a box of its own", () => {
  it("goes on the street line", () => {
    const fields = [field("Address", { type: "street_address", role: "self" }), field("City", { type: "city", role: "self" })]
    const facts = [fact("street_address", "48 Birch Lane"), fact("unit", "Apt 3"), fact("city", "Columbus")]
    expect(Object.values(values(fields, facts))).toEqual(["48 Birch Lane, Apt 3", "Columbus"])
    const withUnitBox = [...fields, field("Apt. no.", { type: "unit", role: "self" })]
    expect(Object.values(values(withUnitBox, facts))).toEqual(["48 Birch Lane", "Columbus", "3"])
  })
})
