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

/** The members of a record of strings (profile data, a JSON document). */
export const fromRecord = (data: Record<string, unknown>, source: string, confidence: number): ReadonlyArray<Fact> =>
  Object.entries(data).flatMap(([key, value]) =>
    typeof value === "string" && value.trim() !== "" ? [{ key, value: value.trim(), source, confidence }]
      : typeof value === "number" || typeof value === "boolean" ? [{ key, value: String(value), source, confidence }]
      : []
  )
