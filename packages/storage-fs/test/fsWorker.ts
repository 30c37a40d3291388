/**
 * A second process on the same data directory, started by FsStorage.crash.test.ts:
 *   node fsWorker.ts write-loop <directory> <key>         rewrites a record and a blob until killed
 *   node fsWorker.ts increment <directory> <key> <count>  increments a counter document
 */
import { Effect, Schema } from "effect"
import { Storage } from "@formwright/core"
import { FsStorage } from "../src/index.ts"

/** The record the write loop rewrites: every field is derived from `i`, so a torn write shows. */
export const recordFor = (i: number) => ({ i, payload: `${i}:`.repeat(20_000) })

/** The blob the write loop rewrites: a header holding `i`, then `i & 0xff` repeated. */
export const blobFor = (i: number) => {
  const bytes = new Uint8Array(512 * 1024).fill(i & 0xff)
  new DataView(bytes.buffer).setUint32(0, i)
  return bytes
}

const Counter = Schema.Struct({ n: Schema.Number })

const [mode, directory, key, count] = process.argv.slice(2)

const writeLoop = Effect.gen(function*() {
  const storage = yield* Storage.Storage
  for (let i = 0; ; i++) {
    yield* storage.putDocument(key!, JSON.stringify(recordFor(i)), "any")
    yield* storage.putBlob(key!, blobFor(i))
    if (i === 0) process.stdout.write("ready\n")
  }
})

const increment = Effect.gen(function*() {
  const storage = yield* Storage.Storage
  for (let i = 0; i < Number(count); i++) {
    yield* storage.updateJson(Counter, key!, (counter) => Effect.succeed({ n: counter.n + 1 }))
  }
})

if (import.meta.main) {
  const program = mode === "write-loop" ? writeLoop : increment
  Effect.runPromise(program.pipe(Effect.provide(FsStorage.layer({ directory: directory! })))).catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
