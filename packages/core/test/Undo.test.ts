import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Ref } from "effect"
import { both, withUndoAll } from "../src/Undo.ts"

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

describe("both", () => {
  const written = (names: Ref.Ref<ReadonlyArray<string>>, name: string) => ({
    write: Ref.update(names, (list) => [...list, name]).pipe(Effect.as(name.toUpperCase())),
    undo: (value: string) => Ref.update(names, (list) => list.filter((n) => n.toUpperCase() !== value))
  })

  it.effect("keeps both writes and returns what each wrote", () =>
    Effect.gen(function*() {
      const { names } = yield* store
      const result = yield* both(written(names, "output"), written(names, "form"))
      expect(result).toEqual(["OUTPUT", "FORM"])
      expect([...(yield* Ref.get(names))].sort()).toEqual(["form", "output"])
    }))

  it.effect("undoes the first when the second fails, with what the first wrote", () =>
    Effect.gen(function*() {
      const { names } = yield* store
      const exit = yield* Effect.exit(both(written(names, "output"), { write: Effect.fail("disk full" as const), undo: () => Effect.die("never") }))
      expect(exit).toEqual(Exit.fail("disk full"))
      expect(yield* Ref.get(names)).toEqual([])
    }))

  it.effect("undoes the second when the first fails", () =>
    Effect.gen(function*() {
      const { names } = yield* store
      const exit = yield* Effect.exit(both({ write: Effect.fail("disk full" as const), undo: () => Effect.die("never") }, written(names, "form")))
      expect(exit).toEqual(Exit.fail("disk full"))
      expect(yield* Ref.get(names)).toEqual([])
    }))

  it.live("finishes both writes when interrupted, and keeps them", () =>
    Effect.gen(function*() {
      const { names } = yield* store
      const slow = { write: Effect.sleep("20 millis").pipe(Effect.andThen(Ref.update(names, (list) => [...list, "form"]))), undo: () => Effect.void }
      const fiber = yield* Effect.forkChild(both(written(names, "output"), slow))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(fiber)
      expect([...(yield* Ref.get(names))].sort()).toEqual(["form", "output"])
    }))
})
