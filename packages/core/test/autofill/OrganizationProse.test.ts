import { describe, expect, it } from "@effect/vitest"
import { statements } from "../../src/autofill/OrganizationProse.ts"
import { fromProse } from "../../src/autofill/Prose.ts"

const byType = (text: string) => Object.fromEntries(statements(text).map((s) => [s.type, s.value]))

describe("OrganizationProse.statements", () => {
  it("reads an organisation's name, kind of business, founding date, head count, income and industry code", () => {
    const text =
      "Birchwood Analytics Inc. is a privately held data consulting firm founded on June 2, 2015. It has 120 full-time employees, " +
      "a gross annual income of $12,400,000 and a net annual income of $1,300,000. Its NAICS code is 541611."
    expect(byType(text)).toEqual({
      organization: "Birchwood Analytics Inc.",
      business_type: "Data consulting",
      established_date: "2015-06-02",
      employee_count: "120",
      gross_income: "$12,400,000",
      net_income: "$1,300,000",
      industry_code: "541611"
    })
  })

  it("reads whether it works for profit", () => {
    expect(byType("Larch & Co. LLC is a for-profit surveying firm.").legal_form).toBe("For-profit")
    expect(byType("Harbour Aid Inc. is a nonprofit relief organization.").legal_form).toBe("Nonprofit")
    expect(byType("Die Tafel Nord e. V. ist ein gemeinnütziger Verein.").legal_form).toBe("Nonprofit")
  })

  it("reads German and French statements", () => {
    expect(byType("Die Muster Bau GmbH ist ein Bauunternehmen, gegründet am 03.04.2001, und hat 35 Mitarbeiter.")).toMatchObject({
      organization: "Muster Bau GmbH",
      established_date: "2001-04-03",
      employee_count: "35"
    })
    expect(byType("Atelier Lumière SARL est une entreprise créée le 14 mars 2012 ; son code NAF est 7410.")).toMatchObject({
      organization: "Atelier Lumière SARL",
      established_date: "2012-03-14"
    })
  })

  it("takes no partial date, and nothing stated twice with two values", () => {
    expect(byType("Acme LLC was founded in 2011.")).toEqual({ organization: "Acme LLC" })
    expect(byType("Acme LLC has 20 employees in Ohio and 35 employees in Texas.")).not.toHaveProperty("employee_count")
  })
})

describe("Prose.fromProse with an organisation's paragraph", () => {
  it("gives an organisation's statements the employer role, and a person's paragraph none of them", () => {
    const company = fromProse("Birchwood Analytics Inc. is a data consulting firm. It has 120 employees.", "text_info", 0.95)
    expect(company.filter((f) => f.type === "employee_count").map((f) => [f.role, f.value])).toEqual([["employer", "120"]])
    const person = fromProse("I manage 12 employees at Birchwood Analytics Inc. in Denver.", "text_info", 0.95)
    expect(person.some((f) => f.type === "employee_count")).toBe(false)
  })
})
