import { describe, expect, it } from "@effect/vitest"
import * as Vocabulary from "../../src/understand/Vocabulary.ts"

describe("Vocabulary.typeOf", () => {
  const cases: ReadonlyArray<readonly [string, Vocabulary.SemanticType]> = [
    // English
    ["First name", "given_name"],
    ["Your first name and initial", "given_name_and_middle_initial"],
    ["Middle initial", "middle_initial"],
    ["Last name", "family_name"],
    // "Last" alone, or first in a name row, is the family name; "last" in a phrase is not.
    ["Last", "family_name"],
    ["Last, First, M.I.", "family_name"],
    ["Date of Last Arrival (mm/dd/yyyy)", "date"],
    ["Last four digits of your SSN", "ssn"],
    ["Full name", "full_name"],
    ["Date of birth (mm/dd/yyyy)", "birth_date"],
    ["Place of birth (city & state)", "birth_place"],
    ["Your social security number", "ssn"],
    ["Employer identification number (EIN)", "ein"],
    ["Daytime phone number", "phone"],
    ["E-mail address", "email"],
    ["Home address (number and street)", "street_address"],
    ["Apt. no.", "unit"],
    ["City, town or post office, state, and ZIP code", "city_state_postal"],
    ["ZIP code", "postal_code"],
    ["Country", "country"],
    // Italian: "città" is a city, "cittadinanza" (citizenship) a nationality.
    ["Città", "city"],
    ["Cittadinanza", "nationality"],
    ["Sesso", "sex"],
    // Spanish field names shorten "nacimiento" to "nac".
    ["PAIS_NAC", "birth_country"],
    ["LOC_NAC", "birth_place"],
    ["PROV_NAC", "birth_place"],
    // A British and a Canadian identifier; a bare "employees" key is a head count.
    ["National Insurance number", "national_id"],
    ["Business number (BN)", "tax_id"],
    ["Employees", "employee_count"],
    // Not a state, a given name or an occupation: an amount, and part of a code.
    ["State Tax", "unknown"],
    ["user_tax_state", "unknown"],
    ["Of what country were you a citizen or national during the tax year?", "nationality"],
    ["Suburb", "city"],
    ["Tax File Number", "tax_id"],
    ["Driver licence number", "driver_license"],
    ["Enter first 2 digits of Standard Occupational Classification (S O C) Code.", "unknown"],
    ["Occupation", "occupation"],
    ["Name of employer", "employer"],
    ["Relationship to you", "relationship"],
    ["Marital status", "marital_status"],
    ["Date of signature", "signature_date"],
    ["First date of employment", "start_date"],
    ["Date of issue", "issue_date"],
    ["Signature", "signature"],
    ["Wages, salaries, tips", "unknown"],
    ["Country of birth", "birth_country"],
    ["Type of entity", "legal_form"],
    ["KNOW ALL MEN BY THESE PRESENTS, THAT I", "full_name"],
    ["Schedule I", "unknown"],
    ["Rechtsform", "legal_form"],
    ["In Care Of Name", "unknown"],
    ["c/o name", "unknown"],
    ["State-assigned unique ID (if applicable)", "unknown"],
    ["State/Territory", "state"],
    ["Since my 18th birthday, I have lived at", "unknown"],
    ["Character name", "unknown"],
    // German
    ["Vorname", "given_name"],
    ["Nachname", "family_name"],
    ["Geburtsdatum", "birth_date"],
    ["Geburtsort", "birth_place"],
    ["Geburtsland", "birth_country"],
    ["Mobil", "phone"],
    ["PLZ, Ort", "city_state_postal"],
    ["PLZ", "postal_code"],
    ["Ort", "city"],
    ["Straße, Hausnummer", "street_address"],
    ["Staatsangehörigkeit", "nationality"],
    // French
    ["Prénom", "given_name"],
    ["Nom de famille", "family_name"],
    ["Date de naissance", "birth_date"],
    ["Lieu de naissance", "birth_place"],
    ["Pays de naissance", "birth_country"],
    ["Nom/Prénom", "full_name"],
    ["Mobilité", "unknown"],
    ["Code postal", "postal_code"],
    ["Ville", "city"],
    ["N° de sécurité sociale", "ssn"],
    // Spanish
    ["Nombre", "given_name"],
    ["Apellidos", "family_name"],
    ["Fecha de nacimiento", "birth_date"],
    ["Código postal", "postal_code"],
    ["Correo electrónico", "email"],
    ["Teléfono", "phone"],
    // A heading that names a state asks for none.
    ["State", "state"],
    ["State of residence", "state"],
    ["STATE OF MICHIGAN JUDICIAL CIRCUIT COURT", "unknown"],
    ["Commonwealth of Massachusetts", "unknown"],
    // A number a state issues is no state.
    ["Attorney State Bar Number (if applicable)", "unknown"],
    ["State license number", "unknown"],
    // Who is to complete a block is not a name asked for; who completed the form is.
    ["To be completed by an Attorney or Accredited Representative, if any. Enter Attorney State Bar Number", "unknown"],
    ["Form completed by", "full_name"],
    // "Age" in a phrase about age asks for none.
    ["Age", "age"],
    ["I request that the judge waive the age requirement because", "unknown"],
    ["I am 18 years of age", "unknown"],
    // When something was signed is a date.
    ["Signature", "signature"],
    ["Date signed", "signature_date"],
    ["A judge of this court signed the judgment in this case on", "signature_date"],
    // A plural or gender ending in brackets is the word's own, not a word ("n" read as "no.").
    ["Vorname(n)", "given_name"],
    ["E-Mail-Adresse(n)", "email"],
    ["Telephone number(s)", "phone"],
    // The country one is a citizen of is a nationality, not a country of residence.
    ["Country of citizenship", "nationality"],
    ["Country of Citizenship or Nationality", "nationality"],
    ["Country of residence", "country"]
  ]
  for (const [label, type] of cases) it(`${label} → ${type}`, () => expect(Vocabulary.typeOf(label)).toBe(type))
})

