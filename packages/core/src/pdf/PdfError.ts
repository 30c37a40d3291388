/**
 * Why a PDF could not be used. Each reason maps to a 422 with its own message at the edge.
 */
import { Schema } from "effect"

export const UnusableReason = Schema.Literals(["NotPdf", "Damaged", "UserPassword", "XfaOnly", "Empty"])
export type UnusableReason = typeof UnusableReason.Type

/** The body is not a PDF this engine can work with; `message` is safe to show a client. */
export class PdfUnusable extends Schema.TaggedError<PdfUnusable>()("PdfUnusable", {
  reason: UnusableReason,
  message: Schema.String
}) {}

/** Messages shown to clients, one per reason, so every route words them alike. */
export const messages: Record<UnusableReason, string> = {
  NotPdf: "The file is not a PDF.",
  Damaged: "The PDF is damaged and could not be read.",
  UserPassword: "The PDF is encrypted with a user password; upload it without the password.",
  XfaOnly: "The PDF is an XFA-only form (no AcroForm fields); convert it to an AcroForm first.",
  Empty: "The file is empty."
}

export const unusable = (reason: UnusableReason): PdfUnusable => new PdfUnusable({ reason, message: messages[reason] })

/**
 * Why PDF work was refused or stopped by a limit, rather than because the file is unusable:
 * the page count, the field count, decompressed stream sizes, the wall-clock budget, the memory cap of the
 * isolated worker, or a crash of that worker. `message` is safe to show a client.
 */
export const RejectReason = Schema.Literals(["TooManyPages", "TooManyFields", "TooLargeDecoded", "Timeout", "OutOfMemory", "Crashed"])
export type RejectReason = typeof RejectReason.Type

export class PdfRejected extends Schema.TaggedError<PdfRejected>()("PdfRejected", {
  reason: RejectReason,
  message: Schema.String
}) {
  /**
   * Whether the same work might succeed if tried again: a crash, or a time-out (the budget is
   * wall-clock time, which a busy machine eats into). Not a limit of the file, and not the
   * memory cap: every worker has the same one, so a document that passed it once passes it again.
   */
  get transient(): boolean {
    return this.reason === "Timeout" || this.reason === "Crashed"
  }
}

/** The message of a failure that ends a job, saying how often a transient one was tried. */
export const finalMessage = (error: { readonly message: string; readonly _tag: string }, attempts: number): string =>
  error._tag === "PdfRejected" && (error as PdfRejected).transient && attempts > 1
    ? `${error.message} (tried ${attempts} times)`
    : error.message
