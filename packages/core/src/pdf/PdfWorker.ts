/**
 * The entry point of a PDF worker process (see `WorkerPool`): runs one task at a time as the
 * pool asks and sends back progress, the result or the failure. Whatever a library leaves behind
 * (a promise pdf.js rejects after its document is gone) is logged, never allowed to end it.
 */
import { Exit } from "effect"
import type { Limits } from "./PdfLimits.ts"
import * as PdfTasks from "./PdfTasks.ts"
import * as TaskError from "./TaskError.ts"
import type { TaskMessage, WorkerMessage } from "./WorkerPool.ts"

if (process.send === undefined) throw new Error("PdfWorker.ts runs as a worker process of WorkerPool.")
const send = process.send.bind(process)
const { limits } = JSON.parse(process.env["FORMWRIGHT_WORKER_DATA"] ?? "{}") as { readonly limits: Limits }
// Without the pool there is nothing left to work for.
process.on("disconnect", () => process.exit(0))

const post = (message: WorkerMessage) => {
  send(message)
}

const describe = (reason: unknown) =>
  reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason).slice(0, 500)

process.on("unhandledRejection", (reason) => post({ type: "log", level: "warn", message: `PDF worker: a promise was rejected with nobody waiting (${describe(reason)})` }))

process.on("message", async (message: TaskMessage) => {
  const name = message.task as PdfTasks.TaskName
  if (!(name in PdfTasks.tasks)) {
    return post({ type: "failed", id: message.id, error: { _tag: "Defect", message: `Unknown PDF task '${message.task}'.` } })
  }
  const exit = await PdfTasks.run(name, message.input as never, limits, (value) => post({ type: "progress", id: message.id, value }))
  if (Exit.isSuccess(exit)) post({ type: "done", id: message.id, value: exit.value })
  else post({ type: "failed", id: message.id, error: TaskError.serialize(exit.cause) })
})

post({ type: "ready" })
