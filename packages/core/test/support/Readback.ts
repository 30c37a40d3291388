/**
 * Reading a filled PDF back with independent readers: qpdf's check, pdf.js's text items with
 * their positions, pdf.js's form fields and widgets, and how far two renders of a page differ.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import * as PdfJs from "../../src/pdf/PdfJs.ts"
import type { Gray } from "./Ink.ts"

export const hasQpdf = spawnSync("qpdf", ["--version"]).status === 0

/** qpdf's exit status for `bytes`: 0 clean, 3 warnings, 2 errors. */
export const qpdfCheck = (bytes: Uint8Array): number => {
  const dir = mkdtempSync(join(tmpdir(), "fw-qpdf-"))
  try {
    writeFileSync(join(dir, "out.pdf"), bytes)
    return spawnSync("qpdf", ["--check", join(dir, "out.pdf")]).status ?? -1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A run of text as pdf.js reads it from a page's content: origin, width and size in PDF points. */
export interface TextItem {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly size: number
}

/** The text items of page `page` (1-based), in content order. Annotations are not page content. */
export const textItems = (pdf: Uint8Array, page: number) =>
  PdfJs.use(pdf, (doc) =>
    Effect.promise(async () => {
      const content = await (await doc.getPage(page)).getTextContent()
      return content.items.flatMap((item): Array<TextItem> => {
        if (!("str" in item) || item.str.trim() === "") return []
        const [a, b, , , e, f] = item.transform as Array<number>
        return [{ text: item.str, x: e!, y: f!, width: item.width, size: Math.hypot(a!, b!) }]
      })
    }))

/** What pdf.js finds of a form: its fields (by name) and the widget annotations of every page. */
export const formOf = (pdf: Uint8Array) =>
  PdfJs.use(pdf, (doc) =>
    Effect.promise(async () => {
      // pdf.js 6 answers a Map, null when the PDF has no fields.
      const fields = (await doc.getFieldObjects()) as unknown as Map<string, unknown> | null
      let widgets = 0
      for (let n = 1; n <= doc.numPages; n++) {
        widgets += (await (await doc.getPage(n)).getAnnotations()).filter((a: { subtype?: string }) => a.subtype === "Widget").length
      }
      return { fieldNames: [...(fields?.keys() ?? [])], widgets }
    }))

/** The share of pixels whose grey levels differ by more than a quarter of the range. */
export const differingShare = (a: Gray, b: Gray): number => {
  if (a.width !== b.width || a.height !== b.height) return 1
  let differing = 0
  for (let i = 0; i < a.data.length; i++) if (Math.abs(a.data[i]! - b.data[i]!) > 64) differing++
  return differing / a.data.length
}
