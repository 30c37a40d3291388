#!/usr/bin/env node
/**
 * The `formwright` command: `serve` (the default) starts the server on the configured port;
 * `keys create --user <id>` issues an API key and prints it once; `preview <in.pdf>` writes the
 * review picture of a page (PreviewCommand.ts).
 */
import { Cause, Effect, Exit, Layer, Logger } from "effect"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { ApiKeys } from "@formwright/core"
import * as PreviewCommand from "./PreviewCommand.ts"
import * as Server from "./Server.ts"
import { config } from "./ServerConfig.ts"

const usage = `Usage:
  formwright [serve]                     start the server (configured from FORMWRIGHT_* variables)
  formwright keys create --user <id>     issue an API key for a user; prints it once
  formwright preview <in.pdf> [--page N] [--out page.png] [--detect]
                                         write a PNG of page N (default 1) with every field outlined
                                         by type, named, with its confidence; --detect converts the
                                         PDF first and draws the fields a conversion would place
  formwright help                        this text`

const serve = Effect.gen(function*() {
  const settings = yield* config
  return yield* Layer.launch(Server.layer({ config: settings, issueFirstKey: true }))
})

const createKey = (user: string) =>
  Effect.gen(function*() {
    const settings = yield* config
    const keys = yield* ApiKeys.ApiKeys
    const issued = yield* keys.create(user)
    yield* Effect.sync(() => {
      process.stdout.write(`${issued.key}\n`)
      process.stderr.write(`Issued key ${issued.id} for user '${user}' (stored as a hash in ${settings.storage === "s3" ? "the S3 bucket" : settings.dataDir}; this is the only time it is shown).\n`)
    })
  }).pipe(
    Effect.provide(
      ApiKeys.layer.pipe(Layer.provide(Layer.unwrap(Effect.map(config, Server.storageLayer))))
    )
  )

/** A command line we cannot run: the message goes to stderr with the usage, and the exit code is 2. */
class UsageError {
  readonly message: string
  constructor(message: string) {
    this.message = message
  }
}

const main = (argv: ReadonlyArray<string>): Effect.Effect<unknown, unknown> | UsageError => {
  const [command = "serve", ...rest] = argv
  if (command === "serve") return serve
  if (command === "keys" && rest[0] === "create") {
    const at = rest.indexOf("--user")
    const user = at >= 0 ? rest[at + 1] : undefined
    if (!user || !/^[A-Za-z0-9_-]{1,64}$/.test(user)) {
      return new UsageError("keys create needs --user <id> (letters, digits, _ and -, up to 64).")
    }
    return createKey(user)
  }
  if (command === "preview") {
    const args = PreviewCommand.parseArgs(rest)
    if (args instanceof PreviewCommand.PreviewFailed) return new UsageError(args.message)
    // Told in words, not logged: the user gave a file and wants the picture or the reason.
    return PreviewCommand.run(args).pipe(
      Effect.catch((error) =>
        Effect.sync(() => {
          process.stderr.write(`${error.message}\n`)
          process.exitCode = error.usage ? 2 : 1
        })
      )
    )
  }
  if (command === "help" || command === "--help" || command === "-h") return Effect.sync(() => console.log(usage))
  return new UsageError(`Unknown command '${argv.join(" ")}'.`)
}

// PDF work, where such promises came from, runs in worker processes that log their own; this net
// only keeps one overlooked promise from ending a server that serves everyone else.
process.on("unhandledRejection", (reason) => {
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason)
  process.stderr.write(`level=ERROR msg="unhandled promise rejection (the server carries on)" reason=${JSON.stringify(text.slice(0, 500))}\n`)
})

const program = main(process.argv.slice(2))
if (program instanceof UsageError) {
  // Not through the logger: nothing lands on stdout, where a script expects the key.
  process.stderr.write(`${program.message}\n${usage}\n`)
  process.exitCode = 2
} else {
  NodeRuntime.runMain(
    program.pipe(Effect.provide(Logger.layer([Logger.consoleLogFmt]))),
    {
      // A SIGTERM interrupts the server after in-flight requests finished: that is a clean exit.
      teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
    }
  )
}
