import { Effect } from "effect"
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { layer, program } from "./embed.ts"

describe("docs/examples/embed.ts", () => {
  const dir = mkdtempSync(join(tmpdir(), "formwright-embed-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("uploads, fills and converts through the core alone", async () => {
    const outcome = await Effect.runPromise(program.pipe(Effect.provide(layer(dir))))
    expect(outcome.fieldCount).toBeGreaterThan(5)
    expect(outcome.filledFields).toBeGreaterThan(0)
    expect(outcome.convertedFields.length).toBeGreaterThan(0)
    // The filled PDF reads back in an independent reader with the values written.
    const task = getDocument({ data: outcome.filledPdf.slice() })
    const doc = await task.promise
    const values: Array<unknown> = []
    for (let n = 1; n <= doc.numPages; n++) {
      for (const annotation of await (await doc.getPage(n)).getAnnotations()) values.push(annotation.fieldValue)
    }
    expect(values).toContain("Ζωή Жанна Zoë")
    await task.destroy()
  })
})
