/**
 * A pool of worker processes that run PDF tasks away from the server's event loop, each under
 * a heap cap and a wall-clock budget. A task that overruns either, or kills its worker, fails
 * with the reason; the worker is replaced and the pool carries on.
 *
 * Processes rather than worker threads: V8 aborts the whole process when an isolate cannot
 * place one large allocation under its heap limit ("FATAL ERROR: Reached heap limit"), which a
 * worker thread's resource limits do not prevent; a crafted font sends pdf.js into exactly that.
 * A process takes only itself down.
 *
 * Plain promises and callbacks, not Effect: this is the one place that talks to
 * `node:child_process`, and `PdfEngine` wraps it for the services.
 */
import { type ChildProcess, fork } from "node:child_process"
import { readFileSync } from "node:fs"
import { setPriority } from "node:os"
import type { RejectReason } from "./PdfError.ts"

/** Where a task comes from: a client waiting on a request, or a background job. */
export type Lane = "request" | "background"

export interface PoolOptions {
  /** The worker script (a module URL). */
  readonly script: URL
  /** Passed to every worker as JSON in the environment variable `FORMWRIGHT_WORKER_DATA`. */
  readonly workerData: unknown
  /** Workers at most. */
  readonly size: number
  /** V8 old-generation cap of each worker, in MiB. */
  readonly maxHeapMb: number
  /**
   * Resident memory cap of a worker, in MiB, checked every 25 ms where the system shows it
   * (`/proc`): what a library keeps outside the V8 heap (decoded streams, font data) counts too.
   * A worker past it is stopped: its task, if it has one, fails with `OutOfMemory`.
   */
  readonly maxRssMb?: number | undefined
  /** A worker is replaced after this many tasks, so memory a library leaks cannot accumulate. */
  readonly tasksPerWorker?: number | undefined
}

export interface RunOptions {
  readonly lane: Lane
  /** The task's time budget, renewed by each progress report (so a conversion gets it per page). */
  readonly timeoutMs: number
  readonly onProgress?: ((value: unknown) => void) | undefined
  /**
   * Size of the task's PDF in bytes. A worker that has run tasks before takes it only when its
   * free budget covers several copies of it (each PDF library keeps a copy); otherwise a fresh
   * worker does, which has its whole budget.
   */
  readonly inputBytes?: number | undefined
}

/** The task ended badly. `reason` is set when the pool stopped it (a limit or a crash). */
export class TaskFailed extends Error {
  readonly reason: RejectReason | undefined
  /** The serialized error the task itself failed with, when it did. */
  readonly error: unknown
  constructor(message: string, reason: RejectReason | undefined, error?: unknown) {
    super(message)
    this.reason = reason
    this.error = error
  }
}

/** Messages a worker posts. */
export type WorkerMessage =
  | { readonly type: "ready" }
  | { readonly type: "progress"; readonly id: number; readonly value: unknown }
  | { readonly type: "done"; readonly id: number; readonly value: unknown }
  | { readonly type: "failed"; readonly id: number; readonly error: unknown }
  | { readonly type: "log"; readonly level: "warn" | "error"; readonly message: string }

/** What the pool posts to a worker. */
export interface TaskMessage {
  readonly id: number
  readonly task: string
  readonly input: unknown
}

interface Pending {
  readonly id: number
  readonly task: string
  readonly input: unknown
  readonly options: RunOptions
  readonly resolve: (value: unknown) => void
  readonly reject: (error: TaskFailed) => void
  /** Already run again on a fresh worker after a used one ran out of memory under it. */
  readonly retried?: boolean
}

interface Slot {
  readonly worker: ChildProcess
  /** Whether the worker has loaded its modules; a task's time budget starts only then. */
  ready: boolean
  current: (Pending & { timer: ReturnType<typeof setTimeout> | undefined }) | undefined
  tasksRun: number
  /** Set once the pool gave up on this worker (terminated, crashed or exited). */
  gone: boolean
  /**
   * Being replaced (used up, or holding most of its cap): its successor is loading, and until the
   * successor is ready this worker still takes the tasks it has room for, so the next request
   * does not wait for a process to start and load its modules.
   */
  retiring: boolean
  /** The end of what the worker wrote to stderr. */
  stderr: string
}

