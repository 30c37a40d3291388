/**
 * The entry point of a PDF worker thread (see `WorkerPool`): runs one task at a time as the pool
 * asks and posts back progress, the result or the failure. Whatever a library leaves behind (a
 * promise pdf.js rejects after its document is gone) is logged, never allowed to end the thread.
 */
import { Exit } from "effect"
import { readlinkSync } from "node:fs"
import { setPriority } from "node:os"
import { parentPort, workerData } from "node:worker_threads"
import type { Limits } from "./PdfLimits.ts"
import * as PdfTasks from "./PdfTasks.ts"
import type { TaskMessage, WorkerMessage } from "./WorkerPool.ts"

const port = parentPort
if (port === null) throw new Error("PdfWorker.ts runs as a worker thread of WorkerPool.")

/**
 * Lowers this thread's scheduling priority, so that whenever PDF work and the event loop that
 * answers requests both want a core, the event loop wins: on a busy 2-core machine `/health`
 * stays fast while PDFs are parsed. Linux gives each thread its own nice value, reached through
 * the thread's id; elsewhere (or when not allowed) the thread keeps the server's priority.
 */
const yieldToServer = () => {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop())
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10)
  } catch {
    // Not Linux, or not permitted.
  }
}
yieldToServer()
const { limits } = workerData as { readonly limits: Limits }

const post = (message: WorkerMessage, transfer?: Array<ArrayBuffer>) => port.postMessage(message, transfer)

const describe = (reason: unknown) =>
  reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason).slice(0, 500)

process.on("unhandledRejection", (reason) => post({ type: "log", level: "warn", message: `PDF worker: a promise was rejected with nobody waiting (${describe(reason)})` }))

port.on("message", async (message: TaskMessage) => {
  const name = message.task as PdfTasks.TaskName
  if (!(name in PdfTasks.tasks)) {
    return post({ type: "failed", id: message.id, error: { _tag: "Defect", message: `Unknown PDF task '${message.task}'.` } })
  }
  const exit = await PdfTasks.run(name, message.input as never, limits, (value) => post({ type: "progress", id: message.id, value }))
  if (Exit.isSuccess(exit)) post({ type: "done", id: message.id, value: exit.value }, PdfTasks.transferables(exit.value))
  else post({ type: "failed", id: message.id, error: PdfTasks.serialize(exit.cause) })
})

post({ type: "ready" })
