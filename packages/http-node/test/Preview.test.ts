/**
 * GET /v1/forms/{id}/preview over HTTP: the PNG of a page with every field outlined in its type's
 * colour (decoded here and looked at pixel by pixel), `page` validation, ownership, a converted
 * form's picture reached through its status's `preview_url`, and the size cap on a huge page.
 */
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures, FlatFixtures } from "@formwright/testing"
import { expectErrorObject, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

/** The colours the picture gives each field type (PagePreview.typeColors): the contract of the picture. */
const colours = {
  Text: [0x00, 0x72, 0xb2],
  CheckBox: [0x00, 0x9e, 0x73],
  RadioButton: [0xcc, 0x79, 0xa7],
  ComboBox: [0xe6, 0x9f, 0x00],
  ListBox: [0xd5, 0x5e, 0x00],
  Signature: [0x6a, 0x3d, 0x9a]
} as const

/** A one-page form whose page is the largest PDF allows (200 x 200 inches), with one text field. */
const hugePageForm = (): Uint8Array => {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Annots [4 0 R] >>",
    "<< /Type /Annot /Subtype /Widget /FT /Tx /T (wide) /Rect [1000 1000 9000 3000] /F 4 /P 3 0 R >>"
  ]
  let body = "%PDF-1.7\n"
  const offsets: Array<number> = []
  objects.forEach((object, i) => {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${object}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(body)
}

/** A PNG response decoded: its size and how many pixels have exactly each type's colour. */
const picture = async (res: Response) => {
  const bytes = new Uint8Array(await res.arrayBuffer())
  expect(res.status, new TextDecoder().decode(bytes.subarray(0, 300))).toBe(200)
  expect(res.headers.get("content-type")).toBe("image/png")
  // It shows the form's values, as the PDF does.
  expect(res.headers.get("cache-control")).toBe("private, no-store")
  return decoded(bytes)
}

const decoded = async (bytes: Uint8Array) => {
  const image = await loadImage(Buffer.from(bytes))
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext("2d")
  ctx.drawImage(image, 0, 0)
  const { data } = ctx.getImageData(0, 0, image.width, image.height)
  const counts = Object.fromEntries(Object.entries(colours).map(([type, [r, g, b]]) => {
    let n = 0
    for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n++
    return [type, n]
  })) as Record<keyof typeof colours, number>
  return { width: image.width, height: image.height, counts }
}

describe("GET /v1/forms/{id}/preview", () => {
  let server: TestServer.TestServer
  let formId: string

  beforeAll(async () => {
    server = await TestServer.start()
    formId = (await uploadOk(server, await Fixtures.formWithEveryFieldType())).form_id
  })
  afterAll(() => server.stop())

  it("draws page 1 by default: a letter page at 144 dpi with its text fields, check box and radio group outlined", async () => {
    const image = await picture(await server.call(`/v1/forms/${formId}/preview`))
    expect(image.width).toBe(1224)
    // The page (1584 px) and the legend above it.
    expect(image.height).toBeGreaterThan(1584)
    expect(image.height).toBeLessThan(1584 + 60)
    expect(image.counts.Text).toBeGreaterThan(500)
    expect(image.counts.CheckBox).toBeGreaterThan(50)
    expect(image.counts.RadioButton).toBeGreaterThan(150)
    for (const type of ["ComboBox", "ListBox", "Signature"] as const) expect(image.counts[type], type).toBe(0)
  })

  it("draws page N with its own fields", async () => {
    const image = await picture(await server.call(`/v1/forms/${formId}/preview?page=2`))
    for (const type of ["Text", "ComboBox", "ListBox", "Signature"] as const) expect(image.counts[type], type).toBeGreaterThan(100)
    expect(image.counts.CheckBox).toBe(0)
  })

  it("answers 400 naming `page` for a page that is not one of the form's", async () => {
    await expectErrorObject(await server.call(`/v1/forms/${formId}/preview?page=3`), 400, "Invalid page: expected an integer from 1 to 2, got '3'.")
    await expectErrorObject(await server.call(`/v1/forms/${formId}/preview?page=0`), 400, /^Invalid page: /)
    await expectErrorObject(await server.call(`/v1/forms/${formId}/preview?page=abc`), 400, /^Invalid page: .*'abc'/)
    await expectErrorObject(await server.call(`/v1/forms/${formId}/preview?page=1.5`), 400, /^Invalid page: /)
    await expectErrorObject(await server.call(`/v1/forms/${formId}/preview?page=1&page=2`), 400, "Invalid page: given more than once.")
  })

  it("keeps to the form routes' rules: 401 without a key, 403 for another user's form, 404 for an unknown one", async () => {
    await expectErrorObject(await server.call(`/v1/forms/${formId}/preview`, { key: null }), 401)
    await expectErrorObject(await server.call(`/v1/forms/${formId}/preview`, { key: TestServer.keys.bob }), 403, "Forbidden. Form doesn't belong to the user.")
    // Another user's form is refused before the page is looked at.
    await expectErrorObject(await server.call(`/v1/forms/${formId}/preview?page=99`, { key: TestServer.keys.bob }), 403)
    await expectErrorObject(await server.call("/v1/forms/frm_unknown/preview"), 404, "Form 'frm_unknown' not found.")
  })

  it("bounds the picture of a huge page by pixels, not by the page's size", async () => {
    const id = (await uploadOk(server, hugePageForm())).form_id
    const image = await picture(await server.call(`/v1/forms/${id}/preview`))
    // 4 MP for the page, plus the legend strip.
    expect(image.width).toBe(2000)
    expect(image.width * image.height).toBeLessThanOrEqual(4_000_000 + 60 * image.width)
    expect(image.counts.Text).toBeGreaterThan(500)
  })

  it("a completed conversion's status points at the new form's picture, which outlines the detected fields", async () => {
    const flat = await FlatFixtures.flatApplicationForm()
    const started = await server.call("/v1/utils/convert", {
      method: "POST",
      headers: { "content-type": "application/pdf" },
      body: flat.bytes as Uint8Array<ArrayBuffer>
    })
    expect(started.status).toBe(200)
    const { job_id } = await started.json()
    const status = await TestServer.poll(
      () => server.call(`/v1/utils/convert/${job_id}/status`).then((r) => r.json()),
      (s: any) => s.status === "completed" || s.status === "failed",
      60_000
    )
    expect(status.status).toBe("completed")
    expect(status.preview_url).toBe(`/v1/forms/${status.form_id}/preview?page=1`)
    const form = await server.call(`/v1/forms/${status.form_id}`).then((r) => r.json())
    expect(form.fields.length).toBeGreaterThan(0)
    expect(form.fields.every((f: any) => typeof f.confidence === "number")).toBe(true)
    const image = await picture(await server.call(status.preview_url))
    expect(image.counts.Text).toBeGreaterThan(500)
    if (form.fields.some((f: any) => f.form_type === "CheckBox")) expect(image.counts.CheckBox).toBeGreaterThan(50)
    // The other route family's status points at the same picture.
    const other = await server.call(`/v1/forms/convert/${job_id}/status`).then((r) => r.json())
    expect(other.preview_url).toBe(status.preview_url)
  })
})

describe("formwright preview (the CLI, no server)", () => {
  const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
  let dir: string
  let input: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "formwright-preview-"))
    input = join(dir, "form.pdf")
    writeFileSync(input, await Fixtures.formWithEveryFieldType())
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const cli = (args: ReadonlyArray<string>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] })
      let stderr = ""
      child.stderr.on("data", (data: Buffer) => (stderr += data.toString("utf8")))
      child.once("error", reject)
      child.once("exit", (code) => resolve({ code, stderr }))
    })

  it("writes the picture the route draws: page 2 of a local PDF with its fields outlined by type", async () => {
    const out = join(dir, "page2.png")
    const run = await cli(["preview", input, "--page", "2", "--out", out])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/^Wrote .*page2\.png \(1224 x \d+ px\): page 2 of 2/)
    const image = await decoded(new Uint8Array(readFileSync(out)))
    expect(image.width).toBe(1224)
    for (const type of ["Text", "ComboBox", "ListBox", "Signature"] as const) expect(image.counts[type], type).toBeGreaterThan(100)
    expect(image.counts.CheckBox).toBe(0)
  })

  it("with --detect, converts a flat PDF first and draws the fields a conversion would place", async () => {
    const flat = join(dir, "flat.pdf")
    writeFileSync(flat, (await FlatFixtures.flatApplicationForm()).bytes)
    const run = await cli(["preview", flat, "--detect"])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/\(\d+ detected in the document\)/)
    // The default name: the input's, with the page.
    const image = await decoded(new Uint8Array(readFileSync(join(dir, "flat.page-1.png"))))
    expect(image.counts.Text).toBeGreaterThan(500)
  })

  it("says what is wrong: a page past the end (exit 2), a file that is not a PDF (exit 1)", async () => {
    const past = await cli(["preview", input, "--page", "3"])
    expect(past).toEqual({ code: 2, stderr: "The PDF has 2 pages; there is no page 3.\n" })
    const text = join(dir, "notes.pdf")
    writeFileSync(text, "name,email\n")
    const notPdf = await cli(["preview", text])
    expect(notPdf).toEqual({ code: 1, stderr: `${text}: The file is not a PDF.\n` })
    const usage = await cli(["preview", input, "--page", "zero"])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/^--page needs a page number from 1, got 'zero'\./)
  })
})
