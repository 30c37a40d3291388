/**
 * The whole-system test (scripts/system-test.ts) as part of `npm test`: the vitest project
 * `system`, run alone after every other suite (about 80 s on two cores), since its five processes
 * and their PDF workers would compete with the parallel suites for the CPU and stretch the
 * takeover it measures. Skipped with a message without PostgreSQL or radosgw.
 */
import { spawn } from "node:child_process"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import * as Cluster from "./Cluster.ts"

const lacking = Cluster.missing()
const script = Path.resolve(import.meta.dirname, "../system-test.ts")

if (lacking !== undefined) {
  console.warn(`system test skipped: it needs ${lacking}`)
  describe.skip(`the whole system (skipped: it needs ${lacking})`, () => {
    it("needs PostgreSQL and radosgw", () => {})
  })
} else {
  describe("the whole system: PostgreSQL, Ceph RGW, a converter, two API servers, two of them killed", () => {
    it("every job completes once, one completed event each, nothing acknowledged lost, either server answers", async () => {
      const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] })
      let output = ""
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve))
      // The summary lines (timings, takeover, webhooks) are worth seeing in the test log.
      console.log(output.split("\n").filter((line) => line.startsWith("[system")).join("\n"))
      expect(code, output.slice(-12_000)).toBe(0)
      expect(output).toMatch(/\[system-test\] PASSED/)
    }, 600_000)
  })
}
