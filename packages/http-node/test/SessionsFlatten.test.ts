/**
 * `flatten` on session creation (JSON and multipart) and `--flatten` on the CLI's `fill`: the
 * filled PDF has no form fields left, its values are page text, and its pages look as the
 * unflattened filled PDF's do (poppler renders, pixel by pixel). A `flatten` that is not a
 * boolean is a 400 naming it.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import { createSession, expectErrorObject, jsonCall, multipart, pdfFields, settledSession, uploadOk } from "./support/Http.ts"
import * as ServerProcess from "./support/ServerProcess.ts"
import * as TestServer from "./support/TestServer.ts"

const n = Fixtures.everyFieldType
const textInfo = ["Applicant first name: Ζωή", "Last name: Петрова", "Postcode: 12345", "Subscribe: yes", "Colour: Green"].join("\n")

const hasPoppler = spawnSync("pdftoppm", ["-v"]).status === 0

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "fw-flatten-"))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Every page's text as pdf.js reads it from the page content (annotations are not page content). */
const pageText = async (bytes: Uint8Array): Promise<string> => {
  const task = getDocument({ data: new Uint8Array(bytes), verbosity: VerbosityLevel.ERRORS, disableFontFace: true, useSystemFonts: false })
  try {
    const doc = await task.promise
    const parts: Array<string> = []
    for (let p = 1; p <= doc.numPages; p++) {
      for (const item of (await (await doc.getPage(p)).getTextContent()).items) if ("str" in item) parts.push(item.str)
    }
    return parts.join(" ")
  } finally {
    await task.destroy()
  }
}

/** Page `page` as poppler draws it, grey levels, at 72 dpi. */
const render = (bytes: Uint8Array, page: number): Buffer => {
  const dir = tempDir()
  writeFileSync(join(dir, "in.pdf"), bytes)
  const run = spawnSync("pdftoppm", ["-gray", "-r", "72", "-f", String(page), "-l", String(page), "-singlefile", join(dir, "in.pdf"), join(dir, "out")])
  if (run.status !== 0) throw new Error(`pdftoppm failed: ${run.stderr}`)
  return readFileSync(join(dir, "out.pgm"))
}

/** The share of bytes of two same-sized renders that differ by more than a quarter of the grey range. */
const differing = (a: Buffer, b: Buffer): number => {
  if (a.length !== b.length) return 1
  let count = 0
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 64) count++
  return count / a.length
}

describe("sessions with flatten", () => {
  let server: TestServer.TestServer
  let form: any
  let plain: Uint8Array

  beforeAll(async () => {
    server = await TestServer.start()
    form = await uploadOk(server, await Fixtures.formWithEveryFieldType())
    const id = await createSession(server, { form_id: form.form_id, text_info: textInfo })
    plain = Buffer.from((await settledSession(server, id)).filled_form_base64, "base64")
  })
  afterAll(() => server.stop())

  const expectFlattened = async (pdf: Uint8Array) => {
    expect(Object.keys((await pdfFields(pdf)).fields)).toEqual([])
    expect(Object.keys((await pdfFields(plain)).fields)).toContain(n.firstName)
    const text = await pageText(pdf)
    for (const value of ["Ζωή", "Петрова"]) expect(text).toContain(value)
    expect(text.replace(/\s+/g, "")).toContain("12345")
    if (hasPoppler) {
      for (const page of [1, 2]) expect(differing(render(plain, page), render(pdf, page)), `page ${page}`).toBeLessThan(0.001)
    }
  }

  it("JSON flatten: true completes with a PDF that has no fields and looks as the filled one does", async () => {
    const id = await createSession(server, { form_id: form.form_id, text_info: textInfo, flatten: true })
    const done = await settledSession(server, id)
    expect(done.status).toBe("completed")
    // The session still says what it filled.
    expect(done.filled_fields.map((f: any) => f.form_name)).toContain(n.firstName)
    await expectFlattened(Buffer.from(done.filled_form_base64, "base64"))
  })

  it("multipart flatten=true does the same", async () => {
    const res = await server.call("/v1/sessions", { method: "POST", body: multipart({ formId: form.form_id, text_info: textInfo, flatten: "true" }) })
    expect(res.status).toBe(202)
    const done = await settledSession(server, (await res.json()).session_id)
    expect(done.status).toBe("completed")
    await expectFlattened(Buffer.from(done.filled_form_base64, "base64"))
  })

  it("flatten: false, or none, keeps the form", async () => {
    const id = await createSession(server, { form_id: form.form_id, text_info: textInfo, flatten: false })
    const done = await settledSession(server, id)
    expect(Object.keys((await pdfFields(Buffer.from(done.filled_form_base64, "base64"))).fields)).toContain(n.firstName)
  })

  it("400 naming flatten when it is not a boolean, in JSON or multipart", async () => {
    await expectErrorObject(await jsonCall(server, "/v1/sessions", "POST", { form_id: form.form_id, flatten: "yes" }), 400, /flatten/)
    const res = await server.call("/v1/sessions", { method: "POST", body: multipart({ formId: form.form_id, flatten: "maybe" }) })
    await expectErrorObject(res, 400, "Invalid flatten: expected true or false.")
  })

  it("the OpenAPI document describes flatten for both content types", async () => {
    const doc = await (await server.call("/openapi.json")).json()
    const content = doc.paths["/v1/sessions"].post.requestBody.content
    const schemaOf = (type: string) => {
      const schema = content[type].schema
      return schema.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1)] : schema
    }
    expect(schemaOf("application/json").properties.flatten.type).toBe("boolean")
    expect(schemaOf("multipart/form-data").properties.flatten).toBeDefined()
  })
})

describe("formwright fill --flatten", () => {
  it("writes a PDF with no fields whose values are page text", async () => {
    const dir = tempDir()
    writeFileSync(join(dir, "every.pdf"), await Fixtures.formWithEveryFieldType())
    const out = join(dir, "flat.pdf")
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("FORMWRIGHT_")))
      const child = spawn(process.execPath, [ServerProcess.bin, "fill", join(dir, "every.pdf"), "--text", textInfo, "--flatten", "--out", out], {
        env,
        stdio: ["ignore", "ignore", "pipe"]
      })
      let stderr = ""
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")))
      child.once("error", reject)
      child.once("exit", (code) => resolve({ code, stderr }))
    })
    expect(run.code, run.stderr).toBe(0)
    const pdf = new Uint8Array(readFileSync(out))
    expect(Object.keys((await pdfFields(pdf)).fields)).toEqual([])
    const text = await pageText(pdf)
    for (const value of ["Ζωή", "Петрова"]) expect(text).toContain(value)
  })
})
