#!/usr/bin/env node
/**
 * The `formwright` command: `serve` (the default) starts the server on the configured port;
 * `keys create --user <id>` issues an API key and prints it once.
 */
import { Cause, Effect, Exit, Layer, Logger } from "effect"
import { NodeRuntime } from "@effect/platform-node"
import { ApiKeys } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import * as Server from "./Server.ts"
import { config } from "./ServerConfig.ts"

const usage = `Usage:
  formwright [serve]                     start the server (configured from FORMWRIGHT_* variables)
  formwright keys create --user <id>     issue an API key for a user; prints it once
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
      process.stderr.write(`Issued key ${issued.id} for user '${user}' (stored as a hash in ${settings.dataDir}; this is the only time it is shown).\n`)
    })
  }).pipe(
    Effect.provide(
      ApiKeys.layer.pipe(Layer.provide(Layer.unwrap(Effect.map(config, (c) => FsStorage.layer({ directory: c.dataDir })))))
    )
  )

const main = (argv: ReadonlyArray<string>) => {
  const [command = "serve", ...rest] = argv
  if (command === "serve") return serve
  if (command === "keys" && rest[0] === "create") {
    const at = rest.indexOf("--user")
    const user = at >= 0 ? rest[at + 1] : undefined
    if (!user || !/^[A-Za-z0-9_-]{1,64}$/.test(user)) {
      return Effect.fail(new Error(`keys create needs --user <id> (letters, digits, _ and -, up to 64).\n${usage}`))
    }
    return createKey(user)
  }
  if (command === "help" || command === "--help" || command === "-h") return Effect.sync(() => console.log(usage))
  return Effect.fail(new Error(`Unknown command '${argv.join(" ")}'.\n${usage}`))
}

NodeRuntime.runMain(
  (main(process.argv.slice(2)) as Effect.Effect<unknown, unknown>).pipe(Effect.provide(Logger.layer([Logger.consoleLogFmt]))),
  {
    // A SIGTERM interrupts the server after in-flight requests finished: that is a clean exit.
    teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
  }
)
