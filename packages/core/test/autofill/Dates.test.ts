import { describe, expect, it } from "@effect/vitest"
import { findDates, parseDate } from "../../src/autofill/Dates.ts"

describe("Dates.parseDate", () => {
  it("reads full dates written with words in English, German, French and Spanish", () => {
    expect(parseDate("March 14, 1988")).toBe("1988-03-14")
    expect(parseDate("Aug 19 1979")).toBe("1979-08-19")
    expect(parseDate("19 August 1979")).toBe("1979-08-19")
    expect(parseDate("Monday, March 14, 1988")).toBe("1988-03-14")
    expect(parseDate("3. März 1980")).toBe("1980-03-03")
    expect(parseDate("3 März 1980")).toBe("1980-03-03")
    expect(parseDate("3. Jänner 1980")).toBe("1980-01-03")
    expect(parseDate("3 Dez 1990")).toBe("1990-12-03")
    expect(parseDate("23 septembre 1987")).toBe("1987-09-23")
    expect(parseDate("1er mars 2001")).toBe("2001-03-01")
    expect(parseDate("mardi 3 juil. 2001")).toBe("2001-07-03")
    expect(parseDate("5 de mayo de 1990")).toBe("1990-05-05")
    expect(parseDate("14 setiembre 1990")).toBe("1990-09-14")
  })

  it("reads ISO and numeric dates, ambiguous ones only with an order", () => {
    expect(parseDate("1988-03-14")).toBe("1988-03-14")
    expect(parseDate("1988/03/14")).toBe("1988-03-14")
    expect(parseDate("14.03.1988")).toBe("1988-03-14")
    expect(parseDate("08/19/1979")).toBe("1979-08-19")
    expect(parseDate("08/19/1979", "DMY")).toBe("1979-08-19")
    expect(parseDate("03/04/2001")).toBeUndefined()
    expect(parseDate("03/04/2001", "MDY")).toBe("2001-03-04")
    expect(parseDate("03/04/2001", "DMY")).toBe("2001-04-03")
    expect(parseDate("04/04/2001")).toBe("2001-04-04")
    expect(parseDate("14 03 1988")).toBe("1988-03-14")
    // Two-digit years: 41 to 99 are of the 1900s, 00 to 40 of the 2000s.
    expect(parseDate("08/19/79")).toBe("1979-08-19")
    expect(parseDate("08/19/41")).toBe("1941-08-19")
    expect(parseDate("08/19/40")).toBe("2040-08-19")
  })

  it("reads a date and time as programs write it, and dotted dates day first", () => {
    // The date as written, whatever the time and zone after it.
    expect(parseDate("1984-11-02T00:00:00Z")).toBe("1984-11-02")
    expect(parseDate("1984-11-02T23:30:00.000-05:00")).toBe("1984-11-02")
    expect(parseDate("1984-11-02 08:15")).toBe("1984-11-02")
    expect(parseDate("1984-13-02T00:00:00Z")).toBeUndefined()
    // No country writes month first with dots: "2.11.1984" is the 2nd of November, even in English text.
    expect(parseDate("2.11.1984", "MDY")).toBe("1984-11-02")
    expect(parseDate("2/11/1984", "MDY")).toBe("1984-02-11")
  })

  it("reads no date a reader would have to complete or that does not exist", () => {
    expect(parseDate("March 1988")).toBeUndefined()
    expect(parseDate("März 1988")).toBeUndefined()
    expect(parseDate("March 14")).toBeUndefined()
    expect(parseDate("14/03")).toBeUndefined()
    expect(parseDate("1988")).toBeUndefined()
    expect(parseDate("yesterday")).toBeUndefined()
    expect(parseDate("3 days ago")).toBeUndefined()
    expect(parseDate("gestern")).toBeUndefined()
    expect(parseDate("vor 3 Tagen")).toBeUndefined()
    expect(parseDate("il y a 3 jours")).toBeUndefined()
    expect(parseDate("hace 3 días")).toBeUndefined()
    expect(parseDate("next Friday")).toBeUndefined()
    expect(parseDate("31/02/2001")).toBeUndefined()
    expect(parseDate("February 30, 2001")).toBeUndefined()
    expect(parseDate("not a date")).toBeUndefined()
    // A value holding more than a date is not a date.
    expect(parseDate("March 14, 1988 and April 2, 1990")).toBeUndefined()
    expect(parseDate("12 Main Street")).toBeUndefined()
    expect(parseDate("(630) 555-0137")).toBeUndefined()
    expect(parseDate("987-65-4317")).toBeUndefined()
  })
})

describe("Dates.findDates", () => {
  it("finds full dates in prose with their spans", () => {
    const text = "I was born on June 23, 1912 in London and married on 20 May 2010; yesterday I moved."
    const found = findDates(text, "MDY")
    expect(found.map((d) => d.value)).toEqual(["1912-06-23", "2010-05-20"])
    expect(found.map((d) => text.slice(d.at, d.end))).toEqual(["June 23, 1912", "20 May 2010"])
    expect(found[0]!.text).toBe("June 23, 1912")
  })

  it("finds German, French and Spanish dates, numeric ones in the given order", () => {
    expect(findDates("Ich bin am 3. März 1980 in Bremen geboren und wohne seit 1.2.2019 hier.", "DMY").map((d) => [d.value, d.text])).toEqual([
      ["1980-03-03", "3. März 1980"],
      ["2019-02-01", "1.2.2019"]
    ])
    expect(findDates("je suis née le 23 septembre 1987 à Nancy", "DMY").map((d) => d.value)).toEqual(["1987-09-23"])
    expect(findDates("nací el 5 de mayo de 1990 en Sevilla", "DMY").map((d) => d.value)).toEqual(["1990-05-05"])
    expect(findDates("since 03/04/2001", "MDY").map((d) => d.value)).toEqual(["2001-03-04"])
    expect(findDates("since 03/04/2001").map((d) => d.value)).toEqual([])
  })

  it("takes nothing relative to today, partial or without a year", () => {
    expect(findDates("I moved here yesterday, 3 days ago, last Friday, in March 1988, on March 14 and in 2019.", "MDY")).toEqual([])
    expect(findDates("Ich bin gestern umgezogen, vor 3 Tagen, im März 1988.", "DMY")).toEqual([])
    expect(findDates("Je suis arrivé hier, il y a 3 jours, en mars 1988.", "DMY")).toEqual([])
  })

  it("gives the same dates whatever today is", () => {
    expect(findDates("born on the 14th of March, 1988", "MDY").map((d) => d.value)).toEqual(["1988-03-14"])
  })
})
