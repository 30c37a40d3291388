import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Fixtures } from "@formwright/testing"
import type { FormField } from "../src/FormField.ts"
import * as FormReader from "../src/pdf/FormReader.ts"

const names = Fixtures.everyFieldType

const byName = (fields: ReadonlyArray<FormField>, formName: string): FormField => {
  const field = fields.find((f) => f.form_name === formName)
  if (!field) throw new Error(`no field ${formName}`)
  return field
}

const failureReason = (bytes: Uint8Array) =>
  FormReader.readForm(bytes).pipe(
    Effect.flip,
    Effect.map((e) => e.reason)
  )

describe("FormReader.readForm", () => {
  it.effect("reads every field type with its type, page and flags", () =>
    Effect.gen(function*() {
      const form = yield* FormReader.readForm(yield* Effect.promise(Fixtures.formWithEveryFieldType))
      expect(form.pages).toBe(2)
      expect(form.fields.map((f) => [f.form_name, f.form_type, f.page])).toEqual([
        [names.firstName, "Text", 1],
        [names.lastName, "Text", 1],
        [names.notes, "Text", 1],
        [names.postcode, "Text", 1],
        [names.subscribe, "CheckBox", 1],
        [names.colour, "RadioButton", 1],
        [names.country, "ComboBox", 2],
        [names.languages, "ListBox", 2],
        [names.signature, "Signature", 2],
        [names.reset, "PushButton", 2],
        [names.reference, "Text", 2]
      ])
      const f = form.fields
      expect(byName(f, names.lastName).required).toBe(true)
      expect(byName(f, names.firstName).required).toBe(false)
      expect(byName(f, names.reference).read_only).toBe(true)
      expect(byName(f, names.reference).value).toBe("REF-001")
      expect(byName(f, names.notes).multiline).toBe(true)
      expect(byName(f, names.postcode)).toMatchObject({ max_length: 5, comb: true, multiline: false })
      expect(byName(f, names.firstName).comb).toBe(false)
      expect(byName(f, names.firstName).value).toBeUndefined()
      expect(byName(f, names.subscribe).value).toBeUndefined()
    }))

  it.effect("names fields by tooltip, else by a cleaned partial name", () =>
    Effect.gen(function*() {
      const form = yield* FormReader.readForm(yield* Effect.promise(Fixtures.formWithEveryFieldType))
      expect(byName(form.fields, names.firstName).name).toBe("Applicant first name")
      expect(byName(form.fields, names.lastName).name).toBe("Last name")
      expect(byName(form.fields, names.postcode).name).toBe("Postcode")
    }))

  it.effect("lists options: radio export values, choice export values with labels", () =>
    Effect.gen(function*() {
      const form = yield* FormReader.readForm(yield* Effect.promise(Fixtures.formWithEveryFieldType))
      expect(byName(form.fields, names.colour).options).toEqual([
        { label: "Red", value: "Red" },
        { label: "Green", value: "Green" },
        { label: "Blue", value: "Blue" }
      ])
      expect(byName(form.fields, names.country).options).toEqual([
        { label: "United States", value: "US" },
        { label: "Greece", value: "GR" },
        { label: "Russia", value: "RU" }
      ])
      expect(byName(form.fields, names.languages).options?.map((o) => o.value)).toEqual(["English", "Greek", "Russian", "French"])
      expect(byName(form.fields, names.subscribe).options).toEqual([{ label: "Yes", value: "Yes" }])
    }))

  it.effect("gives normalised rects where the widgets were placed", () =>
    Effect.gen(function*() {
      const form = yield* FormReader.readForm(yield* Effect.promise(Fixtures.formWithEveryFieldType))
      for (const field of form.fields) {
        const [x1, y1, x2, y2] = field.rect
        expect(x1!).toBeLessThan(x2!)
        expect(y1!).toBeLessThan(y2!)
      }
      // Placed at (200, 675) 250 x 20; pdf-lib grows the rect by half the border on each side.
      expect(byName(form.fields, names.firstName).rect).toEqual([199.5, 674.5, 450.5, 695.5])
      expect(byName(form.fields, names.signature).rect).toEqual([200, 495, 450, 525])
    }))

  it.effect("derives stable, unique ids from the field names", () =>
    Effect.gen(function*() {
      const bytes = yield* Effect.promise(Fixtures.formWithEveryFieldType)
      const first = yield* FormReader.readForm(bytes)
      const second = yield* FormReader.readForm(bytes)
      expect(second.fields.map((f) => f.id)).toEqual(first.fields.map((f) => f.id))
      expect(new Set(first.fields.map((f) => f.id)).size).toBe(first.fields.length)
      for (const field of first.fields) expect(field.id).toMatch(/^fld_[0-9a-f]{12}$/)
      // The same name in another PDF gets the same id: ids depend on names, not on bytes.
      const encrypted = yield* FormReader.readForm(yield* Effect.promise(Fixtures.encryptedOwnerPasswordForm))
      expect(encrypted.fields.map((f) => f.id)).toEqual(first.fields.map((f) => f.id))
    }))

  it.effect("puts a marker for each field on its label's line in as_text", () =>
    Effect.gen(function*() {
      const form = yield* FormReader.readForm(yield* Effect.promise(Fixtures.formWithEveryFieldType))
      const lines = form.asText.split("\n")
      expect(lines[0]).toBe("--- page 1 ---")
      expect(lines).toContain("--- page 2 ---")
      const lineOf = (label: string) => lines.find((l) => l.startsWith(label)) ?? ""
      const markerOf = (formName: string) => FormReader.marker(byName(form.fields, formName).id)
      expect(lineOf("First name:")).toBe(`First name: ${markerOf(names.firstName)}`)
      expect(lineOf("Postcode:")).toBe(`Postcode: ${markerOf(names.postcode)}`)
      expect(lineOf("Country:")).toBe(`Country: ${markerOf(names.country)}`)
      for (const field of form.fields) expect(form.asText).toContain(FormReader.marker(field.id))
      // Page 2 markers come after the page 2 header.
      expect(form.asText.indexOf(markerOf(names.country))).toBeGreaterThan(form.asText.indexOf("--- page 2 ---"))
    }))

  it.effect("reads an owner-password PDF transparently", () =>
    Effect.gen(function*() {
      const form = yield* FormReader.readForm(yield* Effect.promise(Fixtures.encryptedOwnerPasswordForm))
      expect(form.fields).toHaveLength(11)
      expect(byName(form.fields, names.reference).value).toBe("REF-001")
      expect(form.asText).toContain("First name:")
    }))

  it.effect("accepts a flat PDF with no fields", () =>
    Effect.gen(function*() {
      const form = yield* FormReader.readForm(yield* Effect.promise(Fixtures.flatPdf))
      expect(form.pages).toBe(1)
      expect(form.fields).toEqual([])
      expect(form.asText).toContain("Invoice 2024-001")
    }))

  it.effect("fails with a reason for each unusable body", () =>
    Effect.gen(function*() {
      expect(yield* failureReason(Fixtures.emptyFile())).toBe("Empty")
      expect(yield* failureReason(Fixtures.notAPdf())).toBe("NotPdf")
      expect(yield* failureReason(yield* Effect.promise(Fixtures.truncatedPdf))).toBe("Damaged")
      expect(yield* failureReason(yield* Effect.promise(Fixtures.cyclicPageTreePdf))).toBe("Damaged")
      expect(yield* failureReason(yield* Effect.promise(Fixtures.userPasswordPdf))).toBe("UserPassword")
      expect(yield* failureReason(yield* Effect.promise(Fixtures.xfaOnlyPdf))).toBe("XfaOnly")
    }))

  it.effect("never throws on random garbage after a PDF header", () =>
    Effect.gen(function*() {
      let seed = 42
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
      const source = yield* Effect.promise(Fixtures.formWithEveryFieldType)
      for (let round = 0; round < 20; round++) {
        const bytes = source.slice()
        // Flip bytes all over the file, keeping the header so the parser really runs.
        for (let i = 0; i < 200; i++) bytes[16 + Math.floor(random() * (bytes.length - 16))] = Math.floor(random() * 256)
        const result = yield* Effect.result(FormReader.readForm(bytes))
        if (result._tag === "Failure") expect(result.failure._tag).toBe("PdfUnusable")
      }
    }))
})

describe("FormReader.cleanName", () => {
  it("strips indices and splits words", () => {
    expect(FormReader.cleanName("topmostSubform[0].Page1[0].f1_01[0]")).toBe("f1 01")
    expect(FormReader.cleanName("first_name")).toBe("First name")
    expect(FormReader.cleanName("dateOfBirth")).toBe("Date of birth")
    expect(FormReader.cleanName("form.applicantSSN")).toBe("Applicant SSN")
    expect(FormReader.cleanName("Given Name Text Box")).toBe("Given name text box")
    expect(FormReader.cleanName("Page1[0].[0]")).toBe("Page1")
  })
})
