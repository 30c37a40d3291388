/**
 * The file-name rules of interface.md: a client's name when it gave one, sanitised for storage,
 * else `<guid>_<unix_timestamp>.pdf`.
 */

const maxBytes = 255

/** `<guid>_<unix seconds>.pdf`, as interface.md fixes it. */
export const generate = (now: Date = new Date()): string => `${crypto.randomUUID()}_${Math.floor(now.getTime() / 1000)}.pdf`

/**
 * A stored name from a client's: no path parts, no control characters, at most 255 bytes
 * (UTF-8), ending in `.pdf`. Undefined when nothing usable remains.
 */
export const sanitize = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined
  // Browsers send the last path part; other clients may send a whole path, Windows or POSIX.
  const base = raw.split(/[\\/]/).pop() ?? ""
  let name = base.replace(/[\u0000-\u001f\u007f]/g, "").replace(/^[.\s]+/, "").trim()
  if (name === "") return undefined
  if (!/\.pdf$/i.test(name)) name = `${name}.pdf`
  const encoder = new TextEncoder()
  while (encoder.encode(name).length > maxBytes) {
    const stem = Array.from(name.slice(0, -4))
    stem.pop()
    name = `${stem.join("")}.pdf`
  }
  return name
}

/** Rule order of interface.md: the given name if usable, else a generated one. */
export const choose = (given: string | undefined, now?: Date): string => sanitize(given) ?? generate(now)
