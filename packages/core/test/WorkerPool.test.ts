import { describe, expect, it } from "vitest"
import * as WorkerPool from "../src/pdf/WorkerPool.ts"

const script = new URL("./support/poolWorker.ts", import.meta.url)

const withPool = async (options: Partial<WorkerPool.PoolOptions>, body: (pool: WorkerPool.Pool, logs: Array<string>) => Promise<void>) => {
  const logs: Array<string> = []
  const pool = WorkerPool.make({ script, workerData: null, size: 2, maxHeapMb: 64, ...options }, (level, message) => logs.push(`${level}: ${message}`))
  try {
    await body(pool, logs)
  } finally {
    await pool.close()
  }
}

const run = (pool: WorkerPool.Pool, task: string, input: unknown = null, options: Partial<WorkerPool.RunOptions> = {}) =>
  pool.run(task, input, { lane: "request", timeoutMs: 10_000, ...options }).promise

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    return error as WorkerPool.TaskFailed
  }
  throw new Error("expected the task to fail")
}

describe("WorkerPool", () => {
  it("runs tasks and reports progress in order", () =>
    withPool({}, async (pool) => {
      expect(await run(pool, "echo", { a: [1, 2] })).toEqual({ a: [1, 2] })
      const seen: Array<unknown> = []
      expect(await run(pool, "progress", null, { onProgress: (value) => seen.push(value) })).toBe("finished")
      expect(seen).toEqual([1, 2, 3])
    }))

  it("a task past its time budget fails with Timeout, and the pool carries on", () =>
    withPool({}, async (pool) => {
      const started = Date.now()
      const error = await failure(run(pool, "spin", 60_000, { timeoutMs: 300 }))
      expect(error.reason).toBe("Timeout")
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(await run(pool, "echo", "after")).toBe("after")
    }), 20_000)

  it("each progress report renews the time budget, so long work that moves is not cut short", () =>
    withPool({}, async (pool) => {
      expect(await run(pool, "tick", 10, { timeoutMs: 400 })).toBe(10)
    }), 20_000)

  it("a task past the heap cap fails with OutOfMemory; the process lives on", () =>
    withPool({ maxHeapMb: 32 }, async (pool) => {
      const error = await failure(run(pool, "allocate", null, { timeoutMs: 60_000 }))
      expect(error.reason).toBe("OutOfMemory")
      expect(error.message).toContain("32 MiB")
      expect(await run(pool, "echo", "after")).toBe("after")
    }), 60_000)

  it.runIf(process.platform === "linux")("a task whose resident memory passes the cap (buffers outside the heap) fails with OutOfMemory", () =>
    withPool({ maxHeapMb: 64, maxRssMb: 200 }, async (pool) => {
      // 16 MiB every 20 ms for 10 s would be 8 GiB; the heap cap alone never sees it.
      const error = await failure(run(pool, "buffers", 10_000, { timeoutMs: 60_000 }))
      expect(error.reason).toBe("OutOfMemory")
      expect(error.message).toContain("200 MiB")
      expect(await run(pool, "echo", "after")).toBe("after")
    }), 60_000)

  it.runIf(process.platform === "linux")("an idle worker that goes on growing past the cap is replaced", () =>
    withPool({ maxHeapMb: 64, maxRssMb: 200, size: 1 }, async (pool, logs) => {
      expect(await run(pool, "linger", null)).toBe("answered")
      const deadline = Date.now() + 20_000
      while (!logs.some((line) => line.includes("while idle")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
      expect(logs.some((line) => line.includes("while idle"))).toBe(true)
      expect(await run(pool, "echo", "next")).toBe("next")
    }), 60_000)

  it.runIf(process.platform === "linux")("a worker that ends a task holding most of its cap is replaced, and serves what fits until its successor is ready", () =>
    withPool({ maxHeapMb: 64, maxRssMb: 380, size: 2 }, async (pool) => {
      // Tasks one at a time: the pool (of 2) runs one worker, so it has room for a successor beside it.
      const first = await run(pool, "pid")
      // About 345 MiB resident after it: past 85% of the cap, under the cap.
      expect(await run(pool, "keep", 280)).toBe(280)
      expect(pool.stats().workers).toBe(2)
      // Its successor is loading: a small task does not wait for it, the old worker takes it...
      expect(await run(pool, "pid")).toBe(first)
      // ...but one it lacks the room for (four copies of 30 MiB beside what it holds) waits for the successor.
      const successor = await run(pool, "pid", null, { inputBytes: 30 * 1024 * 1024 })
      expect(successor).not.toBe(first)
      // Once the successor is ready, the old worker goes, and the pool is back to its size.
      for (let i = 0; i < 100 && pool.stats().workers > 1; i++) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(pool.stats().workers).toBe(1)
      expect(await run(pool, "pid")).toBe(successor)
    }), 60_000)

  it.runIf(process.platform === "linux")("a pool with no room beside the worker replaces it before the next task", () =>
    withPool({ maxHeapMb: 64, maxRssMb: 380, size: 1 }, async (pool) => {
      const first = await run(pool, "pid")
      expect(await run(pool, "keep", 280)).toBe(280)
      // Never more processes than the pool's size: the old worker went before its successor came.
      expect(pool.stats().workers).toBe(1)
      expect(await run(pool, "pid")).not.toBe(first)
    }), 60_000)

  it.runIf(process.platform === "linux")("a task that runs out of memory on a used worker runs again on a fresh one", () =>
    withPool({ maxHeapMb: 64, maxRssMb: 300, size: 1 }, async (pool, logs) => {
      const first = await run(pool, "pid")
      expect(await run(pool, "keep", 150)).toBe(150)
      // 150 MiB more does not fit beside what the used worker holds, but fits a fresh worker.
      const ranOn = await run(pool, "need", 150, { timeoutMs: 60_000 })
      expect(ranOn).not.toBe(first)
      expect(logs.some((line) => line.includes("runs again on a fresh one"))).toBe(true)
      // On a fresh worker it is not tried again: past the cap there, it fails.
      expect((await failure(run(pool, "need", 400, { timeoutMs: 60_000 }))).reason).toBe("OutOfMemory")
    }), 60_000)

  it.runIf(process.platform === "linux")("a large input goes to a fresh worker when a used one lacks room for its copies", () =>
    withPool({ maxHeapMb: 64, maxRssMb: 300, size: 1 }, async (pool) => {
      // A fresh worker takes its first task whatever its size: no other has more room.
      const first = await run(pool, "pid", null, { inputBytes: 500 * 1024 * 1024 })
      // Holding 100 MiB more: under the share that retires a worker, so it stays.
      expect(await run(pool, "keep", 100)).toBe(100)
      expect(await run(pool, "pid", null, { inputBytes: 4 * 1024 * 1024 })).toBe(first)
      // Four copies of 50 MiB would not fit beside what it holds; a fresh worker takes it.
      const fresh = await run(pool, "pid", null, { inputBytes: 50 * 1024 * 1024 })
      expect(fresh).not.toBe(first)
    }), 60_000)

  it.runIf(process.platform === "linux")("work under the resident cap is left alone", () =>
    withPool({ maxHeapMb: 64, maxRssMb: 400 }, async (pool) => {
      expect(await run(pool, "buffers", 100, { timeoutMs: 60_000 })).toBeGreaterThan(0)
    }), 60_000)

  it("a worker that throws or exits fails its task with Crashed and is replaced", () =>
    withPool({}, async (pool, logs) => {
      expect((await failure(run(pool, "throw"))).reason).toBe("Crashed")
      expect((await failure(run(pool, "exit"))).reason).toBe("Crashed")
      expect(await run(pool, "echo", 1)).toBe(1)
      expect(logs.some((line) => line.includes("boom"))).toBe(true)
    }), 20_000)

  it("a task's own failure comes back as its serialized error", () =>
    withPool({}, async (pool) => {
      const error = await failure(run(pool, "fail"))
      expect(error.reason).toBeUndefined()
      expect(error.error).toEqual({ _tag: "Defect", message: "failed on purpose" })
    }))

  it("background tasks leave a worker free for requests", () =>
    withPool({ size: 2 }, async (pool) => {
      const background = [1, 2, 3].map(() => run(pool, "spin", 1_500, { lane: "background" }))
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(pool.stats().busy).toBe(1)
      const started = Date.now()
      expect(await run(pool, "echo", "request")).toBe("request")
      // Answered while the background work goes on, not after it.
      expect(Date.now() - started).toBeLessThan(1_400)
      expect(await Promise.all(background)).toEqual(["spun", "spun", "spun"])
    }), 30_000)

  it("a cancelled task stops its worker; close fails what is left", () =>
    withPool({ size: 1 }, async (pool) => {
      const running = pool.run("spin", 60_000, { lane: "request", timeoutMs: 60_000 })
      const cancelled = failure(running.promise)
      const waiting = pool.run("echo", 1, { lane: "request", timeoutMs: 60_000 })
      await new Promise((resolve) => setTimeout(resolve, 300))
      running.cancel()
      expect((await cancelled).message).toBe("Cancelled.")
      expect(await waiting.promise).toBe(1)
      const last = failure(pool.run("spin", 60_000, { lane: "request", timeoutMs: 60_000 }).promise)
      await pool.close()
      expect((await last).message).toContain("shut down")
    }), 30_000)
})
