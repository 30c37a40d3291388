/**
 * "Is it flat?" (`FlatCheck`, run by the PDF workers): the fields a PDF has, the kind of each
 * page (a scan, an OCR'd scan, a scan inside margins, a vector page over a background image),
 * the count of fields a conversion would find compared with what the detector finds, refusals
 * like the conversion start's, and the time budget. Corpus files are checked too when
 * `../shared/corpus` is there.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { PDFDocument, setTextRenderingMode, StandardFonts, TextRenderingMode } from "@cantoo/pdf-lib"
import { Fixtures, FlatFixtures, HostileFixtures } from "@formwright/testing"
import * as FieldDetector from "../src/detect/FieldDetector.ts"
import * as FlatCheck from "../src/detect/FlatCheck.ts"
import * as PdfEngine from "../src/PdfEngine.ts"
import * as FormReader from "../src/pdf/FormReader.ts"

const options = { confidence: 0.1, allowCheckboxes: true }

/** The fields a conversion with `options` finds: the detector itself, on the whole document. */
const detectorCount = (bytes: Uint8Array, pages?: ReadonlyArray<number>) =>
  Effect.map(FieldDetector.detect(bytes, { ...options, pages }), (d) => d.fields.length)

/** The pages of several PDFs, in order, as one document. */
const concat = async (...sources: ReadonlyArray<Uint8Array>) => {
  const out = await PDFDocument.create()
  for (const bytes of sources) {
    const source = await PDFDocument.load(bytes)
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page)
  }
  return out.save()
}

const scannedPage = async () => (await FlatFixtures.flatScannedPage()).bytes

const prose = "The quick brown fox jumps over the lazy dog while the committee reviews the application in full. "

/**
 * The scanned fixture's page drawn into a new page: scaled to `scale` of it and centred (a scan
 * inside margins), with `text` lines over it in render mode `mode` (3 is invisible: an OCR layer).
 */
const scanWith = async (input: { readonly scale?: number; readonly lines?: number; readonly mode?: TextRenderingMode }) => {
  const doc = await PDFDocument.create()
  const [scan] = await doc.embedPdf(await scannedPage())
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([612, 792])
  const scale = input.scale ?? 1
  page.drawPage(scan!, { x: (612 * (1 - scale)) / 2, y: (792 * (1 - scale)) / 2, width: 612 * scale, height: 792 * scale })
  if (input.lines) {
    page.pushOperators(setTextRenderingMode(input.mode ?? TextRenderingMode.Fill))
    for (let i = 0; i < input.lines; i++) page.drawText(prose, { x: 40, y: 740 - 14 * i, size: 9, font })
    page.pushOperators(setTextRenderingMode(TextRenderingMode.Fill))
  }
  return doc.save()
}

