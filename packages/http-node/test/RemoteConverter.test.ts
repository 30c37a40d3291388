/**
 * The converter as a service (issue 10, point 4): a real `formwright converter` process, and API
 * servers handing their conversions to it (FORMWRIGHT_CONVERTER_URL). What the public routes say
 * when the converter refuses (interface.md routes 4 and 5: its status, with `Error when starting
 * conversion.` / `Error when fetching conversion status.`), the converter's own API (key, 413,
 * 503), and a job that survives the converter being killed mid-run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FlatFixtures as Flat, ServerProcess as Processes } from "@formwright/testing"
import { pdfFields } from "./support/Http.ts"
import * as ServerProcess from "./support/ServerProcess.ts"
import * as TestServer from "./support/TestServer.ts"

const converterKey = "converter-test-key-0123456789"
const uploadLimit = 400_000

const finished = (s: any) => s.status === "completed" || s.status === "failed"

const startConversion = (server: TestServer.TestServer, bytes: Uint8Array, route: "forms" | "utils" = "utils") =>
  server.call(`/v1/${route}/convert`, { method: "POST", headers: { "content-type": "application/pdf" }, body: bytes as Uint8Array<ArrayBuffer> })

const poll = (server: TestServer.TestServer, jobId: string, timeoutMs = 90_000) =>
  TestServer.poll(() => server.call(`/v1/utils/convert/${jobId}/status`).then((r) => r.json()), finished, timeoutMs)

/** A valid PDF past the converter's upload limit (but within the API server's): the form, then comment lines. */
const padded = (bytes: Uint8Array, size: number) => {
  const out = new Uint8Array(size)
  out.set(bytes)
  out.fill(0x0a, bytes.length)
  for (let at = bytes.length + 1; at + 80 < size; at += 81) out.set(new TextEncoder().encode(`%${"x".repeat(79)}`), at)
  return out
}

