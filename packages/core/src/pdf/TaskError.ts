/**
 * A PDF task's failure as plain data, to cross from a worker process to the server: the errors
 * a task may fail with keep their tag and reason, and anything else (a bug) becomes a crash of
 * the work. Apart from PdfTasks so that the server's process, which only receives these, never
 * loads the PDF libraries.
 */
import { Cause } from "effect"
import { ConverterError } from "../Converter.ts"
import { PdfRejected, PdfUnusable } from "./PdfError.ts"

/** A task's failure as plain data. */
export type SerializedError =
  | { readonly _tag: "PdfUnusable"; readonly reason: PdfUnusable["reason"]; readonly message: string }
  | { readonly _tag: "PdfRejected"; readonly reason: PdfRejected["reason"]; readonly message: string }
  | { readonly _tag: "ConverterError"; readonly message: string; readonly status?: number | undefined }
  | { readonly _tag: "Defect"; readonly message: string }

export type TaskError = PdfUnusable | PdfRejected | ConverterError

export const serialize = (cause: Cause.Cause<unknown>): SerializedError => {
  const failure = Cause.findErrorOption(cause)
  if (failure._tag === "Some") {
    const error = failure.value as { _tag?: string; reason?: never; message?: string; status?: number }
    if (error._tag === "PdfUnusable" || error._tag === "PdfRejected") return { _tag: error._tag, reason: error.reason!, message: error.message ?? "" }
    if (error._tag === "ConverterError") return { _tag: "ConverterError", message: error.message ?? "", status: error.status }
  }
  return { _tag: "Defect", message: Cause.pretty(cause).slice(0, 4000) }
}

/** The error a serialized failure stands for; a defect (a bug) becomes a crash of the work. */
export const deserialize = (error: SerializedError): TaskError => {
  switch (error._tag) {
    case "PdfUnusable":
      return new PdfUnusable({ reason: error.reason, message: error.message })
    case "PdfRejected":
      return new PdfRejected({ reason: error.reason, message: error.message })
    case "ConverterError":
      return new ConverterError({ message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) })
    case "Defect":
      return new PdfRejected({ reason: "Crashed", message: "Processing the PDF failed unexpectedly." })
  }
}

