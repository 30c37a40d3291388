/**
 * Fonts the form engine embeds. The standard 14 fonts only cover WinAnsi (Western Latin), so
 * other values need a Unicode font embedded in the PDF. Every font here is an OFL Noto build
 * shipped in an npm package: Noto Sans, Noto Naskh Arabic and Noto Sans Hebrew from
 * `@expo-google-fonts/*` (the Google Fonts builds: the Arabic and Hebrew ones also carry Latin,
 * digits and punctuation, which addresses mix in; the `@embedpdf/fonts-arabic`/`-hebrew` builds
 * lack them), and the Noto Sans CJK builds for simplified and traditional Chinese, Japanese and
 * Korean from `@embedpdf/fonts-sc`, `-tc`, `-jp`, `-kr` (Regular weight only).
 *
 * The CJK files are 4.5 to 8.4 MB each, so they are read only when a value needs them and are
 * never kept: what a process keeps of each font is which characters it has (a 136 KB bitmap),
 * and the small fonts' bytes.
 */
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import fontkit, { type Font } from "@cantoo/fontkit"
import { Effect, Schema } from "effect"

/** A font could not be found or read. */
export class FontUnavailable extends Schema.TaggedError<FontUnavailable>()("FontUnavailable", {
  message: Schema.String
}) {}

/** The Unicode fonts we can embed, one per script family. */
export type Family = "notoSans" | "arabic" | "hebrew" | "simplifiedChinese" | "traditionalChinese" | "japanese" | "korean"

interface Source {
  /** The package, and the font file inside it, relative to the package's main entry. */
  readonly pkg: string
  readonly file: string
  /** Kept in memory once read (small files only). */
  readonly keep: boolean
}

const sources: Record<Family, Source> = {
  notoSans: { pkg: "@expo-google-fonts/noto-sans", file: "400Regular/NotoSans_400Regular.ttf", keep: true },
  arabic: { pkg: "@expo-google-fonts/noto-naskh-arabic", file: "400Regular/NotoNaskhArabic_400Regular.ttf", keep: true },
  hebrew: { pkg: "@expo-google-fonts/noto-sans-hebrew", file: "400Regular/NotoSansHebrew_400Regular.ttf", keep: true },
  simplifiedChinese: { pkg: "@embedpdf/fonts-sc", file: "../fonts/NotoSansHans-Regular.otf", keep: false },
  traditionalChinese: { pkg: "@embedpdf/fonts-tc", file: "../fonts/NotoSansHant-Regular.otf", keep: false },
  japanese: { pkg: "@embedpdf/fonts-jp", file: "../fonts/NotoSansJP-Regular.otf", keep: false },
  korean: { pkg: "@embedpdf/fonts-kr", file: "../fonts/NotoSansKR-Regular.otf", keep: false }
}

const require = createRequire(import.meta.url)

/** `@expo-google-fonts/*` export their files by path; `@embedpdf/fonts-*` only a main entry beside them. */
const pathOf = (source: Source): string =>
  source.file.startsWith("../") ? join(dirname(require.resolve(source.pkg)), source.file) : require.resolve(`${source.pkg}/${source.file}`)

/** Where the font file of `family` is on disk (for renderers that load fonts by path). */
export const path = (family: Family): string => pathOf(sources[family])

const kept = new Map<Family, Promise<Uint8Array>>()

const readFamily = (family: Family): Promise<Uint8Array> => {
  const source = sources[family]
  const cached = kept.get(family)
  if (cached) return cached
  const read = Promise.resolve()
    .then(() => readFile(pathOf(source)))
    .then((buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength))
  if (source.keep) {
    kept.set(family, read)
    // A failed read is not cached, so a later call can try again.
    read.catch(() => kept.delete(family))
  }
  return read
}

const unavailable = (family: Family) => (cause: unknown) =>
  new FontUnavailable({ message: `The ${family} font could not be loaded: ${String(cause)}` })

/**
 * The font file of `family`, read lazily. The small fonts are read once and shared (callers
 * must not mutate them); a CJK file is read again for each document that needs it.
 */
export const bytes = (family: Family): Effect.Effect<Uint8Array, FontUnavailable> =>
  Effect.tryPromise({ try: () => readFamily(family), catch: unavailable(family) })

/** The Noto Sans Regular TrueType bytes (Latin, Greek, Cyrillic), read lazily once and cached. */
export const notoSans: Effect.Effect<Uint8Array, FontUnavailable> = bytes("notoSans")

/** Which code points a font maps, one bit each. */
export interface Coverage {
  readonly has: (codePoint: number) => boolean
}

const coverages = new Map<Family, Promise<Coverage>>()

const readCoverage = (family: Family): Promise<Coverage> => {
  const cached = coverages.get(family)
  if (cached) return cached
  const made = readFamily(family).then((data) => {
    const bits = new Uint8Array(0x110000 >> 3)
    // Our files are single fonts, never collections.
    for (const cp of (fontkit.create(data) as Font).characterSet) if (cp >= 0 && cp < 0x110000) bits[cp >> 3]! |= 1 << (cp & 7)
    return { has: (cp: number) => cp >= 0 && cp < 0x110000 && (bits[cp >> 3]! & (1 << (cp & 7))) !== 0 }
  })
  coverages.set(family, made)
  made.catch(() => coverages.delete(family))
  return made
}

/** The characters `family` has a glyph for, worked out once per process from its cmap. */
export const coverage = (family: Family): Effect.Effect<Coverage, FontUnavailable> =>
  Effect.tryPromise({ try: () => readCoverage(family), catch: unavailable(family) })

/** Whether `coverage` has every character of `text` (line breaks are layout, not glyphs). */
export const covers = (coverage: Coverage, text: string): boolean => {
  for (const ch of text) {
    if (ch === "\n") continue
    if (!coverage.has(ch.codePointAt(0)!)) return false
  }
  return true
}
