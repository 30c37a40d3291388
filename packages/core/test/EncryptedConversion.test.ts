/**
 * Converting encrypted PDFs: an owner-password form (empty user password, as government forms
 * often are) converts and comes back decrypted, its new widgets readable by pdf.js, by pdf-lib
 * and by our own form reader (which is what a conversion job stores the result with); a
 * user-password PDF fails at once, before any page is analysed. Corpus hybrid forms (XFA +
 * AcroForm, owner password) are converted too when `../shared/corpus` is there.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { PDFDocument } from "@cantoo/pdf-lib"
import { Fixtures, FlatFixtures } from "@formwright/testing"
import { Converter } from "../src/Converter.ts"
import type { ConversionOptions, ConversionProgress } from "../src/Converter.ts"
import * as EmbeddedConverter from "../src/EmbeddedConverter.ts"
import * as PdfEngine from "../src/PdfEngine.ts"
import * as FormReader from "../src/pdf/FormReader.ts"
import * as PdfJs from "../src/pdf/PdfJs.ts"
import * as PdfLib from "../src/pdf/PdfLib.ts"
import { messages } from "../src/pdf/PdfError.ts"

const options: ConversionOptions = { confidence: 0.1, resolution: 1600, allowCheckboxes: true }
const noProgress = () => Effect.void

const hasQpdf = spawnSync("qpdf", ["--version"]).status === 0

/** qpdf's verdict on `bytes`: exit status 0 when the file has no structural errors. */
const qpdfCheck = (bytes: Uint8Array) => {
  const dir = mkdtempSync(join(tmpdir(), "fw-encrypted-"))
  try {
    writeFileSync(join(dir, "out.pdf"), bytes)
    return spawnSync("qpdf", ["--check", join(dir, "out.pdf")], { encoding: "utf8" })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Widgets and field names as pdf.js reads them. */
const readBack = (bytes: Uint8Array) =>
  PdfJs.use(bytes, (doc) =>
    Effect.promise(async () => {
      const tooltips: Array<string> = []
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n)
        for (const a of await page.getAnnotations()) if (a.subtype === "Widget") tooltips.push(a.alternativeText ?? "")
      }
      return { tooltips, fields: [...((await doc.getFieldObjects())?.keys() ?? [])] }
    }))

/** A flat form encrypted (AES-256) with an owner password and an empty user password. */
const ownerPasswordFlatForm = async () => {
  const form = await FlatFixtures.flatApplicationForm()
  const doc = await PDFDocument.load(form.bytes)
  doc.encrypt({ ownerPassword: "owner-secret", userPassword: "", permissions: { printing: "highResolution", fillingForms: true } })
  return { ...form, bytes: await doc.save() }
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1")

layer(EmbeddedConverter.layer.pipe(Layer.provide(PdfEngine.layerWorkers({ workers: 2 }))))("encrypted conversion", (it) => {
  it.effect("an owner-password flat form converts, decrypted, and every reader sees its new fields", () =>
    Effect.gen(function*() {
      const converter = yield* Converter
      const form = yield* Effect.promise(ownerPasswordFlatForm)
      expect(latin1(form.bytes).includes("/Encrypt")).toBe(true)
      const result = yield* converter.convert(form.bytes, options, noProgress)
      expect(result.detections.map((d) => d.name)).toEqual(form.fields.map((f) => f.name))

      expect(latin1(result.pdf).includes("/Encrypt"), "an /Encrypt entry left in the output").toBe(false)
      const plain = yield* Effect.promise(() => PDFDocument.load(result.pdf))
      expect(plain.isEncrypted).toBe(false)

      const formNames = result.detections.map((d) => d.formName).sort()
      const read = yield* FormReader.readForm(result.pdf)
      expect(read.fields.map((f) => f.form_name).sort()).toEqual(formNames)
      const { tooltips, fields } = yield* readBack(result.pdf)
      expect(fields.sort()).toEqual(formNames)
      expect(tooltips.sort()).toEqual(form.fields.map((f) => f.name).sort())
      if (hasQpdf) {
        const check = qpdfCheck(result.pdf)
        expect(check.status, check.stdout + check.stderr).toBe(0)
      }
    }))

  it.effect("a user-password PDF fails at once with its own message, before any page is analysed", () =>
    Effect.gen(function*() {
      const converter = yield* Converter
      const progress: Array<ConversionProgress> = []
      const error = yield* Effect.flip(
        converter.convert(yield* Effect.promise(Fixtures.userPasswordPdf), options, (p) => Effect.sync(() => void progress.push(p)))
      )
      expect(error._tag).toBe("PdfUnusable")
      expect(error.message).toBe(messages.UserPassword)
      expect(progress).toEqual([])
    }))
})

const corpusDir = join(process.env["FORMWRIGHT_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url)), "pdfs")
const hasCorpus = existsSync(corpusDir)

/** Hybrid (XFA + AcroForm) forms encrypted with an owner password only. */
const encryptedHybrids = ["pypdfform__1087.pdf", "pypdfform__757.pdf", "pdfjs__bug1815476.pdf"]

describe.skipIf(!hasCorpus)("encrypted conversion on the corpus", () => {
  if (!hasCorpus) console.log(`Encrypted corpus conversions skipped: ${corpusDir} not found`)

  layer(EmbeddedConverter.layer.pipe(Layer.provide(PdfEngine.layerWorkers({ workers: 2 }))), { timeout: 120_000 })((it) => {
    for (const name of encryptedHybrids) {
      it.effect(`${name}: converts; the result is unencrypted, AcroForm-only and keeps every field`, () =>
        Effect.gen(function*() {
          const converter = yield* Converter
          const bytes = new Uint8Array(readFileSync(join(corpusDir, name)))
          const before = yield* FormReader.readForm(bytes)
          const result = yield* converter.convert(bytes, options, noProgress)
          expect(result.detections.length).toBeGreaterThan(0)

          const text = latin1(result.pdf)
          expect(text.includes("/Encrypt"), "an /Encrypt entry left in the output").toBe(false)
          const written = yield* Effect.promise(() => PDFDocument.load(result.pdf))
          expect(written.isEncrypted).toBe(false)
          expect(PdfLib.hasXfa(written), "XFA left in the output").toBe(false)
          // What the conversion job stores the result with: it used to refuse it as user-password.
          const after = yield* FormReader.readForm(result.pdf)
          const names = new Set(after.fields.map((f) => f.form_name))
          for (const field of before.fields) expect(names.has(field.form_name), field.form_name).toBe(true)
          for (const detection of result.detections) expect(names.has(detection.formName), detection.formName).toBe(true)
          expect(after.fields).toHaveLength(before.fields.length + result.detections.length)

          const { tooltips } = yield* readBack(result.pdf)
          for (const detection of result.detections) expect(tooltips).toContain(detection.name)
          if (hasQpdf) {
            const check = qpdfCheck(result.pdf)
            expect(check.status, check.stdout + check.stderr).toBe(0)
          }
        }), 120_000)
    }
  })
})
