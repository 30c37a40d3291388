/**
 * `pages` of the conversion routes: a list of pages and ranges, checked against the PDF page
 * limit in force, which a schema alone cannot know.
 */
import { Effect } from "effect"
import * as WireErrors from "./WireErrors.ts"

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
export const pages = <F extends WireErrors.Family>(family: F, raw: string | undefined, maxSelected: number) => {
  if (raw === undefined || raw.trim() === "") return Effect.succeed(undefined)
  const malformed = () => WireErrors.fail(family, 400, `Invalid pages: '${raw.slice(0, 100)}${raw.length > 100 ? "…" : ""}' is not a list of pages or ranges like 1,3-5.`)
  const parts = raw.split(",", maxPageParts + 1)
  if (parts.length > maxPageParts) return WireErrors.fail(family, 400, `Invalid pages: at most ${maxPageParts} pages or ranges, separated by commas.`)
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
    return WireErrors.fail(family, 400, `Invalid pages: selects ${count} pages; at most ${maxSelected} can be converted.`)
  }
  const out: Array<number> = []
  for (const [from, to] of merged) for (let p = from; p <= to; p++) out.push(p)
  return Effect.succeed(out)
}
