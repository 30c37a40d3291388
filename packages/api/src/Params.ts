/**
 * Query parameters as the contract reads them: text on the wire, decoded to numbers and booleans,
 * with a message that says what was expected and what came (the 400 names the parameter).
 */
import { Schema, SchemaTransformation } from "effect"

/** An empty value (`?page=`) reads as absent: the default applies, as when the parameter is left out. */
const decodedFrom = <T>(parse: (raw: string) => T | undefined, expected: string) =>
  Schema.String.check(Schema.makeFilter((raw: string) => raw === "" || parse(raw) !== undefined || `expected ${expected}, got '${raw}'.`))

const orAbsent = <T>(parse: (raw: string) => T | undefined) => (raw: string) => (raw === "" ? undefined : parse(raw))

const parseInteger = (min: number, max: number) => (raw: string) => {
  const text = raw.trim()
  const value = Number(text)
  return /^[+-]?\d+$/.test(text) && Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined
}

const parseNumber = (min: number, max: number) => (raw: string) => {
  const text = raw.trim()
  const value = Number(text)
  return text !== "" && Number.isFinite(value) && value >= min && value <= max ? value : undefined
}

const parseBoolean = (raw: string) => {
  const text = raw.trim().toLowerCase()
  return text === "true" || text === "1" ? true : text === "false" || text === "0" ? false : undefined
}

/*
 * The decoded types carry the range too: the parse has already enforced it (with its own message),
 * and the OpenAPI description types each parameter by its decoded type (QueryParameters.ts).
 */
const between = (minimum: number, maximum: number) => Schema.isBetween({ minimum, maximum })

/** An integer in [min, max]. */
export const integer = (min: number, max: number) =>
  decodedFrom(parseInteger(min, max), `an integer from ${min} to ${max}`).pipe(
    Schema.decodeTo(Schema.UndefinedOr(Schema.Int.check(between(min, max))), SchemaTransformation.transform({ decode: orAbsent(parseInteger(min, max)), encode: (value) => value === undefined ? "" : String(value) }))
  )

/** A number in [min, max]. */
export const number = (min: number, max: number) =>
  decodedFrom(parseNumber(min, max), `a number from ${min} to ${max}`).pipe(
    Schema.decodeTo(Schema.UndefinedOr(Schema.Finite.check(between(min, max))), SchemaTransformation.transform({ decode: orAbsent(parseNumber(min, max)), encode: (value) => value === undefined ? "" : String(value) }))
  )

/** `true` or `false` (`1` and `0` too). */
export const boolean = decodedFrom(parseBoolean, "true or false").pipe(
  Schema.decodeTo(Schema.UndefinedOr(Schema.Boolean), SchemaTransformation.transform({ decode: orAbsent(parseBoolean), encode: (value) => value === undefined ? "" : String(value) }))
)

/** One of `values`, exactly. */
export const oneOf = <const L extends ReadonlyArray<string>>(values: L) =>
  Schema.String.check(Schema.makeFilter((raw: string) => raw === "" || values.includes(raw) || `expected ${values.join(" or ")}, got '${raw}'.`)).pipe(
    Schema.decodeTo(
      Schema.UndefinedOr(Schema.Literals(values)),
      SchemaTransformation.transform({ decode: (raw) => (raw === "" ? undefined : raw as L[number]), encode: (value) => value ?? "" })
    )
  )

/** `page` and `size` of the list routes, and their `name` filter. */
export const PageQuery = {
  name: Schema.optional(Schema.String).annotate({ description: "Case-insensitive substring filter." }),
  page: Schema.optional(integer(1, 1_000_000)).annotate({ description: "1-based page number (default 1)." }),
  size: Schema.optional(integer(1, 100)).annotate({ description: "Items per page, 1 to 100 (default 10)." })
}
