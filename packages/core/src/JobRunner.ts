/**
 * The JobRunner port: runs background work (autofill sessions, conversions) durably.
 *
 * `submit` records a work item in Storage before it is scheduled, so an item accepted before a
 * crash or restart is found again by `resume` and run then. Every run is counted in the record
 * before it starts, so a run the process died in counts as an attempt: an item that keeps
 * killing its runs is abandoned after `maxAttempts`, never retried forever (no crash loop).
 * The in-process adapter runs items with bounded concurrency; a deployment of many servers swaps
 * in a distributed engine here.
 */
import { Context, Deferred, Effect, Layer, Option, Queue, Schema } from "effect"
import * as Storage from "./Storage.ts"

export const WorkKind = Schema.Literals(["session", "conversion"])
export type WorkKind = typeof WorkKind.Type

export const WorkItem = Schema.Struct({
  kind: WorkKind,
  id: Schema.String,
  owner: Schema.String,
  submitted: Schema.String,
  /** Runs started so far (absent in records written before attempts were counted). */
  attempts: Schema.optionalKey(Schema.Finite)
})
export type WorkItem = typeof WorkItem.Type

/** Which run of an item this is; on the `last` one a failure worth retrying is final. */
export interface Attempt {
  readonly number: number
  readonly last: boolean
}

/** `retry`: the run failed in a way another run may not (a crash, a time-out); run it again later. */
export type Outcome = "done" | "retry"

export interface Handler {
  /** Runs one item, recording its outcome (completed/failed) on the item's own record. */
  readonly run: (item: WorkItem, attempt: Attempt) => Effect.Effect<Outcome>
  /** Marks as failed, with `message`, an item whose attempts all ended without an outcome. */
  readonly abandon: (item: WorkItem, message: string) => Effect.Effect<void>
}

export interface JobRunnerShape {
  /** Durably records the item and schedules it. */
  readonly submit: (item: Omit<WorkItem, "submitted">) => Effect.Effect<void, Storage.StorageError>
  /** Tells the runner how to run items of a kind; items wait until their kind has a handler. */
  readonly register: (kind: WorkKind, handler: Handler) => Effect.Effect<void>
  /** Schedules every recorded item that has not finished (after a restart). */
  readonly resume: Effect.Effect<number, Storage.StorageError>
  /** Resolves when nothing is queued or running (tests, graceful shutdown). */
  readonly idle: Effect.Effect<void>
}

/**
 * An `abandon` for jobs whose record has a status: marks the item's record failed with the
 * message, unless the record is gone or already finished.
 */
export const failUnfinished = <A extends { readonly status: string }, E1, E2>(
  what: string,
  read: (item: WorkItem) => Effect.Effect<Option.Option<A>, E1>,
  fail: (record: A, message: string) => Effect.Effect<void, E2>
): Handler["abandon"] =>
(item, message) =>
  Effect.gen(function*() {
    const found = yield* read(item)
    if (Option.isSome(found) && found.value.status !== "completed" && found.value.status !== "failed") {
      yield* fail(found.value, `The ${what} could not be completed: ${message}`)
    }
  }).pipe(Effect.catchCause((cause) => Effect.logError(`could not mark an abandoned ${what} failed`, cause)))

export class JobRunner extends Context.Service<JobRunner, JobRunnerShape>()("@formwright/core/JobRunner") {}

/** The Storage key of an item's record (the in-process runner's queue). */
export const workKey = (item: { kind: WorkKind; id: string }) => `work/${item.kind}/${item.id}`

export interface InProcessOptions {
  /** Items run at once; PDF work is CPU-bound, so about the number of cores. */
  readonly concurrency?: number | undefined
  /** Runs of one item at most, counting runs the process died in (default 3). */
  readonly maxAttempts?: number | undefined
  /** Wait before the first retry, doubled for each further one (default 1 s). */
  readonly retryDelayMs?: number | undefined
}

export const defaultMaxAttempts = 3

/** What `abandon` is told about an item whose runs all stopped without an outcome. */
export const abandonedMessage = (maxAttempts: number) =>
  `Processing stopped ${maxAttempts} times without finishing, so it was abandoned.`

/**
 * The in-process runner: a queue drained by `concurrency` worker fibers that live as long
 * as the layer. An item's record is deleted only after its handler returned.
 */
