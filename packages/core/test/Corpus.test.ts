/**
 * Sweeps the corpus of real public PDF forms kept beside the repository (shared/corpus, not
 * committed): every form, tricky and flat file must read with exactly the manifest's count of
 * terminal fields; malformed, XFA-only and user-password files must fail as `PdfUnusable`.
 * A handful of forms are also filled with Greek, Cyrillic and Latin text and read back.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as FormFiller from "../src/pdf/FormFiller.ts"
import * as FormReader from "../src/pdf/FormReader.ts"

interface ManifestEntry {
  readonly name: string
  readonly category: "form" | "tricky" | "flat" | "malformed"
  readonly n_fields: number
  readonly pages: number
  readonly lang?: string
}

const corpusDir = process.env["FORMWRIGHT_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url))
const manifestPath = join(corpusDir, "manifest.json")

/** Files that must be refused, and why. */
const refused: Record<string, string> = {
  "pdfbox__PasswordSample-256bit.pdf": "UserPassword",
  "pdfjs__issue14130.pdf": "XfaOnly"
}

/** Forms the fill check runs on: plain, encrypted, hybrid XFA, Cyrillic, comb-heavy, NeedAppearances. */
const fillSample = [
  "pdfjs__prefilled_f1040.pdf",
  "pdfjs__bug1815476.pdf",
  "pdfjs__bug1883609.pdf",
  "pdfjs__issue17492.pdf",
  "pdflib__with_combed_fields.pdf",
  "pypdfform__1087.pdf",
  "pdfcpu__russian.pdf",
  "pdfbox__AcroFormsBasicFields.pdf",
  "formfyxer__court-3902bb0b83.pdf"
]

const unicodeValue = "Ζωή Жанна Zoë"

const hasQpdf = spawnSync("qpdf", ["--version"]).status === 0

const qpdfStatus = (bytes: Uint8Array): number => {
  const dir = mkdtempSync(join(tmpdir(), "fw-corpus-"))
  try {
    writeFileSync(join(dir, "out.pdf"), bytes)
    return spawnSync("qpdf", ["--check", join(dir, "out.pdf")]).status ?? -1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (!existsSync(manifestPath)) {
  console.log(`Corpus not found at ${corpusDir}: the corpus sweep was skipped.`)
  describe.skip("corpus sweep", () => {
    it("needs shared/corpus", () => {})
  })
} else {
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { readonly files: ReadonlyArray<ManifestEntry> }
  const bytesOf = (entry: ManifestEntry) => new Uint8Array(readFileSync(join(corpusDir, "pdfs", entry.name)))

  describe("corpus sweep: readForm", () => {
    for (const entry of manifest.files) {
      it.effect(`${entry.name} (${entry.category}, ${entry.n_fields} fields)`, () =>
        Effect.gen(function*() {
          const result = yield* Effect.result(FormReader.readForm(bytesOf(entry)))
          const reason = refused[entry.name]
          if (reason !== undefined) {
            expect(result._tag).toBe("Failure")
            if (result._tag === "Failure") expect(result.failure.reason).toBe(reason)
          } else if (entry.category === "malformed") {
            if (result._tag === "Success") expect(result.success.fields).toHaveLength(entry.n_fields)
            else expect(result.failure._tag).toBe("PdfUnusable")
          } else {
            if (result._tag === "Failure") throw new Error(`${entry.name}: ${result.failure.reason}`)
            expect(result.success.fields).toHaveLength(entry.n_fields)
            expect(result.success.pages).toBe(entry.pages)
            expect(new Set(result.success.fields.map((f) => f.id)).size).toBe(entry.n_fields)
            for (const field of result.success.fields) {
              expect(result.success.asText).toContain(FormReader.marker(field.id))
              expect(field.page).toBeGreaterThanOrEqual(1)
              expect(field.page).toBeLessThanOrEqual(entry.pages)
            }
          }
        }))
    }
  })

  describe("corpus: fields without a /TU are named by their accessible name", () => {
    it.effect("a check box of a group says its question, and keeps its printed caption as semantic.label", () =>
      Effect.gen(function*() {
        const form = yield* FormReader.readForm(bytesOf({ name: "pdfjs__bug1883609.pdf" } as ManifestEntry))
        const languages = form.fields.filter((f) => f.form_type === "CheckBox" && f.semantic?.label !== undefined)
        expect(languages.map((f) => [f.name, f.semantic?.label])).toContainEqual(["I speak and understand: Deutsch", "Deutsch"])
        // A field whose name is its printed label carries no second copy of it.
        for (const f of form.fields) if (f.semantic?.label !== undefined) expect(f.semantic.label).not.toBe(f.name)
      }))
  })

  // Fonts that name one of the predefined CMaps (UniJIS-UCS2-H, ...) read as no text at all
  // unless pdf.js is given its CMaps.
  describe("corpus sweep: Chinese, Japanese and Korean page text", () => {
    const script: Record<string, RegExp> = { ja: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u, zh: /\p{Script=Han}/u, ko: /\p{Script=Hangul}/u }
    for (const entry of manifest.files.filter((e) => e.category === "form" && e.lang !== undefined && e.lang in script)) {
      it.effect(`${entry.name} (${entry.lang}) reads in its script`, () =>
        Effect.gen(function*() {
          const form = yield* FormReader.readForm(bytesOf(entry))
          expect(form.asText.replace(/\[\[[^\]]*\]\]/g, "")).toMatch(script[entry.lang!]!)
        }))
    }
  })

  describe("corpus sweep: fillForm", () => {
    for (const name of fillSample) {
      const entry = manifest.files.find((e) => e.name === name)
      if (!entry) continue
      it.effect(`${name}: Greek, Cyrillic and Latin text fills and reads back`, () =>
        Effect.gen(function*() {
          const bytes = bytesOf(entry)
          const before = yield* FormReader.readForm(bytes)
          const target = before.fields.find((f) =>
            f.form_type === "Text" && !f.read_only && !f.comb && (f.max_length ?? Infinity) >= unicodeValue.length
          )
          if (!target) throw new Error(`${name} has no fillable text field`)
          const result = yield* FormFiller.fillForm(bytes, [{ formName: target.form_name, value: unicodeValue }])
          expect(result.applied).toEqual([target.form_name])
          const after = yield* FormReader.readForm(result.pdf)
          expect(after.fields).toHaveLength(before.fields.length)
          expect(after.fields.find((f) => f.id === target.id)?.value).toBe(unicodeValue)
          if (hasQpdf) expect(qpdfStatus(result.pdf)).toBe(0)
        }))
    }
  })
}
