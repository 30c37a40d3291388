import { describe, expect, it } from "@effect/vitest"
import type { TypedFact } from "../../src/autofill/Facts.ts"
import { fromProse } from "../../src/autofill/Prose.ts"

const has = (facts: ReadonlyArray<TypedFact>, role: string, type: string, value: string, dependent?: number) =>
  facts.some((f) => f.role === role && f.type === type && f.value === value && f.dependent_index === dependent)

describe("Prose.fromProse", () => {
  it("reads English prose: people, whose facts are whose, dates by what they are of", () => {
    const facts = fromProse(
      "My name is Alan Mathison Turing, born on June 23, 1912 in London, England; my Social Security number is 987-65-4300. " +
        "I live at 12 Elm Street, Springfield, Ohio 45501 and you can reach me at (937) 555-0134 or alan@example.com. " +
        "I am a mathematician and have worked for Bletchley Analytics Ltd since March 14, 2019. " +
        "On May 20, 2010 I married Joan Elisabeth Clarke, a cryptanalyst, born on June 24, 1917. " +
        "Our son Tom Turing was born on July 15, 2012. In an emergency, please contact my brother, John Turing, phone (937) 555-0199.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "given_name", "Alan")).toBe(true)
    expect(has(facts, "self", "middle_initial", "M")).toBe(true)
    expect(has(facts, "self", "birth_date", "1912-06-23")).toBe(true)
    expect(has(facts, "self", "birth_place", "London, England")).toBe(true)
    expect(has(facts, "self", "ssn", "987-65-4300")).toBe(true)
    expect(has(facts, "self", "city", "Springfield")).toBe(true)
    expect(has(facts, "self", "state", "OH")).toBe(true)
    expect(has(facts, "self", "phone", "(937) 555-0134")).toBe(true)
    expect(has(facts, "self", "email", "alan@example.com")).toBe(true)
    expect(has(facts, "self", "occupation", "Mathematician")).toBe(true)
    expect(has(facts, "employer", "employer", "Bletchley Analytics Ltd")).toBe(true)
    expect(has(facts, "self", "start_date", "2019-03-14")).toBe(true)
    expect(has(facts, "self", "marriage_date", "2010-05-20")).toBe(true)
    expect(has(facts, "spouse", "family_name", "Clarke")).toBe(true)
    expect(has(facts, "spouse", "birth_date", "1917-06-24")).toBe(true)
    expect(has(facts, "spouse", "occupation", "Cryptanalyst")).toBe(true)
    expect(has(facts, "dependent", "given_name", "Tom", 1)).toBe(true)
    expect(has(facts, "dependent", "birth_date", "2012-07-15", 1)).toBe(true)
    expect(has(facts, "other", "given_name", "John")).toBe(true)
    expect(has(facts, "other", "phone", "(937) 555-0199")).toBe(true)
    expect(has(facts, "other", "relationship", "Brother")).toBe(true)
    expect(has(facts, "dependent", "relationship", "Son", 1)).toBe(true)
    expect(has(facts, "self", "address", "12 Elm Street, Springfield, OH 45501")).toBe(true)
    expect(has(facts, "self", "marital_status", "Married")).toBe(true)
  })

  it("takes the name a relation word gives after \"is\", \"'s name is\" or \"heißt\", and not a title", () => {
    const named = (text: string, role: string) => fromProse(text, "text_info", 0.95).filter((f) => f.role === role && f.type === "full_name").map((f) => f.value)
    expect(named("I am Ana Ruiz. My wife is Jane Marie Smith.", "spouse")).toEqual(["Jane Marie Smith"])
    expect(named("I am Ana Ruiz. My husband's name is Omar Haddad, born on May 2, 1980.", "spouse")).toEqual(["Omar Haddad"])
    expect(named("Ich heiße Jonas Weber. Meine Frau heißt Anna Weber.", "spouse")).toEqual(["Anna Weber"])
    expect(named("I am Ana Ruiz. Our son is called Leo Ruiz.", "dependent")).toEqual(["Leo Ruiz"])
    expect(named("I am Ana Ruiz. My husband is Head Nurse at Mercy General.", "spouse")).toEqual([])
  })

  it("reads the place of birth before the date, a cell phone, the employer after the job, the sex", () => {
    const facts = fromProse(
      "My name is Maria Elena Gutierrez. I was born in El Paso, Texas on 2 April 1985. Cell 217-555-0199. " +
        "I'm an electrician working for Lone Star Electric Co. I am single and female.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "birth_date", "1985-04-02")).toBe(true)
    expect(has(facts, "self", "birth_place", "El Paso, Texas")).toBe(true)
    expect(has(facts, "self", "phone", "217-555-0199")).toBe(true)
    expect(has(facts, "self", "occupation", "Electrician")).toBe(true)
    expect(has(facts, "employer", "employer", "Lone Star Electric Co")).toBe(true)
    expect(has(facts, "self", "sex", "Female")).toBe(true)
    expect(has(facts, "self", "marital_status", "Single")).toBe(true)
    const nurse = fromProse("I work as a nurse practitioner at Prairie Health Clinic. My wife was born in Lyon.", "text_info", 0.95)
    expect(has(nurse, "employer", "employer", "Prairie Health Clinic")).toBe(true)
    expect(has(nurse, "spouse", "birth_place", "Lyon")).toBe(true)
    const priya = fromProse("I'm Priya Nair. My birthday is April 2, 1985. I work at Boston Children's Hospital as a pediatric nurse.", "text_info", 0.95)
    expect(has(priya, "self", "birth_date", "1985-04-02")).toBe(true)
    expect(has(priya, "self", "occupation", "Pediatric nurse")).toBe(true)
    expect(has(priya, "employer", "employer", "Boston Children's Hospital")).toBe(true)
    // A business owned by women says nothing of the writer's sex.
    expect(fromProse("I am a woman-owned business.", "text_info", 0.95).some((f) => f.type === "sex")).toBe(false)
  })

  it("does not take a state code in capitals (ME, MA, MI) for the writer", () => {
    const facts = fromProse("Harbor Light Logistics Inc is a Maine corporation located at 400 Dock Road, Portland, ME 04101. Phone (207) 555-0177.", "text_info", 0.95)
    expect(has(facts, "employer", "organization", "Harbor Light Logistics Inc")).toBe(true)
    expect(has(facts, "employer", "city", "Portland")).toBe(true)
    expect(facts.some((f) => f.role === "self")).toBe(false)
  })

  it("tells an alien registration number from a plain identity number", () => {
    const facts = fromProse("My A-number is A123456789 and my national ID number is 12345678.", "text_info", 0.95)
    expect(facts.find((f) => f.value === "A123456789")).toMatchObject({ type: "national_id", scheme: "alien registration" })
    expect(facts.find((f) => f.value === "12345678")).toMatchObject({ type: "national_id" })
    expect(facts.find((f) => f.value === "12345678")?.scheme).toBeUndefined()
  })

  it("reads Spanish prose: the name with its two family names, the DNI with its letter, the address", () => {
    const facts = fromProse(
      "Me llamo Lucía Fernández Ortega, nací en Sevilla el 14 de marzo de 1990 y mi DNI es 12345678Z. Vivo en Calle Feria 23, 41003 Sevilla. " +
        "Soy arquitecta y estoy soltera.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "given_name", "Lucía")).toBe(true)
    expect(has(facts, "self", "family_name", "Fernández Ortega")).toBe(true)
    expect(facts.some((f) => f.type === "middle_name")).toBe(false)
    expect(has(facts, "self", "birth_date", "1990-03-14")).toBe(true)
    expect(has(facts, "self", "birth_place", "Sevilla")).toBe(true)
    expect(has(facts, "self", "national_id", "12345678Z")).toBe(true)
    expect(has(facts, "self", "street_address", "Calle Feria 23")).toBe(true)
    expect(has(facts, "self", "postal_code", "41003")).toBe(true)
    expect(has(facts, "self", "occupation", "Arquitecta")).toBe(true)
    expect(has(facts, "self", "marital_status", "Single")).toBe(true)
  })

  it("reads British prose: the courtesy title apart from the name, the address with its flat and postcode, the National Insurance number", () => {
    const facts = fromProse(
      "My name is Mr Oliver James Pritchard and I am a British citizen. I live at Flat 3, 41 Wellington Road, Bristol BS2 8QX, United Kingdom. " +
        "My National Insurance number is QQ 12 34 56 C.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "name_prefix", "Mr")).toBe(true)
    expect(has(facts, "self", "given_name", "Oliver")).toBe(true)
    expect(has(facts, "self", "full_name", "Oliver James Pritchard")).toBe(true)
    expect(facts.some((f) => f.type === "given_name" && f.value === "Mr")).toBe(false)
    expect(has(facts, "self", "nationality", "British")).toBe(true)
    expect(has(facts, "self", "street_address", "41 Wellington Road")).toBe(true)
    expect(has(facts, "self", "unit", "Flat 3")).toBe(true)
    expect(has(facts, "self", "city", "Bristol")).toBe(true)
    expect(has(facts, "self", "postal_code", "BS2 8QX")).toBe(true)
    expect(has(facts, "self", "country", "United Kingdom")).toBe(true)
    expect(has(facts, "self", "address", "Flat 3, 41 Wellington Road, Bristol BS2 8QX")).toBe(true)
    expect(has(facts, "self", "national_id", "QQ 12 34 56 C")).toBe(true)
  })

  it("reads an organisation that speaks of itself as \"we\": its name, Canadian address, business number, head count and contact", () => {
    const facts = fromProse(
      "Maple Ridge Timber Inc. (operating as Maple Ridge Lumber) is a British Columbia corporation. Our business number is 123456789RT0001. " +
        "The office is at 2200 Lougheed Highway, Suite 410, Maple Ridge, BC V2X 2V1, Canada; phone 604-555-0147. We employ 48 people. " +
        "For this filing please contact Priya Raman, Chief Financial Officer, at 604-555-0150.",
      "text_info",
      0.95
    )
    expect(has(facts, "employer", "organization", "Maple Ridge Timber Inc.")).toBe(true)
    expect(has(facts, "employer", "tax_id", "123456789RT0001")).toBe(true)
    expect(has(facts, "employer", "street_address", "2200 Lougheed Highway")).toBe(true)
    expect(has(facts, "employer", "unit", "Suite 410")).toBe(true)
    expect(has(facts, "employer", "state", "BC")).toBe(true)
    expect(has(facts, "employer", "postal_code", "V2X 2V1")).toBe(true)
    expect(has(facts, "employer", "phone", "604-555-0147")).toBe(true)
    expect(has(facts, "employer", "employee_count", "48")).toBe(true)
    expect(has(facts, "other", "full_name", "Priya Raman")).toBe(true)
    expect(has(facts, "other", "occupation", "Chief Financial Officer")).toBe(true)
    expect(has(facts, "other", "phone", "604-555-0150")).toBe(true)
    // Nothing of the organisation is the writer's own.
    expect(facts.filter((f) => f.role === "self")).toEqual([])
  })

  it("reads Italian prose: name, birth, citizenship, codice fiscale, address with its province, job and marital status", () => {
    const facts = fromProse(
      "Mi chiamo Giulia Bianchi, sono nata a Torino (TO) il 7 maggio 1991 e sono cittadina italiana. Il mio codice fiscale è BNCGLI91E47L219X. " +
        "Abito in Via Po 18, 10123 Torino (TO). Telefono: +39 011 555 0192. Sono architetta e sono nubile.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "given_name", "Giulia")).toBe(true)
    expect(has(facts, "self", "family_name", "Bianchi")).toBe(true)
    expect(has(facts, "self", "birth_date", "1991-05-07")).toBe(true)
    expect(has(facts, "self", "birth_place", "Torino (TO)")).toBe(true)
    expect(has(facts, "self", "nationality", "italiana")).toBe(true)
    expect(has(facts, "self", "tax_id", "BNCGLI91E47L219X")).toBe(true)
    expect(has(facts, "self", "street_address", "Via Po 18")).toBe(true)
    expect(has(facts, "self", "city", "Torino")).toBe(true)
    expect(has(facts, "self", "state", "TO")).toBe(true)
    expect(has(facts, "self", "postal_code", "10123")).toBe(true)
    expect(has(facts, "self", "address", "Via Po 18, 10123 Torino (TO)")).toBe(true)
    expect(has(facts, "self", "phone", "+39 011 555 0192")).toBe(true)
    expect(has(facts, "self", "occupation", "Architetta")).toBe(true)
    expect(has(facts, "self", "marital_status", "Single")).toBe(true)
    // "mia" is Italian for "my"; Mia is also a daughter's name in English.
    const english = fromProse("My name is Ann Lee, born on March 3, 1980. Our daughter Mia Lee was born on May 5, 2012.", "text_info", 0.95)
    expect(has(english, "self", "birth_date", "1980-03-03")).toBe(true)
    expect(has(english, "dependent", "birth_date", "2012-05-05", 1)).toBe(true)
  })

  it("reads children named by their given name alone, a street of any name, and a phone number after \"unter\"", () => {
    const facts = fromProse(
      "Ich heiße Markus Schneider, bin am 21. Juni 1977 in Hamburg geboren. Ich wohne in der Elbchaussee 140, 22763 Hamburg, und bin unter 040 123456 erreichbar. " +
        "Wir haben zwei Kinder: unsere Tochter Lena, geboren am 15. April 2008, und unseren Sohn Paul, geboren am 30. November 2011.",
      "text_info",
      0.95
    )
    // The children's birth dates are theirs, so the writer's own stays clear.
    expect(has(facts, "self", "birth_date", "1977-06-21")).toBe(true)
    expect(has(facts, "dependent", "given_name", "Lena", 1)).toBe(true)
    expect(has(facts, "dependent", "birth_date", "2008-04-15", 1)).toBe(true)
    expect(has(facts, "dependent", "given_name", "Paul", 2)).toBe(true)
    expect(has(facts, "dependent", "birth_date", "2011-11-30", 2)).toBe(true)
    // A given name alone is no full name.
    expect(facts.some((f) => f.type === "full_name" && f.value === "Lena")).toBe(false)
    expect(has(facts, "self", "street_address", "Elbchaussee 140")).toBe(true)
    expect(has(facts, "self", "postal_code", "22763")).toBe(true)
    expect(has(facts, "self", "phone", "040 123456")).toBe(true)
  })

  it("reads a French organisation: its SIRET, NAF code, turnover and manager as contact person", () => {
    const facts = fromProse(
      "Atelier Moreau SARL est une entreprise de menuiserie créée le 12 mars 2014. Notre numéro SIRET est le 123 456 789 00012 et notre code NAF est 4332A. " +
        "Notre chiffre d'affaires annuel est de 1 250 000 €. Notre gérant, Julien Moreau, est la personne de contact ; son portable est le 06 12 34 56 78.",
      "text_info",
      0.95
    )
    expect(has(facts, "employer", "organization", "Atelier Moreau SARL")).toBe(true)
    expect(has(facts, "employer", "ein", "123 456 789 00012")).toBe(true)
    expect(has(facts, "employer", "industry_code", "4332A")).toBe(true)
    expect(has(facts, "employer", "gross_income", "1 250 000 €")).toBe(true)
    expect(has(facts, "other", "full_name", "Julien Moreau")).toBe(true)
    expect(has(facts, "other", "occupation", "Gérant")).toBe(true)
    expect(has(facts, "other", "phone", "06 12 34 56 78")).toBe(true)
  })

  it("reads a holder described in the third person as the holder, not the company named in the text", () => {
    const facts = fromProse(
      "Applicant: John Michael Carter, born 14 March 1972 in Leeds, England. He lives at 22 Oak Avenue, Manchester M14 5RT, United Kingdom. " +
        "He is a software developer at Northwind Ltd. He is married to Sarah Carter.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "full_name", "John Michael Carter")).toBe(true)
    expect(has(facts, "self", "birth_date", "1972-03-14")).toBe(true)
    expect(has(facts, "self", "street_address", "22 Oak Avenue")).toBe(true)
    expect(has(facts, "self", "occupation", "Software developer")).toBe(true)
    expect(has(facts, "employer", "employer", "Northwind Ltd")).toBe(true)
    expect(has(facts, "self", "marital_status", "Married")).toBe(true)
    expect(has(facts, "spouse", "full_name", "Sarah Carter")).toBe(true)
    // Nothing of his is the employer's.
    expect(facts.filter((f) => f.role === "employer").map((f) => f.type)).toEqual(["employer"])
    // With no label before it, the name the text opens with.
    const opened = fromProse("John Michael Carter was born on 14 March 1972 in Leeds, England. He lives in Manchester.", "text_info", 0.95)
    expect(has(opened, "self", "full_name", "John Michael Carter")).toBe(true)
    expect(has(opened, "self", "birth_date", "1972-03-14")).toBe(true)
  })

  it("reads phone numbers of a country the text names, and an Australian address", () => {
    const facts = fromProse(
      "My name is Chloe Anne Nguyen and I was born on 5 March 1990 in Geelong, Australia. I live at 12 Smith Street, Newtown NSW 2042. " +
        "My mobile is 0412 345 678 and my Tax File Number is 123 456 782.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "phone", "0412 345 678")).toBe(true)
    expect(has(facts, "self", "street_address", "12 Smith Street")).toBe(true)
    expect(has(facts, "self", "state", "NSW")).toBe(true)
    expect(has(facts, "self", "postal_code", "2042")).toBe(true)
    expect(has(facts, "self", "address", "12 Smith Street, Newtown NSW 2042")).toBe(true)
    expect(has(facts, "self", "tax_id", "123 456 782")).toBe(true)
  })

  it("reads a contact named after a title (\"contact our CFO, Dana Whitfield, at\"), and leaves a former address out", () => {
    const company = fromProse(
      "We are Acme Widgets, Inc., a Delaware corporation founded on January 5, 2015. You can call us at (302) 555-0100. " +
        "For questions, contact our CFO, Dana Whitfield, at (302) 555-0111.",
      "text_info",
      0.95
    )
    expect(has(company, "employer", "phone", "(302) 555-0100")).toBe(true)
    expect(has(company, "other", "full_name", "Dana Whitfield")).toBe(true)
    expect(has(company, "other", "occupation", "CFO")).toBe(true)
    expect(has(company, "other", "phone", "(302) 555-0111")).toBe(true)
    const person = fromProse(
      "My name is Robert Lee Chen. I currently live at 45 Birch Road, Portland, OR 97201. I previously lived at 300 Ocean Drive, Miami, FL 33139 until 2019.",
      "text_info",
      0.95
    )
    expect(has(person, "self", "street_address", "45 Birch Road")).toBe(true)
    expect(person.some((f) => f.value === "300 Ocean Drive")).toBe(false)
  })

  it("reads names with capitals inside them: O'Brien, McDonald-O'Brien, Jean-Luc, D'Angelo", () => {
    const facts = fromProse(
      "Hello, I am Kevin O'Brien. My wife Jane McDonald-O'Brien and I live in Springfield. Our son Jean-Luc O'Brien was born on June 2, 2016. " +
        "In an emergency, contact my friend D'Angelo Ng.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "family_name", "O'Brien")).toBe(true)
    expect(has(facts, "spouse", "family_name", "McDonald-O'Brien")).toBe(true)
    expect(has(facts, "dependent", "given_name", "Jean-Luc", 1)).toBe(true)
    expect(has(facts, "other", "given_name", "D'Angelo")).toBe(true)
  })

  it("reads a representative named after the words that say so, and a founding date of a German day", () => {
    const german = fromProse(
      "Die Bäckerei Huber GmbH ist ein Familienbetrieb, gegründet am 1. April 1998 in München. Ansprechpartnerin ist Frau Anna Huber, Geschäftsführerin, Telefon 0170 1234567.",
      "text_info",
      0.95
    )
    expect(has(german, "employer", "established_date", "1998-04-01")).toBe(true)
    expect(has(german, "other", "full_name", "Anna Huber")).toBe(true)
    expect(has(german, "other", "occupation", "Geschäftsführerin")).toBe(true)
    expect(has(german, "other", "phone", "0170 1234567")).toBe(true)
    const spanish = fromProse("Construcciones Ruiz S.L. es una empresa constructora. Nuestro NIF es B12345678. La persona de contacto es Marta Ruiz, gerente.", "text_info", 0.95)
    expect(has(spanish, "employer", "tax_id", "B12345678")).toBe(true)
    expect(has(spanish, "other", "full_name", "Marta Ruiz")).toBe(true)
    expect(has(spanish, "other", "occupation", "Gerente")).toBe(true)
  })

  it("reads short, casual English as English: a US phone number, a widow", () => {
    const facts = fromProse(
      "Hi, I'm Maria Elena Gonzalez. I was born April 12, 1965 in El Paso, Texas. SSN 987-65-4400. I live at 77 Sunset Blvd, Apt 12, Tucson, AZ 85701. " +
        "Cell: (520) 555-0190, email maria.gonzalez@example.com. I'm a retired teacher and a widow. I am female.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "phone", "(520) 555-0190")).toBe(true)
    expect(has(facts, "self", "marital_status", "Widowed")).toBe(true)
  })

  it("reads a German birth date set before the word \"geboren\"", () => {
    const facts = fromProse(
      "Ich heiße Jonas Becker und wurde am 3. Mai 1984 in Köln geboren. Meine Frau heißt Anna Becker und ist am 7. Juli 1986 geboren.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "birth_date", "1984-05-03")).toBe(true)
    expect(has(facts, "self", "birth_place", "Köln")).toBe(true)
    expect(has(facts, "spouse", "birth_date", "1986-07-07")).toBe(true)
  })

  it("reads a French child named after \"une fille\" and a job before \"à\"", () => {
    const facts = fromProse(
      "Je m'appelle Claire Dubois, je suis née le 12 mai 1982 à Lyon. Je suis infirmière à l'Hôpital Édouard Herriot. Nous avons une fille, Léa Dubois, née le 9 juin 2012.",
      "text_info",
      0.95
    )
    expect(has(facts, "self", "birth_date", "1982-05-12")).toBe(true)
    expect(has(facts, "self", "occupation", "Infirmière")).toBe(true)
    expect(has(facts, "dependent", "birth_date", "2012-06-09", 1)).toBe(true)
    expect(has(facts, "dependent", "given_name", "Léa", 1)).toBe(true)
  })

  it("reads French and German prose", () => {
    const fr = fromProse(
      "Je m'appelle Claire Anne Dubois, je suis née le 14 juillet 1985 à Lyon. J'habite au 8 rue Haute, 67000 Strasbourg. Je suis infirmière et je suis célibataire.",
      "text_info",
      0.95
    )
    expect(has(fr, "self", "family_name", "Dubois")).toBe(true)
    expect(has(fr, "self", "birth_date", "1985-07-14")).toBe(true)
    expect(has(fr, "self", "postal_code", "67000")).toBe(true)
    expect(has(fr, "self", "occupation", "Infirmière")).toBe(true)
    expect(has(fr, "self", "marital_status", "Single")).toBe(true)
    const de = fromProse("Ich heiße Jonas Weber und bin geboren am 3. März 1980 in Bremen. Ich wohne in der Lindenstraße 5, 28195 Bremen.", "text_info", 0.95)
    expect(has(de, "self", "full_name", "Jonas Weber")).toBe(true)
    expect(has(de, "self", "birth_date", "1980-03-03")).toBe(true)
    expect(has(de, "self", "street_address", "Lindenstraße 5")).toBe(true)
  })

  it("gives an organisation's employer number to the employer", () => {
    const facts = fromProse(
      "Call my sister Eva Berg at (937) 555-0188.\n\nAcme Tools Inc was founded in 1990. Its employer identification number (EIN) is 12-3456789.",
      "text_info",
      0.95
    )
    expect(has(facts, "employer", "ein", "12-3456789")).toBe(true)
  })

  it("tells an organisation's own contact details from those of its contact person", () => {
    const facts = fromProse(
      "Acme Widgets LLC is a manufacturer; its employer identification number (EIN) is 12-3456789. The main line is (937) 555-0120 " +
        "and the general email is office@acme.example.com. Its finance manager, Ada Byron, is the contact person and is authorized to " +
        "sign for the company; her direct line is (937) 555-0121 and her email is ada@acme.example.com.",
      "text_info",
      0.95
    )
    const about = (role: string, type: string) => facts.filter((f) => f.role === role && f.type === type).map((f) => f.value)
    expect(about("employer", "phone")).toEqual(["(937) 555-0120"])
    expect(about("employer", "email")).toEqual(["office@acme.example.com"])
    expect(about("other", "full_name")).toEqual(["Ada Byron"])
    expect(about("other", "occupation")).toEqual(["Finance manager"])
    expect(about("other", "phone")).toEqual(["(937) 555-0121"])
    expect(about("other", "email")).toEqual(["ada@acme.example.com"])
    expect(facts.filter((f) => f.role === "other").every((f) => /contact|authori[sz]ed/.test(f.relation ?? ""))).toBe(true)
    expect(facts.some((f) => f.role === "self")).toBe(false)
  })

  it("reads phone numbers of the text's country, valid ones only, and dates in any of its languages", () => {
    const fr = fromProse(
      "Je m'appelle Claire Anne Dubois, je suis née le 1er mars 1985 à Lyon. On peut me joindre au 06 12 34 56 78 ou par e-mail. " +
        "Mon fax est le 03 88 12 34 56.",
      "text_info",
      0.95
    )
    expect(has(fr, "self", "birth_date", "1985-03-01")).toBe(true)
    expect(has(fr, "self", "phone", "06 12 34 56 78")).toBe(true)
    expect(has(fr, "self", "fax", "03 88 12 34 56")).toBe(true)
    const de = fromProse("Ich heiße Jonas Weber, geboren am 3 März 1980 in Bremen, und bin erreichbar unter 0171 1234567.", "text_info", 0.95)
    expect(has(de, "self", "birth_date", "1980-03-03")).toBe(true)
    expect(has(de, "self", "phone", "0171 1234567")).toBe(true)
    const en = fromProse(
      "My name is Ada Byron. I was born on Sunday, December 10th, 1815; my phone is +44 20 7946 0958. " +
        "My brother, John Byron, was born yesterday; his phone is (555) 010-1234.",
      "text_info",
      0.95
    )
    expect(has(en, "self", "birth_date", "1815-12-10")).toBe(true)
    expect(has(en, "self", "phone", "+44 20 7946 0958")).toBe(true)
    // A day relative to today is no date; a number no country has is no phone.
    expect(en.some((f) => f.role === "other" && (f.type === "birth_date" || f.type === "phone"))).toBe(false)
  })

  it("keeps `key: value` lines and leaves unclear values out", () => {
    const facts = fromProse("First name: Ada\nThe meeting was on May 5, 2020 and the code is 1234567.", "text_info", 0.95)
    expect(has(facts, "self", "given_name", "Ada")).toBe(true)
    // A date of nothing in particular and a number with no meaning are not facts.
    expect(facts.some((f) => f.value === "2020-05-05" || f.value.includes("1234567"))).toBe(false)
  })
})
