/**
 * The common currency of the detector: each source module reads one kind of evidence from a page
 * (underscores, rules, boxes, table cells, drawn squares, box glyphs, comb rows) and proposes
 * candidates with the features the scorer weighs. Sources never decide alone; the pipeline
 * resolves overlaps and the scorer gives every survivor its confidence.
 */
import type { TextRun } from "../pdf/PageText.ts"
import type { BoxGlyph, TextPiece, UnderscoreRun } from "./Underscores.ts"
import type { Box, HorizontalSegment, PageGraphics, Rect } from "./VectorLines.ts"

/** What on the page suggested the field. */
export type FieldSource = "underscore" | "rule" | "box" | "cell" | "comb" | "checkbox" | "glyph"

/** The options that steer detection. */
export interface DetectOptions {
  /** 1-based page numbers to examine; undefined means every page. */
  readonly pages?: ReadonlyArray<number> | undefined
  /** Detections below this confidence are dropped. */
  readonly confidence: number
  readonly allowCheckboxes: boolean
  /** Pixels along the long side a scanned page is rendered at for the raster path (default 1600). */
  readonly resolution?: number | undefined
}

/**
 * One page as the detector sees it, in PDF user space. A page's /Rotate only turns the display:
 * text and lines, and so the fields placed on them, stay in unrotated user space.
 */
export interface PageInput {
  readonly page: number
  /** `[x1, y1, x2, y2]` of the page (crop box). */
  readonly view: readonly [number, number, number, number]
  readonly runs: ReadonlyArray<TextRun>
  readonly graphics: PageGraphics
  /** Rectangles of widgets already on the page: detections over them are dropped. */
  readonly widgets: ReadonlyArray<Rect>
  /** Why the page was not read (more text than the limit, or unreadable): it is no scan either. */
  readonly skipped?: "tooMuchText" | "unreadable" | undefined
}

/** What a candidate's evidence looks like, for the scorer. All optional: absent means no. */
export interface Features {
  /** A box holding text already (a flattened value): only a field when labelled from outside. */
  readonly valueInside?: boolean
  /** A shaded area without outline: weaker evidence than a drawn box. */
  readonly shadedOnly?: boolean
  /** A dashed or dotted rule: weaker evidence than a solid one. */
  readonly dashed?: boolean
  /** A cell of a table whose row holds other empty cells (an amount column, a grid). */
  readonly inGrid?: boolean
  /** Comb boxes: the number of character cells. */
  readonly combCells?: number
  /** A round mark (a circle): radio-button style. */
  readonly round?: boolean
  /** A caption printed in the top of the box, space to write below it. */
  readonly captioned?: boolean
}

export interface Candidate {
  readonly kind: "Text" | "CheckBox"
  readonly source: FieldSource
  readonly rect: Rect
  /** Vertical band a same-line label overlaps. */
  readonly band: readonly [number, number]
  /** Whether the field's height follows its label (lines) or is given (boxes). */
  readonly sized: boolean
  /** The y of the drawn line (rule or underscores) the field sits on. */
  readonly line?: number
  readonly multiline?: boolean
  readonly features: Features
}

/** Everything a source may read about a page, computed once. */
export interface PageContext {
  readonly input: PageInput
  readonly options: DetectOptions
  readonly pageWidth: number
  readonly pageHeight: number
  /** Text without underscores, as label candidates and obstacles. */
  readonly pieces: ReadonlyArray<TextPiece>
  readonly underscores: ReadonlyArray<UnderscoreRun>
  /** Check-box glyphs printed in the text ("☐", "[ ]"). */
  readonly glyphs: ReadonlyArray<BoxGlyph>
  /** Drawn boxes and line-drawn table cells, each once. */
  readonly boxes: ReadonlyArray<Box>
  /** Which of `boxes` came from lines closing a table cell (not drawn as one rectangle). */
  readonly cells: ReadonlySet<Box>
  /** Rules that are cell borders of a table, not lines to write on. */
  readonly structural: ReadonlySet<HorizontalSegment>
  /** Cells of `cells` that are one line on the rule of a column open up the page (`Tables`). */
  readonly openLines: ReadonlySet<Box>
  /** The typical font size of the page's text, for font-relative thresholds. */
  readonly fontSize: number
}