export interface Pool {
  readonly run: (task: string, input: unknown, options: RunOptions) => { readonly promise: Promise<unknown>; readonly cancel: () => void }
  /** Terminates every worker; tasks still queued or running fail. */
  readonly close: () => Promise<void>
  /** Workers alive, busy, and tasks waiting (for logs and tests). */
  readonly stats: () => { readonly workers: number; readonly busy: number; readonly queued: number }
}

/**
 * The share of the resident cap past which a worker is replaced once its task is done. A warm
 * worker holds 220-300 MiB of the default 384 (pdf.js's fonts and CMaps, the allocator's high
 * water), so a lower share replaced nearly every worker after every task, and each conversion
 * paid a process start, its module loading and a cold JIT (measured: 0.58 s of CPU a page, against
 * 0.27 s with warm workers). A task a used worker lacks the room for runs again on a fresh one
 * (see `discard`), so keeping warm workers costs no task its memory.
 */
const RETIRE_SHARE = 0.85
/**
 * How many copies of its input a task holds at once at its peak: the bytes read from the file
 * they arrive in (see `Spill`), pdf-lib's copy of each stream, pdf.js's own, and the libraries'
 * working memory (measured for a 50 MB upload: about 3.3).
 */
const inputCopies = 4

export const make = (options: PoolOptions, log: (level: "warn" | "error", message: string) => void): Pool => {
  const size = Math.max(1, options.size)
  // Background work never takes the last free worker, so a request is not stuck behind jobs.
  const backgroundSlots = size > 1 ? size - 1 : 1
  const tasksPerWorker = options.tasksPerWorker ?? 200
  const slots = new Set<Slot>()
  const queues: Record<Lane, Array<Pending>> = { request: [], background: [] }
  let nextId = 1
  let closed = false

  /** Whether a worker that is not being replaced has loaded its modules. */
  const successorReady = () => {
    for (const slot of slots) if (slot.ready && !slot.retiring && !slot.gone) return true
    return false
  }

  const busyIn = (lane: Lane) => {
    let n = 0
    for (const slot of slots) if (slot.current?.options.lane === lane) n++
    return n
  }

  const finish = (slot: Slot) => {
    const current = slot.current
    if (current) clearTimeout(current.timer)
    slot.current = undefined
    return current
  }

  /**
   * Stops a worker that misbehaved; its task fails with `reason`. A task that ran out of memory
   * on a worker that had run tasks before is run once more, first in line, on a fresh worker: what
   * its predecessors left behind took the room it needed, and a fresh worker has its whole cap.
   */
  const discard = (slot: Slot, reason: RejectReason | undefined, message: string) => {
    if (slot.gone) return
    slot.gone = true
    slots.delete(slot)
    const current = finish(slot)
    slot.worker.kill("SIGKILL")
    if (current && reason === "OutOfMemory" && slot.tasksRun > 0 && !current.retried && !closed) {
      const { timer: _, ...pending } = current
      queues[pending.options.lane].unshift({ ...pending, retried: true })
      log("warn", `PDF worker: a task ran out of memory on a used worker; it runs again on a fresh one`)
    } else if (current) current.reject(new TaskFailed(message, reason))
    // A successor that died loading would leave the worker it replaces in place for good.
    if (!closed && !slot.retiring && slots.size < size && [...slots].some((other) => other.retiring)) spawn()
    dispatch()
  }

  /** Stops an idle worker that is done with (a used-up or too full one); nothing fails. */
  const retire = (slot: Slot) => {
    slot.gone = true
    slots.delete(slot)
    slot.worker.kill()
  }

  // The memory limit as a client reads it: the resident cap when there is one.
  const memoryLimitMb = options.maxRssMb ?? options.maxHeapMb
  const outOfMemoryMessage = `The PDF needs more memory than the limit of ${memoryLimitMb} MiB.`

  /**
   * Stops every worker past the resident cap: a busy one fails its task, an idle one (a library
   * still working on after its task returned, as pdf.js does on a page it was stopped reading)
   * is just replaced. The watch runs while any worker does.
   */
  let watch: ReturnType<typeof setInterval> | undefined
  let canWatch = options.maxRssMb !== undefined && process.platform === "linux"
  const residentMb = (pid: number): number | undefined => {
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))
      return match ? Number(match[1]) / 1024 : undefined
    } catch {
      return undefined
    }
  }
  const watchMemory = () => {
    if (!canWatch) return
    for (const slot of [...slots]) {
      if (slot.gone || slot.worker.pid === undefined) continue
      const rss = residentMb(slot.worker.pid)
      if (rss === undefined || rss <= options.maxRssMb!) continue
      if (!slot.current) log("warn", `PDF worker: ${Math.round(rss)} MiB resident while idle, past the limit of ${memoryLimitMb} MiB; replaced`)
      discard(slot, "OutOfMemory", outOfMemoryMessage)
    }
    if (slots.size === 0 && watch !== undefined) {
      clearInterval(watch)
      watch = undefined
    }
  }
  /**
   * Whether a worker that has just finished a task still holds most of its cap (what pdf.js keeps
   * from one document to the next: fonts, CMaps, its heap's high water): it is replaced, so that
   * the next document starts with its whole budget instead of failing for its predecessors'.
   */
  const heldTooMuch = (slot: Slot): boolean => {
    if (!canWatch || slot.worker.pid === undefined) return false
    const rss = residentMb(slot.worker.pid)
    return rss !== undefined && rss > RETIRE_SHARE * options.maxRssMb!
  }
  /**
   * Whether a worker that has run tasks before lacks room for an input of `bytes`: what it holds
   * now plus the copies of the input a task makes (measured: about four for a large upload).
   */
  const tooFullFor = (slot: Slot, bytes: number | undefined): boolean => {
    if (!canWatch || bytes === undefined || slot.tasksRun === 0 || slot.worker.pid === undefined) return false
    const rss = residentMb(slot.worker.pid)
    return rss !== undefined && rss + (inputCopies * bytes) / (1024 * 1024) > options.maxRssMb!
  }
  const startWatch = () => {
    if (!canWatch || watch !== undefined) return
    if (residentMb(process.pid) === undefined) {
      canWatch = false
      return
    }
    // 25 ms, not 100: pdf.js's font post-table loop grows a worker by well over 100 MiB in 100 ms,
    // and at 100 ms the server's peak passed 1 GiB in CI. One /proc read per worker is microseconds.
    watch = setInterval(watchMemory, 25)
    watch.unref()
  }

  /** The last lines a worker wrote to stderr: how V8 says it ran out of memory. */
  const tail = (slot: Slot) => slot.stderr.slice(-4_000)

  const spawn = (): Slot => {
    const worker = fork(options.script, [], {
      // --expose-gc: work that holds native memory V8 does not see (a rendered page's pixels) can
      // collect it between pages instead of growing until the resident cap stops it.
      execArgv: [`--max-old-space-size=${options.maxHeapMb}`, `--max-semi-space-size=${Math.min(32, Math.max(8, Math.floor(options.maxHeapMb / 32)))}`, "--expose-gc"],
      env: { ...process.env, FORMWRIGHT_WORKER_DATA: JSON.stringify(options.workerData) },
      // Structured clone, so PDF bytes travel as bytes, not as JSON arrays.
      serialization: "advanced",
      // The worker's own output would interleave with the server's log lines; it reports through messages.
      stdio: ["ignore", "ignore", "pipe", "ipc"]
    })
    const slot: Slot = { worker, ready: false, current: undefined, tasksRun: 0, gone: false, retiring: false, stderr: "" }
    worker.stderr?.setEncoding("utf8")
    worker.stderr?.on("data", (chunk: string) => {
      slot.stderr = (slot.stderr + chunk).slice(-8_000)
    })
    // An idle pool must not keep a process (a CLI, a test) alive.
    unrefIdle(slot)
    // Whenever PDF work and the event loop answering requests both want a core, the event loop
    // wins: at nice 19 a worker weighs 15 against the server's 1024 in the kernel's scheduler
    // (at nice 10 it was 110, and /health's p99 passed 50 ms with two busy workers on 2 cores).
    try {
      if (worker.pid !== undefined) setPriority(worker.pid, 19)
    } catch {
      // Not permitted here: the worker keeps the server's priority.
    }
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "log") return log(message.level, message.message)
      if (message.type === "ready") {
        slot.ready = true
        if (slot.current) slot.current.timer = armTimer(slot, slot.current.options.timeoutMs)
        // The workers it replaces go as soon as they are idle.
        if (!slot.retiring) for (const other of [...slots]) if (other.retiring && !other.current) retire(other)
        return
      }
      const current = slot.current
      if (!current || current.id !== message.id) return
      if (message.type === "progress") {
        clearTimeout(current.timer)
        current.timer = armTimer(slot, current.options.timeoutMs)
        return current.options.onProgress?.(message.value)
      }
      finish(slot)
      unrefIdle(slot)
      if (message.type === "done") current.resolve(message.value)
      else current.reject(new TaskFailed("The task failed.", undefined, message.error))
      slot.tasksRun++
      if (slot.retiring) {
        if (successorReady()) retire(slot)
      } else if (slot.tasksRun >= tasksPerWorker || heldTooMuch(slot)) {
        // Its successor starts loading now rather than when the next task arrives. Where the pool
        // has room for both, this worker stays for the tasks it has room for until the successor
        // is ready (see `Slot.retiring`); the pool never holds more processes than its size.
        if (!closed && slots.size < size) {
          slot.retiring = true
          spawn()
        } else {
          retire(slot)
          if (!closed && queues.request.length + queues.background.length === 0) spawn()
        }
      }
      dispatch()
    })
    worker.on("error", (error: Error) => {
      log("error", `PDF worker failed: ${error.stack ?? error.message}`)
      discard(slot, "Crashed", "Processing the PDF crashed.")
    })
    worker.on("exit", (code, signal) => {
      if (slot.gone) return
      const outOfMemory = /heap out of memory|Reached heap limit|invalid size error|Allocation failed/i.test(tail(slot))
      if (!outOfMemory) log("error", `PDF worker exited (code ${code}, signal ${signal}): ${tail(slot).slice(-1_000)}`)
      discard(
        slot,
        outOfMemory ? "OutOfMemory" : "Crashed",
        outOfMemory ? outOfMemoryMessage : "Processing the PDF crashed."
      )
    })
    slots.add(slot)
    return slot
  }

  /** A worker with no task must not keep the process alive; one with a task must. */
  function unrefIdle(slot: Slot) {
    const channel = slot.worker.channel as { ref?: () => void; unref?: () => void } | undefined
    if (slot.current) {
      slot.worker.ref()
      channel?.ref?.()
    } else {
      slot.worker.unref()
      channel?.unref?.()
    }
  }

  const armTimer = (slot: Slot, timeoutMs: number) =>
    setTimeout(() => discard(slot, "Timeout", `Processing the PDF took longer than the limit of ${Math.round(timeoutMs / 1000)} s.`), timeoutMs)

  const start = (slot: Slot, pending: Pending) => {
    // A fresh worker takes a moment to load its modules; that is not the task's time.
    slot.current = { ...pending, timer: slot.ready ? armTimer(slot, pending.options.timeoutMs) : undefined }
    unrefIdle(slot)
    startWatch()
    const message: TaskMessage = { id: pending.id, task: pending.task, input: pending.input }
    slot.worker.send(message)
  }

  const takeNext = (): Pending | undefined => {
    if (queues.request.length > 0) return queues.request.shift()
    if (queues.background.length > 0 && busyIn("background") < backgroundSlots) return queues.background.shift()
    return undefined
  }

  /**
   * The idle worker for `next`: a ready one first (the one used last, whose code is warmest),
   * then one being replaced if it has room for the task, then one still loading (the task starts
   * when it is ready).
   */
  const idleFor = (next: Pending): Slot | undefined => {
    let ready: Slot | undefined
    let retiring: Slot | undefined
    let loading: Slot | undefined
    for (const slot of slots) {
      if (slot.current || slot.gone) continue
      if (slot.retiring) retiring = slot
      else if (slot.ready) ready = slot
      else loading = slot
    }
    const roomIn = (slot: Slot) => next.retried !== true && !tooFullFor(slot, next.options.inputBytes)
    return ready ?? (retiring !== undefined && roomIn(retiring) ? retiring : undefined) ?? loading
  }

  function dispatch() {
    if (closed) return
    for (;;) {
      const next = takeNext()
      if (!next) return
      let idle = idleFor(next)
      if (idle && !idle.retiring && idle.tasksRun > 0 && (next.retried === true || tooFullFor(idle, next.options.inputBytes))) {
        // A fresh worker gets the task: a large PDF (or one that already ran out of memory) on a
        // worker holding its predecessors' memory would fail for them, where a fresh one has room.
        // The used worker stays for other work when the pool has room beside it.
        if (slots.size >= size) retire(idle)
        idle = undefined
      }
      if (!idle && slots.size >= size) {
        // Every worker is busy, or the one free is being replaced and lacks room: the task waits.
        queues[next.options.lane].unshift(next)
        return
      }
      start(idle ?? spawn(), next)
    }
  }

  return {
    run: (task, input, runOptions) => {
      const id = nextId++
      let pending!: Pending
      const promise = new Promise<unknown>((resolve, reject) => {
        pending = { id, task, input, options: runOptions, resolve, reject }
      })
      if (closed) {
        pending.reject(new TaskFailed("The PDF workers are shut down.", "Crashed"))
        return { promise, cancel: () => undefined }
      }
      queues[runOptions.lane].push(pending)
      dispatch()
      const cancel = () => {
        const queue = queues[runOptions.lane]
        // By id: a task run again after running out of memory is queued as a copy.
        const at = queue.findIndex((queuedTask) => queuedTask.id === id)
        if (at >= 0) {
          queue.splice(at, 1)
          return
        }
        // Nobody waits for the result any more: stop the work rather than let it hold a worker.
        for (const slot of slots) if (slot.current?.id === id) discard(slot, undefined, "Cancelled.")
      }
      return { promise, cancel }
    },
    close: async () => {
      closed = true
      if (watch !== undefined) clearInterval(watch)
      const waiting = [...queues.request, ...queues.background]
      queues.request = []
      queues.background = []
      for (const pending of waiting) pending.reject(new TaskFailed("The PDF workers are shut down.", "Crashed"))
      const all = [...slots]
      slots.clear()
      for (const slot of all) {
        slot.gone = true
        const current = finish(slot)
        current?.reject(new TaskFailed("The PDF workers are shut down.", "Crashed"))
      }
      await Promise.all(all.map((slot) =>
        new Promise<void>((resolve) => {
          if (slot.worker.exitCode !== null || slot.worker.signalCode !== null) return resolve()
          slot.worker.once("exit", () => resolve())
          // An idle worker is unref'd: without this, a process with nothing else to do (a script
          // awaiting the shutdown at its top level) would end before the exit it waits for.
          slot.worker.ref()
          slot.worker.kill("SIGKILL")
        })
      ))
    },
    stats: () => ({ workers: slots.size, busy: busyIn("request") + busyIn("background"), queued: queues.request.length + queues.background.length })
  }
}
