/**
 * `formwright serve`: the HTTP server, configured from FORMWRIGHT_* variables (README). The server
 * is imported when this command runs, so the other commands and `--help` do not pay for it.
 */
import { Effect, Layer } from "effect"
import { Command } from "effect/cli"

export const serve = Effect.gen(function*() {
  const [{ config }, Server] = yield* Effect.promise(() => Promise.all([import("../ServerConfig.ts"), import("../Server.ts")]))
  const settings = yield* config
  return yield* Layer.launch(Server.layer({ config: settings, issueFirstKey: true }))
})

export const command = Command.make("serve", {}, () => serve).pipe(
  Command.withDescription("Start the server (the default when no command is given), configured from the FORMWRIGHT_* variables.")
)