describe("the converter as a service, with API servers handing conversions to it", () => {
  let converter: ServerProcess.ServerProcess
  let api: TestServer.TestServer
  let converterPort: number
  let form: Flat.FlatFixture
  let long: Flat.FlatFixture
  // Long enough to keep the one worker busy while two more requests pass through the API server,
  // on a loaded machine too (30 pages were converted before they reached the converter).
  let longest: Flat.FlatFixture

  const startConverter = async (env: Record<string, string> = {}) =>
    ServerProcess.start({
      args: ["converter"],
      env: {
        FORMWRIGHT_PORT: String(converterPort),
        FORMWRIGHT_CONVERTER_KEY: converterKey,
        FORMWRIGHT_CONVERTER_QUEUE: "0",
        FORMWRIGHT_PDF_WORKERS: "1",
        FORMWRIGHT_MAX_UPLOAD_BYTES: String(uploadLimit),
        ...env
      }
    })

  const apiWith = (config: Partial<Parameters<typeof TestServer.start>[0] & {}>["config"] = {}, dataDir?: string) =>
    TestServer.start({
      config: { converterUrl: `http://127.0.0.1:${converterPort}`, converterKey, ...config },
      ...(dataDir !== undefined ? { dataDir } : {})
    })

  beforeAll(async () => {
    converterPort = await Processes.freePort()
    ;[converter, form, long, longest] = await Promise.all([startConverter(), Flat.flatApplicationForm(), Flat.flatLongForm(30), Flat.flatLongForm(300)])
    api = await apiWith()
  }, 120_000)
  afterAll(async () => {
    await api?.stop()
    await converter?.stop()
  })

  it("converts through the service: the job completes with a stored form whose fields were detected there", async () => {
    const res = await startConversion(api, form.bytes, "forms")
    expect(res.status, await res.clone().text()).toBe(200)
    const { job_id } = await res.json()
    const done = await poll(api, job_id)
    expect(done.status, JSON.stringify(done)).toBe("completed")
    const widgets = Object.keys((await pdfFields(Buffer.from(done.base64, "base64"))).fields)
    expect(widgets.length).toBeGreaterThanOrEqual(form.fields.length * 0.8)
    const stored = await (await api.call(`/v1/forms/${done.form_id}`)).json()
    expect(stored.fields.length).toBe(widgets.length)
    // Named by the detector's labels, not left as machine names.
    expect(stored.fields.some((f: any) => /name/i.test(f.name))).toBe(true)
  }, 120_000)

  it("the converter's 413 (a file past its limit) is the start route's answer: 413 {error_message: 'Error when starting conversion.'}", async () => {
    const big = padded(form.bytes, uploadLimit + 50_000)
    const res = await startConversion(api, big)
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ error_message: "Error when starting conversion." })
  })

  it("a full converter (its queue is 0 and its one worker is busy) answers 503, and so does the start route, with the contract's body", async () => {
    // The long job taken first, the others sent as soon as it is: sent all at once, a loaded
    // machine may take the short ones first, each finishing before the next arrives.
    const first = await startConversion(api, longest.bytes)
    const busy = { status: first.status, body: await first.json() }
    expect(busy.status).toBe(200)
    const answers = [busy, ...await Promise.all([form.bytes, form.bytes].map(async (bytes) => {
      const res = await startConversion(api, bytes)
      return { status: res.status, body: await res.json() }
    }))]
    const refused = answers.filter((a) => a.status === 503)
    expect(refused.length, JSON.stringify(answers)).toBeGreaterThanOrEqual(1)
    for (const a of refused) expect(a.body).toEqual({ error_message: "Error when starting conversion." })
    for (const a of answers.filter((x) => x.status === 200)) expect((await poll(api, a.body.job_id)).status).toBe("completed")
  }, 180_000)

  it("a converter that answers non-200 while a job is polled: the status route answers its status with 'Error when fetching conversion status.'", async () => {
    // A second API server on the same data, whose converter key is wrong: the converter answers it 401.
    // Its failed-authentication limit is 1 a minute: the converter's 401s must not count as the client's.
    const wrongKey = await apiWith({ converterKey: "not-the-converter-key-000", authFailureLimit: 1 }, api.dataDir)
    try {
      const res = await startConversion(api, long.bytes)
      expect(res.status).toBe(200)
      const { job_id } = await res.json()
      for (let i = 0; i < 3; i++) {
        const polled = await wrongKey.call(`/v1/utils/convert/${job_id}/status`)
        expect(polled.status).toBe(401)
        expect(polled.headers.get("www-authenticate")).toBeNull()
        expect(await polled.json()).toEqual({ error_message: "Error when fetching conversion status." })
      }
      expect((await wrongKey.call("/v1/profiles")).status).toBe(200)
      // The server that handed it over still follows it to its end.
      expect((await poll(api, job_id)).status).toBe("completed")
    } finally {
      await wrongKey.stop()
    }
  }, 180_000)

  it("the converter killed mid-job (kill -9) and restarted: the job is handed over again and completes once", async () => {
    const res = await startConversion(api, long.bytes)
    expect(res.status).toBe(200)
    const { job_id } = await res.json()
    await TestServer.poll(() => api.call(`/v1/utils/convert/${job_id}/status`).then((r) => r.json()), (s: any) => s.status === "processing", 60_000)
    await converter.restart({ kill: true })
    const done = await poll(api, job_id, 150_000)
    expect(done.status, JSON.stringify(done)).toBe("completed")
    const forms = await (await api.call(`/v1/forms?size=100`)).json()
    expect(forms.forms.filter((f: any) => f.id === done.form_id)).toHaveLength(1)
  }, 240_000)

  it("the converter's own API: no key or a wrong key 401, a bad option 400, an unknown job 404", async () => {
    const base = `http://127.0.0.1:${converterPort}`
    const post = (headers: Record<string, string>, query = "") =>
      fetch(`${base}/v1/jobs${query}`, { method: "POST", headers: { "content-type": "application/pdf", ...headers }, body: form.bytes as Uint8Array<ArrayBuffer> })
    expect((await post({})).status).toBe(401)
    expect((await post({ authorization: "Bearer wrong-key-wrong-key-00" })).status).toBe(401)
    const bad = await post({ authorization: `Bearer ${converterKey}` }, "?confidence=7")
    expect(bad.status).toBe(400)
    expect((await bad.json()).error_message).toMatch(/confidence/)
    const unknown = await fetch(`${base}/v1/jobs/nope`, { headers: { authorization: `Bearer ${converterKey}` } })
    expect(unknown.status).toBe(404)
    expect((await fetch(`${base}/health`)).status).toBe(200)
  })

  it("a converter that cannot be reached: the start route answers 502 {error_message: 'Error when starting conversion.'}", async () => {
    const nowhere = await TestServer.start({ config: { converterUrl: `http://127.0.0.1:${await Processes.freePort()}`, converterKey } })
    try {
      const res = await startConversion(nowhere, form.bytes)
      expect(res.status).toBe(502)
      expect(await res.json()).toEqual({ error_message: "Error when starting conversion." })
    } finally {
      await nowhere.stop()
    }
  })
})
