/**
 * Owner-password-encrypted hybrid forms converted over HTTP (issue 8, point 6): the job
 * completes with a stored form holding the original fields and the detected ones, and the
 * returned PDF is unencrypted and readable by pdf.js. Such jobs used to run every page and then
 * fail with "The PDF is encrypted with a user password". A user-password PDF is refused at the
 * start, before any job exists. The corpus forms are beside the checkout; without them those
 * tests are skipped.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import { expectBareError, pdfFields } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const pdfDir = join(fileURLToPath(new URL("../../../../shared/corpus", import.meta.url)), "pdfs")
const hasCorpus = existsSync(pdfDir)
if (!hasCorpus) console.warn(`Corpus not found at ${pdfDir}: encrypted corpus conversions over HTTP were skipped.`)

const start = (server: TestServer.TestServer, bytes: Uint8Array) =>
  server.call("/v1/utils/convert", { method: "POST", headers: { "content-type": "application/pdf" }, body: bytes as Uint8Array<ArrayBuffer> })

describe("encrypted PDFs through /v1/utils/convert", () => {
  let server: TestServer.TestServer
  beforeAll(async () => {
    server = await TestServer.start()
  })
  afterAll(() => server.stop())

  it("a user-password PDF is refused at the start with its message", async () => {
    await expectBareError(await start(server, await Fixtures.userPasswordPdf()), 422, "The PDF is encrypted with a user password; upload it without the password.")
  })

  it.skipIf(!hasCorpus)("an owner-password hybrid form converts: the job completes with the old fields and the new ones", async () => {
    const bytes = new Uint8Array(readFileSync(join(pdfDir, "pdfjs__bug1815476.pdf")))
    const before = await pdfFields(bytes)
    const res = await start(server, bytes)
    expect(res.status).toBe(200)
    const { job_id } = await res.json()
    const status: any = await TestServer.poll(
      () => server.call(`/v1/utils/convert/${job_id}/status`).then((r) => r.json()),
      (s: any) => s.status === "completed" || s.status === "failed",
      90_000
    )
    expect(status.error_message).toBeUndefined()
    expect(status.status).toBe("completed")

    const pdf = Buffer.from(status.base64, "base64")
    expect(pdf.toString("latin1").includes("/Encrypt")).toBe(false)
    const after = await pdfFields(pdf)
    for (const name of Object.keys(before.fields)) expect(after.fields[name], name).toBeDefined()

    const form = await server.call(`/v1/forms/${status.form_id}`).then((r) => r.json())
    const detected = form.fields.filter((f: any) => typeof f.confidence === "number")
    expect(detected.length).toBeGreaterThan(0)
    for (const field of detected) expect(after.fields[field.form_name], field.form_name).toBeDefined()
  }, 120_000)
})
