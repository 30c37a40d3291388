import { describe, expect, it } from "@effect/vitest"
import { countryCode, countryOfLanguage, findPhones, parsePhone } from "../../src/autofill/Phones.ts"

describe("Phones.parsePhone", () => {
  it("reads US, French and German numbers of the default country", () => {
    expect(parsePhone("(630) 555-0137", "US")).toEqual({ national: "6305550137", e164: "+16305550137", country: "US", formatted: "(630) 555-0137" })
    expect(parsePhone("630.555.0137", "US")?.formatted).toBe("(630) 555-0137")
    expect(parsePhone("+1 630-555-0137", "US")?.formatted).toBe("(630) 555-0137")
    expect(parsePhone("06 39 98 42 17", "FR")).toEqual({ national: "639984217", e164: "+33639984217", country: "FR", formatted: "06 39 98 42 17" })
    expect(parsePhone("0639984217", "FR")?.formatted).toBe("06 39 98 42 17")
    expect(parsePhone("030 12345678", "DE")).toEqual({ national: "3012345678", e164: "+493012345678", country: "DE", formatted: "030 12345678" })
    expect(parsePhone("0171 1234567", "DE")?.e164).toBe("+491711234567")
  })

  it("reads international numbers whatever the default country, written internationally", () => {
    expect(parsePhone("+33 6 12 34 56 78", "US")).toEqual({ national: "612345678", e164: "+33612345678", country: "FR", formatted: "+33 6 12 34 56 78" })
    expect(parsePhone("+49 30 12345678")?.country).toBe("DE")
    expect(parsePhone("+44 20 7946 0958")?.country).toBe("GB")
  })

  it("reads no invalid number, no number of another country without its code, no other digits", () => {
    expect(parsePhone("(555) 010-1234", "US")).toBeUndefined()
    expect(parsePhone("06 39 98 42 17", "US")).toBeUndefined()
    expect(parsePhone("06 39 98 42 17")).toBeUndefined()
    expect(parsePhone("1234567", "US")).toBeUndefined()
    expect(parsePhone("987-65-4317", "US")).toBeUndefined()
    expect(parsePhone("12-3456789", "US")).toBeUndefined()
    expect(parsePhone("1988-03-14", "US")).toBeUndefined()
    expect(parsePhone("(630) 555-0137 / (630) 555-0138", "US")).toBeUndefined()
    expect(parsePhone("none", "US")).toBeUndefined()
  })
})

describe("Phones.findPhones", () => {
  it("finds valid numbers in prose with their spans", () => {
    const text = "Reach me at (630) 555-0137 or +49 30 12345678; my SSN is 987-65-4317, ZIP 60564, old line (555) 010-1234."
    const found = findPhones(text, "US")
    expect(found.map((p) => [p.text, p.e164, p.country])).toEqual([
      ["(630) 555-0137", "+16305550137", "US"],
      ["+49 30 12345678", "+493012345678", "DE"]
    ])
    expect(found.map((p) => text.slice(p.at, p.end))).toEqual(["(630) 555-0137", "+49 30 12345678"])
  })

  it("reads national numbers as the default country's", () => {
    const text = "On peut me joindre au 06 39 98 42 17 ; mon numéro de sécurité sociale est le 2 87 09 54 395 047 80."
    expect(findPhones(text, "FR").map((p) => p.formatted)).toEqual(["06 39 98 42 17"])
    expect(findPhones(text, "US")).toEqual([])
  })
})

describe("Phones.countryCode and countryOfLanguage", () => {
  it("names countries by code or name in four languages", () => {
    expect(countryCode("France")).toBe("FR")
    expect(countryCode("Deutschland")).toBe("DE")
    expect(countryCode("États-Unis")).toBe("US")
    expect(countryCode("United States")).toBe("US")
    expect(countryCode("España")).toBe("ES")
    expect(countryCode("US")).toBe("US")
    expect(countryCode("Atlantis")).toBeUndefined()
    expect(countryOfLanguage("fr")).toBe("FR")
    expect(countryOfLanguage("en")).toBe("US")
    expect(countryOfLanguage(undefined)).toBeUndefined()
  })
})
