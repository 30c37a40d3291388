/**
 * A fact: a named value from one source, e.g. `Given name = Ada` from a profile.
 */

export interface Fact {
  readonly key: string
  readonly value: string
  /** `profile:<id>`, `text_info`, `file:<id>` or `url:<url>`. */
  readonly source: string
  /** How sure the source is of the value, in [0, 1]. */
  readonly confidence: number
}

/** Trust by source: data typed for this request, then stored profiles, then documents. */
export const sourceConfidence = {
  textInfo: 0.95,
  profile: 0.9,
  document: 0.8
} as const

/**
 * `key: value` lines of free text. The key is what precedes the first colon; lines without
 * one, or with an empty side, say nothing a form field could use.
 */
export const fromLines = (text: string, source: string, confidence: number): ReadonlyArray<Fact> => {
  const facts: Array<Fact> = []
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon <= 0) continue
    const key = line.slice(0, colon).trim()
    const value = line.slice(colon + 1).trim()
    // A URL or a time ("12:30") is not a key; keys are short labels.
    if (key === "" || value === "" || key.length > 80 || /^\d+$/.test(key) || value.startsWith("//")) continue
    facts.push({ key, value, source, confidence })
  }
  return facts
}

/**
 * The members of a record (profile data, a JSON document): strings, numbers and booleans; nested
 * records and lists are flattened with their key path joined by ` › ` (`spouse › first_name`,
 * `children › 2 › name`, list positions 1-based).
 */
export const fromRecord = (data: Record<string, unknown>, source: string, confidence: number, prefix = "", depth = 0): ReadonlyArray<Fact> =>
  Object.entries(data).flatMap(([name, value]): ReadonlyArray<Fact> => {
    const key = prefix === "" ? name : `${prefix} › ${name}`
    if (typeof value === "string") return value.trim() !== "" ? [{ key, value: value.trim(), source, confidence }] : []
    if (typeof value === "number" || typeof value === "boolean") return [{ key, value: String(value), source, confidence }]
    if (depth >= 4 || value === null || typeof value !== "object") return []
    if (Array.isArray(value)) {
      return value.slice(0, 50).flatMap((item, i) =>
        item !== null && typeof item === "object" && !Array.isArray(item)
          ? fromRecord(item as Record<string, unknown>, source, confidence, `${key} › ${i + 1}`, depth + 1)
          : typeof item === "string" && item.trim() !== "" ? [{ key: `${key} › ${i + 1}`, value: item.trim(), source, confidence }]
          : []
      )
    }
    return fromRecord(value as Record<string, unknown>, source, confidence, key, depth + 1)
  })
