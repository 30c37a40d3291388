/**
 * `formwright keys create|list|revoke`: the API keys of the configured store (FORMWRIGHT_DATA_DIR,
 * or the S3 bucket with FORMWRIGHT_STORAGE=s3), the same store a server on that configuration
 * reads. A server looks a key up when a request brings it, so a key revoked here stops working there
 * within the bound the README states.
 */
import { Effect, Layer, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { ApiKeys as ApiKeysModule, Storage } from "@formwright/core"
import { CommandFailed, UsageError } from "./Failures.ts"

/** The ApiKeys service over the configured store; the core and the storage adapters load only now. */
const withKeys = <A>(use: (keys: ApiKeysModule.ApiKeysShape, where: string) => Effect.Effect<A, Storage.StorageError | CommandFailed>) =>
  Effect.gen(function*() {
    const [{ ApiKeys }, { config }, { storageLayer }] = yield* Effect.promise(() =>
      Promise.all([import("@formwright/core"), import("../ServerConfig.ts"), import("../Server.ts")])
    )
    const settings = yield* config.pipe(Effect.mapError((error) => new UsageError({ message: `The configuration cannot be used: ${error.message}` })))
    const where = settings.storage === "s3" ? "the S3 bucket" : settings.dataDir
    return yield* Effect.gen(function*() {
      return yield* use(yield* ApiKeys.ApiKeys, where)
    }).pipe(
      Effect.provide(ApiKeys.layer.pipe(Layer.provide(storageLayer(settings))))
    )
  }).pipe(
    Effect.catchTag("StorageError", (error) => Effect.fail(new CommandFailed({ message: `The key store cannot be used: ${error.message}` })))
  )

const userPattern = /^[A-Za-z0-9_-]{1,64}$/

const create = Command.make(
  "create",
  {
    user: Flag.String("user").pipe(
      Flag.withDescription("The user the key acts for (letters, digits, _ and -, up to 64)."),
      Flag.withSchema(Schema.String.pipe(Schema.check(Schema.isPattern(userPattern, { message: "letters, digits, _ and -, up to 64" }))))
    )
  },
  ({ user }) =>
    withKeys((keys, where) =>
      Effect.flatMap(keys.create(user), (issued) =>
        Effect.sync(() => {
          // The key alone on stdout, for a script to capture; the words on stderr.
          process.stdout.write(`${issued.key}\n`)
          process.stderr.write(`Issued key ${issued.id} for user '${user}' (stored as a hash in ${where}; this is the only time it is shown).\n`)
        })
      )
    )
).pipe(Command.withDescription("Issue an API key for a user and print it once, on stdout."))

const list = Command.make(
  "list",
  { json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("One JSON array on stdout instead of a table.")) },
  ({ json }) =>
    withKeys((keys) =>
      Effect.flatMap(keys.list(), (all) =>
        Effect.sync(() => {
          if (json) {
            process.stdout.write(`${JSON.stringify(all.map((k) => ({ id: k.id, user: k.userId, created: k.created, revoked: k.revoked ?? null, seeded: k.seeded })), null, 2)}\n`)
            return
          }
          const rows = [["ID", "USER", "CREATED", "REVOKED"], ...all.map((k) => [k.id, k.userId, k.created, k.revoked ?? "-"])]
          const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
          for (const row of rows) process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()}\n`)
          if (all.length === 0) process.stderr.write("No keys yet: formwright keys create --user <id>.\n")
        })
      )
    )
).pipe(Command.withDescription("List the keys: id, user, when created, when revoked. Never the secret."))

const revoke = Command.make(
  "revoke",
  { id: Argument.String("id").pipe(Argument.withDescription("The key's id, as `keys list` shows it.")) },
  ({ id }) =>
    withKeys((keys) =>
      keys.revoke(id).pipe(
        Effect.flatMap((key) => Effect.sync(() => process.stderr.write(`Revoked key ${key.id} of user '${key.userId}' (at ${key.revoked}).\n`))),
        Effect.catchTag("ApiKeyNotFound", () => Effect.fail(new CommandFailed({ message: `No key has the id '${id}' (see formwright keys list).` })))
      )
    )
).pipe(Command.withDescription("Revoke a key: a running server refuses it within 5 seconds."))

export const command = Command.make("keys").pipe(
  Command.withDescription("Manage API keys in the configured store (FORMWRIGHT_DATA_DIR or FORMWRIGHT_STORAGE=s3)."),
  Command.withSubcommands([create, list, revoke])
)
