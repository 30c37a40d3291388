/** Small page text and boxes built by hand for the field understanding tests. */
import type { TextRun } from "../../src/pdf/PageText.ts"
import type { Rect } from "../../src/understand/TextLayout.ts"
import * as TextLayout from "../../src/understand/TextLayout.ts"

/** A run of text with its baseline at `y`, about half an em per character wide. */
export const run = (text: string, x: number, y: number, size = 10): TextRun => ({ text, x, y, width: text.length * size * 0.5, height: size })

/** A box from its corners. */
export const box = (x1: number, y1: number, x2: number, y2: number): Rect => ({ x1, y1, x2, y2 })

/** The phrases of a page made of these runs. */
export const page = (...runs: ReadonlyArray<TextRun>) => TextLayout.phrases(runs)
