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
