/**
 * The `formwright` command line, on Effect's CLI module: the tree of commands, and how each way of
 * stopping becomes an exit code (0 done, 2 a command line we cannot run, 1 work that failed).
 * Each command loads what it needs when it runs (the server, the core, pdf.js), so `--help` and
 * `--version` answer without loading them.
 */
import { Cause, Effect, Exit } from "effect"
import { CliError, CliOutput, Command } from "effect/cli"
import { version } from "../Version.ts"
import * as ConvertCommand from "./ConvertCommand.ts"
import * as ConverterCommand from "./ConverterCommand.ts"
import * as FillCommand from "./FillCommand.ts"
import * as FormsCommand from "./FormsCommand.ts"
import * as KeysCommand from "./KeysCommand.ts"
import * as PreviewCommand from "./PreviewCommand.ts"
import * as ServeCommand from "./ServeCommand.ts"
import { CommandFailed, describe, UsageError } from "./Failures.ts"

export const root = Command.make("formwright", {}, () => ServeCommand.serve).pipe(
  Command.withDescription("Formwright: read, fill and create PDF forms. With no command, starts the server."),
  Command.withSubcommands([
    ServeCommand.command,
    KeysCommand.command,
    FormsCommand.command,
    FillCommand.command,
    ConvertCommand.command,
    PreviewCommand.command,
    ConverterCommand.command
  ])
)

/**
 * Help and the version on stdout; a command line we cannot run on stderr, what is wrong first,
 * then the usage, so nothing lands on stdout where a script expects a key or an id.
 */
const presenter = (colors: boolean): CliOutput.Presenter => {
  const formatter = CliOutput.defaultFormatter({ colors })
  return {
    present: (event) =>
      Effect.sync(() => {
        switch (event._tag) {
          case "Help":
            // Asked for, on stdout; shown because a command needs its subcommand, on stderr.
            return void (event.reason === "Requested" ? process.stdout : process.stderr).write(`${formatter.formatHelpDoc(event.helpDoc)}\n`)
          case "Version":
            return void process.stdout.write(`${formatter.formatVersion(event.name, event.version)}\n`)
          case "InvalidInvocation":
            return void process.stderr.write(
              `${event.errors.map((error) => error.message).join("\n")}\n\nUsage: ${event.helpDoc.usage}\n` +
                `Run '${event.commandPath.join(" ")} --help' for more.\n`
            )
        }
      })
  }
}

const fail = (message: string, code: 1 | 2) =>
  Effect.sync(() => {
    process.stderr.write(`${message}\n`)
    process.exitCode = code
  })

/** Runs the command line; what could not be done is told on stderr and sets the exit code. */
export const run = (argv: ReadonlyArray<string>) =>
  Command.runWith(root, { version })(argv).pipe(
    Effect.catch((error): Effect.Effect<void> => {
      if (CliError.isCliError(error)) {
        // Presented already (the usage with what is wrong); a command picked without its
        // subcommand (`formwright keys`) got its help, and did nothing: a usage error as well.
        return Effect.sync(() => void (process.exitCode = 2))
      }
      if (error instanceof UsageError) return fail(error.message, 2)
      if (error instanceof CommandFailed) return fail(error.message, 1)
      return fail(describe(error), 1)
    }),
    Effect.provide(CliOutput.layerPresenter(presenter(process.stdout.isTTY === true)))
  )

/** The process's exit code: the one a command set, else 0 for a run that ended well or by a signal. */
export const exitCode = (exit: Exit.Exit<unknown, unknown>): number =>
  typeof process.exitCode === "number" && process.exitCode !== 0
    ? process.exitCode
    : Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1
