/**
 * Input that breaks a rule of the core (400 at the edge), and the Schema check that finds it.
 */
import { Effect, Schema } from "effect"

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  /** The offending field, as a path the caller recognises (`options.confidence`, `form.fields[2].id`). */
  field: Schema.String,
  message: Schema.String
}) {}

/** `["options"]["pages"][0]` as `options.pages[0]`. */
const pathOf = (message: string): string | undefined => {
  const at = /\n\s*at (\[.*\])\s*$/.exec(message)?.[1]
  if (!at) return undefined
  return at.replace(/\["([^"]*)"\]/g, ".$1").replace(/^\./, "")
}

/**
 * Decodes a service's input with its schema, so the core refuses bad input whether it came
 * through HTTP or from embedding code; the first problem found is reported, with its path.
 */
export const validate = <S extends Schema.Codec<any, any>>(schema: S, input: S["Encoded"], root?: string): Effect.Effect<S["Type"], InvalidInput> =>
  Schema.decodeUnknownEffect(schema as Schema.Codec<S["Type"], unknown>)(input, { errors: "first", onExcessProperty: "ignore" }).pipe(
    Effect.mapError((error) => {
      const path = pathOf(error.message)
      const field = [root, path].filter((p) => p !== undefined && p !== "").join(".") || root || "input"
      return new InvalidInput({ field, message: error.message.split("\n")[0]!.trim() })
    })
  )
