/**
 * How a command stops short, in words for the terminal. The exit code follows the kind: a command
 * line we cannot run is 2, work that failed (an unreadable PDF, a server's error) is 1.
 */
import { Schema } from "effect"

/** The command line is at fault: exit code 2, with the message. */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", { message: Schema.String }) {}

/** The work failed: exit code 1, with the message. */
export class CommandFailed extends Schema.TaggedError<CommandFailed>()("CommandFailed", { message: Schema.String }) {}

/** The `code` of a Node system error (`ENOENT`, ...), or the error in words. */
export const reasonOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error))

/**
 * A failure that no command turned into words, in words: a server that cannot listen (its port
 * taken) or a FORMWRIGHT_* value that is not valid would otherwise say nothing, or the library's
 * `ConfigError(SchemaError(...))`. Matched by tag, so the CLI need not load the HTTP modules.
 */
export const describe = (error: unknown): string => {
  const tagged = error as { readonly _tag?: unknown; readonly cause?: unknown; readonly message?: unknown } | undefined
  const causeText = (cause: unknown) => (cause instanceof Error && cause.message !== "" ? cause.message : reasonOf(cause))
  if (tagged?._tag === "ServeError") return `The server could not start: ${causeText(tagged.cause)}.`
  if (tagged?._tag === "ConfigError") {
    const cause = tagged.cause as { readonly message?: unknown } | undefined
    return `The configuration is not valid: ${String(cause?.message ?? tagged.cause).replace(/\s+/g, " ").trim()}.`
  }
  if (error instanceof Error) return error.message !== "" ? error.message : error.cause !== undefined ? describe(error.cause) : error.name
  return String(error)
}
