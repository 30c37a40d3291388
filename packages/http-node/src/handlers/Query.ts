/**
 * Query and body validation with messages that name the offending parameter.
 */
import { Effect, Schema } from "effect"
import { type Family, fail } from "./Respond.ts"

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

/** `pages`: `1`, `1,3`, `1-5`, `1,3-5` (spaces allowed), as sorted unique page numbers. */
export const pages = (family: Family, raw: string | undefined) => {
  if (raw === undefined || raw.trim() === "") return Effect.succeed(undefined)
  const out = new Set<number>()
  for (const part of raw.split(",")) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part)
    const from = match ? Number(match[1]) : Number.NaN
    const to = match?.[2] !== undefined ? Number(match[2]) : from
    if (!match || from < 1 || to < from || to > 100_000) {
      return fail(family, 400, `Invalid pages: '${raw}' is not a list of pages or ranges like 1,3-5.`)
    }
    for (let p = from; p <= to; p++) out.add(p)
  }
  return Effect.succeed([...out].sort((a, b) => a - b))
}

/** Decodes a JSON body with a schema; the 400 names the first offending member. */
export const decode = <S extends Schema.Codec<any, any>>(family: Family, schema: S, input: unknown, root = "body") =>
  Schema.decodeUnknownEffect(schema as Schema.Codec<S["Type"], unknown>)(input, { onExcessProperty: "ignore" }).pipe(
    Effect.catch((error) => fail(family, 400, `Invalid ${root}: ${error.message.replace(/\s+/g, " ").slice(0, 300)}`))
  )

/** `page` (>= 1, default 1) and `size` (1..100, default 10) of the list routes. */
export const paging = (params: URLSearchParams) =>
  Effect.all({
    page: integer("standard", "page", params.get("page") ?? undefined, 1, 1, 1_000_000),
    size: integer("standard", "size", params.get("size") ?? undefined, 10, 1, 100)
  })
