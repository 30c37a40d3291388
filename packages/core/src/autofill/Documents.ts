/**
 * Facts from a source document: a PDF (its filled fields and its `key: value` text lines),
 * JSON (an object's string members) or plain text (`key: value` lines).
 */
import { Effect } from "effect"
import * as FormReader from "../pdf/FormReader.ts"
import * as PageText from "../pdf/PageText.ts"
import { type Fact, fromLines, fromRecord, sourceConfidence } from "./Fact.ts"

const isPdf = (bytes: Uint8Array) => bytes.length >= 5 && new TextDecoder().decode(bytes.subarray(0, 1024)).includes("%PDF-")

const fromPdf = (bytes: Uint8Array, source: string) =>
  Effect.gen(function*() {
    const facts: Array<Fact> = []
    const form = yield* Effect.option(FormReader.readForm(bytes))
    if (form._tag === "Some") {
      for (const field of form.value.fields) {
        const value = field.value
        if (typeof value === "string" && value.trim() !== "") {
          facts.push({ key: field.name, value: value.trim(), source, confidence: sourceConfidence.document })
        }
      }
    }
    const pages = yield* Effect.orElseSucceed(PageText.read(bytes), () => [])
    for (const page of pages) facts.push(...fromLines(PageText.toLines(page).join("\n"), source, sourceConfidence.document))
    return facts
  })

/** Reads whatever facts `bytes` holds; an unreadable document simply holds none. */
export const facts = (bytes: Uint8Array, contentType: string, source: string): Effect.Effect<ReadonlyArray<Fact>> => {
  if (isPdf(bytes) || contentType.includes("pdf")) return fromPdf(bytes, source)
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes)
  if (contentType.includes("json") || /^\s*\{/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text)
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
        return Effect.succeed(fromRecord(parsed as Record<string, unknown>, source, sourceConfidence.document))
      }
    } catch {
      // Not JSON after all: read it as text.
    }
  }
  return Effect.succeed(fromLines(text, source, sourceConfidence.document))
}
