/**
 * Two servers, one bucket: two `formwright` processes (packages/http-node/src/bin.ts) on the same
 * S3 bucket and prefix. Whatever one of them accepted, the other serves; concurrent updates of one
 * form through both lose nothing. Runs against the server of test/support/S3TestServer.ts.
 */
import { Fixtures, FlatFixtures } from "@formwright/testing"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as S3TestServer from "./support/S3TestServer.ts"

const server = S3TestServer.server()
const repoRoot = Path.resolve(import.meta.dirname, "../../..")
const key = "alice-two-servers-key-0001"

interface Running {
  readonly name: string
  readonly url: string
  readonly process: ChildProcess
  readonly log: () => string
  readonly call: (path: string, init?: RequestInit) => Promise<Response>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = Net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address() as Net.AddressInfo
      probe.close(() => resolve(address.port))
    })
  })

/** Starts `formwright serve` in its own process and waits until it answers /health. */
const startServer = async (name: string, env: Record<string, string>): Promise<Running> => {
  const port = await freePort()
  const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), `formwright-${name}-`))
  const child = spawn(process.execPath, [Path.join(repoRoot, "packages/http-node/src/bin.ts"), "serve"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...env,
      FORMWRIGHT_PORT: String(port),
      FORMWRIGHT_HOST: "127.0.0.1",
      // Never used on s3; set so that a fallback to fs would show up as two separate stores.
      FORMWRIGHT_DATA_DIR: dataDir,
      FORMWRIGHT_API_KEYS: `alice:${key}`
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server ${name} exited with ${child.exitCode}:\n${output}`)
    // A bounded probe: a request that arrives while the server is still starting may go unanswered.
    const healthy = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)
    if (healthy) break
    if (Date.now() > deadline) throw new Error(`server ${name} did not answer /health in 60 s:\n${output}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    name,
    url,
    process: child,
    log: () => output,
    call: (path, init = {}) => {
      const headers = new Headers(init.headers)
      headers.set("authorization", `Bearer ${key}`)
      return fetch(`${url}${path}`, { ...init, headers })
    }
  }
}

const stopServer = (running: Running | undefined) =>
  new Promise<void>((resolve) => {
    if (running === undefined || running.process.exitCode !== null) return resolve()
    running.process.once("exit", () => resolve())
    running.process.kill("SIGTERM")
  })

const poll = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs = 60_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last = await read()
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
    last = await read()
  }
  return last
}

