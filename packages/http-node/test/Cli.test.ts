/**
 * The `formwright` command line (src/bin.ts) as a user runs it, one child process per command:
 * `--version` and `--help`, usage errors (exit 2, the message on stderr, nothing on stdout), keys
 * issued, listed and revoked in a data directory, a key revoked while a server runs refused by it
 * within 5 s, `forms upload|get|fields` against a real server, and `fill` and `convert` offline
 * with their output read back by pdf.js.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures, FlatFixtures, ServerProcess as Processes } from "@formwright/testing"
import { version } from "../src/Version.ts"
import { pdfFields, pdfValue } from "./support/Http.ts"
import * as ServerProcess from "./support/ServerProcess.ts"

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** The process's environment without this machine's FORMWRIGHT_* settings, plus `env`. */
const cleanEnv = (env: Record<string, string>) => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("FORMWRIGHT_") && value !== undefined) out[name] = value
  return { ...out, ...env }
}

const cli = (args: ReadonlyArray<string>, options: { env?: Record<string, string>; cwd?: string } = {}) =>
  new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, [ServerProcess.bin, ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env ?? {}),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")))
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")))
    child.once("error", reject)
    child.once("exit", (code) => resolve({ code, stdout, stderr }))
  })

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "formwright-cli-"))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe("formwright: help, version, usage errors", () => {
  it("--version prints the server's version; --help lists every command", async () => {
    const shown = await cli(["--version"])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout.trim()).toBe(`formwright v${version}`)
    const help = await cli(["--help"])
    expect(help.code, help.stderr).toBe(0)
    for (const command of ["serve", "keys", "forms", "fill", "convert", "preview"]) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"))
    const keysHelp = await cli(["keys", "--help"])
    for (const command of ["create", "list", "revoke"]) expect(keysHelp.stdout).toMatch(new RegExp(`^  ${command} `, "m"))
  }, 60_000)

  it("a command line that cannot run exits 2, says what is wrong on stderr and prints nothing on stdout", async () => {
    const dataDir = tempDir()
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
      [["launch"], /Unknown subcommand "launch"/],
      [["keys"], /USAGE/],
      [["keys", "create"], /Missing required flag: --user/],
      [["keys", "create", "--user", "not a valid id!"], /--user/],
      [["keys", "revoke"], /Missing required argument/],
      [["forms", "get", "frm_x"], /--key/],
      [["fill", "form.pdf"], /^fill needs something to fill with/],
      [["fill"], /Missing required argument/],
      [["convert", "flat.pdf", "--confidence", "2"], /^--confidence needs a number from 0 to 1/],
      [["convert", "flat.pdf", "--confidence", "high"], /--confidence/],
      [["preview", "form.pdf", "--page", "zero"], /^--page needs a page number from 1, got 'zero'\./]
    ]
    for (const [args, message] of cases) {
      const run = await cli(args, { env: { FORMWRIGHT_DATA_DIR: dataDir } })
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(2)
      expect(run.stdout, args.join(" ")).toBe("")
      expect(run.stderr, args.join(" ")).toMatch(message)
    }
  }, 120_000)
})

describe("formwright serve: a server that cannot start", () => {
  it("says why on stderr and exits 1: its port taken, or a FORMWRIGHT_* value that is not valid", async () => {
    // A port another process holds: a plain listener of this test.
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve))
    const port = (holder.address() as { port: number }).port
    try {
      const taken = await cli(["serve"], { env: { FORMWRIGHT_DATA_DIR: tempDir(), FORMWRIGHT_HOST: "127.0.0.1", FORMWRIGHT_PORT: String(port) } })
      expect(taken.code, taken.stderr).toBe(1)
      expect(taken.stderr).toMatch(new RegExp(`^The server could not start: listen EADDRINUSE: address already in use 127\\.0\\.0\\.1:${port}\\.$`, "m"))
    } finally {
      holder.close()
    }
    const invalid = await cli(["serve"], { env: { FORMWRIGHT_DATA_DIR: tempDir(), FORMWRIGHT_PORT: "80000" } })
    expect(invalid).toEqual({
      code: 1,
      stdout: "",
      stderr: 'The configuration is not valid: Expected a value between 1 and 65535 at ["FORMWRIGHT_PORT"].\n'
    })
  }, 60_000)
})

