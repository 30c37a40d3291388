/**
 * A full disk and a client that leaves (contract.md: "never leaves partial records behind"):
 * the data directory is a 2 MiB tmpfs, filled to every level from nothing free up to enough;
 * at each level an upload, a conversion, a session and a profile file either succeed or answer
 * 507 leaving the directory exactly as it was (no PDF, record, temp or lock file left behind).
 * And a client that disconnects mid-upload stores nothing and is not logged as an error.
 *
 * Mounting needs root; without it the tmpfs tests skip and say so.
 */
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures, FlatFixtures as Flat } from "@formwright/testing"
import { jsonCall, multipart, upload, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

const FULL = "The server's storage is full; try again later."
const page = 4096

const mountPoint = Fs.mkdtempSync(Path.join(tmpdir(), "formwright-full-"))
const mountProblem = (() => {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint], { stdio: "pipe" })
    return undefined
  } catch (error) {
    Fs.rmSync(mountPoint, { recursive: true, force: true })
    return String((error as { stderr?: Buffer }).stderr ?? error).trim() || "mount failed"
  }
})()
if (mountProblem !== undefined) {
  console.warn(`StorageFull.test.ts: skipping the full-disk tests, a tmpfs cannot be mounted here (needs root): ${mountProblem}`)
}

/** Every file under the store's directories, so a failed request can be shown to leave none. */
const snapshot = (root: string): Array<string> => {
  const out: Array<string> = []
  const walk = (dir: string) => {
    for (const entry of Fs.readdirSync(dir, { withFileTypes: true })) {
      const path = Path.join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else out.push(Path.relative(root, path))
    }
  }
  for (const dir of ["docs", "blobs", "tmp", "locks"]) if (Fs.existsSync(Path.join(root, dir))) walk(Path.join(root, dir))
  return out.sort()
}

const filesUnder = (root: string, dir: string) => snapshot(root).filter((file) => file.startsWith(`${dir}/`))

describe.skipIf(mountProblem !== undefined)("a full disk (tmpfs of 2 MiB)", () => {
  let server: TestServer.TestServer
  const filler = Path.join(mountPoint, "filler")
  const errors: Array<string> = []

  /** Leaves `pages` pages free on the tmpfs, by growing or shrinking the filler file. */
  const setFree = (pages: number) => {
    const stats = Fs.statfsSync(mountPoint)
    const free = stats.bavail * stats.bsize
    const size = Fs.existsSync(filler) ? Fs.statSync(filler).size : 0
    const target = Math.max(0, size + free - pages * page)
    if (target < size) Fs.truncateSync(filler, target)
    else if (target > size) {
      // Written, not truncated up: a sparse file would take no space on tmpfs.
      const fd = Fs.openSync(filler, "a")
      try {
        const zeros = Buffer.alloc(64 * 1024)
        for (let left = target - size; left > 0;) {
          try {
            left -= Fs.writeSync(fd, zeros, 0, Math.min(left, zeros.length))
          } catch {
            break
          }
        }
      } finally {
        Fs.closeSync(fd)
      }
    }
  }

  beforeAll(async () => {
    server = await TestServer.start({
      dataDir: mountPoint,
      onLog: (level, message) => {
        if (level === "Error" || level === "Fatal") errors.push(String(message))
      }
    })
  })
  afterAll(async () => {
    await server?.stop()
    execFileSync("umount", [mountPoint])
    Fs.rmSync(mountPoint, { recursive: true, force: true })
  })

  /**
   * From no page free upwards, `attempt` either succeeds (then space is given back and the loop
   * ends) or answers 507 with the directory unchanged. Returns the levels that answered 507.
   */
  const climb = async (attempt: () => Promise<Response>, success: number) => {
    const full: Array<number> = []
    for (let pages = 0; pages <= 400; pages++) {
      setFree(pages)
      const before = snapshot(mountPoint)
      const res = await attempt()
      const text = await res.text()
      if (res.status === success) {
        setFree(200)
        return { full, body: JSON.parse(text) }
      }
      expect(res.status, `${pages} pages free: ${text}`).toBe(507)
      const body = JSON.parse(text)
      expect(body.error_message ?? body).toBe(FULL)
      expect(snapshot(mountPoint), `${pages} pages free`).toEqual(before)
      full.push(pages)
    }
    throw new Error("never succeeded")
  }

  it("an upload: 507 at every level too small, nothing left behind, then 200", async () => {
    const pdf = await Fixtures.formWithEveryFieldType()
    const { full, body } = await climb(() => upload(server, pdf), 200)
    // Past the PDF's own pages the PDF was written and then removed when its record could not be.
    expect(full.at(-1)!).toBeGreaterThanOrEqual(Math.ceil(pdf.byteLength / page))
    expect(body[0].form_id).toMatch(/^frm_/)
    expect((await server.call(`/v1/forms/${body[0].form_id}/pdf`)).status).toBe(200)
    expect(filesUnder(mountPoint, "tmp")).toEqual([])
    expect(filesUnder(mountPoint, "locks")).toEqual([])
  })

  it("a conversion: 507 answers {error_message} alone and leaves no job behind", async () => {
    const flat = (await Flat.flatTwoPageForm()).bytes
    const { full, body } = await climb(
      () => server.call("/v1/forms/convert", { method: "POST", headers: { "content-type": "application/pdf" }, body: flat as Uint8Array<ArrayBuffer> }),
      200
    )
    expect(full.at(-1)!).toBeGreaterThanOrEqual(Math.ceil(flat.byteLength / page))
    const done = await TestServer.poll(
      () => server.call(`/v1/forms/convert/${body.job_id}/status`).then((r) => r.json()),
      (s: any) => s.status === "completed" || s.status === "failed",
      60_000
    )
    expect(done.status).toBe("completed")
  })

  it("a session with files: 507 leaves neither files nor a record, then 202", async () => {
    const form = await uploadOk(server, await Fixtures.formWithEveryFieldType())
    const files = [1, 2, 3].map((i) => ({ bytes: new TextEncoder().encode(`Notes: ${"x".repeat(6000)} ${i}\n`), name: `notes-${i}.txt`, type: "text/plain" }))
    const { full, body } = await climb(() => server.call("/v1/sessions", { method: "POST", body: multipart({ formId: form.form_id, files }) }), 202)
    // A level where some of the files had been written before the others, or the record, failed.
    expect(full.at(-1)!).toBeGreaterThanOrEqual(2)
    const done = await TestServer.poll(
      () => server.call(`/v1/sessions/${body.session_id}`).then((r) => r.json()),
      (s: any) => s.status === "completed" || s.status === "failed"
    )
    expect(done.status).toBe("completed")
  })

  it("a profile file: 507 leaves the profile as it was, then 201", async () => {
    const created = await jsonCall(server, "/v1/profiles", "POST", { name: "Ada" })
    const id = (await created.json()).idInternal
    const bytes = new TextEncoder().encode(`Name: Ada\n${"x".repeat(9000)}\n`)
    const { full, body } = await climb(
      () => server.call(`/v1/profiles/${id}/files`, { method: "POST", body: multipart({ file: { bytes, name: "ada.txt", type: "text/plain" } }) }),
      201
    )
    expect(full.at(-1)!).toBeGreaterThanOrEqual(Math.ceil(bytes.byteLength / page))
    expect(body.files).toHaveLength(1)
  })

  it("logged no error: a full disk is a warning for the operator", async () => {
    expect(errors).toEqual([])
    expect(filesUnder(mountPoint, "tmp")).toEqual([])
    expect(filesUnder(mountPoint, "locks")).toEqual([])
  })
})

