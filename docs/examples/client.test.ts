import { Cause, Effect, Exit, Layer, Logger, Option, Scope } from "effect"
import { Errors } from "@formwright/api"
import { Server } from "@formwright/http-node"
import { Fixtures } from "@formwright/testing"
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { program } from "./client.ts"

describe("docs/examples/client.ts", () => {
  const dir = mkdtempSync(join(tmpdir(), "formwright-client-"))
  const scope = Effect.runSync(Scope.make())
  const apiKey = "example-client-key-0001"
  let baseUrl = ""

  // A real server on a free loopback port, as `formwright serve` runs it.
  beforeAll(async () => {
    const layer = Server.layer({
      config: {
        port: 0,
        host: "127.0.0.1",
        dataDir: dir,
        apiKeys: `ada:${apiKey}`,
        maxUploadBytes: 5 * 1024 * 1024,
        publicUrl: undefined,
        concurrency: 1,
        allowHttpUrls: false,
        urlAllowList: []
      }
    }).pipe(Layer.provide(Logger.layer([])))
    const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    baseUrl = Option.getOrThrow(Effect.runSync(Effect.provide(Server.baseUrl, context)))
  })
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(dir, { recursive: true, force: true })
  })

  it("uploads, stores a profile, fills the form from it and downloads the PDF through the typed client", async () => {
    const pdf = await Fixtures.formWithEveryFieldType()
    const outcome = await Effect.runPromise(program({ baseUrl, apiKey }, pdf, { "First name": "Zoë", "Last name": "Ádám" }))
    const n = Fixtures.everyFieldType
    expect(outcome.fieldNames.length).toBeGreaterThan(5)
    expect(outcome.filled).toEqual(expect.arrayContaining([
      { field: n.firstName, value: "Zoë", source: `profile:${outcome.profileId}` },
      { field: n.lastName, value: "Ádám", source: `profile:${outcome.profileId}` }
    ]))
    // The downloaded PDF reads back in an independent reader with the values written.
    const task = getDocument({ data: outcome.filledPdf.slice(), verbosity: VerbosityLevel.ERRORS })
    const doc = await task.promise
    const values: Array<unknown> = []
    for (let p = 1; p <= doc.numPages; p++) {
      for (const annotation of await (await doc.getPage(p)).getAnnotations()) values.push(annotation.fieldValue)
    }
    expect(values).toEqual(expect.arrayContaining(["Zoë", "Ádám"]))
    await task.destroy()
  })

  it("fails with the wire error class of a documented answer", async () => {
    const exit = await Effect.runPromiseExit(program({ baseUrl, apiKey: "not-a-key" }, new Uint8Array(), {}))
    const failure = Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : Option.none()
    expect(Option.getOrUndefined(failure)).toBeInstanceOf(Errors.Unauthorized)
  })
})
