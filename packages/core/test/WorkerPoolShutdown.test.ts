import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const poolModule = new URL("../src/pdf/WorkerPool.ts", import.meta.url).href
const script = new URL("./support/poolWorker.ts", import.meta.url).href

// A process of its own, since a test runner keeps the event loop alive whatever the pool does:
// a script whose only work left is awaiting the shutdown at its top level, as
// docs/examples/embed.ts does once its layer closes.
const program = `
  const WorkerPool = await import(${JSON.stringify(poolModule)})
  const pool = WorkerPool.make({ script: new URL(${JSON.stringify(script)}), workerData: null, size: 2, maxHeapMb: 64 }, () => {})
  await pool.run("echo", "ok", { lane: "request", timeoutMs: 10_000 }).promise
  await pool.close()
  console.log("closed")
`

describe("WorkerPool shutdown", () => {
  it("a script that awaits close() at its top level sees it complete (idle workers are unref'd)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", program], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      timeout: 30_000
    })
    expect(stdout.trim()).toBe("closed")
  })
})
