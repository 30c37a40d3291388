/**
 * The origin of `filled_form_url` (contract.md "Sessions": a URL on this server): the configured
 * FORMWRIGHT_PUBLIC_URL (an http(s) origin, checked at start), else a syntactically valid `Host`;
 * `X-Forwarded-Host`/`-Proto` only with FORMWRIGHT_TRUST_PROXY=true. No request can make the
 * server print a URL of another scheme or shape.
 */
import { Effect, Exit } from "effect"
import * as Http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Fixtures } from "@formwright/testing"
import * as Client from "../src/handlers/Client.ts"
import { parsePublicUrl } from "../src/ServerConfig.ts"
import { createSession, settledSession, uploadOk } from "./support/Http.ts"
import * as TestServer from "./support/TestServer.ts"

/** GET with headers fetch refuses to set (Host), returning the parsed JSON body. */
const getJson = (server: TestServer.TestServer, path: string, headers: Record<string, string>) =>
  new Promise<any>((resolve, reject) => {
    const url = new URL(server.url)
    const request = Http.request(
      { host: url.hostname, port: url.port, path, headers: { authorization: `Bearer ${TestServer.keys.alice}`, ...headers }, agent: false },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (body += chunk))
        response.on("end", () => resolve(JSON.parse(body)))
      }
    )
    request.on("error", reject)
    request.end()
  })

/** A server with a completed session, and the path of its status route. */
const withCompletedSession = async (config: Parameters<typeof TestServer.start>[0]) => {
  const server = await TestServer.start(config)
  const form = await uploadOk(server, await Fixtures.formWithEveryFieldType())
  const sessionId = await createSession(server, { form_id: form.form_id, text_info: "Full name: Ada" })
  expect((await settledSession(server, sessionId)).status).toBe("completed")
  return { server, path: `/v1/sessions/${sessionId}`, pdfPath: `/v1/sessions/${sessionId}/pdf` }
}

describe("filled_form_url without FORMWRIGHT_PUBLIC_URL or a trusted proxy", () => {
  let server: TestServer.TestServer
  let path: string
  let pdfPath: string
  beforeAll(async () => {
    ;({ server, path, pdfPath } = await withCompletedSession({}))
  })
  afterAll(() => server.stop())

  it("uses a valid Host as sent", async () => {
    expect((await getJson(server, path, { host: "forms.example.com:8443" })).filled_form_url).toBe(`http://forms.example.com:8443${pdfPath}`)
    expect((await getJson(server, path, { host: "[::1]:3000" })).filled_form_url).toBe(`http://[::1]:3000${pdfPath}`)
  })

  it("ignores X-Forwarded-Host and X-Forwarded-Proto", async () => {
    const body = await getJson(server, path, { host: "forms.example.com", "x-forwarded-host": "evil.example", "x-forwarded-proto": "javascript" })
    expect(body.filled_form_url).toBe(`http://forms.example.com${pdfPath}`)
  })

  for (const host of ["evil.example/x?", "javascript:alert(1)", "a b", "evil.example:99999", "user@evil.example", "-bad-.example"]) {
    it(`falls back to the address the connection came in on for Host: ${JSON.stringify(host)}`, async () => {
      const body = await getJson(server, path, { host })
      expect(body.filled_form_url).toBe(`${server.url}${pdfPath}`)
    })
  }
})

describe("filled_form_url behind a trusted proxy", () => {
  let server: TestServer.TestServer
  let path: string
  let pdfPath: string
  beforeAll(async () => {
    ;({ server, path, pdfPath } = await withCompletedSession({ config: { trustProxy: true } }))
  })
  afterAll(() => server.stop())

  it("uses X-Forwarded-Proto and X-Forwarded-Host (the first of a list)", async () => {
    const body = await getJson(server, path, { host: "internal:3000", "x-forwarded-host": "forms.example.com, proxy2", "x-forwarded-proto": "https" })
    expect(body.filled_form_url).toBe(`https://forms.example.com${pdfPath}`)
  })

  it("uses http for a forwarded scheme other than https, and Host for a malformed forwarded host", async () => {
    const body = await getJson(server, path, { host: "forms.example.com", "x-forwarded-host": "javascript://evil", "x-forwarded-proto": "javascript" })
    expect(body.filled_form_url).toBe(`http://forms.example.com${pdfPath}`)
  })
})

describe("FORMWRIGHT_PUBLIC_URL", () => {
  it("is used whatever the request says, without a trailing slash", async () => {
    const { server, path, pdfPath } = await withCompletedSession({ config: { publicUrl: "https://Forms.Example.com/", trustProxy: true } })
    try {
      const body = await getJson(server, path, { host: "evil.example", "x-forwarded-host": "evil.example" })
      expect(body.filled_form_url).toBe(`https://forms.example.com${pdfPath}`)
    } finally {
      await server.stop()
    }
  })

  for (const publicUrl of ["javascript://evil.example/", "ftp://files.example.com", "https://forms.example.com/base", "https://user:pw@forms.example.com", "forms.example.com", "https://"]) {
    it(`stops the server from starting when it is ${JSON.stringify(publicUrl)}`, async () => {
      await expect(TestServer.start({ config: { publicUrl } })).rejects.toThrow(/FORMWRIGHT_PUBLIC_URL: expected an http:\/\/ or https:\/\/ origin/)
    })
  }

  it("parsePublicUrl keeps the origin of a valid value", () => {
    expect(Effect.runSync(parsePublicUrl("http://localhost:8080"))).toBe("http://localhost:8080")
    expect(Effect.runSync(parsePublicUrl(undefined))).toBeUndefined()
    expect(Exit.isFailure(Effect.runSyncExit(parsePublicUrl("javascript:alert(1)")))).toBe(true)
  })
})

describe("Client.isValidHost", () => {
  it.each(["example.com", "example.com:443", "localhost", "127.0.0.1:3000", "[::1]", "[2001:db8::1]:8080", "a-b.example.", "xn--bcher-kva.example"])(
    "%s is a host",
    (host) => expect(Client.isValidHost(host)).toBe(true)
  )
  it.each(["", "example.com:0", "example.com:65536", "exa mple.com", "example.com/", "user@example.com", "[::1", "[not-ip]", "-a.example", "a..example", "javascript:alert(1)", `${"a".repeat(64)}.example`])(
    "%s is not",
    (host) => expect(Client.isValidHost(host)).toBe(false)
  )
})
