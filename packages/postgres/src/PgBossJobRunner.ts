/**
 * The JobRunner port on pg-boss: background work (sessions, conversions) queued in PostgreSQL,
 * where every server of a deployment takes from the same queues.
 *
 * - `submit` returns once pg-boss has committed the job's row: an accepted item survives any crash.
 * - One pg-boss queue per kind, policy `exclusive` with the item's id as singleton key: at most one
 *   job per item is queued or running across all servers, so a `submit` or `resume` of an item
 *   another server is running adds nothing, and a claimed job is claimed with SKIP LOCKED by one
 *   worker only.
 * - A running job's heartbeat is refreshed every `heartbeatSeconds / 2`. A server that dies stops
 *   refreshing it; the supervisor of any live server (every `superviseSeconds`) then fails the job
 *   into `retry` and another server claims it: about heartbeat + supervise + retry delay + poll,
 *   under 30 s with the defaults (10 + 5 + ~2 + 1).
 * - Runs are at-least-once and counted by pg-boss (`retryCount`); the handlers are idempotent. A
 *   run answering `retry` is failed into pg-boss's exponential back-off; the last run is told it is
 *   the last (`attempt.last`) and records a final outcome itself. Runs that all stopped without an
 *   outcome (crashes, expiry) leave a failed job, which pg-boss copies into the kind's dead-letter
 *   queue; a worker there calls the handler's `abandon`, which marks the record `failed`.
 * - On shutdown, running handlers are interrupted and pg-boss fails their jobs into `retry` (the
 *   run counts as an attempt, as the in-process runner counts it), so another server resumes them
 *   at once rather than after the heartbeat times out.
 */
import { Effect, FiberSet, Layer, Redacted, Schema } from "effect"
import { JobRunner, Storage } from "@formwright/core"
import { PgBoss } from "pg-boss"

/** Where the queues live and how the runner behaves. */
export interface Options {
  /** The database, `postgres://...`: the one the records are in. */
  readonly url: Redacted.Redacted | string
  /** The PostgreSQL schema of pg-boss's tables (created when missing; default `formwright_jobs`). */
  readonly schema?: string | undefined
  /** Items this process runs at once, per kind (default 2). */
  readonly concurrency?: number | undefined
  /** Runs of one item at most, counting runs a server died in (default 3). */
  readonly maxAttempts?: number | undefined
  /** Seconds before the first retry; it doubles, with jitter, up to a minute (default 1). */
  readonly retryDelaySeconds?: number | undefined
  /** A run whose heartbeat is older than this is taken to be dead (default 10, at least 10). */
  readonly heartbeatSeconds?: number | undefined
  /** How often each server looks for dead runs (default 5). */
  readonly superviseSeconds?: number | undefined
  /** How often an idle server looks for new jobs (default 1). */
  readonly pollSeconds?: number | undefined
  /** A run taking longer than this is stopped and retried, whatever its heartbeat (default 3600). */
  readonly expireSeconds?: number | undefined
  /** Connections pg-boss opens at most (default 5). */
  readonly maxConnections?: number | undefined
}

/** The pg-boss queue of a kind of work. */
export const queueName = (kind: JobRunner.WorkKind) => `formwright-${kind}`

/** Where a kind's jobs go once every run has stopped without an outcome. */
export const abandonedQueueName = (kind: JobRunner.WorkKind) => `formwright-${kind}-abandoned`

const kinds: ReadonlyArray<JobRunner.WorkKind> = JobRunner.WorkKind.literals

const schemaName = /^[a-z_][a-z0-9_]{0,62}$/

const decodeItem = Schema.decodeUnknownEffect(JobRunner.WorkItem)

const storageError = (what: string) => (cause: unknown) =>
  new Storage.StorageError({ message: `pg-boss: ${what} failed: ${cause instanceof Error ? cause.message : String(cause)}`, cause })

/**
 * The runner. Building it connects to the database and creates or migrates pg-boss's tables
 * (under pg-boss's own lock, so servers starting together install it once).
 */
