/**
 * Facts from a source document: a PDF (its filled fields and its `key: value` text lines, as
 * `PdfEngine.readDocument` extracts them), JSON (an object's members) or plain text
 * (`key: value` lines).
 */
import type { DocumentContent } from "../pdf/PdfTasks.ts"
import { type Fact, fromLines, fromRecord, sourceConfidence } from "./Fact.ts"

/** Whether the document is a PDF, by its bytes or, failing that, by its declared type. */
export const isPdf = (bytes: Uint8Array, contentType: string): boolean =>
  contentType.includes("pdf") || (bytes.length >= 5 && new TextDecoder().decode(bytes.subarray(0, 1024)).includes("%PDF-"))

/** The facts of a PDF's extracted content. */
export const fromPdf = (content: DocumentContent, source: string): ReadonlyArray<Fact> => [
  ...content.fields.map((field) => ({ key: field.name, value: field.value, source, confidence: sourceConfidence.document })),
  ...fromLines(content.lines.join("\n"), source, sourceConfidence.document)
]

/** The facts of a JSON or text document; what cannot be read holds none. */
export const fromText = (bytes: Uint8Array, contentType: string, source: string): ReadonlyArray<Fact> => {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes)
  if (contentType.includes("json") || /^\s*\{/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text)
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
        return fromRecord(parsed as Record<string, unknown>, source, sourceConfidence.document)
      }
    } catch {
      // Not JSON after all: read it as text.
    }
  }
  return fromLines(text, source, sourceConfidence.document)
}
