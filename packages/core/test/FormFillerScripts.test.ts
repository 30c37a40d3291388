/**
 * Values in every script show: each is drawn with a font that has its glyphs (checked by the
 * font embedded and by ink in poppler's and pdf.js's renders), right-to-left values read right
 * to left and sit at the right, and a value no font can draw is skipped with its reason.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PDFDict, PDFName, PDFRawStream, PDFStream } from "@cantoo/pdf-lib"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { Fixtures } from "@formwright/testing"
import type { FormField } from "../src/FormField.ts"
import * as PdfEngine from "../src/PdfEngine.ts"
import * as Bidi from "../src/pdf/Bidi.ts"
import * as FormFiller from "../src/pdf/FormFiller.ts"
import * as FormReader from "../src/pdf/FormReader.ts"
import * as PdfJs from "../src/pdf/PdfJs.ts"
import * as PdfLib from "../src/pdf/PdfLib.ts"
import * as Scripts from "../src/pdf/Scripts.ts"
import * as Ink from "./support/Ink.ts"

const names = Fixtures.everyFieldType

const hasQpdf = spawnSync("qpdf", ["--version"]).status === 0

/** qpdf's exit status for `bytes`: 0 clean, 3 warnings, 2 errors. */
const qpdfCheck = (bytes: Uint8Array): number => {
  const dir = mkdtempSync(join(tmpdir(), "fw-qpdf-"))
  try {
    writeFileSync(join(dir, "out.pdf"), bytes)
    return spawnSync("qpdf", ["--check", join(dir, "out.pdf")]).status ?? -1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The font a field's appearance stream draws with: its /BaseFont and the size of its embedded file. */
const appearanceFont = (pdf: Uint8Array, formName: string) =>
  Effect.gen(function*() {
    const doc = yield* PdfLib.load(pdf)
    const entry = PdfLib.terminalFields(doc).find((t) => t.formName === formName)!
    const normal = PdfLib.widgetsOf(entry.field)[0]!.lookup(PDFName.of("AP"), PDFDict).lookup(PDFName.of("N"))
    if (!(normal instanceof PDFStream)) throw new Error("no appearance stream")
    const fonts = normal.dict.lookup(PDFName.of("Resources"), PDFDict).lookup(PDFName.of("Font"), PDFDict)
    const font = fonts.lookup(fonts.keys()[0]!, PDFDict)
    const descendant = font.lookup(PDFName.of("DescendantFonts"))
    let fileBytes = 0
    if (descendant !== undefined) {
      const cid = doc.context.lookup((descendant as unknown as { get: (i: number) => never }).get(0), PDFDict)
      const descriptor = cid.lookup(PDFName.of("FontDescriptor"), PDFDict)
      const file = descriptor.lookup(PDFName.of("FontFile3")) ?? descriptor.lookup(PDFName.of("FontFile2"))
      if (file instanceof PDFRawStream) fileBytes = file.contents.byteLength
    }
    return { base: String(font.lookup(PDFName.of("BaseFont"))), fileBytes }
  })

/** The CropBox of page `page` (1-based): what pdftoppm and pdf.js draw. */
const cropBox = (pdf: Uint8Array, page: number) =>
  Effect.map(PdfLib.load(pdf), (doc) => doc.getPage(page - 1).getCropBox())

const fixtureRect = (pdf: Uint8Array, formName: string) =>
  Effect.gen(function*() {
    const form = yield* FormReader.readForm(pdf)
    const field = form.fields.find((f) => f.form_name === formName)!
    return { page: field.page, rect: field.rect }
  })

describe("FormFiller in every script", () => {
  it("tries only Noto Sans for Latin, Greek and Cyrillic, so no CJK file is read for them", () => {
    expect(Scripts.familiesFor("Zoë Ørsted Ζωή Жанна")).toEqual(["notoSans"])
    expect(Scripts.familiesFor("山田 やまだ")[0]).toBe("japanese")
    expect(Scripts.familiesFor("홍길동")[0]).toBe("korean")
    expect(Scripts.familiesFor("张伟")[0]).toBe("simplifiedChinese")
    expect(Scripts.familiesFor("محمد")).toEqual(["arabic"])
    expect(Scripts.familiesFor("דוד")).toEqual(["hebrew"])
  })

  const samples: ReadonlyArray<readonly [string, string]> = [
    ["山田太郎 やまだ", "NotoSansJP"],
    ["홍길동 서울특별시", "NotoSansKR"],
    ["张伟 北京市海淀区", "NotoSansHans"],
    ["محمد عبد الله", "NotoNaskhArabic"],
    ["דוד כהן", "NotoSansHebrew"],
    ["Ζωή Жанна", "NotoSans"]
  ]
  for (const [value, family] of samples) {
    it.effect(`draws "${value}" with a subset of ${family} and it shows`, () =>
      Effect.gen(function*() {
        const source = yield* Effect.promise(Fixtures.formWithEveryFieldType)
        const result = yield* FormFiller.fillForm(source, [{ formName: names.firstName, value }])
        expect(result.skipped).toEqual([])
        const form = yield* FormReader.readForm(result.pdf)
        expect(form.fields.find((f) => f.form_name === names.firstName)?.value).toBe(value)
        const font = yield* appearanceFont(result.pdf, names.firstName)
        expect(font.base).toContain(family)
        // A subset: the CJK files are megabytes, the subset for a few characters kilobytes.
        expect(font.fileBytes).toBeGreaterThan(0)
        expect(font.fileBytes).toBeLessThan(60_000)
        if (Ink.hasPoppler) {
          const { page, rect } = yield* fixtureRect(result.pdf, names.firstName)
          const ink = Ink.inkIn(Ink.poppler(result.pdf, page), Ink.poppler(source, page), rect, yield* cropBox(source, page))
          expect(ink.pixels, "poppler ink").toBeGreaterThan(30)
        }
      }))
  }

  it.effect("keeps the field's standard font for WinAnsi text", () =>
    Effect.gen(function*() {
      const source = yield* Effect.promise(Fixtures.formWithEveryFieldType)
      const result = yield* FormFiller.fillForm(source, [{ formName: names.firstName, value: "Smith" }])
      expect((yield* appearanceFont(result.pdf, names.firstName)).base).toBe("/Helvetica")
    }))

  it.effect.skipIf(!Ink.hasPoppler)("puts right-to-left values at the right of a left-aligned field, and left-to-right ones at the left", () =>
    Effect.gen(function*() {
      const source = yield* Effect.promise(Fixtures.formWithEveryFieldType)
      const result = yield* FormFiller.fillForm(source, [
        { formName: names.firstName, value: "محمد 25 شارع" },
        { formName: names.lastName, value: "דוד (כהן) 12" }
      ])
      expect(result.skipped).toEqual([])
      const blank = Ink.poppler(source, 1)
      const filled = Ink.poppler(result.pdf, 1)
      const box = yield* cropBox(source, 1)
      for (const name of [names.firstName, names.lastName]) {
        const ink = Ink.inkIn(filled, blank, (yield* fixtureRect(result.pdf, name)).rect, box)
        expect(ink.pixels, name).toBeGreaterThan(30)
        expect(ink.right, name).toBeGreaterThan(0.9)
        expect(ink.left, name).toBeGreaterThan(0.3)
      }
      const latin = yield* FormFiller.fillForm(source, [{ formName: names.firstName, value: "Ζωή" }])
      const ink = Ink.inkIn(Ink.poppler(latin.pdf, 1), blank, (yield* fixtureRect(latin.pdf, names.firstName)).rect, box)
      expect(ink.left).toBeLessThan(0.1)
    }))

  it.effect("fills in a PDF worker process too, where the fonts and the subsetter load on their own", () =>
    Effect.gen(function*() {
      const source = yield* Effect.promise(Fixtures.formWithEveryFieldType)
      const assignments = [
        { formName: names.firstName, value: "山田太郎 やまだ" },
        { formName: names.lastName, value: "محمد عبد الله" }
      ]
      const result = yield* Effect.scoped(
        Effect.flatMap(Layer.build(PdfEngine.layerWorkers({ workers: 1 })), (context) => Context.get(context, PdfEngine.PdfEngine).fill(source, assignments))
      )
      expect(result.skipped).toEqual([])
      expect((yield* appearanceFont(result.pdf, names.firstName)).base).toContain("NotoSansJP")
      expect((yield* appearanceFont(result.pdf, names.lastName)).base).toContain("NotoNaskhArabic")
    }), 60_000)

  it.effect("skips a value no font can draw, naming the character, and fills the rest", () =>
    Effect.gen(function*() {
      const source = yield* Effect.promise(Fixtures.formWithEveryFieldType)
      const result = yield* FormFiller.fillForm(source, [
        { formName: names.firstName, value: "abc\u0378" },
        { formName: names.lastName, value: "홍길동" }
      ])
      expect(result.applied).toEqual([names.lastName])
      expect(result.skipped).toHaveLength(1)
      expect(result.skipped[0]!.formName).toBe(names.firstName)
      expect(result.skipped[0]!.reason).toContain("U+0378")
      const form = yield* FormReader.readForm(result.pdf)
      expect(form.fields.find((f) => f.form_name === names.firstName)?.value ?? null).toBeNull()
    }))
})

const corpusDir = join(process.env["FORMWRIGHT_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url)), "pdfs")
const hasCorpus = existsSync(corpusDir)

/** Each form filled in its own script, plus Chinese (simplified, traditional) and Hebrew values. */
const corpusPlans: ReadonlyArray<{ readonly file: string; readonly values: Record<string, string> }> = [
  {
    file: "pdfcpu__japanese.pdf",
    values: { firstName1: "山田太郎", lastName1: "やまだ たろう", note1: "東京都渋谷区神南一丁目\nヤマダ タロウ", city12: "大阪" }
  },
  {
    file: "pdfcpu__korean.pdf",
    values: { firstName1: "홍길동", lastName1: "北京市海淀区 张伟", note1: "서울특별시 강남구\n테헤란로 123", city12: "울산" }
  },
  {
    file: "pdfcpu__arabic.pdf",
    values: { firstName1: "محمد", lastName1: "عبد الله", note1: "شارع 25 الملك فهد (الرياض)\nسطر ثان" }
  },
  {
    file: "pdfcpu__russian.pdf",
    values: { firstName1: "Иван Петров", lastName1: "臺北市信義區 陳大文", note1: "דוד כהן\nרחוב הרצל 5, תל אביב" }
  }
]

describe.skipIf(!hasCorpus)("FormFiller in every script, on the corpus", () => {
  if (!hasCorpus) console.log(`Corpus script-filling tests skipped: ${corpusDir} not found`)

  for (const plan of corpusPlans) {
    it.effect(`${plan.file}: the values read back, render in poppler and pdf.js, and pass qpdf`, () =>
      Effect.gen(function*() {
        const source = new Uint8Array(readFileSync(join(corpusDir, plan.file)))
        const assignments = Object.entries(plan.values).map(([formName, value]) => ({ formName, value }))
        const result = yield* FormFiller.fillForm(source, assignments)
        expect(result.skipped).toEqual([])
        expect(result.applied).toEqual(Object.keys(plan.values))

        const form = yield* FormReader.readForm(result.pdf)
        const field = (name: string): FormField => form.fields.find((f) => f.form_name === name)!
        for (const [name, value] of Object.entries(plan.values)) expect(field(name).value, name).toBe(value)
        // pdf.js reads the same values on its own.
        const annotations = yield* PdfJs.use(result.pdf, (doc) =>
          Effect.promise(async () => {
            const all: Array<{ fieldName?: string; fieldValue?: unknown }> = []
            for (let n = 1; n <= doc.numPages; n++) all.push(...(await (await doc.getPage(n)).getAnnotations()))
            return all
          }))
        for (const [name, value] of Object.entries(plan.values)) {
          const read = annotations.find((a) => a.fieldName === name)?.fieldValue
          expect(Array.isArray(read) ? read[0] : read, name).toBe(value)
        }

        if (hasQpdf) expect(qpdfCheck(result.pdf)).toBe(0)

        const textFields = Object.keys(plan.values).filter((name) => field(name).form_type === "Text")
        const pages = [...new Set(textFields.map((name) => field(name).page))]
        for (const page of pages) {
          const renders: Array<readonly [string, Ink.Gray, Ink.Gray]> = [
            ["pdf.js", yield* Ink.pdfjs(result.pdf, page), yield* Ink.pdfjs(source, page)]
          ]
          if (Ink.hasPoppler) renders.push(["poppler", Ink.poppler(result.pdf, page), Ink.poppler(source, page)])
          const box = yield* cropBox(source, page)
          for (const [viewer, filled, blank] of renders) {
            for (const name of textFields.filter((n) => field(n).page === page)) {
              const ink = Ink.inkIn(filled, blank, field(name).rect, box)
              expect(ink.pixels, `${viewer} ${name}`).toBeGreaterThan(30)
              if (Bidi.isRtl(plan.values[name]!)) expect(ink.right, `${viewer} ${name} right-aligned`).toBeGreaterThan(0.85)
            }
          }
        }
      }), 60_000)
  }
})
