/**
 * The real-world corpus through POST /v1/forms/upload: every PDF answers 200 with exactly the
 * manifest's terminal field count, or 422 with a message that says what is wrong; never a 500,
 * and the server stays up. The corpus lives beside the checkout (/work/shared/corpus next to
 * /work/main) and is not part of the project: without it the sweep is skipped.
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { upload } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

interface ManifestEntry {
  readonly name: string
  readonly n_fields: number
  readonly category: "form" | "tricky" | "flat" | "malformed"
  readonly bytes: number
}

const corpusDir = fileURLToPath(new URL("../../../../shared/corpus", import.meta.url))
const pdfDir = join(corpusDir, "pdfs")
const manifestPath = join(corpusDir, "manifest.json")
const available = existsSync(pdfDir) && existsSync(manifestPath)
const entries: ReadonlyArray<ManifestEntry> = available
  ? (JSON.parse(readFileSync(manifestPath, "utf8")).files as Array<ManifestEntry>).filter((e) => existsSync(join(pdfDir, e.name)))
  : []

/** What a 422 may say: which of the unusable kinds the file is. */
const CLEAR_422 = /not a PDF|damaged|user password|XFA|empty/i

if (!available) {
  console.warn(`Corpus not found at ${corpusDir}: the corpus sweep was skipped.`)
}

const suite = available ? describe : describe.skip

suite("corpus sweep through POST /v1/forms/upload", () => {
  let server: TestServer.TestServer
  const outcomes: Array<{ file: string; category: string; status: number; fields: number | string; expected: number; ms: number }> = []

  beforeAll(async () => {
    server = await TestServer.start({ config: { maxUploadBytes: 50 * 1024 * 1024 } })
  })
  afterAll(async () => {
    if (outcomes.length > 0) {
      const lines = outcomes.map((o) => `| ${o.file} | ${o.category} | ${o.status} | ${o.fields} | ${o.expected} | ${o.ms} |`)
      console.log(["| file | category | status | fields | manifest n_fields | ms |", "|---|---|---|---|---|---|", ...lines].join("\n"))
    }
    await server?.stop()
  })

  for (const entry of entries) {
    it(`${entry.name} (${entry.category}, ${entry.n_fields} fields)`, async () => {
      const bytes = new Uint8Array(readFileSync(join(pdfDir, entry.name)))
      const started = Date.now()
      const res = await upload(server, bytes, { headers: { "x-file-name": entry.name } })
      const text = await res.text()
      const ms = Date.now() - started
      let fields: number | string = "-"
      if (res.status === 200) {
        const body = JSON.parse(text)
        fields = body[0].fields.length
      } else if (res.status === 422) {
        fields = JSON.parse(text).error_message
      }
      outcomes.push({ file: entry.name, category: entry.category, status: res.status, fields, expected: entry.n_fields, ms })

      expect(res.status, text.slice(0, 300)).not.toBe(500)
      expect([200, 422], text.slice(0, 300)).toContain(res.status)
      // A real form (the "form" category) must be read, not refused.
      if (entry.category === "form") expect(res.status, text.slice(0, 300)).toBe(200)
      const body = JSON.parse(text)
      if (res.status === 200) {
        expect(body).toHaveLength(1)
        expect(body[0].object).toBe("upload_form")
        expect(body[0].file_name).toBe(entry.name)
        expect(body[0].fields.length).toBe(entry.n_fields)
        const ids = new Set(body[0].fields.map((f: any) => f.id))
        expect(ids.size).toBe(entry.n_fields)
      } else {
        expect(body.object).toBe("error")
        expect(body.error_message).toMatch(CLEAR_422)
      }
    }, 120_000)
  }

  it("the server is still up after the sweep", async () => {
    const res = await server.call("/health", { key: null })
    expect(res.status).toBe(200)
    expect((await res.json()).status).toBe("ok")
  })
})
