/**
 * Query and body validation with messages that name the offending parameter.
 */
import { Effect, Schema } from "effect"
import { type Family, fail, type Reply } from "./Respond.ts"

/** An integer parameter in [min, max], or its default when absent. */
export const integer = (family: Family, name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
  if (raw === undefined || raw === "") return Effect.succeed(fallback)
  const value = Number(raw.trim())
  if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    return fail(family, 400, `Invalid ${name}: expected an integer from ${min} to ${max}, got '${raw}'.`)
  }
  return Effect.succeed(value)
}

/** A number parameter in [min, max], or its default when absent. */
export const number = (family: Family, name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
  if (raw === undefined || raw === "") return Effect.succeed(fallback)
  const value = Number(raw.trim())
  if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max) {
    return fail(family, 400, `Invalid ${name}: expected a number from ${min} to ${max}, got '${raw}'.`)
  }
  return Effect.succeed(value)
}

export const boolean = (family: Family, name: string, raw: string | undefined, fallback: boolean) => {
  if (raw === undefined || raw === "") return Effect.succeed(fallback)
  const value = raw.trim().toLowerCase()
  if (value === "true" || value === "1") return Effect.succeed(true)
  if (value === "false" || value === "0") return Effect.succeed(false)
  return fail(family, 400, `Invalid ${name}: expected true or false, got '${raw}'.`)
}

/** The largest page number `pages` may name; past it a value is malformed, not merely past the end. */
export const maxPageNumber = 100_000

/** The most comma-separated parts `pages` may have. */
export const maxPageParts = 1_000

/**
 * `pages`: `1`, `1,3`, `1-5`, `1,3-5` (spaces allowed), as sorted unique page numbers.
 *
 * Checked as ranges before anything is expanded: at most `maxPageParts` parts, numbers up to
 * `maxPageNumber`, and no more distinct pages than `maxSelected` (the most pages a document may
 * have, so a longer selection names a page past the end of any accepted document). A crafted
 * value like `1-100000` a thousand times costs a sort of a thousand ranges, not a set of a
 * hundred million numbers.
 */
export const pages = (family: Family, raw: string | undefined, maxSelected: number) => {
  if (raw === undefined || raw.trim() === "") return Effect.succeed(undefined)
  const malformed = () => fail(family, 400, `Invalid pages: '${raw.slice(0, 100)}${raw.length > 100 ? "…" : ""}' is not a list of pages or ranges like 1,3-5.`)
  const parts = raw.split(",", maxPageParts + 1)
  if (parts.length > maxPageParts) return fail(family, 400, `Invalid pages: at most ${maxPageParts} pages or ranges, separated by commas.`)
  const ranges: Array<[number, number]> = []
  for (const part of parts) {
    const match = /^\s*(\d{1,7})\s*(?:-\s*(\d{1,7})\s*)?$/.exec(part)
    if (!match) return malformed()
    const from = Number(match[1])
    const to = match[2] !== undefined ? Number(match[2]) : from
    if (from < 1 || to < from || to > maxPageNumber) return malformed()
    ranges.push([from, to])
  }
  // Overlapping and adjacent ranges merged, so the count is of distinct pages.
  ranges.sort((a, b) => a[0] - b[0])
  const merged: Array<[number, number]> = []
  for (const [from, to] of ranges) {
    const last = merged[merged.length - 1]
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to)
    else merged.push([from, to])
  }
  const count = merged.reduce((total, [from, to]) => total + to - from + 1, 0)
  if (count > maxSelected) {
    return fail(family, 400, `Invalid pages: selects ${count} pages; at most ${maxSelected} can be converted.`)
  }
  const out: Array<number> = []
  for (const [from, to] of merged) for (let p = from; p <= to; p++) out.push(p)
  return Effect.succeed(out)
}

/**
 * The value of a query parameter given at most once; a repeated one is a 400 naming it, rather
 * than silently reading one of the values.
 */
export const single = (family: Family, params: URLSearchParams, name: string): Effect.Effect<string | undefined, Reply> => {
  const values = params.getAll(name)
  if (values.length > 1) return fail(family, 400, repeatedMessage(name))
  return Effect.succeed(values[0])
}

/** The message for a parameter given more than once. */
export const repeatedMessage = (name: string) => `Invalid ${name}: given more than once.`

/** Decodes a JSON body with a schema; the 400 names the first offending member. */
export const decode = <S extends Schema.Codec<any, any>>(family: Family, schema: S, input: unknown, root = "body") =>
  Schema.decodeUnknownEffect(schema as Schema.Codec<S["Type"], unknown>)(input, { onExcessProperty: "ignore" }).pipe(
    Effect.catch((error) => fail(family, 400, `Invalid ${root}: ${error.message.replace(/\s+/g, " ").slice(0, 300)}`))
  )

/** `page` (>= 1, default 1) and `size` (1..100, default 10) of the list routes. */
export const paging = (params: URLSearchParams) =>
  Effect.all({
    page: Effect.flatMap(single("standard", params, "page"), (raw) => integer("standard", "page", raw, 1, 1, 1_000_000)),
    size: Effect.flatMap(single("standard", params, "size"), (raw) => integer("standard", "size", raw, 10, 1, 100))
  })
