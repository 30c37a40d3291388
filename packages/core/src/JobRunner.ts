/**
 * The JobRunner port: runs background work (autofill sessions, conversions) durably.
 *
 * `submit` records a work item in Storage before it is scheduled, so an item accepted before a
 * crash or restart is found again by `resume` and run then. The in-process adapter runs items
 * with bounded concurrency; a deployment of many servers swaps in a distributed engine here.
 */
import { Context, Deferred, Effect, Layer, Queue, Schema } from "effect"
import * as Storage from "./Storage.ts"

export const WorkKind = Schema.Literals(["session", "conversion"])
export type WorkKind = typeof WorkKind.Type

export const WorkItem = Schema.Struct({
  kind: WorkKind,
  id: Schema.String,
  owner: Schema.String,
  submitted: Schema.String
})
export type WorkItem = typeof WorkItem.Type

/** Runs one item; it is expected to record its own outcome (completed/failed) on the record. */
export type Handler = (item: WorkItem) => Effect.Effect<void>

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

export class JobRunner extends Context.Service<JobRunner, JobRunnerShape>()("@formwright/core/JobRunner") {}

const workKey = (item: { kind: WorkKind; id: string }) => `work/${item.kind}/${item.id}`

export interface InProcessOptions {
  /** Items run at once; PDF work is CPU-bound, so about the number of cores. */
  readonly concurrency?: number
}

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

      const runOne = (item: WorkItem) =>
        Effect.gen(function*() {
          const handler = yield* Deferred.await(handlerFor(item.kind))
          yield* handler(item).pipe(
            Effect.catchCause((cause) => Effect.logError("work item failed unexpectedly", cause))
          )
          yield* storage.deleteDocument(workKey(item), "any").pipe(
            Effect.catchCause((cause) => Effect.logWarning("could not clear finished work item", cause))
          )
        }).pipe(
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
