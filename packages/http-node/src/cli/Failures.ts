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
