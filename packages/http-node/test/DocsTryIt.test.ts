/**
 * The interactive docs (`/docs`, Scalar) in a real headless browser: "Test Request" sends a real
 * request from the page with the key typed into the page, under each security scheme the
 * description declares (Bearer, `x-api-key`), and the server answers 200; with no key, 401. The
 * curl snippet the page shows carries the same header, and a PDF picked in the page uploads.
 *
 * Needs Debian's `chromium` (`apt-get install -y chromium`), or a Chromium at
 * FORMWRIGHT_TEST_CHROMIUM; without one the tests are skipped, and say so.
 */
import { existsSync } from "node:fs"
import { Fixtures } from "@formwright/testing"
import { chromium, type Browser, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as TestServer from "./support/TestServer.ts"

const executablePath = process.env["FORMWRIGHT_TEST_CHROMIUM"] ?? "/usr/bin/chromium"
const hasChromium = existsSync(executablePath)
if (!hasChromium) console.warn(`[DocsTryIt] skipped: no Chromium at ${executablePath} (apt-get install -y chromium, or set FORMWRIGHT_TEST_CHROMIUM)`)

// A browser on a busy machine can take a while to render the page.
describe.skipIf(!hasChromium)("/docs in a headless browser", { timeout: 180_000 }, () => {
  let server: TestServer.TestServer
  let browser: Browser

  beforeAll(async () => {
    server = await TestServer.start()
    browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  /** Opens the docs and, unless `scheme` is undefined, picks it and types alice's key into the page. */
  const openDocs = async (scheme: "bearer" | "apiKey" | undefined): Promise<Page> => {
    // A fresh context each time: Scalar keeps the chosen scheme in the page's storage.
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    const page = await context.newPage()
    await page.goto(`${server.url}/docs`)
    if (scheme !== undefined) {
      await page.getByRole("button", { name: /Auth Type/ }).first().click()
      await page.getByRole("option", { name: scheme }).click()
      await page.locator("input.scalar-password-input").first().fill(TestServer.keys.alice)
    }
    return page
  }

  /** Clicks "Test Request" of `GET /v1/forms`, then "Send"; the request the page made and its answer. */
  const tryListForms = async (page: Page) => {
    await page.getByRole("button", { name: /Test Request.*get \/v1\/forms\)/ }).click()
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/v1/forms")
    await page.getByRole("button", { name: /^Send/ }).first().click()
    const response = await answered
    return { headers: response.request().headers(), status: response.status(), body: await response.json() }
  }

  it("Bearer: the key typed into the page goes as `Authorization: Bearer`, and the server answers 200", async () => {
    const page = await openDocs("bearer")
    try {
      const { headers, status, body } = await tryListForms(page)
      expect(headers["authorization"]).toBe(`Bearer ${TestServer.keys.alice}`)
      expect(status).toBe(200)
      expect(body.object).toBe("forms")
      await expect.poll(() => page.getByText("200 OK").count()).toBeGreaterThan(0)
    } finally {
      await page.context().close()
    }
  })

  it("x-api-key: the key goes in the `x-api-key` header, and the server answers 200", async () => {
    const page = await openDocs("apiKey")
    try {
      // The snippet is redrawn after the key is typed; on a busy machine that takes a moment.
      const snippet = async () => (await page.locator("pre, code").allInnerTexts()).find((text) => text.includes("curl") && text.includes("/v1/forms?"))
      await expect.poll(snippet, { timeout: 30_000 }).toContain(`--header 'x-api-key: ${TestServer.keys.alice}'`)
      const { headers, status, body } = await tryListForms(page)
      expect(headers["x-api-key"]).toBe(TestServer.keys.alice)
      expect(headers["authorization"]).toBeUndefined()
      expect(status).toBe(200)
      expect(body.object).toBe("forms")
    } finally {
      await page.context().close()
    }
  })

  it("uploads a PDF chosen in the page's file picker (multipart, the route's first media type)", async () => {
    const page = await openDocs("bearer")
    try {
      await page.getByRole("button", { name: /Test Request.*post \/v1\/forms\/upload\)/ }).click()
      // The example row (`file`: "filename") is no file; a file picked in a new row is named after
      // the file until its key is set to `file`.
      await page.locator("tr#file input[type=checkbox]").uncheck({ force: true })
      const rows = page.locator("table[role=table]").last().locator("tr")
      const chooser = page.waitForEvent("filechooser")
      await page.locator("tr#file + tr").getByRole("button", { name: /Select File/ }).click()
      await (await chooser).setFiles({ name: "form.pdf", mimeType: "application/pdf", buffer: Buffer.from(await Fixtures.formWithEveryFieldType()) })
      await expect.poll(() => rows.nth(1).innerText()).toMatch(/^form\.pdf/)
      await rows.nth(1).getByRole("textbox").first().click()
      await page.keyboard.press("ControlOrMeta+A")
      await page.keyboard.type("file")
      await expect.poll(() => rows.nth(1).innerText()).toMatch(/^file\s/)
      // The page's editor hands its text to the request after a short pause.
      await page.waitForTimeout(500)
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/v1/forms/upload")
      await page.getByRole("button", { name: /^Send/ }).first().click()
      const response = await answered
      expect(response.request().headers()["content-type"]).toMatch(/^multipart\/form-data; boundary=/)
      const text = await response.text()
      expect(response.status(), text).toBe(200)
      const [upload] = JSON.parse(text)
      expect(upload.file_name).toBe("form.pdf")
      expect(upload.fields.length).toBeGreaterThan(5)
    } finally {
      await page.context().close()
    }
  })

  it("with no key chosen, the same request is refused with 401", async () => {
    const page = await openDocs(undefined)
    try {
      const { headers, status } = await tryListForms(page)
      expect(Object.values(headers).join("\n")).not.toContain(TestServer.keys.alice)
      expect(status).toBe(401)
    } finally {
      await page.context().close()
    }
  })
})
