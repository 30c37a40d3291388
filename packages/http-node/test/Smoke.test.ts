import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import * as TestServer from "./support/TestServer.ts"

describe("smoke", () => {
  let server: TestServer.TestServer
  beforeAll(async () => {
    server = await TestServer.start()
  })
  afterAll(() => server.stop())

  it("uploads a generated form and fills it", async () => {
    const pdf = await Fixtures.formWithEveryFieldType()
    const upload = await server.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(pdf) })
    expect(upload.status).toBe(200)
    const [result] = await upload.json()
    expect(result.object).toBe("upload_form")
    const created = await server.call("/v1/sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ form_id: result.form_id, text_info: result.fields.map((f: any) => `${f.name}: Ζωή`).join("\n") })
    })
    expect(created.status).toBe(202)
    const { session_id } = await created.json()
    const done = await TestServer.poll(
      () => server.call(`/v1/sessions/${session_id}`).then((r) => r.json()),
      (s: any) => s.status === "completed" || s.status === "failed"
    )
    expect(done.status).toBe("completed")
    expect(done.filled_fields.length).toBeGreaterThan(0)
  })
})
