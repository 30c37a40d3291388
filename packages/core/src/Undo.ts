/**
 * Undoing earlier writes when a later one fails, so a request that fails half-way (a full
 * disk, a client that left) leaves no blob or record that nothing points to.
 */
import { Effect, Exit } from "effect"

/**
 * Runs a compensating write (deleting what an earlier step wrote): best effort, since the
 * failure to report is the one that made it necessary; what cannot be removed is logged.
 */
export const undo = <E>(effect: Effect.Effect<unknown, E>): Effect.Effect<void> =>
  effect.pipe(
    Effect.asVoid,
    Effect.catchCause((cause) => Effect.logWarning("could not undo a partial write", cause))
  )

/**
 * `write`, then `next`; when `next` fails or is interrupted, `undoWrite` removes what `write`
 * wrote. No interruption can fall between the write and the watch over `next`: the write
 * completes or fails as a whole, and only `next` can be interrupted.
 */
export const withUndo = <A, E, R, B, E2, R2, E3>(
  write: Effect.Effect<A, E, R>,
  undoWrite: Effect.Effect<unknown, E3>,
  next: Effect.Effect<B, E2, R2>
): Effect.Effect<B, E | E2, R | R2> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.andThen(write, restore(next).pipe(Effect.onError(() => undo(undoWrite))))
  )

/** A write and the compensating write that removes what it wrote. */
export interface UndoableWrite<E, R> {
  readonly write: Effect.Effect<unknown, E, R>
  readonly undo: Effect.Effect<unknown, unknown>
}

/** A write whose undo is told what it wrote (the id it chose, say). */
export interface UndoableResult<A, E, R> {
  readonly write: Effect.Effect<A, E, R>
  readonly undo: (written: A) => Effect.Effect<unknown, unknown>
}

/**
 * `writes` side by side, none depending on another. When one fails, the others that succeeded
 * are undone and the first failure is returned; otherwise their values, and the effect that
 * undoes them all. Run it uninterruptibly, so an interruption never splits the writes.
 */
const sideBySide = <E, R>(writes: ReadonlyArray<UndoableResult<unknown, E, R>>) =>
  Effect.gen(function*() {
    const exits = yield* Effect.forEach(writes, ({ write }) => Effect.exit(write), { concurrency: "unbounded" })
    const undoAll = Effect.forEach(
      exits.flatMap((exit, i) => (Exit.isSuccess(exit) ? [writes[i]!.undo(exit.value)] : [])),
      undo,
      { concurrency: "unbounded", discard: true }
    )
    const failed = exits.find(Exit.isFailure)
    if (failed !== undefined) return yield* Effect.andThen(undoAll, Effect.failCause(failed.cause))
    return { values: exits.map((exit) => (exit as Exit.Success<unknown>).value), undoAll }
  })

/**
 * `writes` side by side (none depends on another), then `next`. When a write fails, the others
 * that succeeded are undone; when `next` fails or is interrupted, all of them are. As in
 * `withUndo`, only `next` can be interrupted.
 */
export const withUndoAll = <E, R, B, E2, R2>(
  writes: ReadonlyArray<UndoableWrite<E, R>>,
  next: Effect.Effect<B, E2, R2>
): Effect.Effect<B, E | E2, R | R2> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(
      sideBySide(writes.map(({ write, undo }) => ({ write, undo: () => undo }))),
      ({ undoAll }) => restore(next).pipe(Effect.onError(() => undoAll))
    )
  )

/**
 * Two writes side by side, neither depending on the other: both land, or what one of them
 * wrote is undone when the other fails. Uninterruptible, like the writes of `withUndoAll`: an
 * interruption waits for both to finish, so it never leaves one without the other.
 */
export const both = <A, EA, RA, B, EB, RB>(
  first: UndoableResult<A, EA, RA>,
  second: UndoableResult<B, EB, RB>
): Effect.Effect<readonly [A, B], EA | EB, RA | RB> =>
  Effect.uninterruptible(
    Effect.map(
      sideBySide<EA | EB, RA | RB>([first, second] as ReadonlyArray<UndoableResult<unknown, EA | EB, RA | RB>>),
      ({ values }) => [values[0] as A, values[1] as B] as const
    )
  )
