/**
 * A worker for WorkerPool's tests: does what the task's name says, the way a hostile PDF can
 * make a real worker behave (run long, allocate without end, crash).
 */
const port = { postMessage: (message: unknown) => process.send!(message) }
process.on("disconnect", () => process.exit(0))
process.on("message", (message: { id: number; task: string; input: unknown }) => {
  const { id, task, input } = message
  switch (task) {
    case "echo":
      return port.postMessage({ type: "done", id, value: input })
    case "progress":
      for (let i = 1; i <= 3; i++) port.postMessage({ type: "progress", id, value: i })
      return port.postMessage({ type: "done", id, value: "finished" })
    case "tick": {
      let ticks = 0
      const timer = setInterval(() => {
        port.postMessage({ type: "progress", id, value: ++ticks })
        if (ticks === input) {
          clearInterval(timer)
          port.postMessage({ type: "done", id, value: ticks })
        }
      }, 100)
      return
    }
    case "spin": {
      const until = Date.now() + (input as number)
      while (Date.now() < until) {
        // Busy: the event loop of this thread never turns.
      }
      return port.postMessage({ type: "done", id, value: "spun" })
    }
    case "allocate": {
      const hoard: Array<Array<number>> = []
      for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i))
    }
    case "buffers": {
      // Memory outside the V8 heap (as decoded streams are), touched so it is resident, and
      // allocated a little at a time so the pool's watch sees it grow.
      const hoard: Array<Buffer> = []
      const grow = setInterval(() => hoard.push(Buffer.alloc(16 * 1024 * 1024, 1)), 20)
      setTimeout(() => {
        clearInterval(grow)
        port.postMessage({ type: "done", id, value: hoard.length })
      }, input as number)
      return
    }
    case "keep": {
      // Keeps `input` MiB resident after answering, as pdf.js keeps fonts and CMaps between documents.
      const kept = Array.from({ length: input as number }, () => Buffer.alloc(1024 * 1024, 1))
      ;(globalThis as { kept?: unknown }).kept = kept
      return port.postMessage({ type: "done", id, value: kept.length })
    }
    case "need": {
      // Needs `input` MiB for a moment (longer than the pool's memory watch takes to see it),
      // then answers with its process id.
      const needed = Array.from({ length: input as number }, () => Buffer.alloc(1024 * 1024, 1))
      return setTimeout(() => port.postMessage({ type: "done", id, value: needed.length > 0 ? process.pid : 0 }), 300)
    }
    case "pid":
      return port.postMessage({ type: "done", id, value: process.pid })
    case "linger": {
      // Answers at once, then goes on allocating, as a library can after its task returned.
      port.postMessage({ type: "done", id, value: "answered" })
      const hoard: Array<Buffer> = []
      setInterval(() => hoard.push(Buffer.alloc(16 * 1024 * 1024, 1)), 20)
      return
    }
    case "throw":
      throw new Error("boom")
    case "exit":
      return process.exit(3)
    case "fail":
      return port.postMessage({ type: "failed", id, error: { _tag: "Defect", message: "failed on purpose" } })
  }
})

port.postMessage({ type: "ready" })
