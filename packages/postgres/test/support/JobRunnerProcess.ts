/**
 * A "server" that only runs jobs, as a child process a test can kill -9 mid-job:
 * `node JobRunnerProcess.ts <database url> <pg-boss schema>`. It takes conversion items from the
 * pg-boss runner, prints `started <id> <attempt>` when a run begins, and never finishes one.
 */
import { JobRunner } from "@formwright/core"
import { MemoryStorage } from "@formwright/testing"
import { Effect, Layer } from "effect"
import { PgBossJobRunner } from "../../src/index.ts"

const [url, schema] = process.argv.slice(2)
if (url === undefined || schema === undefined) throw new Error("usage: JobRunnerProcess.ts <url> <schema>")

const program = Effect.gen(function*() {
  const runner = yield* JobRunner.JobRunner
  yield* runner.register("conversion", {
    run: (item, attempt) =>
      Effect.sync(() => console.log(`started ${item.id} ${attempt.number}`)).pipe(Effect.andThen(Effect.never)),
    abandon: () => Effect.void
  })
  console.log("ready")
  return yield* Effect.never
}).pipe(Effect.provide(PgBossJobRunner.layer({ url, schema }).pipe(Layer.provide(MemoryStorage.layer))))

Effect.runFork(program)
