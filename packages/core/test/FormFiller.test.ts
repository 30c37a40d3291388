import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PDFArray, PDFBool, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream } from "@cantoo/pdf-lib"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Fixtures } from "@formwright/testing"
import type { FormField } from "../src/FormField.ts"
import * as FormFiller from "../src/pdf/FormFiller.ts"
import * as FormReader from "../src/pdf/FormReader.ts"
import * as PageText from "../src/pdf/PageText.ts"
import * as PdfJs from "../src/pdf/PdfJs.ts"
import * as PdfLib from "../src/pdf/PdfLib.ts"

const names = Fixtures.everyFieldType

const everyValue: ReadonlyArray<FormFiller.Assignment> = [
  { formName: names.firstName, value: "Ζωή Ελληνική" },
  { formName: names.lastName, value: "Жанна Иванова" },
  { formName: names.notes, value: "Zoë Ørsted\nsecond line" },
  { formName: names.postcode, value: "1234567" },
  { formName: names.subscribe, value: true },
  { formName: names.colour, value: "green" },
  { formName: names.country, value: "Greece" },
  { formName: names.languages, value: ["Greek", "Russian"] }
]

const valueOf = (fields: ReadonlyArray<FormField>, formName: string) => fields.find((f) => f.form_name === formName)?.value

const hasQpdf = spawnSync("qpdf", ["--version"]).status === 0