export const layerInProcess = (options: InProcessOptions = {}): Layer.Layer<JobRunner, never, Storage.Storage> =>
  Layer.effect(
    JobRunner,
    Effect.gen(function*() {
      const storage = yield* Storage.Storage
      const queue = yield* Queue.unbounded<WorkItem>()
      const handlers = new Map<WorkKind, Deferred.Deferred<Handler>>()
      const handlerFor = (kind: WorkKind) => {
        let deferred = handlers.get(kind)
        if (!deferred) {
          deferred = Deferred.makeUnsafe<Handler>()
          handlers.set(kind, deferred)
        }
        return deferred
      }
      const queued = new Set<string>()
      let running = 0
      let waiters: Array<() => void> = []
      const settle = () => {
        if (queued.size === 0 && running === 0) {
          const ready = waiters
          waiters = []
          for (const wake of ready) wake()
        }
      }

      const maxAttempts = Math.max(1, options.maxAttempts ?? defaultMaxAttempts)
      const retryDelayMs = options.retryDelayMs ?? 1_000
      const scope = yield* Effect.scope

      const clear = (item: WorkItem) =>
        storage.deleteDocument(workKey(item), "any").pipe(
          Effect.catchCause((cause) => Effect.logWarning("could not clear finished work item", cause))
        )

      const runOne = (item: WorkItem) =>
        Effect.gen(function*() {
          const handler = yield* Deferred.await(handlerFor(item.kind))
          const attempts = (item.attempts ?? 0) + 1
          if (attempts > maxAttempts) {
            yield* Effect.logWarning(`work item abandoned after ${maxAttempts} attempts`)
            yield* handler.abandon(item, abandonedMessage(maxAttempts)).pipe(
              Effect.catchCause((cause) => Effect.logError("could not record an abandoned work item", cause))
            )
            return yield* clear(item)
          }
          // Counted before the run: if the process dies in it, the restart sees the attempt.
          const current: WorkItem = { ...item, attempts }
          yield* storage.putJson(WorkItem, workKey(current), current)
          const outcome = yield* handler.run(current, { number: attempts, last: attempts >= maxAttempts }).pipe(
            Effect.catchCause((cause) => Effect.logError("work item failed unexpectedly", cause).pipe(Effect.as("done" as const)))
          )
          if (outcome === "retry" && attempts < maxAttempts) {
            const delay = retryDelayMs * 2 ** (attempts - 1)
            yield* Effect.logWarning(`work item will be retried in ${delay} ms (attempt ${attempts} of ${maxAttempts} failed)`)
            queued.add(workKey(current))
            yield* Effect.forkIn(
              Effect.sleep(delay).pipe(Effect.andThen(Queue.offer(queue, current))),
              scope
            )
            return
          }
          yield* clear(item)
        }).pipe(
          Effect.catchCause((cause) => Effect.logError("could not run a work item", cause)),
          Effect.annotateLogs({ work_kind: item.kind, work_id: item.id }),
          Effect.ensuring(Effect.sync(() => {
            running--
            settle()
          }))
        )

      const worker = Effect.forever(
        Queue.take(queue).pipe(
          Effect.tap((item) => Effect.sync(() => {
            queued.delete(workKey(item))
            running++
          })),
          Effect.flatMap(runOne)
        )
      )
      const concurrency = Math.max(1, options.concurrency ?? 2)
      for (let i = 0; i < concurrency; i++) yield* Effect.forkScoped(worker)

      const schedule = (item: WorkItem) =>
        Effect.suspend(() => {
          const key = workKey(item)
          if (queued.has(key)) return Effect.void
          queued.add(key)
          return Queue.offer(queue, item).pipe(Effect.asVoid)
        })

      return JobRunner.of({
        submit: Effect.fn("JobRunner.submit")(function*(input) {
          const item: WorkItem = { ...input, submitted: new Date().toISOString() }
          yield* storage.putJson(WorkItem, workKey(item), item)
          yield* schedule(item)
        }),
        register: (kind, handler) => Deferred.succeed(handlerFor(kind), handler).pipe(Effect.asVoid),
        resume: Effect.gen(function*() {
          const items = yield* storage.listJson(WorkItem, "work/")
          for (const { value } of items) yield* schedule(value)
          return items.length
        }),
        idle: Effect.callback<void>((resume) => {
          if (queued.size === 0 && running === 0) return resume(Effect.void)
          waiters.push(() => resume(Effect.void))
        })
      })
    })
  )
