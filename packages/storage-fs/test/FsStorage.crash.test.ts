/**
 * What only a real file system and real processes can show: records survive SIGKILL at any
 * instant, conditional writes hold between processes, and a dead process's lock is recovered.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Option, Schema } from "effect"
import { Storage } from "@formwright/core"
import * as ChildProcess from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { FsStorage } from "../src/index.ts"
import { blobFor, recordFor } from "./fsWorker.ts"

const packageDir = Path.resolve(import.meta.dirname, "..")
const worker = Path.join(import.meta.dirname, "fsWorker.ts")
const scratch = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-fs-crash-"))
afterAll(() => Fs.rmSync(scratch, { recursive: true, force: true }))

let directories = 0
const freshDirectory = () => Path.join(scratch, `store-${++directories}`)

const Counter = Schema.Struct({ n: Schema.Number })

const spawnWorker = (...args: ReadonlyArray<string>) =>
  // cwd inside the package, so the worker resolves `@formwright/core` like the package does.
  ChildProcess.spawn(process.execPath, [worker, ...args], { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] })

const collectStderr = (child: ChildProcess.ChildProcess) => {
  let stderr = ""
  child.stderr?.on("data", (chunk) => (stderr += chunk))
  return () => stderr
}

const exited = (child: ChildProcess.ChildProcess) =>
  Effect.callback<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resume(Effect.succeed({ code: child.exitCode, signal: child.signalCode }))
    } else {
      child.once("exit", (code, signal) => resume(Effect.succeed({ code, signal })))
    }
  })

const firstLine = (child: ChildProcess.ChildProcess) =>
  Effect.callback<string>((resume) => {
    let out = ""
    child.stdout?.on("data", (chunk) => {
      out += chunk
      if (out.includes("\n")) resume(Effect.succeed(out.split("\n")[0]!))
    })
    child.once("exit", () => resume(Effect.succeed(out)))
  })

/** Same naming as FsStorage's lock files: tests plant locks where a writer would look. */
const lockFileOf = (directory: string, key: string) =>
  Path.join(directory, "locks", `${Crypto.createHash("sha256").update(`docs\u0000${key}`).digest("hex")}.lock`)

/** The pid of a process that has certainly exited. */
const deadPid = Effect.gen(function*() {
  const child = ChildProcess.spawn(process.execPath, ["-e", ""], { stdio: "ignore" })
  yield* exited(child)
  return child.pid!
})