/** qpdf's exit status for `bytes`: 0 clean, 3 warnings, 2 errors. */
const qpdfCheck = (bytes: Uint8Array): number => {
  const dir = mkdtempSync(join(tmpdir(), "fw-qpdf-"))
  try {
    const file = join(dir, "out.pdf")
    writeFileSync(file, bytes)
    return spawnSync("qpdf", ["--check", file]).status ?? -1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The filled appearances drawn into the page content, so pdf.js reads them as page text. */
const flattenedText = (bytes: Uint8Array) =>
  Effect.gen(function*() {
    const flat = yield* Effect.promise(async () => {
      const doc = await PDFDocument.load(bytes, { updateMetadata: false })
      const form = doc.getForm()
      // pdf-lib's flatten complains about widgets without appearances (the unsigned signature).
      for (const field of form.getFields()) if (PdfLib.widgetsOf(field).some((w) => !FormFiller.hasAppearance(w))) form.removeField(field)
      form.flatten({ updateFieldAppearances: false })
      return doc.save()
    })
    const pages = yield* PageText.read(flat)
    return pages.flatMap((p) => p.runs.map((r) => r.text)).join(" ")
  })

describe("FormFiller.fillForm", () => {
  it.effect("fills every fillable type and reads the values back", () =>
    Effect.gen(function*() {
      const source = yield* Effect.promise(Fixtures.formWithEveryFieldType)
      const result = yield* FormFiller.fillForm(source, everyValue)
      expect(result.applied).toEqual(everyValue.map((a) => a.formName))
      expect(result.skipped).toEqual([])
      const form = yield* FormReader.readForm(result.pdf)
      expect(form.fields).toHaveLength(11)
      expect(valueOf(form.fields, names.firstName)).toBe("Ζωή Ελληνική")
      expect(valueOf(form.fields, names.lastName)).toBe("Жанна Иванова")
      expect(valueOf(form.fields, names.notes)).toBe("Zoë Ørsted\nsecond line")
      expect(valueOf(form.fields, names.postcode)).toBe("12345")
      expect(valueOf(form.fields, names.subscribe)).toBe(true)
      expect(valueOf(form.fields, names.colour)).toBe("Green")
      expect(valueOf(form.fields, names.country)).toBe("GR")
      expect(valueOf(form.fields, names.languages)).toEqual(["Greek", "Russian"])
      expect(valueOf(form.fields, names.reference)).toBe("REF-001")
    }))

  it.effect("writes values pdf.js reads back on its own", () =>
    Effect.gen(function*() {
      const result = yield* FormFiller.fillForm(yield* Effect.promise(Fixtures.formWithEveryFieldType), everyValue)
      const annotations = yield* PdfJs.use(result.pdf, (doc) =>
        Effect.promise(async () => {
          const all: Array<{ fieldName?: string; fieldValue?: unknown }> = []
          for (let n = 1; n <= doc.numPages; n++) all.push(...(await (await doc.getPage(n)).getAnnotations()))
          return all
        }))
      const pdfjsValue = (name: string) => annotations.find((a) => a.fieldName === name)?.fieldValue
      expect(pdfjsValue(names.firstName)).toBe("Ζωή Ελληνική")
      expect(pdfjsValue(names.lastName)).toBe("Жанна Иванова")
      expect(pdfjsValue(names.postcode)).toBe("12345")
      expect(pdfjsValue(names.country)).toEqual(["GR"])
      expect(pdfjsValue(names.colour)).toBe("Green")
      expect(pdfjsValue(names.subscribe)).toBe("Yes")
    }))

  it.effect("draws the values: the appearances render as text, Greek and Cyrillic included", () =>
    Effect.gen(function*() {
      const result = yield* FormFiller.fillForm(yield* Effect.promise(Fixtures.formWithEveryFieldType), everyValue)
      const text = yield* flattenedText(result.pdf)
      for (const expected of ["Ζωή", "Ελληνική", "Жанна", "Иванова", "Zoë", "Ørsted", "second line", "Greece"]) {
        expect(text).toContain(expected)
      }
      // Comb fields draw one character per cell.
      expect(text.replace(/\s+/g, "")).toContain("12345")
    }))

  it.effect("writes appearance streams and does not leave them to NeedAppearances", () =>
    Effect.gen(function*() {
      const result = yield* FormFiller.fillForm(yield* Effect.promise(Fixtures.formWithEveryFieldType), everyValue)
      const doc = yield* PdfLib.load(result.pdf)
      const filled = new Set(everyValue.map((a) => a.formName))
      for (const { field, formName } of PdfLib.terminalFields(doc)) {
        if (!filled.has(formName)) continue
        for (const widget of PdfLib.widgetsOf(field)) expect(FormFiller.hasAppearance(widget), formName).toBe(true)
      }
      const needAppearances = PdfLib.acroForm(doc)?.lookup(PDFName.of("NeedAppearances"))
      expect(needAppearances === undefined || (needAppearances instanceof PDFBool && !needAppearances.asBoolean())).toBe(true)
    }))

  it.effect("embeds a Unicode font for non-WinAnsi text and keeps Helvetica for plain text", () =>
    Effect.gen(function*() {
      const result = yield* FormFiller.fillForm(yield* Effect.promise(Fixtures.formWithEveryFieldType), [
        { formName: names.firstName, value: "Ζωή" },
        { formName: names.lastName, value: "Smith" }
      ])
      const doc = yield* PdfLib.load(result.pdf)
      const fontOf = (formName: string) => {
        const entry = PdfLib.terminalFields(doc).find((t) => t.formName === formName)!
        const widget = PdfLib.widgetsOf(entry.field)[0]!
        const normal = widget.lookup(PDFName.of("AP"), PDFDict).lookup(PDFName.of("N"))
        if (!(normal instanceof PDFStream)) throw new Error("no appearance stream")
        const fonts = normal.dict.lookup(PDFName.of("Resources"), PDFDict).lookup(PDFName.of("Font"), PDFDict)
        const font = fonts.lookup(fonts.keys()[0]!, PDFDict)
        return { subtype: font.lookup(PDFName.of("Subtype")), base: String(font.lookup(PDFName.of("BaseFont"))) }
      }
      const unicode = fontOf(names.firstName)
      expect(unicode.subtype).toBe(PDFName.of("Type0"))
      expect(unicode.base).toContain("NotoSans")
      expect(fontOf(names.lastName).base).toBe("/Helvetica")
      // The field's /DA names a font the AcroForm's /DR resolves, for viewers that redraw.
      const dr = PdfLib.acroForm(doc)!.lookup(PDFName.of("DR"), PDFDict).lookup(PDFName.of("Font"), PDFDict)
      expect(dr.keys().some((k) => k.decodeText().includes("NotoSans"))).toBe(true)
    }))

  it.effect("skips what cannot be filled, with a reason, and fills the rest", () =>
    Effect.gen(function*() {
      const result = yield* FormFiller.fillForm(yield* Effect.promise(Fixtures.formWithEveryFieldType), [
        { formName: "no.such.field", value: "x" },
        { formName: names.reference, value: "changed" },
        { formName: names.signature, value: "x" },
        { formName: names.reset, value: "x" },
        { formName: names.firstName, value: true },
        { formName: names.colour, value: "Purple" },
        { formName: names.country, value: "Atlantis" },
        { formName: names.subscribe, value: "maybe" },
        { formName: names.lastName, value: "Smith" }
      ])
      expect(result.applied).toEqual([names.lastName])
      expect(result.skipped.map((s) => s.formName)).toEqual([
        "no.such.field",
        names.reference,
        names.signature,
        names.reset,
        names.firstName,
        names.colour,
        names.country,
        names.subscribe
      ])
      for (const s of result.skipped) expect(s.reason.length).toBeGreaterThan(5)
      const form = yield* FormReader.readForm(result.pdf)
      expect(valueOf(form.fields, names.reference)).toBe("REF-001")
      expect(valueOf(form.fields, names.lastName)).toBe("Smith")
    }))

  it.effect("matches options by export value, label or state, and clears values", () =>
    Effect.gen(function*() {
      const source = yield* Effect.promise(Fixtures.formWithEveryFieldType)
      const checked = yield* FormFiller.fillForm(source, [
        { formName: names.subscribe, value: "Yes" },
        { formName: names.country, value: "RU" },
        { formName: names.languages, value: "french" },
        { formName: names.colour, value: "Blue" }
      ])
      const first = yield* FormReader.readForm(checked.pdf)
      expect(valueOf(first.fields, names.subscribe)).toBe(true)
      expect(valueOf(first.fields, names.country)).toBe("RU")
      expect(valueOf(first.fields, names.languages)).toEqual(["French"])
      expect(valueOf(first.fields, names.colour)).toBe("Blue")
      const cleared = yield* FormFiller.fillForm(checked.pdf, [
        { formName: names.subscribe, value: false },
        { formName: names.colour, value: false },
        { formName: names.country, value: "" }
      ])
      expect(cleared.applied).toHaveLength(3)
      const second = yield* FormReader.readForm(cleared.pdf)
      expect(valueOf(second.fields, names.subscribe)).toBeUndefined()
      expect(valueOf(second.fields, names.colour)).toBeUndefined()
      expect(valueOf(second.fields, names.country)).toBeUndefined()
    }))

  it.effect("fills an owner-password PDF and saves it decrypted", () =>
    Effect.gen(function*() {
      const result = yield* FormFiller.fillForm(yield* Effect.promise(Fixtures.encryptedOwnerPasswordForm), [
        { formName: names.firstName, value: "Ζωή Жанна Zoë" }
      ])
      expect(result.applied).toEqual([names.firstName])
      const plain = yield* Effect.promise(() => PDFDocument.load(result.pdf, { updateMetadata: false }))
      expect(plain.isEncrypted).toBe(false)
      const form = yield* FormReader.readForm(result.pdf)
      expect(valueOf(form.fields, names.firstName)).toBe("Ζωή Жанна Zoë")
      expect(yield* flattenedText(result.pdf)).toContain("Жанна")
    }))

  it.effect("rejects unusable bodies as the reader does", () =>
    Effect.gen(function*() {
      const reason = (bytes: Uint8Array) => FormFiller.fillForm(bytes, []).pipe(Effect.flip, Effect.map((e) => e.reason))
      expect(yield* reason(Fixtures.notAPdf())).toBe("NotPdf")
      expect(yield* reason(Fixtures.emptyFile())).toBe("Empty")
      expect(yield* reason(yield* Effect.promise(Fixtures.userPasswordPdf))).toBe("UserPassword")
      expect(yield* reason(yield* Effect.promise(Fixtures.xfaOnlyPdf))).toBe("XfaOnly")
    }))

  it.effect("leaves no stale cross-reference or object streams behind", () =>
    Effect.gen(function*() {
      const result = yield* FormFiller.fillForm(yield* Effect.promise(Fixtures.encryptedOwnerPasswordForm), [
        { formName: names.lastName, value: "Smith" }
      ])
      const doc = yield* PdfLib.load(result.pdf)
      const pages = doc.catalog.lookup(PDFName.of("Pages"), PDFDict).lookup(PDFName.of("Kids"), PDFArray)
      expect(pages.get(0)).toBeInstanceOf(PDFRef)
      expect(new TextDecoder("latin1").decode(result.pdf)).not.toContain("/Encrypt")
    }))

  it.effect.skipIf(!hasQpdf)("produces files qpdf --check accepts", () =>
    Effect.gen(function*() {
      for (const source of [yield* Effect.promise(Fixtures.formWithEveryFieldType), yield* Effect.promise(Fixtures.encryptedOwnerPasswordForm)]) {
        const result = yield* FormFiller.fillForm(source, everyValue)
        expect(qpdfCheck(result.pdf)).toBe(0)
      }
    }))
})