describe("Vocabulary.roleOf", () => {
  it("finds whose value a label or heading asks for", () => {
    expect(Vocabulary.roleOf("Spouse's first name")).toBe("spouse")
    expect(Vocabulary.roleOf("Ehegatte / Ehegattin")).toBe("spouse")
    expect(Vocabulary.roleOf("Dependents")).toBe("dependent")
    expect(Vocabulary.roleOf("Enfants à charge")).toBe("dependent")
    expect(Vocabulary.roleOf("Emergency contact")).toBe("other")
    expect(Vocabulary.roleOf("Paid Preparer Use Only")).toBe("preparer")
    expect(Vocabulary.roleOf("For official use only")).toBe("official")
    expect(Vocabulary.roleOf("Cadre réservé à l'administration")).toBe("official")
    expect(Vocabulary.roleOf("Employer's name and address")).toBe("employer")
    expect(Vocabulary.roleOf("trial court county")).toBe("other")
    expect(Vocabulary.roleOf("First name")).toBeUndefined()
  })
})

describe("Vocabulary.dependentIndexOf", () => {
  it("reads the number of a dependent, not of a column", () => {
    expect(Vocabulary.dependentIndexOf("Child 2 date of birth")).toBe(2)
    expect(Vocabulary.dependentIndexOf("Person Six. Given name")).toBe(6)
    expect(Vocabulary.dependentIndexOf("second child")).toBe(2)
    expect(Vocabulary.dependentIndexOf("Dependents: (1) First name")).toBeUndefined()
  })
})

describe("Vocabulary.typeOfOptions", () => {
  it("tells a group's meaning from its option captions", () => {
    expect(Vocabulary.typeOfOptions(["Male", "Female"])).toBe("sex")
    expect(Vocabulary.typeOfOptions(["ledig", "verheiratet", "geschieden"])).toBe("marital_status")
    expect(Vocabulary.typeOfOptions(["Single", "Married filing jointly", "Head of household"])).toBe("filing_status")
    expect(Vocabulary.typeOfOptions(["Yes", "No"])).toBe("unknown")
    // An option's label and value are one option: two texts that say the same count once.
    expect(Vocabulary.typeOfOptions(["Marie Curie", "Marie Curie", "Ada Lovelace"])).toBe("unknown")
  })

  it("tells options that only answer a question", () => {
    expect(Vocabulary.answersOnly(["Yes", "No"])).toBe(true)
    expect(Vocabulary.answersOnly(["Oui", "Non", "Inconnu"])).toBe(true)
    expect(Vocabulary.answersOnly(["Yes"])).toBe(false)
    expect(Vocabulary.answersOnly(["Male", "Female"])).toBe(false)
    expect([Vocabulary.yesOrNo("No"), Vocabulary.yesOrNo("Yes (explain below)"), Vocabulary.yesOrNo("Nein")]).toEqual([true, true, true])
    expect([Vocabulary.yesOrNo("Other"), Vocabulary.yesOrNo("Married")]).toEqual([false, false])
  })
})

