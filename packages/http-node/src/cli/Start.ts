/**
 * Runs the command line of this process (`process.argv`) to its end and exits with its code.
 * Imported by bin.ts once the compile cache is on.
 */
import { Effect, Layer, Logger } from "effect"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Main from "./Main.ts"

// PDF work, where such promises came from, runs in worker processes that log their own; this net
// only keeps one overlooked promise from ending a server that serves everyone else.
process.on("unhandledRejection", (reason) => {
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason)
  process.stderr.write(`level=ERROR msg="unhandled promise rejection (the server carries on)" reason=${JSON.stringify(text.slice(0, 500))}\n`)
})

NodeRuntime.runMain(
  Main.run(process.argv.slice(2)).pipe(
    Effect.provide(Layer.mergeAll(NodeServices.layer, Logger.layer([Logger.consoleLogFmt])))
  ),
  // A SIGTERM interrupts the server after in-flight requests finished: that is a clean exit.
  { teardown: (exit, onExit) => onExit(Main.exitCode(exit)) }
)
