/**
 * Fonts the form engine embeds. The standard 14 fonts only cover WinAnsi (Western Latin), so
 * values in Greek, Cyrillic or Latin beyond WinAnsi need a Unicode font embedded in the PDF:
 * Noto Sans (SIL OFL), shipped by `@expo-google-fonts/noto-sans`.
 */
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { Effect, Schema } from "effect"

/** The Unicode font could not be found or read: filling falls back to the standard fonts. */
export class FontUnavailable extends Schema.TaggedError<FontUnavailable>()("FontUnavailable", {
  message: Schema.String
}) {}

const notoSansPath = "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"

// One read per process: the file is 629 KB and never changes while we run.
let notoSansBytes: Promise<Uint8Array> | undefined

const loadNotoSans = (): Promise<Uint8Array> => {
  if (notoSansBytes === undefined) {
    notoSansBytes = Promise.resolve()
      .then(() => createRequire(import.meta.url).resolve(notoSansPath))
      .then((path) => readFile(path))
      .then((buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength))
    // A failed read is not cached, so a later call can try again.
    notoSansBytes.catch(() => {
      notoSansBytes = undefined
    })
  }
  return notoSansBytes
}

/**
 * The Noto Sans Regular TrueType bytes (Latin, Greek, Cyrillic), read lazily once and cached.
 * Callers must not mutate the returned array: it is shared.
 */
export const notoSans: Effect.Effect<Uint8Array, FontUnavailable> = Effect.tryPromise({
  try: loadNotoSans,
  catch: (cause) => new FontUnavailable({ message: `Noto Sans could not be loaded: ${String(cause)}` })
})
