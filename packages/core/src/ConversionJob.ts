/**
 * A conversion job: a flat PDF on its way to becoming a fillable form.
 */
import { Schema } from "effect"
import { JobId, UserId } from "./Id.ts"

export const JobStatus = Schema.Literals(["pending", "processing", "completed", "failed"])
export type JobStatus = typeof JobStatus.Type

export const JobOptions = Schema.Struct({
  pages: Schema.optionalKey(Schema.Array(Schema.Number)),
  confidence: Schema.Number,
  resolution: Schema.Number,
  allow_checkboxes: Schema.Boolean
})
export type JobOptions = typeof JobOptions.Type

export const ConversionJob = Schema.Struct({
  id: JobId,
  owner: UserId,
  status: JobStatus,
  file_name: Schema.String,
  options: JobOptions,
  progress: Schema.optionalKey(Schema.Struct({ pages_done: Schema.Number, pages_total: Schema.Number })),
  form_id: Schema.optionalKey(Schema.String),
  error_message: Schema.optionalKey(Schema.String),
  /** Attempts started; a job resumed after a restart counts again. */
  attempts: Schema.Number,
  created: Schema.String,
  updated: Schema.String
})
export type ConversionJob = typeof ConversionJob.Type

export class JobNotFound extends Schema.TaggedError<JobNotFound>()("JobNotFound", {
  jobId: Schema.String
}) {}
