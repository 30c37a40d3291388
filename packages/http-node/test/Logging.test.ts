/**
 * The server's non-blocking log (Logging.ts): its logfmt lines are exactly Effect's, and its
 * sink writes every line, in order, by the time `flush` resolves. (Shutdown.test.ts checks the
 * real process: requests answered while nobody reads the log, no line lost on SIGTERM.)
 */
import { Effect, Logger, References } from "effect"
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as Logging from "../src/Logging.ts"

describe("the non-blocking log", () => {
  it("writes the lines Logger.formatLogFmt writes", async () => {
    const pairs: Array<[string, string]> = []
    const both = Logger.make((options) => {
      pairs.push([Logging.formatLogFmt(options), Logger.formatLogFmt.log(options)])
    })
    await Effect.runPromise(
      Effect.gen(function*() {
        yield* Effect.logInfo("request").pipe(
          Effect.annotateLogs({ request_id: "req_01ABC", method: "GET", path: "/v1/forms/frm_1", status: 200, ms: 3 })
        )
        yield* Effect.logWarning(`a message with spaces, "quotes" and = signs`).pipe(
          Effect.annotateLogs({ "odd key=": "x y", flag: true, ratio: 1.5, negative: -0, empty: "", unicode: "Zoë Ωmega" })
        )
        yield* Effect.logError("failed", new Error("boom"))
        yield* Effect.logInfo("in a span").pipe(Effect.withLogSpan("work"))
        yield* Effect.logInfo({ structured: [1, 2] })
        yield* Effect.logInfo("two", "parts")
        yield* Effect.logDebug("not a number").pipe(Effect.annotateLogs({ nan: Number.NaN, big: 12345678901234567890 }))
      }).pipe(Effect.provide(Logger.layer([both])), Effect.provideService(References.MinimumLogLevel, "All"))
    )
    expect(pairs).toHaveLength(7)
    for (const [mine, effects] of pairs) expect(mine).toBe(effects)
  })

  it("a sink writes every line, in order, once flushed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "formwright-logging-"))
    const file = join(dir, "log")
    const fd = openSync(file, "w")
    try {
      const sink = Logging.makeSink(fd)
      const lines = Array.from({ length: 5_000 }, (_, i) => `line=${i}`)
      for (const line of lines) sink.write(line)
      await sink.flush()
      expect(readFileSync(file, "utf8")).toBe(lines.map((line) => `${line}\n`).join(""))
      sink.write("after")
      await sink.flush()
      expect(readFileSync(file, "utf8").endsWith("line=4999\nafter\n")).toBe(true)
    } finally {
      closeSync(fd)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