describe("FsStorage under crashes and concurrent processes", () => {
  it.live("a process killed mid-write never leaves a torn record, blob or visible temp file", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      const key = "crash/record"
      let tempFilesLeft = 0
      for (let round = 0; round < 20; round++) {
        const child = spawnWorker("write-loop", directory, key)
        const stderr = collectStderr(child)
        assert.strictEqual(yield* firstLine(child), "ready", `worker did not start: ${stderr()}`)
        yield* Effect.sleep(Math.random() * 40)
        child.kill("SIGKILL")
        assert.strictEqual((yield* exited(child)).signal, "SIGKILL")

        tempFilesLeft += Fs.readdirSync(Path.join(directory, "tmp")).length
        const storage = Storage.make(yield* FsStorage.make({ directory }))
        const document = Option.getOrThrow(yield* storage.getDocument(key))
        const record = JSON.parse(document.value) as { i: number; payload: string }
        assert.deepStrictEqual(record, recordFor(record.i), `round ${round}: torn record`)
        const blob = Option.getOrThrow(yield* storage.getBlob(key))
        const i = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(0)
        assert.isTrue(Buffer.from(blob).equals(Buffer.from(blobFor(i))), `round ${round}: torn blob`)
        assert.deepStrictEqual(yield* storage.listAllBlobs(""), [key])
        assert.deepStrictEqual((yield* storage.listJson(Schema.Unknown, "")).map((item) => item.key), [key])
      }
      // Opening the store removed the temp files the killed writers left behind.
      assert.deepStrictEqual(Fs.readdirSync(Path.join(directory, "tmp")), [])
      yield* Effect.log(`crash test: ${tempFilesLeft} temp files were left by killed writers and cleaned up`)
    }), 120_000)

  it.live("two processes incrementing one counter lose no update", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      const key = "shared/counter"
      const storage = Storage.make(yield* FsStorage.make({ directory }))
      yield* storage.createJson(Counter, key, { n: 0 })
      const children = [spawnWorker("increment", directory, key, "50"), spawnWorker("increment", directory, key, "50")]
      const stderrs = children.map(collectStderr)
      const exits = yield* Effect.forEach(children, exited, { concurrency: "unbounded" })
      exits.forEach((exit, i) => assert.strictEqual(exit.code, 0, `worker ${i} failed: ${stderrs[i]!()}`))
      assert.strictEqual(Option.getOrThrow(yield* storage.getJson(Counter, key)).value.n, 100)
      assert.deepStrictEqual(Fs.readdirSync(Path.join(directory, "locks")), [], "every lock was released")
    }), 120_000)

  it.live("a lock left by a dead process does not block writes", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      const storage = Storage.make(yield* FsStorage.make({ directory }))
      const lock = lockFileOf(directory, "locked/doc")
      Fs.writeFileSync(lock, JSON.stringify({ pid: yield* deadPid, host: Os.hostname(), token: "dead" }))

      const started = Date.now()
      yield* storage.putDocument("locked/doc", `{"n":1}`, "absent")
      assert.isBelow(Date.now() - started, 2_000, "the dead holder's lock was broken at once")
      assert.isFalse(Fs.existsSync(lock))
    }))

  it.live("a lock held by a live process blocks writes until it is old enough to be stale", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      const storage = Storage.make(yield* FsStorage.make({ directory }))
      const lock = lockFileOf(directory, "locked/doc")
      // A live pid on this host: only age can make this lock stale (a holder hung, not dead).
      Fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: Os.hostname(), token: "hung" }))

      const write = yield* Effect.forkChild(storage.putDocument("locked/doc", `{"n":1}`, "absent"))
      yield* Effect.sleep(300)
      assert.isTrue(Option.isNone(yield* storage.getDocument("locked/doc")), "the write waited for the lock")

      const past = new Date(Date.now() - 60_000)
      Fs.utimesSync(lock, past, past)
      yield* Fiber.join(write)
      assert.strictEqual(Option.getOrThrow(yield* storage.getDocument("locked/doc")).value, `{"n":1}`)
    }))

  it.live("an abandoned lock and an abandoned breaker lock are both recovered", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      const storage = Storage.make(yield* FsStorage.make({ directory }))
      const lock = lockFileOf(directory, "locked/doc")
      const past = new Date(Date.now() - 60_000)
      Fs.writeFileSync(lock, "not even JSON")
      Fs.writeFileSync(`${lock}.break`, "")
      Fs.utimesSync(lock, past, past)
      Fs.utimesSync(`${lock}.break`, past, past)

      yield* storage.putDocument("locked/doc", `{"n":1}`, "any")
      assert.deepStrictEqual(Fs.readdirSync(Path.join(directory, "locks")), [])
    }))

  it.live("keys cannot escape the data directory", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      const storage = Storage.make(yield* FsStorage.make({ directory }))
      yield* storage.putBlob("../../outside", new Uint8Array([1]))
      yield* storage.putDocument("/../../etc/passwd", `{}`, "any")
      const written = Fs.readdirSync(scratch, { recursive: true }).map(String).filter((file) => /outside|passwd/.test(file))
      assert.strictEqual(written.length, 2)
      for (const file of written) assert.isTrue(file.startsWith(`${Path.relative(scratch, directory)}${Path.sep}`), file)
      assert.isFalse(Fs.existsSync(Path.join(directory, "..", "outside")))
      assert.deepStrictEqual(yield* storage.listAllBlobs(""), ["../../outside"])
      assert.deepStrictEqual((yield* storage.listJson(Schema.Unknown, "/")).map((item) => item.key), ["/../../etc/passwd"])
    }))

  it.live("layerConfig reads FORMWRIGHT_DATA_DIR", () =>
    Effect.gen(function*() {
      const directory = freshDirectory()
      const previous = process.env.FORMWRIGHT_DATA_DIR
      process.env.FORMWRIGHT_DATA_DIR = directory
      try {
        yield* Effect.gen(function*() {
          const storage = yield* Storage.Storage
          yield* storage.putBlob("configured", new Uint8Array([7]))
        }).pipe(Effect.provide(FsStorage.layerConfig))
      } finally {
        if (previous === undefined) delete process.env.FORMWRIGHT_DATA_DIR
        else process.env.FORMWRIGHT_DATA_DIR = previous
      }
      assert.isTrue(Fs.existsSync(Path.join(directory, "blobs", "configured~.bin")))
    }))
})