if (typeof server === "string") {
  describe.skip(`two servers on one S3 bucket (${server})`, () => {
    it("needs an S3 server", () => {})
  })
} else {
  describe("two servers on one S3 bucket", { timeout: 120_000 }, () => {
    let a: Running | undefined
    let b: Running | undefined
    const prefix = `two-servers-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

    beforeAll(async () => {
      const env = {
        FORMWRIGHT_STORAGE: "s3",
        FORMWRIGHT_S3_BUCKET: "formwright-test",
        FORMWRIGHT_S3_PREFIX: prefix,
        FORMWRIGHT_S3_ENDPOINT: server.endpoint,
        FORMWRIGHT_S3_REGION: server.region,
        FORMWRIGHT_S3_FORCE_PATH_STYLE: "true",
        AWS_ACCESS_KEY_ID: server.accessKeyId,
        AWS_SECRET_ACCESS_KEY: server.secretAccessKey
      }
      ;[a, b] = await Promise.all([startServer("a", env), startServer("b", env)])
    }, 120_000)

    afterAll(async () => {
      await Promise.all([stopServer(a), stopServer(b)])
    })

    /** Runs a check, showing both servers' logs if it fails. */
    const withLogs = async (check: () => Promise<void>) => {
      try {
        await check()
      } catch (error) {
        console.error(`--- server a ---\n${a?.log()}\n--- server b ---\n${b?.log()}`)
        throw error
      }
    }

    it("a form uploaded through one is read, updated and filled through the other", () =>
      withLogs(async () => {
        const pdf = await Fixtures.formWithEveryFieldType()
        const upload = await a!.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(pdf) })
        expect(upload.status).toBe(200)
        const [uploaded] = await upload.json()
        const formId: string = uploaded.form_id

        const readOnB = await b!.call(`/v1/forms/${formId}`)
        expect(readOnB.status).toBe(200)
        const form = await readOnB.json()
        expect(form.fields.map((f: any) => f.id)).toEqual(uploaded.fields.map((f: any) => f.id))
        const pdfOnB = await b!.call(`/v1/forms/${formId}/pdf`)
        expect(Buffer.from(await pdfOnB.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true)

        const first = form.fields[0]
        const put = await b!.call(`/v1/forms/${formId}`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ form: { fields: [{ id: first.id, name: "Renamed on B" }] } })
        })
        expect(put.status).toBe(200)
        const onA = await (await a!.call(`/v1/forms/${formId}`)).json()
        expect(onA.fields.find((f: any) => f.id === first.id).name).toBe("Renamed on B")

        // Filled through B, polled through A.
        const created = await b!.call("/v1/sessions", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ form_id: formId, text_info: form.fields.map((f: any) => `${f.name}: Zoë`).join("\n") })
        })
        expect(created.status).toBe(202)
        const { session_id } = await created.json()
        const done = await poll(
          () => a!.call(`/v1/sessions/${session_id}`).then((r) => r.json()),
          (s: any) => s.status === "completed" || s.status === "failed"
        )
        expect(done.status).toBe("completed")
        expect(done.filled_fields.length).toBeGreaterThan(0)
        const filled = await a!.call(`/v1/sessions/${session_id}/pdf`)
        expect(filled.status).toBe(200)
        expect(Buffer.from(await filled.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-")
      }))

    it("a conversion started on one is polled to completion on the other", () =>
      withLogs(async () => {
        const flat = await FlatFixtures.flatApplicationForm()
        const started = await a!.call("/v1/forms/convert", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(flat.bytes) })
        expect(started.status).toBe(200)
        const { job_id } = await started.json()
        const status = await poll(
          () => b!.call(`/v1/forms/convert/${job_id}/status`).then((r) => r.json()),
          (s: any) => s.status === "completed" || s.status === "failed",
          90_000
        )
        expect(status.status).toBe("completed")
        const converted = await b!.call(`/v1/forms/${status.form_id}`)
        expect(converted.status).toBe(200)
        expect((await converted.json()).fields.length).toBeGreaterThan(0)
      }))

    it("concurrent updates of one form through both servers lose nothing", () =>
      withLogs(async () => {
        const pdf = await Fixtures.formWithEveryFieldType()
        const [uploaded] = await (await b!.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(pdf) })).json()
        const formId: string = uploaded.form_id
        const fieldIds: Array<string> = uploaded.fields.map((f: any) => f.id)
        // Every field renamed by its own request, the requests split across the two servers and
        // all in flight at once: each is a read-modify-write of the same record.
        const rounds = Math.max(1, Math.ceil(16 / fieldIds.length))
        const requests = fieldIds.flatMap((id, i) =>
          Array.from({ length: rounds }, (_, round) => ({ id, name: `field ${i} round ${round}`, via: (i + round) % 2 === 0 ? a! : b! })))
        const answers = await Promise.all(requests.map((request) =>
          request.via.call(`/v1/forms/${formId}`, {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ form: { fields: [{ id: request.id, name: request.name }] } })
          }).then((r) => r.status)))
        expect(answers.every((status) => status === 200)).toBe(true)
        // Requests on one field race each other; the last of them wins, but none vanishes unseen:
        // every field carries one of its own names, and with one round, exactly its name.
        const final = await (await a!.call(`/v1/forms/${formId}`)).json()
        for (const [i, id] of fieldIds.entries()) {
          const name = final.fields.find((f: any) => f.id === id).name
          expect(name).toMatch(new RegExp(`^field ${i} round \\d+$`))
        }
        // Now one rename per field, all at once: every single one must be there.
        await Promise.all(fieldIds.map((id, i) =>
          (i % 2 === 0 ? a! : b!).call(`/v1/forms/${formId}`, {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ form: { fields: [{ id, name: `final ${i}` }] } })
          }).then((r) => expect(r.status).toBe(200))))
        const after = await (await b!.call(`/v1/forms/${formId}`)).json()
        expect(fieldIds.map((id) => after.fields.find((f: any) => f.id === id).name)).toEqual(fieldIds.map((_, i) => `final ${i}`))
        console.info(`two servers: ${requests.length} + ${fieldIds.length} concurrent PUTs of one form across both, none lost`)
      }))
  })
}
