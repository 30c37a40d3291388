/**
 * What the offline commands (`fill`, `convert`) share: reading and writing files with errors in
 * words, the PDF engine's failures told as the input's fault, and the core loaded on demand.
 */
import { Effect } from "effect"
import { readFile, writeFile } from "node:fs/promises"
import { CommandFailed, reasonOf } from "./Failures.ts"

export const readBytes = (path: string, what = "") =>
  Effect.tryPromise({
    try: () => readFile(path),
    catch: (error) => new CommandFailed({ message: `Cannot read ${what}'${path}': ${reasonOf(error)}.` })
  }).pipe(Effect.map((buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)))

export const writeBytes = (path: string, bytes: Uint8Array) =>
  Effect.tryPromise({
    try: () => writeFile(path, bytes),
    catch: (error) => new CommandFailed({ message: `Cannot write '${path}': ${reasonOf(error)}.` })
  })

/** The core, loaded when a command needs it: pdf.js and pdf-lib stay in the PDF workers. */
export const core = Effect.promise(() => import("@formwright/core"))

/** A PDF the engine cannot use, refused by a limit, or a conversion that failed: the input's fault, exit 1. */
export const pdfFailure = (input: string) => (error: { readonly _tag: string; readonly message: string }) =>
  new CommandFailed({ message: error._tag === "ConverterError" ? `${input}: the conversion failed: ${error.message}` : `${input}: ${error.message}` })

/** A count with its noun: `1 field`, `3 fields`. */
export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`
