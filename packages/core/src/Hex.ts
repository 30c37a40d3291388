/** Lower-case hex of bytes, as digests and signatures are written. */
export const fromBytes = (bytes: ArrayBuffer | Uint8Array): string => {
  let out = ""
  for (const byte of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) out += byte.toString(16).padStart(2, "0")
  return out
}
