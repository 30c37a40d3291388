/**
 * `formwright preview <in.pdf> [--page N] [--out page.png] [--detect]`: the review picture of a
 * page, from a local PDF, without a server (the work is in ../PreviewCommand.ts, loaded when the
 * command runs).
 */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { basename } from "node:path"
import { CommandFailed, UsageError } from "./Failures.ts"

const page = Flag.String("page").pipe(
  Flag.withDescription("The page to draw, from 1."),
  Flag.withDefault("1")
)

export const command = Command.make(
  "preview",
  {
    input: Argument.String("in.pdf").pipe(Argument.withDescription("The PDF to draw.")),
    page,
    out: Flag.String("out").pipe(Flag.withDescription("The PNG to write (default: <in>.page-<N>.png, here)."), Flag.optional),
    detect: Flag.Boolean("detect").pipe(Flag.withDefault(false),
      Flag.withDescription("Convert the PDF first and draw the fields a conversion would place, with their confidence.")
    )
  },
  (args) =>
    Effect.gen(function*() {
      // Read here rather than as an integer flag, to say in the command's own words what is wrong.
      if (!/^\d{1,7}$/.test(args.page) || Number(args.page) < 1) {
        return yield* new UsageError({ message: `--page needs a page number from 1, got '${args.page}'.` })
      }
      const pageNumber = Number(args.page)
      const out = Option.getOrElse(args.out, () => `${basename(args.input).replace(/\.pdf$/i, "")}.page-${pageNumber}.png`)
      if (out === "") return yield* new UsageError({ message: "--out needs a file name." })
      const Preview = yield* Effect.promise(() => import("../PreviewCommand.ts"))
      yield* Preview.run({ input: args.input, page: pageNumber, out, detect: args.detect }).pipe(
        Effect.mapError((error) => error.usage ? new UsageError({ message: error.message }) : new CommandFailed({ message: error.message }))
      )
    })
).pipe(
  Command.withDescription("Write a PNG of a page with every field outlined by type, named, with its confidence (no server needed).")
)
