/**
 * The pg-boss JobRunner against a real PostgreSQL (test/support/PgTestServer.ts): several runners
 * (layers with their own pg-boss, as several servers would have) on one database. An item runs
 * once however many servers take from the queue or submit it again; a server killed mid-run
 * (a child process, kill -9) has its item finished by another within 30 s; a server shut down
 * mid-run hands its item over at once; runs that keep dying end in `abandon` after back-off.
 */
import { JobRunner, Storage } from "@formwright/core"
import { MemoryStorage } from "@formwright/testing"
import { Deferred, Effect, Layer, ManagedRuntime } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as Path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { PgBossJobRunner } from "../src/index.ts"
import * as PgTestServer from "./support/PgTestServer.ts"
import { waitFor } from "./support/Receiver.ts"

const server = PgTestServer.server()

if (typeof server === "string") {
  describe.skip(`pg-boss job runner (${server})`, () => {
    it("needs PostgreSQL", () => {})
  })
} else {
  const { url } = server
  const schemas: Array<string> = []
  const runtimes: Array<ManagedRuntime.ManagedRuntime<JobRunner.JobRunner | Storage.Storage, unknown>> = []
  const children: Array<ChildProcess> = []
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL")
    await Promise.all(runtimes.map((runtime) => runtime.dispose().catch(() => undefined)))
    for (const name of schemas) await PgTestServer.dropSchema(url, name)
  }, 60_000)

  const freshSchema = (label: string) => {
    const name = PgTestServer.freshSchema(label)
    schemas.push(name)
    return name
  }

  /** One "server": its own pg-boss (pool, workers, supervisor) on the shared schema. */
  const startRunner = async (schema: string, options: Partial<PgBossJobRunner.Options> = {}, storage = MemoryStorage.layer) => {
    const runtime = ManagedRuntime.make(
      PgBossJobRunner.layer({ url, schema, retryDelaySeconds: 1, ...options }).pipe(Layer.provideMerge(storage))
    )
    runtimes.push(runtime)
    const runner = await runtime.runPromise(JobRunner.JobRunner.useSync((service) => service))
    return { runtime, runner, run: <A, E>(effect: Effect.Effect<A, E, JobRunner.JobRunner | Storage.Storage>) => runtime.runPromise(effect) }
  }

  const item = (id: string) => ({ kind: "conversion" as const, id, owner: "alice" })

  describe("pg-boss job runner", { timeout: 120_000 }, () => {
    it("two servers on one queue: each item runs once, even when submitted again while it runs", async () => {
      const schema = freshSchema("boss_once")
      const [a, b] = await Promise.all([startRunner(schema), startRunner(schema)])
      const runs: Array<{ id: string; by: string; attempt: number }> = []
      const release = Deferred.makeUnsafe<void>()
      const handler = (by: string): JobRunner.Handler => ({
        run: (work, attempt) =>
          Effect.sync(() => runs.push({ id: work.id, by, attempt: attempt.number })).pipe(
            // Items stay running until released, so the second submits below meet running items.
            Effect.andThen(Deferred.await(release)),
            Effect.as("done" as const)
          ),
        abandon: () => Effect.die("nothing should be abandoned")
      })
      await a.run(a.runner.register("conversion", handler("a")))
      await b.run(b.runner.register("conversion", handler("b")))
      const ids = Array.from({ length: 6 }, (_, i) => `conv_once_${i}`)
      for (const id of ids) await a.run(a.runner.submit(item(id)))
      await waitFor(() => runs.length >= 4, 20_000, "runs to start")
      // Submitted again through the other server, and resumed there: nothing is added.
      for (const id of ids) await b.run(b.runner.submit(item(id)))
      await b.run(b.runner.resume)
      Deferred.doneUnsafe(release, Effect.void)
      await a.run(a.runner.idle)
      const perItem = new Map<string, number>()
      for (const run of runs) perItem.set(run.id, (perItem.get(run.id) ?? 0) + 1)
      expect([...perItem.entries()].sort()).toEqual(ids.map((id) => [id, 1]))
      expect(runs.every((run) => run.attempt === 1)).toBe(true)
    })

    it("a server killed mid-run: another server finishes the item within 30 s", async () => {
      const schema = freshSchema("boss_crash")
      const b = await startRunner(schema)
      const child = spawn(process.execPath, [Path.join(import.meta.dirname, "support/JobRunnerProcess.ts"), url, schema], {
        stdio: ["ignore", "pipe", "pipe"]
      })
      children.push(child)
      let output = ""
      child.stdout!.on("data", (chunk) => (output += chunk))
      child.stderr!.on("data", (chunk) => (output += chunk))
      await waitFor(() => output.includes("ready"), 30_000, `the runner process to start (output: ${output})`)
      await b.run(b.runner.submit(item("conv_crash")))
      await waitFor(() => output.includes("started conv_crash 1"), 20_000, `the child to start the run (output: ${output})`)
      child.kill("SIGKILL")
      const killed = Date.now()
      const finished: Array<{ attempt: number; at: number }> = []
      await b.run(b.runner.register("conversion", {
        run: (_, attempt) => Effect.sync(() => finished.push({ attempt: attempt.number, at: Date.now() })).pipe(Effect.as("done" as const)),
        abandon: () => Effect.die("nothing should be abandoned")
      }))
      await waitFor(() => finished.length > 0, 30_000, "the other server to take the item over")
      expect(finished).toHaveLength(1)
      expect(finished[0]!.attempt).toBe(2)
      const tookOverMs = finished[0]!.at - killed
      console.log(`pg-boss runner: item of a killed server taken over after ${tookOverMs} ms`)
      expect(tookOverMs).toBeLessThan(30_000)
    })

    it("a server shut down mid-run hands its item to another at once", async () => {
      const schema = freshSchema("boss_stop")
      const [a, b] = await Promise.all([startRunner(schema), startRunner(schema)])
      const started = Deferred.makeUnsafe<void>()
      await a.run(a.runner.register("conversion", {
        run: () => Deferred.succeed(started, undefined).pipe(Effect.andThen(Effect.never)),
        abandon: () => Effect.die("nothing should be abandoned")
      }))
      await a.run(a.runner.submit(item("conv_stop")))
      await a.run(Deferred.await(started))
      await a.runtime.dispose()
      const stopped = Date.now()
      const finished: Array<number> = []
      await b.run(b.runner.register("conversion", {
        run: (_, attempt) => Effect.sync(() => finished.push(attempt.number)).pipe(Effect.as("done" as const)),
        abandon: () => Effect.die("nothing should be abandoned")
      }))
      await waitFor(() => finished.length > 0, 15_000, "the other server to take the item over")
      expect(finished).toEqual([2])
      // Failed into retry by the stopping server, not left for the heartbeat to time out.
      expect(Date.now() - stopped).toBeLessThan(10_000)
    })

    it("runs that keep dying back off and end in abandon, with the message", async () => {
      const schema = freshSchema("boss_fail")
      const a = await startRunner(schema, { maxAttempts: 3 })
      const attempts: Array<{ number: number; last: boolean; at: number }> = []
      const abandoned = Deferred.makeUnsafe<{ id: string; message: string }>()
      await a.run(a.runner.register("conversion", {
        run: (_, attempt) =>
          Effect.sync(() => attempts.push({ number: attempt.number, last: attempt.last, at: Date.now() })).pipe(
            Effect.andThen(Effect.die(new Error("the worker crashed")))
          ),
        abandon: (work, message) => Deferred.succeed(abandoned, { id: work.id, message }).pipe(Effect.asVoid)
      }))
      await a.run(a.runner.submit(item("conv_fail")))
      const result = await a.run(Deferred.await(abandoned).pipe(Effect.timeout(60_000)))
      expect(result).toEqual({ id: "conv_fail", message: JobRunner.abandonedMessage(3) })
      expect(attempts.map((attempt) => [attempt.number, attempt.last])).toEqual([[1, false], [2, false], [3, true]])
      // Backed off: each wait at least the retry delay (1 s, then about 2 s).
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(900)
      expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(900)
      await a.run(a.runner.idle)
    })

    it("resume moves items an in-process runner left in Storage onto the queue", async () => {
      const schema = freshSchema("boss_resume")
      const storage = Layer.succeed(Storage.Storage, Storage.make(MemoryStorage.make()))
      const left: JobRunner.WorkItem = { ...item("conv_left"), submitted: new Date().toISOString(), attempts: 1 }
      const a = await startRunner(schema, {}, storage)
      await a.run(Effect.gen(function*() {
        const store = yield* Storage.Storage
        yield* store.putJson(JobRunner.WorkItem, JobRunner.workKey(left), left)
      }))
      const ran: Array<string> = []
      await a.run(a.runner.register("conversion", {
        run: (work) => Effect.sync(() => ran.push(work.id)).pipe(Effect.as("done" as const)),
        abandon: () => Effect.die("nothing should be abandoned")
      }))
      expect(await a.run(a.runner.resume)).toBe(1)
      await waitFor(() => ran.length > 0, 15_000, "the resumed item to run")
      expect(ran).toEqual(["conv_left"])
      const remaining = await a.run(Effect.gen(function*() {
        return yield* (yield* Storage.Storage).listDocuments("work/")
      }))
      expect(remaining.items).toEqual([])
    })
  })
}
