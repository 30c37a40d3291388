/**
 * Writing detections into a PDF: text fields, comb fields with their cell count, check boxes,
 * radio groups (one field, each option's caption its export value) and signature fields, each
 * named by its /TU; read back with our reader (which a conversion stores the result with), with
 * pdf.js, and checked by qpdf when it is installed.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PDFDocument } from "@cantoo/pdf-lib"
import * as AddFields from "../src/detect/AddFields.ts"
import type { DetectedField } from "../src/detect/FieldDetector.ts"
import * as FormReader from "../src/pdf/FormReader.ts"
import * as PdfJs from "../src/pdf/PdfJs.ts"

const hasQpdf = spawnSync("qpdf", ["--version"]).status === 0

const detection = (over: Partial<DetectedField> & Pick<DetectedField, "name" | "formName" | "rect">): DetectedField => ({
  page: 1,
  kind: "Text",
  source: "box",
  confidence: 0.8,
  label: over.name,
  multiline: false,
  ...over
} as DetectedField)

describe("AddFields.addFields", () => {
  it.effect("writes text, comb, check box, radio group and signature fields, named by their labels", () =>
    Effect.gen(function*() {
      const doc = yield* Effect.promise(() => PDFDocument.create())
      doc.addPage([612, 792])
      const blank = yield* Effect.promise(() => doc.save())
      const fields = [
        detection({ name: "Full name", formName: "full_name", rect: { x1: 100, y1: 700, x2: 300, y2: 716 } }),
        detection({ name: "ZIP code", formName: "zip", rect: { x1: 100, y1: 660, x2: 200, y2: 676 }, maxLength: 5 }),
        detection({ name: "Smoker", formName: "smoker", kind: "CheckBox", rect: { x1: 100, y1: 620, x2: 112, y2: 632 } }),
        detection({ name: "Sex", formName: "sex", kind: "CheckBox", rect: { x1: 100, y1: 580, x2: 112, y2: 592 }, radio: { group: "g1", value: "Female" } }),
        detection({ name: "Sex", formName: "sex_2", kind: "CheckBox", rect: { x1: 160, y1: 580, x2: 172, y2: 592 }, radio: { group: "g1", value: "Male" } }),
        detection({ name: "Signature", formName: "signature", rect: { x1: 100, y1: 500, x2: 300, y2: 520 }, signature: true })
      ]
      const written = yield* AddFields.addFields(blank, fields)
      expect(written.fields.map((f) => f.formName)).toEqual(["full_name", "zip", "smoker", "sex", "signature"])
      const form = yield* FormReader.readForm(written.pdf)
      const byName = new Map(form.fields.map((f) => [f.form_name, f]))
      expect(byName.get("full_name")).toMatchObject({ form_type: "Text", name: "Full name" })
      expect(byName.get("zip")).toMatchObject({ form_type: "Text", max_length: 5, comb: true })
      expect(byName.get("smoker")).toMatchObject({ form_type: "CheckBox", name: "Smoker" })
      expect(byName.get("sex")?.form_type).toBe("RadioButton")
      expect(byName.get("sex")?.options?.map((o) => o.value)).toEqual(["Female", "Male"])
      expect(byName.get("signature")).toMatchObject({ form_type: "Signature", name: "Signature" })
      // pdf.js sees the same widgets: one per field, two for the radio group.
      const widgets = yield* PdfJs.use(written.pdf, (pdf) =>
        Effect.promise(async () => (await (await pdf.getPage(1)).getAnnotations()).filter((a: { subtype: string }) => a.subtype === "Widget")))
      expect(widgets).toHaveLength(6)
      expect(widgets.find((w: { fieldName: string }) => w.fieldName === "signature")?.fieldType).toBe("Sig")
      if (hasQpdf) {
        const dir = mkdtempSync(join(tmpdir(), "fw-addfields-"))
        try {
          writeFileSync(join(dir, "out.pdf"), written.pdf)
          expect(spawnSync("qpdf", ["--check", join(dir, "out.pdf")]).status).toBe(0)
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }
    }))
})
