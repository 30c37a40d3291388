/**
 * The file-name rules of interface.md: a client's name when it gave one, sanitised for storage,
 * else `<guid>_<unix_timestamp>.pdf`.
 */

const maxBytes = 255

/** `<guid>_<unix seconds>.pdf`, as interface.md fixes it. */
export const generate = (now: Date = new Date()): string => `${crypto.randomUUID()}_${Math.floor(now.getTime() / 1000)}.pdf`

/** The longest extension `clean` keeps when it shortens a name, `.docx` and the like. */
const maxKeptExtension = 16

const shorten = (name: string): string => {
  const encoder = new TextEncoder()
  if (encoder.encode(name).length <= maxBytes) return name
  const dot = name.lastIndexOf(".")
  const extension = dot > 0 && name.length - dot <= maxKeptExtension ? name.slice(dot) : ""
  // 255 bytes hold at most 255 characters of two UTF-16 units each: cut there first, so a huge
  // name costs one pass, not one per character removed.
  const stem = Array.from(name.slice(0, name.length - extension.length).slice(0, 2 * maxBytes))
  while (stem.length > 0 && encoder.encode(stem.join("") + extension).length > maxBytes) stem.pop()
  return stem.join("") + extension
}

/**
 * A stored name for any file from a client's: no path parts, no control characters, no leading
 * dots or spaces, at most 255 bytes (UTF-8), its extension kept. Undefined when nothing usable
 * remains.
 */
export const clean = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined
  // Browsers send the last path part; other clients may send a whole path, Windows or POSIX.
  const base = raw.split(/[\\/]/).pop() ?? ""
  const name = base.replace(/[\u0000-\u001f\u007f]/g, "").replace(/^[.\s]+/, "").trim()
  return name === "" ? undefined : shorten(name)
}

/**
 * A stored name for a PDF from a client's: the rules of `clean`, and ending in `.pdf`.
 * Undefined when nothing usable remains.
 */
export const sanitize = (raw: string | undefined): string | undefined => {
  let name = clean(raw)
  if (name === undefined) return undefined
  if (!/\.pdf$/i.test(name)) name = `${name}.pdf`
  const encoder = new TextEncoder()
  while (encoder.encode(name).length > maxBytes) {
    const stem: Array<string> = Array.from(name.slice(0, -4))
    stem.pop()
    name = `${stem.join("")}.pdf`
  }
  return name
}

/** Rule order of interface.md: the given name if usable, else a generated one. */
export const choose = (given: string | undefined, now?: Date): string => sanitize(given) ?? generate(now)