describe("formwright keys", () => {
  it("create prints a key once; list shows id, user, created and revoked, never the secret; revoke marks it", async () => {
    const env = { FORMWRIGHT_DATA_DIR: tempDir() }
    const carol = await cli(["keys", "create", "--user", "carol"], { env })
    const dave = await cli(["keys", "create", "--user", "dave"], { env })
    expect([carol.code, dave.code], carol.stderr + dave.stderr).toEqual([0, 0])
    const secrets = [carol.stdout.trim(), dave.stdout.trim()]
    for (const secret of secrets) expect(secret).toMatch(/^fw_[A-Za-z0-9_-]{43}$/)

    const listed = await cli(["keys", "list", "--json"], { env })
    expect(listed.code, listed.stderr).toBe(0)
    const keys = JSON.parse(listed.stdout) as Array<{ id: string; user: string; created: string; revoked: string | null }>
    expect(keys.map((k) => [k.user, k.revoked])).toEqual([["carol", null], ["dave", null]])
    const table = await cli(["keys", "list"], { env })
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+USER\s+CREATED\s+REVOKED$/)
    expect(table.stdout).toContain(keys[0]!.id)
    // Neither the secret nor its hash is shown.
    for (const output of [listed.stdout, table.stdout]) {
      for (const secret of secrets) expect(output).not.toContain(secret)
      expect(output).not.toMatch(/[0-9a-f]{64}/)
    }

    const revoked = await cli(["keys", "revoke", keys[0]!.id], { env })
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.stderr).toMatch(new RegExp(`Revoked key ${keys[0]!.id} of user 'carol'`))
    const after = JSON.parse((await cli(["keys", "list", "--json"], { env })).stdout) as typeof keys
    expect(after[0]!.revoked).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(after[1]!.revoked).toBeNull()

    const unknown = await cli(["keys", "revoke", "key_unknown"], { env })
    expect(unknown).toEqual({ code: 1, stdout: "", stderr: "No key has the id 'key_unknown' (see formwright keys list).\n" })
  }, 120_000)
})

