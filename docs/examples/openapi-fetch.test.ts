import { Fixtures } from "@formwright/testing"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as TestServer from "../../packages/http-node/test/support/TestServer.ts"
import { generateTypes, typesPath } from "../../scripts/openapi-types.ts"
import { program } from "./openapi-fetch.ts"

/** Casts, `any` and non-null assertions in a source file: what a typed client must not need. */
const escapes = (path: string): Array<string> => {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true)
  const found: Array<string> = []
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node) || node.kind === ts.SyntaxKind.AnyKeyword) {
      found.push(`line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe("docs/examples/openapi-fetch.ts", () => {
  // A real server on a free loopback port, as `formwright serve` runs it.
  let server: TestServer.TestServer
  let baseUrl = ""
  const apiKey = TestServer.keys.alice

  beforeAll(async () => {
    server = await TestServer.start()
    baseUrl = server.url
  })
  afterAll(() => server?.stop())

  it("is type-checked against the types openapi-typescript generates from the served /openapi.json", async () => {
    const served = await (await fetch(`${baseUrl}/openapi.json`)).json()
    const generated = await generateTypes(served)
    // On a difference: `node scripts/openapi-types.ts` rewrites the committed file.
    expect(readFileSync(typesPath, "utf8") === generated, "docs/examples/openapi-types.ts is what the served description generates").toBe(true)
  })

  it("needs no cast, no `any` and no non-null assertion", () => {
    expect(escapes(fileURLToPath(new URL("./openapi-fetch.ts", import.meta.url)))).toEqual([])
    // The check sees them where they are (the contract closes a struct with one cast).
    expect(escapes(fileURLToPath(new URL("../../packages/api/src/Wire.ts", import.meta.url)))).toContainEqual(expect.stringContaining("as unknown as typeof FormUpdate"))
  })

  it("calls every JSON route of a real server and reads the answers", async () => {
    const pdf = (body: Uint8Array) => ({ method: "POST", headers: { "x-api-key": apiKey, "content-type": "application/pdf" }, body: body as Uint8Array<ArrayBuffer> })
    const [upload] = await (await fetch(`${baseUrl}/v1/forms/upload`, pdf(await Fixtures.formWithEveryFieldType()))).json()
    const { job_id } = await (await fetch(`${baseUrl}/v1/forms/convert`, pdf(await Fixtures.flatPdf()))).json()

    const outcome = await program(baseUrl, apiKey, upload.form_id, job_id)

    expect(outcome.version).toMatch(/^\d+\.\d+\.\d+/)
    // The form uploaded, and the one the conversion creates once it completes.
    expect(outcome.formsTotal).toBeGreaterThanOrEqual(1)
    expect(outcome.formFields).toBe(upload.fields.length)
    expect(outcome.updated).toBe(true)
    expect(outcome.profileNames).toEqual(["Zoe Example"])
    expect(outcome.session.status).toBe("completed")
    expect(outcome.session.filled_fields?.some((f) => f.source.startsWith("profile:"))).toBe(true)
    expect(outcome.missingForm).toMatch(/form_missing/)
    expect(outcome.conversion).toBe("completed")
    expect(outcome.missingJob).toMatch(/job_missing|not found/i)
    expect(outcome.deleted).toEqual([true, true])
  })
})
