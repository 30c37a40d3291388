import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Ref } from "effect"
import { withUndoAll } from "../src/Undo.ts"

/** A store of names: each write adds one, its undo removes it. */
const store = Effect.gen(function*() {
  const names = yield* Ref.make<ReadonlyArray<string>>([])
  const write = (name: string) => ({
    write: Ref.update(names, (list) => [...list, name]),
    undo: Ref.update(names, (list) => list.filter((n) => n !== name))
  })
  const failing = { write: Effect.fail("disk full" as const), undo: Effect.die("a failed write is never undone") }
  return { names, write, failing }
})

describe("withUndoAll", () => {
  it.effect("keeps every write when all of them and the next step succeed", () =>
    Effect.gen(function*() {
      const { names, write } = yield* store
      const result = yield* withUndoAll([write("pdf"), write("record")], Effect.succeed("scheduled"))
      expect(result).toBe("scheduled")
      expect([...(yield* Ref.get(names))].sort()).toEqual(["pdf", "record"])
    }))

  it.effect("undoes the writes that succeeded when another fails, and never runs the next step", () =>
    Effect.gen(function*() {
      const { names, write, failing } = yield* store
      const next = yield* Ref.make(false)
      const exit = yield* Effect.exit(withUndoAll([write("pdf"), failing, write("record")], Ref.set(next, true)))
      expect(exit).toEqual(Exit.fail("disk full"))
      expect(yield* Ref.get(names)).toEqual([])
      expect(yield* Ref.get(next)).toBe(false)
    }))

  it.effect("undoes every write when the next step fails", () =>
    Effect.gen(function*() {
      const { names, write } = yield* store
      const exit = yield* Effect.exit(withUndoAll([write("pdf"), write("record")], Effect.fail("queue down" as const)))
      expect(exit).toEqual(Exit.fail("queue down"))
      expect(yield* Ref.get(names)).toEqual([])
    }))

  it.effect("undoes every write when the next step is interrupted", () =>
    Effect.gen(function*() {
      const { names, write } = yield* store
      const fiber = yield* Effect.forkChild(withUndoAll([write("pdf"), write("record")], Effect.never))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(fiber)
      expect(yield* Ref.get(names)).toEqual([])
    }))
})