layer(PdfEngine.layerWorkers({ workers: 2 }), { timeout: 120_000 })("FlatCheck through the PDF workers", (it) => {
  it.effect("a flat vector page and a scanned page: kinds, and the detector's count for the vector page", () =>
    Effect.gen(function*() {
      const engine = yield* PdfEngine.PdfEngine
      const form = yield* Effect.promise(FlatFixtures.flatApplicationForm)
      const bytes = yield* Effect.promise(async () => concat(form.bytes, await scannedPage()))
      const check = yield* engine.checkFlat(bytes, options)
      expect(check.pages).toBe(2)
      expect(check.fields).toBe(0)
      expect(check.xfa).toBe(false)
      expect(check.pageReports.map((p) => p.kind)).toEqual(["vector", "scanned"])
      const [vector, scanned] = check.pageReports
      expect(vector!.basis).toBe("detected")
      expect(vector!.likelyFields).toBe(form.fields.length)
      expect(vector!.likelyFields).toBe(yield* detectorCount(bytes, [1]))
      expect(scanned!).toMatchObject({ basis: "unavailable", likelyFields: undefined, reason: FlatCheck.reasons.scanned })
      expect(scanned!.stats!.imageCoverage).toBeGreaterThan(0.95)
      expect(check.likelyFields).toBe(form.fields.length)
      expect(check.basis).toBe("detected")
    }))

  it.effect("a 13-page form: every page detected, the total is the detector's", () =>
    Effect.gen(function*() {
      const engine = yield* PdfEngine.PdfEngine
      const form = yield* Effect.promise(() => FlatFixtures.flatLongForm(13))
      const check = yield* engine.checkFlat(form.bytes, options)
      expect(check.pageReports.every((p) => p.kind === "vector" && p.basis === "detected")).toBe(true)
      expect(check.likelyFields).toBe(yield* detectorCount(form.bytes))
      expect(check.likelyFields).toBeGreaterThan(0)
    }))

  it.effect("a scan with an OCR layer (invisible text) is scanned; the same text drawn visibly makes it vector", () =>
    Effect.gen(function*() {
      const engine = yield* PdfEngine.PdfEngine
      const ocr = yield* engine.checkFlat(yield* Effect.promise(() => scanWith({ lines: 30, mode: TextRenderingMode.Invisible })), options)
      expect(ocr.pageReports[0]!.kind).toBe("scanned")
      expect(ocr.pageReports[0]!.stats!.visibleGlyphs).toBe(0)
      const visible = yield* engine.checkFlat(yield* Effect.promise(() => scanWith({ lines: 30 })), options)
      expect(visible.pageReports[0]!.kind).toBe("vector")
      expect(visible.pageReports[0]!.stats!.visibleGlyphs).toBeGreaterThan(1000)
    }))

  it.effect("a scan inside margins is scanned; a small image on an empty page is not", () =>
    Effect.gen(function*() {
      const engine = yield* PdfEngine.PdfEngine
      const margins = yield* engine.checkFlat(yield* Effect.promise(() => scanWith({ scale: 0.8 })), options)
      expect(margins.pageReports[0]!.kind).toBe("scanned")
      expect(margins.pageReports[0]!.stats!.imageCoverage).toBeGreaterThan(0.55)
      expect(margins.pageReports[0]!.stats!.imageCoverage).toBeLessThan(0.75)
      const small = yield* engine.checkFlat(yield* Effect.promise(() => scanWith({ scale: 0.5 })), options)
      expect(small.pageReports[0]!.stats!.imageCoverage).toBeLessThan(0.35)
      expect(small.pageReports[0]!.kind).toBe("vector")
    }))

  it.effect("a fillable form: its fields are counted as an upload reads them", () =>
    Effect.gen(function*() {
      const engine = yield* PdfEngine.PdfEngine
      for (const bytes of [yield* Effect.promise(Fixtures.formWithEveryFieldType), yield* Effect.promise(Fixtures.encryptedOwnerPasswordForm)]) {
        const check = yield* engine.checkFlat(bytes, options)
        expect(check.fields).toBe((yield* FormReader.readForm(bytes)).fields.length)
        expect(check.fields).toBeGreaterThan(0)
        expect(check.pageReports.map((p) => p.kind)).toEqual(["vector", "vector"])
      }
    }))

  it.effect("refuses what the conversion start refuses, with the same reasons", () =>
    Effect.gen(function*() {
      const engine = yield* PdfEngine.PdfEngine
      const bad = [
        ["user password", yield* Effect.promise(Fixtures.userPasswordPdf), "UserPassword"],
        ["not a PDF", Fixtures.notAPdf(), "NotPdf"],
        ["empty", Fixtures.emptyFile(), "Empty"],
        ["truncated", yield* Effect.promise(Fixtures.truncatedPdf), "Damaged"]
      ] as const
      for (const [what, bytes, reason] of bad) {
        const atStart = yield* Effect.flip(engine.pageCount(bytes))
        const checked = yield* Effect.flip(engine.checkFlat(bytes, options))
        expect(checked, what).toMatchObject({ _tag: "PdfUnusable", reason })
        expect(checked.message, what).toBe(atStart.message)
      }
    }))

  it.effect("with no time at all, every page is unknown and there is no estimate", () =>
    Effect.gen(function*() {
      const engine = yield* PdfEngine.PdfEngine
      const form = yield* Effect.promise(FlatFixtures.flatTwoPageForm)
      const check = yield* engine.checkFlat(form.bytes, { ...options, budgetMs: 0 })
      expect(check.pageReports.map((p) => [p.kind, p.basis, p.reason])).toEqual([
        ["unknown", "unavailable", FlatCheck.reasons.noTimeToClassify],
        ["unknown", "unavailable", FlatCheck.reasons.noTimeToClassify]
      ])
      expect(check).toMatchObject({ likelyFields: 0, basis: "unavailable" })
    }))
})

layer(PdfEngine.layerWorkers({ workers: 1, limits: { maxTextItemsPerPage: 100 } }), { timeout: 60_000 })("FlatCheck under a text limit", (it) => {
  it.effect("a page drawing more text than may be read is vector, not examined, and says why", () =>
    Effect.gen(function*() {
      const engine = yield* PdfEngine.PdfEngine
      // 1,000 text runs from nested forms, past the limit of 100.
      const check = yield* engine.checkFlat(HostileFixtures.textBomb({ fanOut: 10, depth: 3 }), options)
      expect(check.pageReports).toEqual([
        expect.objectContaining({ kind: "vector", likelyFields: undefined, basis: "unavailable", reason: FlatCheck.reasons.tooMuchText })
      ])
      expect(check).toMatchObject({ likelyFields: 0, basis: "unavailable" })
    }))
})

