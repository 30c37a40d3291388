import { describe, expect, it } from "@effect/vitest"
import { fromRecord } from "../../src/autofill/Fact.ts"
import { countryOfPlace, derive, fromFacts, parseAddress, parseDate, splitName, type TypedFact } from "../../src/autofill/Facts.ts"

const pick = (facts: ReadonlyArray<TypedFact>) => facts.map((f) => [f.role, f.dependent_index ?? null, f.type, f.value])
/** The typed facts of one profile record. */
const profileFacts = (record: Parameters<typeof fromRecord>[0], source = "profile:p") => fromFacts(fromRecord(record, source, 0.9))
const has = (facts: ReadonlyArray<TypedFact>, role: string, type: string, value: string, dependent?: number) =>
  facts.some((f) => f.role === role && f.type === type && f.value === value && f.dependent_index === dependent)

describe("Facts.parseDate", () => {
  it("reads ISO, numeric and month-name dates in several languages", () => {
    expect(parseDate("1979-08-19")).toBe("1979-08-19")
    expect(parseDate("08/19/1979")).toBe("1979-08-19")
    expect(parseDate("19.08.1979")).toBe("1979-08-19")
    expect(parseDate("August 19, 1979")).toBe("1979-08-19")
    expect(parseDate("23 septembre 1987")).toBe("1987-09-23")
    expect(parseDate("3. März 1980")).toBe("1980-03-03")
    expect(parseDate("5 de mayo de 1990")).toBe("1990-05-05")
  })

  it("leaves day and month that cannot be told apart unread unless an order is given", () => {
    expect(parseDate("03/04/2001")).toBeUndefined()
    expect(parseDate("03/04/2001", "DMY")).toBe("2001-04-03")
    expect(parseDate("31/02/2001")).toBeUndefined()
    expect(parseDate("not a date")).toBeUndefined()
  })
})

describe("Facts.splitName", () => {
  it("splits given, middle and family names, with particles, suffixes and the comma form", () => {
    expect(splitName("Ada Byron Lovelace")).toEqual({ given: "Ada", middle: "Byron", family: "Lovelace" })
    expect(splitName("Ludwig van Beethoven")).toEqual({ given: "Ludwig", family: "van Beethoven" })
    expect(splitName("Lovelace, Ada Byron")).toEqual({ given: "Ada", middle: "Byron", family: "Lovelace" })
    expect(splitName("John Smith Jr")).toEqual({ given: "John", family: "Smith", suffix: "Jr" })
    expect(splitName("Ada")).toEqual({ given: "Ada" })
    expect(splitName("12 Main St")).toBeUndefined()
  })
})

describe("Facts.parseAddress", () => {
  it("splits US and European one-line addresses", () => {
    expect(parseAddress("12 Elm Street, Apt 4, Springfield, Ohio 45501")).toEqual({
      street: "12 Elm Street", unit: "Apt 4", city: "Springfield", state: "OH", postal: "45501", country: "United States"
    })
    expect(parseAddress("8 rue Haute, F-67000 Strasbourg")).toEqual({ street: "8 rue Haute", city: "Strasbourg", postal: "67000" })
  })

  it("splits Canadian, Australian, British and Italian one-line addresses, with the unit where they write it", () => {
    expect(parseAddress("2200 Lougheed Highway, Suite 410, Maple Ridge, BC V2X 2V1, Canada")).toEqual({
      street: "2200 Lougheed Highway", unit: "Suite 410", city: "Maple Ridge", state: "BC", postal: "V2X 2V1", country: "Canada"
    })
    expect(parseAddress("Unit 4, 7 Ocean Rd, Bondi NSW 2026")).toEqual({
      street: "7 Ocean Rd", unit: "Unit 4", city: "Bondi", state: "NSW", postal: "2026", country: "Australia"
    })
    expect(parseAddress("Flat 3, 41 Wellington Road, Bristol BS2 8QX")).toEqual({
      street: "41 Wellington Road", unit: "Flat 3", city: "Bristol", postal: "BS2 8QX", country: "United Kingdom"
    })
    expect(parseAddress("Via Po 18, 10123 Torino (TO)")).toEqual({ street: "Via Po 18", city: "Torino", state: "TO", postal: "10123" })
    // A US state code is not an Australian one: five digits make a ZIP.
    expect(parseAddress("500 Pine St, Seattle, WA 98101")).toMatchObject({ state: "WA", postal: "98101", country: "United States" })
  })

  it("leaves addresses of unclear shape whole", () => {
    expect(parseAddress("Somewhere near the old mill")).toBeUndefined()
    expect(parseAddress("Springfield, OH 45501")).toBeUndefined()
  })
})

