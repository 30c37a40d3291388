/**
 * The entry point of a PDF worker process (see `WorkerPool`): runs one task at a time as the
 * pool asks and sends back progress, the result or the failure. Whatever a library leaves behind
 * (a promise pdf.js rejects after its document is gone) is logged, never allowed to end it.
 */
import { Exit } from "effect"
import type { Limits } from "./PdfLimits.ts"
import * as PdfTasks from "./PdfTasks.ts"
import * as Spill from "./Spill.ts"
import * as TaskError from "./TaskError.ts"
import type { TaskMessage, WorkerMessage } from "./WorkerPool.ts"

if (process.send === undefined) throw new Error("PdfWorker.ts runs as a worker process of WorkerPool.")
const send = process.send.bind(process)
const { limits, spillDir } = JSON.parse(process.env["FORMWRIGHT_WORKER_DATA"] ?? "{}") as {
  readonly limits: Limits
  /** Where large inputs arrive and large results go as files (see `Spill`). */
  readonly spillDir?: string
}
// Without the pool there is nothing left to work for.
process.on("disconnect", () => process.exit(0))

const post = (message: WorkerMessage) => {
  send(message)
}

const describe = (reason: unknown) =>
  reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason).slice(0, 500)

process.on("unhandledRejection", (reason) => post({ type: "log", level: "warn", message: `PDF worker: a promise was rejected with nobody waiting (${describe(reason)})` }))

/** A result with its large bytes in files, or whole in the message when they cannot be written. */
const spilled = (value: unknown): unknown => {
  if (spillDir === undefined) return value
  try {
    return Spill.spillSync(value, spillDir)
  } catch {
    return value
  }
}

process.on("message", async (message: TaskMessage) => {
  const name = message.task as PdfTasks.TaskName
  if (!(name in PdfTasks.tasks)) {
    return post({ type: "failed", id: message.id, error: { _tag: "Defect", message: `Unknown PDF task '${message.task}'.` } })
  }
  let input: unknown
  try {
    input = Spill.restoreSync(message.input)
  } catch (error) {
    return post({ type: "failed", id: message.id, error: { _tag: "Defect", message: `The task's PDF could not be read: ${describe(error)}` } })
  }
  const large = input !== message.input
  const exit = await PdfTasks.run(name, input as never, limits, (value) => post({ type: "progress", id: message.id, value }))
  input = undefined
  const value = Exit.isSuccess(exit) ? spilled(exit.value) : undefined
  // The copies of a large PDF the libraries made are garbage now: collected before the pool
  // weighs this worker, they do not count as memory it holds (and have it replaced for nothing).
  if (large) (globalThis as { gc?: () => void }).gc?.()
  if (Exit.isSuccess(exit)) post({ type: "done", id: message.id, value })
  else post({ type: "failed", id: message.id, error: TaskError.serialize(exit.cause) })
})

post({ type: "ready" })
