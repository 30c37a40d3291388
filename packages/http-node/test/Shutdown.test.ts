/**
 * The real CLI (`bin.ts`) as a process: graceful shutdown on SIGTERM (the in-flight request
 * finishes, new connections are refused, exit code 0) and `keys create`.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { Fixtures, ServerProcess } from "@formwright/testing"
import * as TestServer from "./support/TestServer.ts"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const key = "shutdown-test-key-0001"

const { freePort } = ServerProcess

interface Run {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

const run = (args: ReadonlyArray<string>, env: Record<string, string>): Run => {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let out = ""
  let err = ""
  child.stdout!.on("data", (d) => (out += d))
  child.stderr!.on("data", (d) => (err += d))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { child, stdout: () => out, stderr: () => err, exited }
}

/** Resolves with the exit code, or rejects when the process has not exited in time. */
const exitWithin = (r: Run, ms: number) =>
  Promise.race([
    r.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit within ${ms} ms\n${r.stdout()}\n${r.stderr()}`)), ms))
  ])

/** `promise`, or a rejection naming the step when it takes longer than `ms`. */
const within = <A>(promise: Promise<A>, ms: number, step: string, log: () => string = () => "") =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${step}: nothing within ${ms} ms\n${log()}`)), ms))
  ])

/** Whether a new TCP connection to the port is refused. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" })
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED"))
  })

describe("the formwright CLI", () => {
  const dirs: Array<string> = []
  const children: Array<ChildProcess> = []
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "formwright-cli-"))
    dirs.push(dir)
    return dir
  }
  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it("startup answers or refuses every request; SIGTERM: the in-flight upload completes with 200, new connections are refused, exit code 0", async () => {
    const port = await freePort()
    const server = run(["serve"], {
      FORMWRIGHT_PORT: String(port),
      FORMWRIGHT_HOST: "127.0.0.1",
      FORMWRIGHT_DATA_DIR: tempDir(),
      FORMWRIGHT_API_KEYS: `alice:${key}`
    })
    children.push(server.child)
    const base = `http://127.0.0.1:${port}`
    // While the server starts, a request is refused at once (the socket is not open yet) or
    // answered; it is never accepted and then left without an answer.
    let unanswered = 0
    const health = await TestServer.poll(
      () =>
        fetch(`${base}/health`, { signal: AbortSignal.timeout(5_000) }).then(
          (r) => r.status,
          (e: Error) => {
            if (e.name === "TimeoutError") unanswered++
            return 0
          }
        ),
      (status) => status === 200,
      30_000
    )
    expect(health, server.stderr()).toBe(200)
    expect(unanswered).toBe(0)

    // The PDF goes out in 12 slices, 100 ms apart: about 1.2 s on the wire.
    const pdf = await Fixtures.formWithEveryFieldType()
    const slices = 12
    const size = Math.ceil(pdf.byteLength / slices)
    let sent = 0
    let signalled!: () => void
    const thirdSliceSent = new Promise<void>((resolve) => (signalled = resolve))
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === slices) return controller.close()
        if (sent > 0) await new Promise((r) => setTimeout(r, 100))
        controller.enqueue(pdf.slice(sent * size, (sent + 1) * size))
        sent++
        if (sent === 3) signalled()
      }
    })
    let uploadDone = false
    const upload = fetch(`${base}/v1/forms/upload`, {
      method: "POST",
      headers: { "content-type": "application/pdf", authorization: `Bearer ${key}`, "x-file-name": "slow.pdf" },
      body,
      duplex: "half"
    } as RequestInit).then(async (res) => {
      uploadDone = true
      return { status: res.status, body: await res.json() }
    })

    const logs = () => `${server.stdout()}\n${server.stderr()}`
    await within(thirdSliceSent, 10_000, "sending the first slices", logs)
    expect(server.child.kill("SIGTERM")).toBe(true)

    // While the upload is still arriving, the listener is already closed.
    const isRefused = await TestServer.poll(() => refused(port), (r) => r, 5_000)
    expect(isRefused).toBe(true)
    expect(uploadDone).toBe(false)

    const result = await within(upload, 20_000, "the in-flight upload", logs)
    expect(result.status).toBe(200)
    expect(result.body[0].file_name).toBe("slow.pdf")
    expect(result.body[0].fields).toHaveLength(11)
    expect(sent).toBe(slices)

    // The process waits for the upload's keep-alive connection to close (up to its 5 s timeout).
    expect(await exitWithin(server, 30_000)).toBe(0)
    expect(server.stdout() + server.stderr()).not.toMatch(/level=(ERROR|FATAL)/)
  })

  it("request log lines never hold requests up, and none is lost when the server stops", async () => {
    const port = await freePort()
    const server = run(["serve"], {
      FORMWRIGHT_PORT: String(port),
      FORMWRIGHT_HOST: "127.0.0.1",
      FORMWRIGHT_DATA_DIR: tempDir(),
      FORMWRIGHT_API_KEYS: `alice:${key}`
    })
    children.push(server.child)
    const base = `http://127.0.0.1:${port}`
    const up = await TestServer.poll(() => fetch(`${base}/health`).then((r) => r.status, () => 0), (s) => s === 200, 30_000)
    expect(up, server.stderr()).toBe(200)
    // Nobody reads the log for a while: its pipe fills up (about 100 KB of lines against a 64 KB
    // pipe). Requests must still be answered, and the lines still waiting when SIGTERM arrives
    // must reach the log once it is read again.
    server.child.stdout!.pause()
    const ids = Array.from({ length: 400 }, (_, i) => `flush-test-${i}-${"x".repeat(100)}`)
    const answered = (async () => {
      for (let at = 0; at < ids.length; at += 20) {
        await Promise.all(ids.slice(at, at + 20).map((id) =>
          fetch(`${base}/v1/profiles`, { headers: { authorization: `Bearer ${key}`, "x-request-id": id } }).then((r) => r.arrayBuffer())
        ))
      }
    })()
    await within(answered, 20_000, "answering while the log is not read", server.stderr)
    expect(server.child.kill("SIGTERM")).toBe(true)
    await new Promise((r) => setTimeout(r, 500))
    server.child.stdout!.resume()
    expect(await exitWithin(server, 30_000)).toBe(0)
    const logged = new Set(server.stdout().split("\n").flatMap((line) => /request_id=(flush-test-\d+-x+) .*status=200/.exec(line)?.[1] ?? []))
    expect(ids.filter((id) => !logged.has(id))).toEqual([])
    // Whole lines, one per request.
    expect(server.stdout().split("\n").filter((line) => line.includes("request_id=flush-test-"))).toHaveLength(ids.length)
  })

  it("`keys create --user carol` prints a key that authenticates against a server on the same data dir", async () => {
    const dataDir = tempDir()
    const created = run(["keys", "create", "--user", "carol"], { FORMWRIGHT_DATA_DIR: dataDir })
    children.push(created.child)
    expect(await exitWithin(created, 30_000), created.stderr()).toBe(0)
    const printed = created.stdout().trim()
    expect(printed).toMatch(/^fw_[A-Za-z0-9_-]{43}$/)
    expect(created.stderr()).toMatch(/carol/)
    // The key is stored only as a hash.
    expect(created.stderr()).not.toContain(printed)

    const server = await TestServer.start({ dataDir })
    try {
      const res = await server.call("/v1/profiles", { key: printed })
      expect(res.status).toBe(200)
      const profile = await server.call("/v1/profiles", {
        key: printed,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Carol" })
      })
      expect(profile.status).toBe(201)
      expect((await profile.json()).userId).toBe("carol")
      expect((await server.call("/v1/profiles", { headers: { "x-api-key": printed }, key: null })).status).toBe(200)
      expect((await server.call("/v1/profiles", { key: `${printed}x` })).status).toBe(401)
    } finally {
      await server.stop()
    }
  })

  it("`keys create` without --user exits non-zero and prints the usage", async () => {
    const missing = run(["keys", "create"], { FORMWRIGHT_DATA_DIR: tempDir() })
    children.push(missing.child)
    expect(await exitWithin(missing, 30_000)).toBe(2)
    expect(missing.stdout()).toBe("")
    expect(missing.stderr() + missing.stdout()).toMatch(/Usage:/)
    expect(missing.stderr()).toMatch(/--user/)

    const invalid = run(["keys", "create", "--user", "not a valid id!"], { FORMWRIGHT_DATA_DIR: tempDir() })
    children.push(invalid.child)
    expect(await exitWithin(invalid, 30_000)).toBe(2)
    expect(invalid.stdout()).toBe("")
  })
})
