/**
 * Right-to-left text (Arabic, Hebrew) in appearance streams. A PDF draws glyphs left to right,
 * so a line must be put into visual order first: the Unicode Bidirectional Algorithm (bidi-js)
 * gives each character its level, and each run of one level is drawn in turn. fontkit shapes
 * each run (Arabic contextual forms and ligatures) and itself reverses a run whose script is
 * right-to-left, so an RTL run goes to it in logical order; an RTL run with no RTL letters
 * (spaces, punctuation between two RTL words) is reversed here.
 *
 * pdf-lib writes only glyph ids and lets each glyph advance by its default width, but Arabic
 * and Hebrew fonts place their dots and vowel marks with GPOS offsets (Noto Naskh Arabic
 * builds ش from a seen and a separate three-dot mark). So the glyphs are written here as `TJ`
 * arrays with each glyph's horizontal adjustment and `Ts` (text rise) for its vertical offset.
 */
import type { Font as FontkitFont } from "@cantoo/fontkit"
import type { PDFFont, PDFHexString } from "@cantoo/pdf-lib"
import { PDFInvalidObject } from "@cantoo/pdf-lib"
import bidiJs from "bidi-js"
import type { Bidi as BidiJs } from "bidi-js"

// bidi-js is CommonJS whose module.exports is the factory itself; its types describe an ES default export.
const bidi = (bidiJs as unknown as () => BidiJs)()

const strongRtl = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u

/** Whether `text` reads right to left: its first strong character is RTL. */
export const isRtl = (text: string): boolean => {
  const first = bidi.getEmbeddingLevels(text, "auto").paragraphs[0]
  return first !== undefined && (first.level & 1) === 1
}

/** The character drawn for `ch` in right-to-left text (`)` for `(`), when it differs. */
export const mirrorOf = (ch: string): string | undefined => bidi.getMirroredCharacter(ch) ?? undefined

/** Whether `text` has any character that bidi reordering could move. */
export const needsReordering = (text: string): boolean => strongRtl.test(text)

interface Run {
  readonly text: string
  readonly rtl: boolean
}

/** The level runs of one line, left to right as they are seen. */
const visualRuns = (line: string, rtlParagraph: boolean): ReadonlyArray<Run> => {
  const levels = bidi.getEmbeddingLevels(line, rtlParagraph ? "rtl" : "ltr")
  const order = Array.from({ length: line.length }, (_, i) => i)
  for (const [start, end] of bidi.getReorderSegments(line, levels)) {
    const reversed = order.slice(start, end + 1).reverse()
    order.splice(start, reversed.length, ...reversed)
  }
  const runs: Array<Run> = []
  let i = 0
  while (i < order.length) {
    const level = levels.levels[order[i]!]!
    const rtl = (level & 1) === 1
    let j = i + 1
    while (j < order.length && levels.levels[order[j]!] === level && order[j]! === order[j - 1]! + (rtl ? -1 : 1)) j++
    const from = rtl ? order[j - 1]! : order[i]!
    const to = rtl ? order[i]! : order[j - 1]!
    // A surrogate pair's halves share a level, so a run never splits one.
    runs.push({ text: line.slice(from, to + 1), rtl })
    i = j
  }
  return runs
}

/** How to draw: the embedded font, the same font file for fontkit's positions, the size in points. */
export interface Drawing {
  readonly font: PDFFont
  readonly shaper: FontkitFont
  /** When unknown, vertical mark offsets are left out (horizontal ones are size-free in `TJ`). */
  readonly size: number | undefined
}

const number = (n: number) => (Math.abs(n) < 0.005 ? "0" : n.toFixed(2).replace(/\.?0+$/, ""))

/** Content-stream operators showing one run in visual order, with every glyph where GPOS puts it. */
const showRun = (drawing: Drawing, run: Run): string => {
  let text = run.text
  if (run.rtl) {
    // Brackets and the like face the other way in RTL text.
    text = Array.from(text, (ch) => bidi.getMirroredCharacter(ch) ?? ch).join("")
    if (!strongRtl.test(text)) text = Array.from(text).reverse().join("")
  }
  // The embedder records the glyphs (for the subset, widths and ToUnicode) and gives their codes.
  const codes = drawing.font.encodeText(text).toString().slice(1, -1).match(/.{4}/g) ?? []
  const { glyphs, positions } = drawing.shaper.layout(text)
  if (positions === null || glyphs.length !== codes.length || glyphs.length !== positions.length) return `<${codes.join("")}> Tj`
  const scale = 1000 / drawing.shaper.unitsPerEm
  const out: Array<string> = []
  let array: Array<string> = []
  const flush = () => {
    if (array.length > 0) out.push(`[${array.join(" ")}] TJ`)
    array = []
  }
  glyphs.forEach((glyph, i) => {
    const { xAdvance, xOffset, yOffset } = positions[i]!
    const rise = drawing.size === undefined ? 0 : (yOffset / drawing.shaper.unitsPerEm) * drawing.size
    // A TJ number moves the next glyph left by n/1000 of the font size.
    if (xOffset !== 0) array.push(number(-xOffset * scale))
    if (rise !== 0) {
      flush()
      out.push(`${number(rise)} Ts`)
    }
    array.push(`<${codes[i]}>`)
    const back = (glyph.advanceWidth + xOffset - xAdvance) * scale
    if (back !== 0) array.push(number(back))
    if (rise !== 0) {
      flush()
      out.push("0 Ts")
    }
  })
  flush()
  return out.join(" ")
}

/**
 * `drawing.font` drawing each line in visual order: what pdf-lib's appearance providers use to
 * encode and measure text, so wrapping, fitting and alignment all see the shaped, reordered
 * line. `rtlParagraph` is the direction of the whole value, so a line starting with a number
 * or a Latin word still reads right to left.
 */
export const visualFont = (drawing: Drawing, rtlParagraph: boolean): PDFFont =>
  new Proxy(drawing.font, {
    get: (target, property) => {
      if (property === "encodeText") {
        return (text: string) => {
          if (!needsReordering(text)) return target.encodeText(text)
          // pdf-lib writes `<operand> Tj`: the operators go out as they are, ending on an empty string for its Tj.
          const operators = visualRuns(text, rtlParagraph).map((run) => showRun(drawing, run)).join(" ") + " <>"
          return PDFInvalidObject.of(new TextEncoder().encode(operators)) as unknown as PDFHexString
        }
      }
      if (property === "widthOfTextAtSize") {
        // Shaping and mark positioning change widths, so measure the advances as drawn.
        return (text: string, size: number) => {
          if (!needsReordering(text)) return target.widthOfTextAtSize(text, size)
          const units = visualRuns(text, rtlParagraph).reduce(
            (sum, run) => sum + (drawing.shaper.layout(run.text).positions ?? []).reduce((s, p) => s + p.xAdvance, 0),
            0
          )
          return (units / drawing.shaper.unitsPerEm) * size
        }
      }
      const member = Reflect.get(target, property, target)
      return typeof member === "function" ? member.bind(target) : member
    }
  })