describe("a client that disconnects mid-upload", () => {
  let server: TestServer.TestServer
  const errors: Array<string> = []
  beforeAll(async () => {
    server = await TestServer.start({
      onLog: (level, message) => {
        if (level === "Error" || level === "Fatal") errors.push(String(message))
      }
    })
  })
  afterAll(() => server.stop())

  /** Sends headers announcing `declared` bytes, then `sent` bytes of them, then closes the socket. */
  const halfUpload = (path: string, contentType: string, declared: number, body: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      const url = new URL(server.url)
      const socket = Net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${TestServer.keys.alice}\r\n` +
            `Content-Type: ${contentType}\r\nContent-Length: ${declared}\r\n\r\n`
        )
        socket.write(body, () => setTimeout(() => socket.destroy(), 50))
      })
      socket.on("close", () => resolve())
      socket.on("error", reject)
    })

  it("stores nothing and logs no error, on every upload route", async () => {
    const pdf = await Fixtures.formWithEveryFieldType()
    const half = pdf.subarray(0, Math.floor(pdf.byteLength / 2))
    const before = snapshot(server.dataDir)
    for (const path of ["/v1/forms/upload", "/v1/forms/convert", "/v1/utils/convert"]) {
      await halfUpload(path, "application/pdf", pdf.byteLength, half)
    }
    const created = await jsonCall(server, "/v1/profiles", "POST", { name: "Ada" })
    const id = (await created.json()).idInternal
    const withProfile = snapshot(server.dataDir)
    await halfUpload(`/v1/profiles/${id}/files`, "text/plain", 10_000, new TextEncoder().encode("Name: Ada\n"))
    await halfUpload("/v1/sessions", "application/json", 10_000, new TextEncoder().encode('{"form_id": "frm_x", "text_info": "'))
    // Give the server time to notice every close.
    await new Promise((r) => setTimeout(r, 300))
    expect(snapshot(server.dataDir)).toEqual(withProfile)
    expect(withProfile.filter((file) => !before.includes(file)).every((file) => file.includes("profiles"))).toBe(true)
    expect(errors).toEqual([])
    expect((await server.call("/v1/forms").then((r) => r.json())).total).toBe(0)
    // And the server still answers.
    expect((await upload(server, pdf)).status).toBe(200)
  })
})