describe("Facts.countryOfPlace", () => {
  it("gives the country a place of birth names last, a US state's being the United States", () => {
    expect(countryOfPlace("Lyon, France")).toBe("France")
    expect(countryOfPlace("Duluth, Minnesota")).toBe("United States")
    expect(countryOfPlace("Deutschland")).toBe("Deutschland")
    expect(countryOfPlace("Springfield")).toBeUndefined()
    expect(countryOfPlace("Georgia")).toBeUndefined()
    expect(countryOfPlace("Los Angeles, CA")).toBe("United States")
  })

  it("derives the country of birth from the place of birth", () => {
    const facts = profileFacts({ "Place of birth": "Duluth, Minnesota" })
    expect(has(facts, "self", "birth_country", "United States")).toBe(true)
  })
})

describe("Facts.fromFacts", () => {
  it("types profile keys in any vocabulary, with roles and dependents", () => {
    const facts = profileFacts({
      Vorname: "Anna",
      Nachname: "Berg",
      "Date of birth": "02/14/1990",
      "Spouse's first name": "Tom",
      "Second child's name": "Mia Berg",
      "Emergency contact phone": "(555) 010-2000",
      "Autres prénoms": "Louise",
      "Passport number": "none",
      Colour: "red"
    })
    expect(has(facts, "self", "given_name", "Anna")).toBe(true)
    expect(has(facts, "self", "family_name", "Berg")).toBe(true)
    expect(has(facts, "self", "middle_name", "Louise")).toBe(true)
    expect(has(facts, "self", "birth_date", "1990-02-14")).toBe(true)
    expect(has(facts, "spouse", "given_name", "Tom")).toBe(true)
    expect(has(facts, "dependent", "given_name", "Mia", 2)).toBe(true)
    expect(has(facts, "other", "phone", "(555) 010-2000")).toBe(true)
    // Derived from the holder's parts.
    expect(has(facts, "self", "given_name_and_middle_initial", "Anna L")).toBe(true)
    expect(has(facts, "self", "full_name", "Anna Louise Berg")).toBe(true)
    // No digits is no passport number; an unknown key is no fact.
    expect(facts.some((f) => f.type === "passport_number")).toBe(false)
    expect(facts.some((f) => f.value === "red")).toBe(false)
  })

  it("reads an English profile's numeric dates in the order of the country its holder lives in", () => {
    // The same keys and date: a British holder means the 2nd of November, an American one the 11th of February.
    const british = profileFacts({ "Date of birth": "02/11/1984", Country: "United Kingdom" })
    expect(has(british, "self", "birth_date", "1984-11-02")).toBe(true)
    const dialled = profileFacts({ "Date of birth": "02/11/1984", Mobile: "+44 7700 900123" })
    expect(has(dialled, "self", "birth_date", "1984-11-02")).toBe(true)
    const american = profileFacts({ "Date of birth": "02/11/1984", Country: "United States", Phone: "+1 630 555 0182" })
    expect(has(american, "self", "birth_date", "1984-02-11")).toBe(true)
    // Nothing to tell the order by: no date rather than a guess; a date only one order can read decides.
    expect(profileFacts({ "Date of birth": "02/11/1984" }).some((f) => f.type === "birth_date")).toBe(false)
    expect(has(profileFacts({ "Date of birth": "02/11/1984", "Start date": "25/06/2015", Country: "United States" }), "self", "birth_date", "1984-11-02")).toBe(true)
    // A date and time as programs write it; the last four digits of an SSN are no SSN.
    const program = profileFacts({ dateOfBirth: "1984-11-02T00:00:00.000Z", ssnLast4: "4321", ssn: "987-65-4320" })
    expect(has(program, "self", "birth_date", "1984-11-02")).toBe(true)
    expect(program.filter((f) => f.type === "ssn").map((f) => f.value)).toEqual(["987-65-4320"])
    // A key that spells its pattern says the order itself.
    expect(has(profileFacts({ "Date of Birth (DD/MM/YYYY)": "05/03/1990", "Phone": "(630) 555-0182" }), "self", "birth_date", "1990-03-05")).toBe(true)
    // A company's manager is the person who answers for it, not the company.
    const firm = profileFacts({ "Raison sociale": "Atelier Moreau SARL", "Gérant": "Julien Moreau", "Gérant - téléphone": "06 12 34 56 78", "Téléphone": "03 88 12 34 56" })
    expect(has(firm, "other", "full_name", "Julien Moreau")).toBe(true)
    expect(has(firm, "other", "phone", "06 12 34 56 78")).toBe(true)
    expect(firm.filter((f) => f.type === "phone" && f.role === "employer").map((f) => f.value)).toEqual(["03 88 12 34 56"])
    // A next of kin is someone else.
    expect(has(profileFacts({ "Next of kin phone": "0498 765 432" }), "other", "phone", "0498 765 432")).toBe(true)
    // A document (a filled US form) writes its dates as the form asks, whoever it was filled for.
    const document = profileFacts({ "Date of birth of the applicant": "02/11/1984", "Phone number": "+44 7700 900123", "Name of the applicant": "Oliver Pritchard", "Address": "x" }, "file:f1")
    expect(has(document, "self", "birth_date", "1984-02-11")).toBe(true)
  })

  it("flattens nested records and lists, and splits one-line addresses", () => {
    const facts = profileFacts({
      name: "Ada Byron Lovelace",
      address: "12 Elm Street, Springfield, OH 45501",
      spouse: { given_name: "William", date_of_birth: "1805-02-21" },
      children: [{ name: "Byron King" }, { name: "Annabella King" }]
    })
    expect(has(facts, "self", "middle_initial", "B")).toBe(true)
    expect(has(facts, "self", "city", "Springfield")).toBe(true)
    expect(has(facts, "self", "city_state_postal", "Springfield, OH 45501")).toBe(true)
    expect(has(facts, "spouse", "given_name", "William")).toBe(true)
    expect(has(facts, "spouse", "birth_date", "1805-02-21")).toBe(true)
    expect(has(facts, "dependent", "given_name", "Annabella", 2)).toBe(true)
  })

  it("reads a nested key as its parent narrows it: the city of the place of birth is not the home city", () => {
    const facts = profileFacts({
      placeOfBirth: { city: "Lagos", country: "Nigeria" },
      homeAddress: { city: "Columbus", country: "United States" },
      birth: { date: "1982-07-22" },
      employer: { name: "Buckeye Logistics LLC", contactName: "Ann Lee" }
    })
    expect(has(facts, "self", "birth_place", "Lagos")).toBe(true)
    expect(has(facts, "self", "birth_country", "Nigeria")).toBe(true)
    expect(has(facts, "self", "birth_date", "1982-07-22")).toBe(true)
    expect(has(facts, "self", "city", "Columbus")).toBe(true)
    expect(facts.some((f) => f.type === "city" && f.value === "Lagos")).toBe(false)
    expect(facts.some((f) => f.type === "country" && f.value === "Nigeria")).toBe(false)
    // A company's name is not split as a person's; its contact person's is.
    expect(has(facts, "employer", "employer", "Buckeye Logistics LLC")).toBe(true)
    expect(facts.some((f) => f.type === "given_name" && f.value === "Buckeye")).toBe(false)
    expect(has(facts, "employer", "given_name", "Ann")).toBe(true)
  })

  it("reads keys as programs name them: camelCase, numbered, birth places, courtesy titles, second address lines", () => {
    const facts = profileFacts({
      givenName: "Tomas",
      familyName: "Reyes",
      socialSecurityNumber: "987-65-4301",
      birth_city: "El Paso",
      title: "Dr.",
      address_line_2: "Apt 3B",
      alien_number: "A123456789",
      employer_id: "12-3456789",
      child1_name: "Sofia Reyes",
      kid_name: "Mateo Reyes"
    })
    expect(has(facts, "self", "given_name", "Tomas")).toBe(true)
    expect(has(facts, "self", "family_name", "Reyes")).toBe(true)
    expect(has(facts, "self", "ssn", "987-65-4301")).toBe(true)
    expect(has(facts, "self", "birth_place", "El Paso")).toBe(true)
    expect(facts.some((f) => f.type === "city")).toBe(false)
    expect(has(facts, "self", "name_prefix", "Dr.")).toBe(true)
    expect(facts.some((f) => f.type === "occupation")).toBe(false)
    expect(has(facts, "self", "unit", "Apt 3B")).toBe(true)
    expect(facts.find((f) => f.value === "A123456789")).toMatchObject({ type: "national_id", scheme: "alien registration" })
    expect(has(facts, "employer", "ein", "12-3456789")).toBe(true)
    expect(has(facts, "dependent", "full_name", "Sofia Reyes", 1)).toBe(true)
    // A child with no number cannot be told from the others: never the holder's name.
    expect(facts.some((f) => f.value === "Mateo Reyes")).toBe(false)
  })

  it("reads a contact group that names someone as the organisation's contact person, one with only a phone as the holder's", () => {
    const company = profileFacts(
      { companyName: "Harbor Light Logistics Inc", fein: "98-7654321", phone: "(207) 555-0177", contact: { firstName: "Dana", lastName: "Whitfield", email: "dana@example.com" } },
      "profile:c"
    )
    expect(has(company, "employer", "ein", "98-7654321")).toBe(true)
    expect(has(company, "employer", "phone", "(207) 555-0177")).toBe(true)
    expect(has(company, "other", "given_name", "Dana")).toBe(true)
    expect(has(company, "other", "email", "dana@example.com")).toBe(true)
    const person = profileFacts({ firstName: "Ann", lastName: "Lee", contact: { phone: "(207) 555-0111" } })
    expect(has(person, "self", "phone", "(207) 555-0111")).toBe(true)
  })

  it("reads a profile's numeric dates in the order its unambiguous dates show", () => {
    const us = profileFacts({ dateOfBirth: "11/30/1976", spouse: { dateOfBirth: "05/09/1978" } })
    expect(has(us, "spouse", "birth_date", "1978-05-09")).toBe(true)
    const eu = profileFacts({ dateOfBirth: "30/11/1976", spouse: { dateOfBirth: "05/09/1978" } })
    expect(has(eu, "spouse", "birth_date", "1978-09-05")).toBe(true)
  })

  it("makes an organisation's own contact details the employer's", () => {
    const facts = profileFacts({ "Legal business name": "Acme Ltd", City: "Springfield", "Employer identification number": "12-3456789" }, "profile:o")
    expect(pick(facts).filter(([, , type]) => type === "city")).toEqual([["employer", null, "city", "Springfield"]])
  })

  it("reads an organisation's contact person and signatory as another person, the title apart from the name", () => {
    const facts = profileFacts({
      "Legal business name": "Acme Ltd",
      "Contact person": "Ada Byron",
      "Authorized to sign for the company": "Noel Lovelace, Managing Director",
      "Contact person's direct phone": "(555) 010-0000"
    }, "profile:o")
    expect(pick(facts).filter(([role]) => role === "other")).toEqual(expect.arrayContaining([
      ["other", null, "full_name", "Ada Byron"],
      ["other", null, "family_name", "Byron"],
      ["other", null, "full_name", "Noel Lovelace"],
      ["other", null, "occupation", "Managing Director"],
      ["other", null, "phone", "(555) 010-0000"]
    ]))
    // The signatory is no organisation name.
    expect(pick(facts).filter(([, , type]) => type === "organization")).toEqual([["employer", null, "organization", "Acme Ltd"]])
  })

  it("derives nothing across people or sources", () => {
    const base = { source: "s", confidence: 1, evidence: "e" }
    const facts = derive([
      { ...base, role: "self", type: "given_name", value: "Ada" },
      { ...base, role: "spouse", type: "middle_name", value: "Noel" }
    ])
    expect(facts.some((f) => f.type === "given_name_and_middle_initial" && f.value.includes("N"))).toBe(false)
  })
})