describe("Vocabulary.languageOf", () => {
  it("tells the language of a form's text by its common words", () => {
    expect(Vocabulary.languageOf("Please enter your name and the date of birth of the applicant")).toBe("en")
    expect(Vocabulary.languageOf("Bitte geben Sie den Namen und das Datum der Geburt an, oder nicht")).toBe("de")
    expect(Vocabulary.languageOf("Veuillez indiquer votre nom et la date de naissance pour le dossier")).toBe("fr")
    expect(Vocabulary.languageOf("Indique el nombre y la fecha de nacimiento del solicitante para la solicitud")).toBe("es")
    expect(Vocabulary.languageOf("12 34")).toBeUndefined()
  })

  it("reads short first-person English as English, and Italian as Italian", () => {
    // English articles are not Portuguese words.
    expect(Vocabulary.languageOf("Hi, I'm Maria. I was born in El Paso. I'm a retired teacher and a widow. I am a member of a club.")).toBe("en")
    expect(Vocabulary.languageOf("Mi chiamo Giulia Bianchi, sono nata a Torino e sono cittadina italiana. Il mio codice fiscale è per la banca.")).toBe("it")
  })

  it("reads a kind or an amount of something as no value of the taxonomy", () => {
    for (const label of ["Type of vehicle", "Nature of the claim", "Number of dependents", "Total income", "Montant", "Betrag", "Nombre de jours imposables", "Nombre d'enfants", "67 First-time homebuyer credit"]) {
      expect(Vocabulary.typeOf(label), label).toBe("unknown")
    }
    expect(Vocabulary.typeOf("Number and street")).toBe("street_address")
    expect(Vocabulary.typeOf("Telephone number")).toBe("phone")
    expect(Vocabulary.typeOf("Número de teléfono")).toBe("phone")
    // Spanish "nombre" is a name, French "nombre de" a count.
    expect(Vocabulary.typeOf("Nombre de la empresa")).toBe("organization")
    expect(Vocabulary.typeOf("Nombre")).toBe("given_name")
  })

  it("knows what a form asks of an organisation, before the kinds and amounts it keeps out", () => {
    const expected: ReadonlyArray<[string, string]> = [
      ["Type of business", "business_type"],
      ["Nature of business", "business_type"],
      ["Secteur d'activité", "business_type"],
      ["NAICS code", "industry_code"],
      ["Code NAF", "industry_code"],
      ["Date established (mm/dd/yyyy)", "established_date"],
      ["Gründungsdatum", "established_date"],
      ["Current number of U.S. employees", "employee_count"],
      ["Anzahl der Mitarbeiter", "employee_count"],
      ["Gross annual income", "gross_income"],
      ["Chiffre d'affaires", "gross_income"],
      ["Net annual income", "net_income"]
    ]
    for (const [label, type] of expected) expect(Vocabulary.typeOf(label), label).toBe(type)
    // A question about a head count is no head count.
    expect(Vocabulary.typeOf("Do you employ 25 or fewer full-time employees?")).toBe("unknown")
    // A year alone is no founding date.
    expect(Vocabulary.typeOf("Year established")).toBe("unknown")
  })

  it("knows the words for an organisation's contact person and signatory", () => {
    for (const text of ["Contact person", "Authorized signatory's name", "Authorised to sign for the company", "Ansprechpartner", "Personne de contact"]) {
      expect(Vocabulary.namesRepresentative(text), text).toBe(true)
      expect(Vocabulary.roleOf(text), text).toBe("other")
    }
    expect(Vocabulary.namesRepresentative("Company name")).toBe(false)
  })
})

describe("Vocabulary.roleOf, places of others", () => {
  it("gives a court's address and name to someone other than the holder", () => {
    expect(Vocabulary.roleOf("Court Address")).toBe("other")
    expect(Vocabulary.roleOf("Name of the court")).toBe("other")
  })

  it("gives an attorney's boxes to the attorney, but leaves an attorney in fact to the label's context", () => {
    expect(Vocabulary.roleOf("Attorney signature")).toBe("other")
    expect(Vocabulary.roleOf("Attorney State Bar Number")).toBe("other")
    expect(Vocabulary.roleOf("Attorney in fact")).toBeUndefined()
    expect(Vocabulary.roleOf("Nombre rep")).toBe("other")
  })
})

describe("Vocabulary.spokenUnits", () => {
  it("says units and currency signs in words of the form's language, and leaves other text alone", () => {
    expect(Vocabulary.spokenUnits("Opening inventory: Kg (material)", "en")).toBe("Opening inventory: kilograms (material)")
    expect(Vocabulary.spokenUnits("Sales ($), weight in lbs", "en")).toBe("Sales (dollars), weight in pounds")
    expect(Vocabulary.spokenUnits("Gewicht (kg), Betrag in €", "de")).toBe("Gewicht (Kilogramm), Betrag in Euro")
    // An amount keeps its digits, and its currency is said after it.
    expect(Vocabulary.spokenUnits("Multiply $3,650 by the number on line 6d", "en")).toBe("Multiply 3,650 dollars by the number on line 6d")
    expect(Vocabulary.spokenUnits("Frais de 25 € ou €30", "fr")).toBe("Frais de 25 euros ou 30 euros")
    expect(Vocabulary.spokenUnits("Mitgliedschaft für 42€ pro Monat", "de")).toBe("Mitgliedschaft für 42 Euro pro Monat")
    expect(Vocabulary.spokenUnits("children under age 17 by $2,000 $", "en")).toBe("children under age 17 by 2,000 dollars")
    // "mm/dd/yyyy", "Kgl." and words that hold the letters are not units; an unknown language keeps its signs.
    expect(Vocabulary.spokenUnits("Date (mm/dd/yyyy), Kgl. Amt, Background", "en")).toBe("Date (mm/dd/yyyy), Kgl. Amt, Background")
    expect(Vocabulary.spokenUnits("Вес (kg)", undefined)).toBe("Вес (kg)")
  })
})
