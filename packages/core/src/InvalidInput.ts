/**
 * Input that passed the wire schema but breaks a domain rule (400 at the edge).
 */
import { Schema } from "effect"

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  /** The offending field, as the client named it. */
  field: Schema.String,
  message: Schema.String
}) {}