export const layer = (options: Options): Layer.Layer<JobRunner.JobRunner, Storage.StorageError, Storage.Storage> =>
  Layer.effect(
    JobRunner.JobRunner,
    Effect.gen(function*() {
      const storage = yield* Storage.Storage
      const schema = options.schema ?? "formwright_jobs"
      if (!schemaName.test(schema)) {
        return yield* new Storage.StorageError({ message: `pg-boss: schema '${schema}' is not a plain lower-case name (a-z, 0-9, _)` })
      }
      const url = Redacted.isRedacted(options.url) ? Redacted.value(options.url) : options.url
      const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? JobRunner.defaultMaxAttempts))
      const heartbeatSeconds = Math.max(10, Math.floor(options.heartbeatSeconds ?? 10))
      const superviseSeconds = Math.max(1, Math.floor(options.superviseSeconds ?? 5))
      const concurrency = Math.max(1, Math.floor(options.concurrency ?? 2))
      const pollSeconds = Math.max(0.5, options.pollSeconds ?? 1)

      // pg-boss's background reports are logged through this layer's logger.
      const context = yield* Effect.context<never>()
      const boss = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            const boss = new PgBoss({
              connectionString: url,
              schema,
              max: options.maxConnections ?? 5,
              application_name: "formwright-jobs",
              superviseIntervalSeconds: superviseSeconds,
              monitorIntervalSeconds: superviseSeconds,
              // The queues' backlog counts (from the monitor) are read every 2 s, for the burst below.
              queueCacheIntervalSeconds: 2,
              // No cron schedules are used; their timers would only cost queries.
              schedule: false
            })
            // pg-boss reports background failures (a lost connection, say) as events; unheard, an
            // `error` event would throw.
            boss.on("error", (error) => Effect.runForkWith(context)(Effect.logWarning(`pg-boss: ${error.message}`)))
            await boss.start()
            return boss
          },
          catch: storageError("starting")
        }),
        // Handlers were interrupted first (the FiberSet below is released before this): what is
        // still active here is failed into retry, for another server to take up.
        (boss) => Effect.promise(() => boss.stop({ graceful: false, close: true }).catch(() => undefined))
      )

      for (const kind of kinds) {
        yield* Effect.tryPromise({
          try: async () => {
            const abandoned = abandonedQueueName(kind)
            if (!(await boss.getQueue(abandoned))) await boss.createQueue(abandoned, { retryLimit: 5, retryBackoff: true })
            const settings = {
              retryLimit: maxAttempts - 1,
              retryDelay: Math.max(1, Math.floor(options.retryDelaySeconds ?? 1)),
              retryBackoff: true,
              retryDelayMax: 60,
              heartbeatSeconds,
              expireInSeconds: Math.max(60, Math.floor(options.expireSeconds ?? 3600)),
              deadLetter: abandoned
            }
            const name = queueName(kind)
            // Settings follow the configuration on every start; the policy is fixed at creation.
            if (await boss.getQueue(name)) await boss.updateQueue(name, settings)
            else await boss.createQueue(name, { ...settings, policy: "exclusive" })
          },
          catch: storageError(`creating the ${kind} queues`)
        })
      }

      const runPromise = yield* FiberSet.makeRuntimePromise<never>()

      /** Runs `effect` as a fiber of this layer, so shutdown interrupts it. */
      const run = <A>(effect: Effect.Effect<A>) => runPromise(effect)

      const send = (item: JobRunner.WorkItem) =>
        Effect.tryPromise({
          // A null id means the item already has a job queued or running: nothing to add.
          try: () => boss.send(queueName(item.kind), { ...item }, { singletonKey: item.id }),
          catch: storageError(`queueing ${item.kind} ${item.id}`)
        })

      const work = (kind: JobRunner.WorkKind, handler: JobRunner.Handler) =>
        Effect.tryPromise({
          try: async () => {
            await boss.work<JobRunner.WorkItem>(
              queueName(kind),
              // A worker waits out the poll interval after every job, which caps a server at
              // `concurrency` jobs per second whatever its cores; with a backlog it fetches again
              // at once instead.
              { localConcurrency: concurrency, pollingIntervalSeconds: pollSeconds, burstWhenReadyExceeds: 1 },
              async ([job]) => {
                if (job === undefined) return
                const outcome = await run(
                  Effect.gen(function*() {
                    const item = yield* decodeItem(job.data).pipe(Effect.orDie)
                    const number = job.retryCount + 1
                    return yield* handler.run({ ...item, attempts: number }, { number, last: number >= maxAttempts })
                  }).pipe(Effect.annotateLogs({ work_kind: kind, work_id: itemId(job.data) }))
                )
                // Thrown, the run is failed into pg-boss's back-off, or (on the last) dead-lettered.
                if (outcome === "retry") throw new Error("the run asked to be retried")
              }
            )
            await boss.work<JobRunner.WorkItem>(
              abandonedQueueName(kind),
              { pollingIntervalSeconds: pollSeconds },
              async ([job]) => {
                if (job === undefined) return
                await run(
                  Effect.gen(function*() {
                    const item = yield* decodeItem(job.data).pipe(Effect.orDie)
                    yield* Effect.logWarning(`work item abandoned after ${maxAttempts} attempts`)
                    yield* handler.abandon(item, JobRunner.abandonedMessage(maxAttempts))
                  }).pipe(Effect.annotateLogs({ work_kind: kind, work_id: itemId(job.data) }))
                )
              }
            )
          },
          catch: storageError(`starting the ${kind} workers`)
        }).pipe(Effect.catchCause((cause) => Effect.logError(`could not take ${kind} jobs`, cause)))

      /** Jobs of these queues not yet finished, across every server. */
      const unfinished = Effect.tryPromise({
        try: async () => {
          const names = kinds.flatMap((kind) => [queueName(kind), abandonedQueueName(kind)])
          const { rows } = await boss.getDb().executeSql(
            `SELECT count(*)::int AS n FROM ${schema}.job WHERE name = ANY($1::text[]) AND state < 'completed'`,
            [names]
          )
          return Number(rows[0]?.n ?? 0)
        },
        catch: storageError("counting unfinished jobs")
      })

      return JobRunner.JobRunner.of({
        submit: Effect.fn("JobRunner.submit")(function*(input) {
          yield* send({ ...input, submitted: new Date().toISOString() })
        }),
        register: (kind, handler) => work(kind, handler),
        // Jobs in pg-boss need no resuming. Items a previous in-process runner left in Storage
        // (a deployment that ran on PostgreSQL before it ran jobs on pg-boss) are moved over.
        resume: Effect.gen(function*() {
          const items = yield* storage.listJson(JobRunner.WorkItem, "work/")
          for (const { value } of items) {
            yield* send(value)
            yield* storage.deleteDocument(JobRunner.workKey(value), "any").pipe(Effect.catchTag("StorageConflict", () => Effect.void))
          }
          return items.length
        }),
        idle: Effect.gen(function*() {
          while ((yield* unfinished.pipe(Effect.orElseSucceed(() => 0))) > 0) yield* Effect.sleep(200)
        })
      })
    })
  )

/** The item id in a job's data, for log annotations (the data is decoded properly where it is used). */
const itemId = (data: unknown): string =>
  typeof data === "object" && data !== null && "id" in data && typeof data.id === "string" ? data.id : "unknown"