describe("formwright against a running server", () => {
  let server: ServerProcess.ServerProcess
  let dir: string
  beforeAll(async () => {
    server = await ServerProcess.start()
    dir = tempDir()
    writeFileSync(join(dir, "every.pdf"), await Fixtures.formWithEveryFieldType())
  }, 90_000)
  afterAll(() => server?.stop())

  it("a key revoked with the CLI is refused by the running server within 5 s", async () => {
    const env = { FORMWRIGHT_DATA_DIR: server.dataDir }
    const created = await cli(["keys", "create", "--user", "erin"], { env })
    expect(created.code, created.stderr).toBe(0)
    const key = created.stdout.trim()
    expect((await server.call("/v1/profiles", { key })).status).toBe(200)

    const id = (JSON.parse((await cli(["keys", "list", "--json"], { env })).stdout) as Array<{ id: string; user: string }>)
      .find((k) => k.user === "erin")!.id
    const revoked = await cli(["keys", "revoke", id], { env })
    expect(revoked.code, revoked.stderr).toBe(0)
    const since = Date.now()
    let status = 0
    while (Date.now() - since < 5_000) {
      status = (await server.call("/v1/profiles", { key })).status
      if (status === 401) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(status, `still ${status} ${Date.now() - since} ms after the revocation`).toBe(401)
    // The other keys still work.
    expect((await server.call("/v1/profiles")).status).toBe(200)
  }, 60_000)

  it("forms upload prints the new id; get prints the form; fields lists its fields", async () => {
    const env = { FORMWRIGHT_API_KEY: server.key }
    const uploaded = await cli(["forms", "upload", join(dir, "every.pdf"), "--server", server.url], { env })
    expect(uploaded.code, uploaded.stderr).toBe(0)
    const formId = uploaded.stdout.trim()
    expect(formId).toMatch(/^frm_/)
    expect(uploaded.stderr).toMatch(/^Uploaded every\.pdf as frm_\S+: 2 page\(s\), 11 field\(s\)\./)
    // The server holds what the CLI says it uploaded.
    const stored = await (await server.call(`/v1/forms/${formId}`)).json()
    expect(stored.file_name).toBe("every.pdf")

    const got = await cli(["forms", "get", formId, "--server", server.url], { env })
    expect(got.code, got.stderr).toBe(0)
    const form = JSON.parse(got.stdout)
    expect(form).toMatchObject({ id: formId, object: "form", file_name: "every.pdf", pages: 2 })
    expect(form.fields).toEqual(stored.fields)

    // --key instead of the variable.
    const listed = await cli(["forms", "fields", formId, "--server", server.url, "--key", server.key])
    expect(listed.code, listed.stderr).toBe(0)
    const lines = listed.stdout.trim().split("\n")
    expect(lines[0]).toMatch(/^ID\s+PAGE\s+TYPE\s+MEANING\s+NAME\s+VALUE$/)
    expect(lines).toHaveLength(1 + stored.fields.length)
    for (const field of stored.fields) expect(listed.stdout).toMatch(new RegExp(`^${field.id}\\s+${field.page}\\s+${field.form_type}\\s`, "m"))
    const json = await cli(["forms", "fields", formId, "--json", "--server", server.url], { env })
    expect(JSON.parse(json.stdout)).toEqual(stored.fields)
  }, 60_000)

  it("the server's refusals and an unreachable server exit 1 with the message", async () => {
    const badKey = await cli(["forms", "get", "frm_x", "--server", server.url, "--key", "not-a-key-at-all"])
    expect(badKey.code).toBe(1)
    expect(badKey.stderr).toMatch(/^The server answered 401: Missing or invalid API key/)
    const missing = await cli(["forms", "get", "frm_missing", "--server", server.url], { env: { FORMWRIGHT_API_KEY: server.key } })
    expect(missing).toEqual({ code: 1, stdout: "", stderr: "The server answered 404: Form 'frm_missing' not found.\n" })
    const notPdf = join(dir, "notes.pdf")
    writeFileSync(notPdf, "name,email\n")
    const rejected = await cli(["forms", "upload", notPdf, "--server", server.url], { env: { FORMWRIGHT_API_KEY: server.key } })
    expect(rejected.code).toBe(1)
    expect(rejected.stderr).toMatch(/^The server answered 422: /)
    const port = await Processes.freePort()
    const down = await cli(["forms", "get", "frm_x", "--server", `http://127.0.0.1:${port}`, "--key", "k"])
    expect(down.code).toBe(1)
    expect(down.stderr).toMatch(new RegExp(`^Cannot reach http://127\\.0\\.0\\.1:${port}: ECONNREFUSED\\.`))
  }, 60_000)
})

describe("formwright fill and convert, offline", () => {
  let dir: string
  beforeAll(async () => {
    dir = tempDir()
    writeFileSync(join(dir, "every.pdf"), await Fixtures.formWithEveryFieldType())
    writeFileSync(join(dir, "flat.pdf"), (await FlatFixtures.flatApplicationForm()).bytes)
    writeFileSync(join(dir, "long.pdf"), (await FlatFixtures.flatLongForm(3)).bytes)
  })

  it("fill writes the values the profile (nested, with numbers) and the text give, and says which", async () => {
    const profile = join(dir, "ada.json")
    writeFileSync(profile, JSON.stringify({ applicant: { first_name: "Ada", last_name: "Lovelace" }, address: { postcode: 12345 } }))
    const out = join(dir, "filled.pdf")
    const run = await cli(["fill", join(dir, "every.pdf"), "--profile", profile, "--text", "Notes: prefers the morning", "--out", out, "--explain"])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^filled  Applicant first name = "Ada"  \(profile:ada\.json, 0\.\d\d\)$/m)
    expect(run.stdout).toMatch(/^filled  Postcode = "12345"/m)
    // --explain: why the others stay empty.
    expect(run.stdout).toMatch(/^empty   Signature: signature: /m)
    expect(run.stderr).toMatch(/^Wrote .*filled\.pdf: \d+ of \d+ fields filled\.$/m)

    const { fields } = await pdfFields(new Uint8Array(readFileSync(out)))
    expect(pdfValue(fields, Fixtures.everyFieldType.firstName)).toBe("Ada")
    expect(pdfValue(fields, Fixtures.everyFieldType.lastName)).toBe("Lovelace")
    expect(pdfValue(fields, Fixtures.everyFieldType.postcode)).toBe("12345")
    // What the command said it filled is what the PDF holds.
    const said = [...run.stdout.matchAll(/^filled  /gm)].length
    expect(said).toBeGreaterThanOrEqual(3)

    const json = await cli(["fill", join(dir, "every.pdf"), "--profile", profile, "--out", join(dir, "filled2.pdf"), "--json"])
    const report = JSON.parse(json.stdout)
    expect(report.filled_fields.map((f: { form_name: string }) => f.form_name)).toEqual(
      expect.arrayContaining([Fixtures.everyFieldType.firstName, Fixtures.everyFieldType.lastName, Fixtures.everyFieldType.postcode])
    )
    expect(report.sources).toEqual([{ source: "profile:ada.json", status: "read", facts: 3 }])
  }, 90_000)

  it("fill: an unreadable PDF, a form without fields or a profile that is not an object exit 1 with the reason", async () => {
    const profile = join(dir, "list.json")
    writeFileSync(profile, "[1, 2]")
    const notObject = await cli(["fill", join(dir, "every.pdf"), "--profile", profile])
    expect(notObject).toMatchObject({ code: 1, stdout: "" })
    expect(notObject.stderr).toMatch(/must hold a JSON object/)
    const missing = await cli(["fill", join(dir, "absent.pdf"), "--text", "Ada"])
    expect(missing).toEqual({ code: 1, stdout: "", stderr: `Cannot read '${join(dir, "absent.pdf")}': ENOENT.\n` })
    const text = join(dir, "notes.pdf")
    writeFileSync(text, "name,email\n")
    expect(await cli(["fill", text, "--text", "Ada"])).toEqual({ code: 1, stdout: "", stderr: `${text}: The file is not a PDF.\n` })
    const flat = await cli(["fill", join(dir, "flat.pdf"), "--text", "Ada"])
    expect(flat.code).toBe(1)
    expect(flat.stderr).toMatch(/has no form fields; make it fillable first: formwright convert/)
  }, 90_000)

  it("convert writes a fillable PDF with the fields it names, showing pages done on stderr", async () => {
    const out = join(dir, "long-fillable.pdf")
    const run = await cli(["convert", join(dir, "long.pdf"), "--out", out])
    expect(run.code, run.stderr).toBe(0)
    // Progress, one line a page when stderr is not a terminal, in order.
    expect(run.stderr.match(/^Converting: page \d+ of \d+$/gm)).toEqual(["Converting: page 1 of 3", "Converting: page 2 of 3", "Converting: page 3 of 3"])
    const detected = run.stdout.trim().split("\n")
    expect(run.stderr).toContain(`Wrote ${out}: ${detected.length} fields detected.`)
    const { pages, fields } = await pdfFields(new Uint8Array(readFileSync(out)))
    expect(pages).toBe(3)
    expect(Object.keys(fields).length).toBe(detected.length)
    expect(detected.length).toBeGreaterThanOrEqual(3)

    // The default name, beside the working directory; a file that is not a PDF exits 1.
    const plain = await cli(["convert", join(dir, "flat.pdf")], { cwd: dir })
    expect(plain.code, plain.stderr).toBe(0)
    expect(Object.keys((await pdfFields(new Uint8Array(readFileSync(join(dir, "flat.fillable.pdf"))))).fields).length).toBeGreaterThan(0)
    const text = join(dir, "notes2.pdf")
    writeFileSync(text, "name,email\n")
    expect(await cli(["convert", text])).toEqual({ code: 1, stdout: "", stderr: `${text}: The file is not a PDF.\n` })
  }, 120_000)
})