describe("FlatCheck estimate and order", () => {
  it("extrapolates the pages not examined at the mean of those examined", () => {
    const all = { classifiedPages: 4, unclassifiedPages: 0 }
    expect(FlatCheck.estimate({ ...all, vectorPages: 4 }, new Map([[1, 10], [4, 6]]))).toEqual({ likelyFields: 32, basis: "extrapolated" })
    expect(FlatCheck.estimate({ ...all, vectorPages: 2 }, new Map([[1, 10], [2, 6]]))).toEqual({ likelyFields: 16, basis: "detected" })
    expect(FlatCheck.estimate({ ...all, vectorPages: 3 }, new Map())).toEqual({ likelyFields: 0, basis: "unavailable" })
  })

  it("counts pages not classified at the mean, times the share of vector pages among those classified", () => {
    // 2 of 4 classified pages vector, both examined (mean 8); 6 pages not classified: 3 likely vector.
    expect(FlatCheck.estimate({ vectorPages: 2, classifiedPages: 4, unclassifiedPages: 6 }, new Map([[1, 10], [2, 6]])))
      .toEqual({ likelyFields: 40, basis: "extrapolated" })
  })

  it("examines pages spread over the document: first, last, middle, then quarters", () => {
    const pages = Array.from({ length: 9 }, (_, i) => i + 1)
    const order = FlatCheck.spreadOrder(pages)
    expect(order.slice(0, 5)).toEqual([1, 9, 5, 3, 7])
    expect([...order].sort((a, b) => a - b)).toEqual(pages)
    expect(FlatCheck.spreadOrder([4])).toEqual([4])
  })
})

const corpusDir = join(process.env["FORMWRIGHT_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url)), "pdfs")
const hasCorpus = existsSync(corpusDir)
const hasPdftoppm = spawnSync("pdftoppm", ["-v"]).status === 0

/** A corpus page rendered at 100 dpi and wrapped as an image-only PDF: a scan of it. */
const rasterized = async (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), "fw-flatcheck-"))
  try {
    const render = spawnSync("pdftoppm", ["-jpeg", "-r", "100", "-f", "1", "-l", "1", "-singlefile", join(corpusDir, name), join(dir, "page")])
    if (render.status !== 0) throw new Error(`pdftoppm failed: ${render.stderr}`)
    const doc = await PDFDocument.create()
    const image = await doc.embedJpg(readFileSync(join(dir, "page.jpg")))
    const page = doc.addPage([image.width * 0.72, image.height * 0.72])
    page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() })
    return doc.save()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe.skipIf(!hasCorpus)("FlatCheck on the corpus", () => {
  if (!hasCorpus) console.log(`FlatCheck corpus tests skipped: ${corpusDir} not found`)
  const read = (name: string) => new Uint8Array(readFileSync(join(corpusDir, name)))

  layer(PdfEngine.layerWorkers({ workers: 2 }), { timeout: 120_000 })((it) => {
    it.effect("a flattened form: no fields, vector, and the detector's count", () =>
      Effect.gen(function*() {
        const engine = yield* PdfEngine.PdfEngine
        const bytes = read("qpdf__sample-form-out.pdf")
        const check = yield* engine.checkFlat(bytes, options)
        expect(check).toMatchObject({ fields: 0, xfa: false, basis: "detected" })
        expect(check.pageReports.map((p) => p.kind)).toEqual(["vector"])
        expect(check.likelyFields).toBe(yield* detectorCount(bytes))
        expect(check.likelyFields).toBeGreaterThan(0)
      }))

    it.effect("an owner-password hybrid form: its fields and its XFA, every page vector", () =>
      Effect.gen(function*() {
        const engine = yield* PdfEngine.PdfEngine
        const bytes = read("pypdfform__757.pdf")
        const check = yield* engine.checkFlat(bytes, options)
        expect(check.fields).toBe((yield* FormReader.readForm(bytes)).fields.length)
        expect(check.xfa).toBe(true)
        expect(check.pageReports.every((p) => p.kind === "vector")).toBe(true)
      }))

    it.effect("a page whose text is drawn as outlines is vector, not scanned", () =>
      Effect.gen(function*() {
        const engine = yield* PdfEngine.PdfEngine
        const check = yield* engine.checkFlat(read("pypdfform__PPF-1349.pdf"), options)
        expect(check.pageReports[0]!.kind).toBe("vector")
        expect(check.pageReports[0]!.stats!.visibleGlyphs).toBe(0)
      }))

    it.effect.skipIf(!hasPdftoppm)("a corpus form rendered to an image and wrapped as a PDF is scanned", () =>
      Effect.gen(function*() {
        const engine = yield* PdfEngine.PdfEngine
        for (const name of ["qpdf__sample-form-out.pdf", "pdfminer__f1040nr.pdf"]) {
          const check = yield* engine.checkFlat(yield* Effect.promise(() => rasterized(name)), options)
          expect(check.pageReports.map((p) => p.kind), name).toEqual(["scanned"])
          expect(check.basis).toBe("unavailable")
        }
      }))
  })
})
