import { describe, expect, it } from "@effect/vitest"
import * as FieldFormat from "../../src/understand/FieldFormat.ts"

describe("FieldFormat.datePattern", () => {
  it("reads date patterns in the letters of each language", () => {
    expect(FieldFormat.datePattern("Date of birth (mm/dd/yyyy)")).toBe("MM/DD/YYYY")
    expect(FieldFormat.datePattern("Geburtsdatum (TT.MM.JJJJ)")).toBe("DD.MM.YYYY")
    expect(FieldFormat.datePattern("Date de naissance JJ/MM/AAAA")).toBe("DD/MM/YYYY")
    expect(FieldFormat.datePattern("fecha DD-MM-AAAA")).toBe("DD-MM-YYYY")
    expect(FieldFormat.datePattern("aaaa-mm-jj")).toBe("YYYY-MM-DD")
    expect(FieldFormat.datePattern("Expires MM/YY")).toBe("MM/YY")
    expect(FieldFormat.datePattern("Date")).toBeUndefined()
    expect(FieldFormat.datePattern("Address line")).toBeUndefined()
  })

  it("reads a pattern spelled in words", () => {
    expect(FieldFormat.datePattern("MONTH/DAY/YEAR")).toBe("MM/DD/YYYY")
    expect(FieldFormat.datePattern("Tag.Monat.Jahr")).toBe("DD.MM.YYYY")
    expect(FieldFormat.datePattern("jour / mois / année")).toBe("DD/MM/YYYY")
    // Two parts, or one named twice, spell no whole date.
    expect(FieldFormat.datePattern("month/year")).toBeUndefined()
    expect(FieldFormat.datePattern("day/day/year")).toBeUndefined()
  })

  it("gives the order of a pattern and of a language", () => {
    expect(FieldFormat.orderOf("DD.MM.YYYY")).toBe("DMY")
    expect(FieldFormat.orderOf("MMDDYYYY")).toBe("MDY")
    expect(FieldFormat.orderOfLanguage("en")).toBe("MDY")
    expect(FieldFormat.orderOfLanguage("de")).toBe("DMY")
    expect(FieldFormat.orderOfLanguage(undefined)).toBeUndefined()
  })

  it("reads which part of a date a box takes", () => {
    expect(FieldFormat.datePartOf("Date of birth: month")).toBe("month")
    expect(FieldFormat.datePartOf("Jahr")).toBe("year")
    expect(FieldFormat.datePartOf("dd")).toBe("day")
    expect(FieldFormat.datePartOf("Date of birth")).toBeUndefined()
  })
})

describe("FieldFormat.formatOf", () => {
  it("writes a date in 8 comb cells without separators, in the form's order", () => {
    expect(FieldFormat.formatOf({ type: "birth_date", label: "Date de naissance", hints: "", maxLength: 8, comb: true, formDateOrder: "DMY" })).toEqual({
      max_length: 8,
      comb_cells: 8,
      date_pattern: "DDMMYYYY",
      date_order: "DMY",
      digits_only: true
    })
  })

  it("prefers the pattern the label or a hint spells", () => {
    expect(FieldFormat.formatOf({ type: "date", label: "Date", hints: "(mm/dd/yyyy)", formDateOrder: "DMY" })).toEqual({
      date_pattern: "MM/DD/YYYY",
      date_order: "MDY"
    })
  })

  it("marks digits-only numbers and capitals", () => {
    expect(FieldFormat.formatOf({ type: "ssn", label: "SSN", hints: "", maxLength: 9, comb: true })?.digits_only).toBe(true)
    expect(FieldFormat.formatOf({ type: "family_name", label: "Nom (en majuscules)", hints: "" })?.upper_case).toBe(true)
    expect(FieldFormat.formatOf({ type: "family_name", label: "Last name", hints: "" })).toBeUndefined()
    expect(FieldFormat.asksForCapitals("Please write in BLOCK CAPITALS")).toBe(true)
  })

  it("marks a full name asked family name first", () => {
    for (const label of ["Full name (Last, First & Middle)", "Nom, prénom", "Apellidos y nombre", "Name, Vorname"]) {
      expect(FieldFormat.formatOf({ type: "full_name", label, hints: "" })?.name_order, label).toBe("family_first")
    }
    expect(FieldFormat.formatOf({ type: "full_name", label: "Full name", hints: "" })).toBeUndefined()
  })
})
