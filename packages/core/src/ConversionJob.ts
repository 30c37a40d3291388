/**
 * A conversion job: a flat PDF on its way to becoming a fillable form.
 */
import { Schema } from "effect"
import { JobId, UserId } from "./Id.ts"

export const JobStatus = Schema.Literals(["pending", "processing", "completed", "failed"])
export type JobStatus = typeof JobStatus.Type

/** Conversion options, with the ranges of contract.md. */
export const JobOptions = Schema.Struct({
  /** 1-based pages to convert; absent means every page. */
  pages: Schema.optionalKey(
    // No document has more pages than the PDF page limit, far below this bound on the list itself.
    Schema.Array(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))).check(Schema.isMinLength(1), Schema.isMaxLength(100_000))
  ),
  confidence: Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })),
  resolution: Schema.Int.check(Schema.isBetween({ minimum: 256, maximum: 4096 })),
  allow_checkboxes: Schema.Boolean
})
export type JobOptions = typeof JobOptions.Type

export const ConversionJob = Schema.Struct({
  id: JobId,
  owner: UserId,
  status: JobStatus,
  file_name: Schema.String,
  options: JobOptions,
  progress: Schema.optionalKey(Schema.Struct({ pages_done: Schema.Finite, pages_total: Schema.Finite })),
  form_id: Schema.optionalKey(Schema.String),
  /** The job's id at the converter service it was handed to (a remote converter only). */
  converter_job_id: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  error_message: Schema.optionalKey(Schema.String),
  /** Attempts started; a job resumed after a restart counts again. */
  attempts: Schema.Finite,
  created: Schema.String,
  updated: Schema.String
})
export type ConversionJob = typeof ConversionJob.Type

export class JobNotFound extends Schema.TaggedError<JobNotFound>()("JobNotFound", {
  jobId: Schema.String
}) {}
