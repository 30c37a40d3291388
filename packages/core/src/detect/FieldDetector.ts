/**
 * The vector field detector: finds where a person is meant to write on a flat PDF and names each
 * spot after its label. Sources, most to least certain: underscore runs in the text ("Name: ____"),
 * drawn horizontal rules, empty boxes and table cells, and (optionally) small squares as
 * checkboxes. Pages are read one at a time with pdf.js and released before the next, so memory
 * stays bounded by the largest page. Scanned (image-only) pages yield nothing: there is no
 * vector structure to read, and recognising raster lines is an image detector's job.
 */
import { Cause, Effect } from "effect"
import type { ConversionOptions, ConversionProgress } from "../Converter.ts"
import type { TextRun } from "../pdf/PageText.ts"
import * as PageText from "../pdf/PageText.ts"
import type { PdfRejected, PdfUnusable } from "../pdf/PdfError.ts"
import * as PdfLimits from "../pdf/PdfLimits.ts"
import * as PdfJs from "../pdf/PdfJs.ts"
import type { PDFDocumentProxy } from "../pdf/PdfJs.ts"
import * as Labels from "./Labels.ts"
import * as Underscores from "./Underscores.ts"
import type { TextPiece } from "./Underscores.ts"
import * as VectorLines from "./VectorLines.ts"
import type { Box, HorizontalSegment, PageGraphics, Rect, VerticalSegment } from "./VectorLines.ts"

/** What on the page suggested the field. */
export type FieldSource = "underscore" | "rule" | "box" | "checkbox"

/** A field found on a page, before it has a document-wide name. */
export interface PageDetection {
  /** 1-based. */
  readonly page: number
  readonly kind: "Text" | "CheckBox"
  readonly rect: Rect
  readonly source: FieldSource
  /** In [0, 1]. */
  readonly confidence: number
  /** The cleaned label, when one was found. */
  readonly label: string | undefined
  /** A tall box: text wraps over several lines. */
  readonly multiline: boolean
}

/** A detected field with its names: what the converter writes as a widget. */
export interface DetectedField extends PageDetection {
  /** Human-readable: the label, or "Field N" when there is none. */
  readonly name: string
  /** Unique within the document, existing field names included. */
  readonly formName: string
}

/** The options that steer detection (the rest of `ConversionOptions` is for other detectors). */
export type DetectOptions = Pick<ConversionOptions, "pages" | "confidence" | "allowCheckboxes">

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
}

/** Shortest rule or box worth a text field, in points (about four characters). */
const MIN_RULE = 24
const MIN_BOX_WIDTH = 36
const MIN_UNDERSCORE_WIDTH = 12
/** Taller empty boxes are page regions (frames, photo areas), not places to type. */
const MAX_TALL_BOX = 100
/** How far below a labelled line its unlabelled continuation lines may follow. */
const MAX_LINE_SPACING = 36
/** Shapes on a page beyond which its drawing is not read (underscore runs still are). */
const MAX_SHAPES = 20_000

const EMPTY_GRAPHICS: PageGraphics = { horizontals: [], verticals: [], boxes: [], marks: [] }

interface Draft {
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
  /** A box holding text already (a flattened value): only a field when labelled from outside. */
  readonly valueInside: boolean
  /** A shaded area without outline: weaker evidence than a drawn box. */
  readonly shadedOnly?: boolean
  /** A dashed or dotted rule: weaker evidence than a solid one. */
  readonly dashed?: boolean
}

const width = (r: Rect) => r.x2 - r.x1
const height = (r: Rect) => r.y2 - r.y1
const area = (r: Rect) => Math.max(0, width(r)) * Math.max(0, height(r))
const intersection = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1)) * Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1))
const overlapRatio = (a: Rect, b: Rect) => intersection(a, b) / Math.max(1e-6, Math.min(area(a), area(b)))
const pieceBottom = (p: TextPiece) => p.y - 0.22 * p.size
const pieceTop = (p: TextPiece) => p.y + 0.78 * p.size
const pieceCentreInside = (p: TextPiece, r: Rect) => {
  const cx = (p.x1 + p.x2) / 2
  const cy = (pieceBottom(p) + pieceTop(p)) / 2
  return cx > r.x1 && cx < r.x2 && cy > r.y1 && cy < r.y2
}

/** Sorted-array range lookup, so table analysis stays n log n on busy pages. */
const lowerBound = <A>(items: ReadonlyArray<A>, key: (a: A) => number, value: number): number => {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (key(items[mid]!) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Table structure drawn with lines: a horizontal line with verticals at both ends is a cell
 * border, not a rule to write on; the cells it closes with the next line above are boxes.
 */
const tableCells = (horizontals: ReadonlyArray<HorizontalSegment>, verticals: ReadonlyArray<VerticalSegment>) => {
  const byX = [...verticals].sort((a, b) => a.x - b.x)
  const byY = [...horizontals].sort((a, b) => a.y - b.y)
  const verticalsBetween = (x1: number, x2: number) => byX.slice(lowerBound(byX, (v) => v.x, x1), lowerBound(byX, (v) => v.x, x2 + 1e-9))
  const structural = new Set<HorizontalSegment>()
  const cells: Array<Box> = []
  for (const h of horizontals) {
    const endsAt = (x: number) =>
      verticalsBetween(x - 2.5, x + 2.5).some(
        (v) => v.y1 <= h.y + 1.5 && v.y2 >= h.y - 1.5 && Math.max(v.y2 - h.y, h.y - v.y1) >= 6
      )
    if (endsAt(h.x1) && endsAt(h.x2)) structural.add(h)
    const ups = verticalsBetween(h.x1 - 2.5, h.x2 + 2.5).filter((v) => v.y1 <= h.y + 1.5 && v.y2 >= h.y + 6)
    const columns: Array<VerticalSegment> = []
    for (const v of ups) {
      const last = columns[columns.length - 1]
      if (last && v.x - last.x < 2) {
        if (v.y2 > last.y2) columns[columns.length - 1] = v
      } else columns.push(v)
    }
    for (let k = 1; k < columns.length; k++) {
      const [a, b] = [columns[k - 1]!, columns[k]!]
      if (b.x - a.x < 6) continue
      const limit = Math.min(a.y2, b.y2, h.y + MAX_TALL_BOX) + 1.5
      for (let i = lowerBound(byY, (s) => s.y, h.y + 5); i < byY.length && byY[i]!.y <= limit; i++) {
        const g = byY[i]!
        if (g.x1 <= a.x + 2.5 && g.x2 >= b.x - 2.5) {
          cells.push({ x1: a.x, y1: h.y, x2: b.x, y2: g.y, stroked: true })
          structural.add(h)
          structural.add(g)
          break
        }
      }
    }
  }
  return { cells, structural }
}

/** Double borders and fill-then-stroke draw one box twice. */
const dedupeBoxes = (boxes: ReadonlyArray<Box>): Array<Box> => {
  const kept: Array<Box> = []
  for (const b of [...boxes].sort((p, q) => Number(q.stroked) - Number(p.stroked))) {
    const same = kept.some(
      (k) => Math.abs(k.x1 - b.x1) < 1.5 && Math.abs(k.x2 - b.x2) < 1.5 && Math.abs(k.y1 - b.y1) < 1.5 && Math.abs(k.y2 - b.y2) < 1.5
    )
    if (!same) kept.push(b)
  }
  return kept
}

/** Comb cells and character boxes touch their neighbours; a checkbox stands alone. */
const touchesAnother = (b: Box, boxes: ReadonlyArray<Box>): boolean =>
  boxes.some((o) => {
    if (o === b) return false
    const vertical = Math.min(o.y2, b.y2) - Math.max(o.y1, b.y1) > 0.5 * height(b)
    const horizontal = Math.min(o.x2, b.x2) - Math.max(o.x1, b.x1) > 0.5 * width(b)
    return (
      (vertical && (Math.abs(o.x1 - b.x2) <= 2 || Math.abs(o.x2 - b.x1) <= 2)) ||
      (horizontal && (Math.abs(o.y1 - b.y2) <= 2 || Math.abs(o.y2 - b.y1) <= 2))
    )
  })

/** A box with a rule across its inside is a frame around fields, not one field. */
const crossedByRule = (b: Box, horizontals: ReadonlyArray<HorizontalSegment>): boolean =>
  horizontals.some(
    (h) => h.y > b.y1 + 3 && h.y < b.y2 - 3 && Math.min(h.x2, b.x2) - Math.max(h.x1, b.x1) > 0.5 * Math.min(h.x2 - h.x1, width(b))
  )

const hasNeighbourRight = (b: Box, boxes: ReadonlyArray<Box>): boolean =>
  boxes.some((o) => o !== b && Math.abs(o.x1 - b.x2) <= 3 && Math.min(o.y2, b.y2) - Math.max(o.y1, b.y1) > 0.5 * height(b))

const containsAnother = (b: Box, boxes: ReadonlyArray<Box>): boolean =>
  boxes.some((o) => o !== b && o.x1 >= b.x1 + 1 && o.x2 <= b.x2 - 1 && o.y1 >= b.y1 + 1 && o.y2 <= b.y2 - 1)

/** A dotted line running up to text or a box on its right leads the eye there; it is no blank. */
const isLeader = (h: HorizontalSegment, pieces: ReadonlyArray<TextPiece>, boxes: ReadonlyArray<Box>): boolean =>
  pieces.some((p) => p.x1 >= h.x2 - 2 && p.x1 - h.x2 <= 20 && pieceBottom(p) < h.y + 12 && pieceTop(p) > h.y - 3) ||
  boxes.some((b) => b.x1 >= h.x2 - 2 && b.x1 - h.x2 <= 20 && b.y1 < h.y + 12 && b.y2 > h.y - 3)

/** The parts of [x1, x2] not covered by `covers`. */
const freeIntervals = (x1: number, x2: number, covers: ReadonlyArray<readonly [number, number]>): Array<[number, number]> => {
  const out: Array<[number, number]> = []
  let cursor = x1
  for (const [a, b] of [...covers].sort((p, q) => p[0] - q[0])) {
    if (a > cursor) out.push([cursor, Math.min(a, x2)])
    cursor = Math.max(cursor, b)
    if (cursor >= x2) break
  }
  if (cursor < x2) out.push([cursor, x2])
  return out
}

const inset = (r: Rect, by: number): Rect => ({ x1: r.x1 + by, y1: r.y1 + by, x2: r.x2 - by, y2: r.y2 - by })

/** Where a person could write, before labels: every source, overlapping drafts included. */
const drafts = (input: PageInput, pieces: ReadonlyArray<TextPiece>, underscores: ReadonlyArray<Underscores.UnderscoreRun>, options: DetectOptions) => {
  const pageWidth = input.view[2] - input.view[0]
  const out: Array<Draft> = []

  for (const u of underscores) {
    if (u.x2 - u.x1 < MIN_UNDERSCORE_WIDTH) continue
    // The underscore glyph is drawn about a tenth of an em under the baseline: sit on it.
    const y1 = u.y - 0.1 * u.size
    out.push({
      kind: "Text",
      source: "underscore",
      rect: { x1: u.x1, y1, x2: u.x2, y2: y1 + Math.max(12, 1.3 * u.size) },
      band: [u.y - 0.22 * u.size, u.y + 0.78 * u.size],
      sized: true,
      line: y1,
      valueInside: false
    })
  }

  const { cells, structural } = tableCells(input.graphics.horizontals, input.graphics.verticals)
  for (const h of input.graphics.horizontals) {
    const length = h.x2 - h.x1
    if (length < MIN_RULE || length > 0.9 * pageWidth || structural.has(h)) continue
    if (h.dashed && isLeader(h, pieces, input.graphics.boxes)) continue
    // Text standing on the rule (an underlined heading, a label written on the line) is not
    // blank space; what is left of the rule beside it is. Outlined glyphs count as text here.
    const standing = pieces
      .filter((p) => p.x2 > h.x1 && p.x1 < h.x2 && p.y >= h.y - 1 && p.y <= h.y + 0.5 * p.size + 2)
      .map((p) => [p.x1 - 2, p.x2 + 2] as const)
    const inked = input.graphics.marks
      .filter((m) => m.x2 > h.x1 && m.x1 < h.x2 && m.y1 >= h.y - 1 && m.y1 <= h.y + 6)
      .map((m) => [m.x1 - 2, m.x2 + 2] as const)
    const y1 = h.y + h.thickness / 2
    for (const [a, b] of freeIntervals(h.x1, h.x2, [...standing, ...inked])) {
      if (b - a < MIN_RULE) continue
      out.push({
        kind: "Text",
        source: "rule",
        rect: { x1: a, y1, x2: b, y2: y1 + 14 },
        band: [y1 - 3, y1 + 14],
        sized: true,
        line: h.y,
        valueInside: false,
        dashed: h.dashed ?? false
      })
    }
  }

  const boxes = dedupeBoxes([...input.graphics.boxes, ...cells])
  for (const b of boxes) {
    const [w, h] = [width(b), height(b)]
    const inside = pieces.filter((p) => pieceCentreInside(p, b))
    // Hatching or outlined text inside: the box is marked "not applicable" or holds content.
    const inked = input.graphics.marks.some((m) => (m.x1 + m.x2) / 2 > b.x1 && (m.x1 + m.x2) / 2 < b.x2 && (m.y1 + m.y2) / 2 > b.y1 && (m.y1 + m.y2) / 2 < b.y2)
    if (inked) continue
    const squareish = w >= 6 && w <= 16 && h >= 6 && h <= 16 && Math.abs(w - h) <= 0.25 * Math.max(w, h)
    if (squareish) {
      if (options.allowCheckboxes && inside.length === 0 && !touchesAnother(b, boxes)) {
        out.push({ kind: "CheckBox", source: "checkbox", rect: b, band: [b.y1, b.y2], sized: false, valueInside: false })
      }
      continue
    }
    if (w >= MIN_BOX_WIDTH && h >= 16 && h <= MAX_TALL_BOX && w <= 0.9 * pageWidth && inside.length > 0) {
      // A caption printed in the top of a box, space to write below it (tax-form style).
      const captionBottom = Math.min(...inside.map(pieceBottom))
      if (captionBottom >= b.y1 + 0.4 * h) {
        const rest = { x1: b.x1 + 1, y1: b.y1 + 1, x2: b.x2 - 1, y2: captionBottom - 1 }
        if (height(rest) >= 8 && !containsAnother(b, boxes) && !crossedByRule(b, input.graphics.horizontals)) {
          out.push({
            kind: "Text",
            source: "box",
            rect: rest,
            band: [rest.y1, Math.min(rest.y2, rest.y1 + 40)],
            sized: false,
            shadedOnly: !b.stroked,
            valueInside: false,
            multiline: height(rest) > 30
          })
        }
        continue
      }
    }
    // One-line boxes are wide; taller empty ones (up to a few lines) take wrapped text.
    const oneLineBox = h >= 10 && h <= 40 && w >= 1.8 * h
    const tallBox = h > 40 && h <= MAX_TALL_BOX && w >= h && w >= 72 && inside.length === 0
    if (w < MIN_BOX_WIDTH || !(oneLineBox || tallBox) || w > 0.9 * pageWidth) continue
    if (containsAnother(b, boxes) || crossedByRule(b, input.graphics.horizontals)) continue
    const field = { kind: "Text" as const, source: "box" as const, band: [b.y1, Math.min(b.y2, b.y1 + 40)] as const, sized: false, shadedOnly: !b.stroked }
    if (inside.length === 0) {
      out.push({ ...field, rect: inset(b, 1), valueInside: false, multiline: h > 30 })
      continue
    }
    const oneLine = Math.max(...inside.map((p) => p.y)) - Math.min(...inside.map((p) => p.y)) <= 2
    const textStart = Math.min(...inside.map((p) => p.x1))
    if (!oneLine || textStart - b.x1 > 0.3 * w) continue
    // Either a flattened value in a box labelled outside ("Name: [ABC ]"), or a label written
    // inside the box with room to its right ("[Name:      ]").
    const outside = Labels.find({ rect: b, band: [b.y1, b.y2], kind: "Text", below: false, obstacles: [] }, pieces)
    if (outside?.position === "left") {
      out.push({ ...field, rect: inset(b, 1), valueInside: true })
    } else if (b.stroked && !hasNeighbourRight(b, boxes)) {
      // Only an outlined box reads as "label, then space": text on a shaded area is its content,
      // and in a table row the space to fill is the next cell, not the rest of the label's.
      const textEnd = Math.max(...inside.map((p) => p.x2))
      const rest = { x1: textEnd + 3, y1: b.y1 + 1, x2: b.x2 - 1, y2: b.y2 - 1 }
      if (width(rest) >= MIN_BOX_WIDTH) out.push({ ...field, rect: rest, valueInside: false })
    }
  }
  return out
}

/** Drops what lies outside the visible page (printer's crop marks, bleed) and trims the rest. */
const clipToPage = (graphics: PageGraphics, view: PageInput["view"]): PageGraphics => {
  const [vx1, vy1, vx2, vy2] = view
  const within = (r: Rect) => r.x1 >= vx1 - 1 && r.x2 <= vx2 + 1 && r.y1 >= vy1 - 1 && r.y2 <= vy2 + 1
  return {
    horizontals: graphics.horizontals.flatMap((h) => {
      const [x1, x2] = [Math.max(h.x1, vx1), Math.min(h.x2, vx2)]
      return h.y >= vy1 - 1 && h.y <= vy2 + 1 && x2 > x1 ? [{ ...h, x1, x2 }] : []
    }),
    verticals: graphics.verticals.filter((v) => v.x >= vx1 - 1 && v.x <= vx2 + 1 && v.y2 > vy1 && v.y1 < vy2),
    boxes: graphics.boxes.filter(within),
    marks: graphics.marks.filter(within)
  }
}

/** Most certain source first: it wins where drafts overlap. */
const PRIORITY: Record<FieldSource, number> = { checkbox: 0, underscore: 1, box: 2, rule: 3 }

const score = (draft: Draft, label: Labels.Label | undefined, pageWidth: number): number => {
  const length = width(draft.rect)
  let c: number
  switch (draft.source) {
    case "underscore":
      c = label?.position === "left" ? 0.9 : label ? 0.75 : 0.45
      if (length < 30) c -= 0.1
      break
    case "rule":
      // A long rule with no words near it is a separator between sections.
      if (!label && length > 0.4 * pageWidth) return 0
      c = label?.position === "left" ? 0.8 : label?.position === "above" ? 0.65 : label ? 0.6 : 0.35
      if (length < 50) c -= 0.15
      if (draft.dashed) c -= 0.15
      break
    case "box":
      if (draft.valueInside) c = label?.position === "left" ? 0.65 : 0
      else c = label?.position === "left" ? 0.75 : label ? 0.65 : 0.4
      if (draft.shadedOnly) c -= 0.1
      if (draft.multiline) c -= 0.1
      break
    case "checkbox":
      c = label?.position === "right" ? 0.8 : label ? 0.7 : 0.4
      break
  }
  if (label && (label.position === "left" || label.position === "right") && label.distance > 120) c -= 0.1
  return Math.round(Math.min(1, Math.max(0, c)) * 100) / 100
}

/** Lowers a line-sized field's top so it does not cover the text or line above it. */
const capTop = (rect: Rect, pieces: ReadonlyArray<TextPiece>, graphics: PageGraphics, others: ReadonlyArray<Rect>): Rect => {
  let limit = rect.y2
  const consider = (x1: number, x2: number, y: number) => {
    if (x1 < rect.x2 - 1 && x2 > rect.x1 + 1 && y > rect.y1 + 2 && y < limit) limit = y - 0.5
  }
  for (const p of pieces) consider(p.x1, p.x2, pieceBottom(p))
  for (const h of graphics.horizontals) consider(h.x1, h.x2, h.y - h.thickness / 2)
  for (const b of graphics.boxes) consider(b.x1, b.x2, b.y1)
  for (const m of graphics.marks) consider(m.x1, m.x2, m.y1)
  for (const o of others) consider(o.x1, o.x2, o.y1)
  return { ...rect, y2: Math.max(rect.y1 + 8, limit) }
}

interface Named {
  readonly label: Labels.Label | undefined
  /** The label text, or the continued line's label with its line number. */
  readonly text: string | undefined
  readonly confidence: number
}

/** Labels and scores every draft of a page (in the order given), each blocking the others. */
const labelAll = (drafts: ReadonlyArray<Draft>, input: PageInput, pieces: ReadonlyArray<TextPiece>, pageWidth: number): Array<Named> => {
  const result: Array<Named> = new Array(drafts.length)
  // Lines already named, for naming the unlabelled lines that continue them ("Address: ____"
  // followed by a second and third line with nothing beside them): so, top to bottom.
  const lines: Array<{ readonly rect: Rect; readonly base: string; readonly index: number }> = []
  const order = drafts.map((d, i) => [d, i] as const).sort(([a], [b]) => b.rect.y1 - a.rect.y1 || a.rect.x1 - b.rect.x1)
  for (const [d, i] of order) {
    const others = drafts.filter((o) => o !== d).map((o) => o.rect)
    const label = Labels.find(
      { rect: d.rect, band: d.band, kind: d.kind, below: d.kind === "Text", line: d.line, obstacles: [...others, ...input.widgets] },
      pieces
    )
    let text = label?.text
    let confidence = score(d, label, pageWidth)
    if (d.line !== undefined) {
      const previous = label ? undefined : continued(d.rect, lines)
      if (previous) {
        text = `${previous.base} (line ${previous.index + 1})`
        confidence = d.source === "underscore" ? 0.6 : 0.55
        lines.push({ rect: d.rect, base: previous.base, index: previous.index + 1 })
      } else if (label) lines.push({ rect: d.rect, base: label.text, index: 1 })
    }
    result[i] = { label, text, confidence }
  }
  return result
}

/** The named line this one continues: right above it, ending where it ends. */
const continued = <A extends { readonly rect: Rect }>(rect: Rect, named: ReadonlyArray<A>): A | undefined =>
  named
    .filter(
      (n) =>
        n.rect.y1 > rect.y1 &&
        n.rect.y1 - rect.y1 <= MAX_LINE_SPACING &&
        Math.abs(n.rect.x2 - rect.x2) <= 6 &&
        rect.x1 >= n.rect.x1 - 150 &&
        rect.x1 <= n.rect.x1 + 6
    )
    .sort((a, b) => a.rect.y1 - b.rect.y1)[0]

/**
 * Detects the fields of one page (pure: everything it needs is in `input`). Detections below
 * `options.confidence` are dropped; so are those over existing widgets.
 */
export const detectPage = (raw: PageInput, options: DetectOptions): Array<PageDetection> => {
  const clipped = clipToPage(raw.graphics, raw.view)
  // A technical drawing or map is no form, and pairwise analysis of its shapes would take long.
  const shapes = clipped.horizontals.length + clipped.verticals.length + clipped.boxes.length + clipped.marks.length
  const input = { ...raw, graphics: shapes > MAX_SHAPES ? EMPTY_GRAPHICS : clipped }
  const pageWidth = input.view[2] - input.view[0]
  const { pieces, underscores } = Underscores.split(input.runs)
  const accepted: Array<Draft> = []
  const candidates = drafts(input, pieces, underscores, options).sort(
    (a, b) => PRIORITY[a.source] - PRIORITY[b.source] || area(b.rect) - area(a.rect)
  )
  for (const d of candidates) {
    if (accepted.some((a) => overlapRatio(a.rect, d.rect) > 0.4)) continue
    if (input.widgets.some((w) => overlapRatio(w, d.rect) > 0.1)) continue
    accepted.push(d)
  }
  // Twice: drafts that turn out to be nothing (a separator, an unlabelled shaded area) must not
  // stand between a real field and its label.
  const firstPass = labelAll(accepted, input, pieces, pageWidth)
  const survivors = accepted.filter((_, i) => firstPass[i]!.confidence > 0)
  const out: Array<PageDetection> = []
  for (const [i, named] of labelAll(survivors, input, pieces, pageWidth).entries()) {
    const d = survivors[i]!
    if (named.confidence <= 0 || named.confidence < options.confidence) continue
    let rect = d.rect
    if (d.sized) {
      const size = named.label?.position === "left" ? named.label.size : undefined
      const wanted = d.source === "rule" && size !== undefined ? Math.min(20, Math.max(12, 1.3 * size)) : height(rect)
      const others = survivors.filter((o) => o !== d).map((o) => o.rect)
      rect = capTop({ ...rect, y2: rect.y1 + wanted }, pieces, input.graphics, others)
    }
    out.push({ page: input.page, kind: d.kind, rect, source: d.source, confidence: named.confidence, label: named.text, multiline: d.multiline ?? false })
  }
  // Reading order: top to bottom, then left to right.
  return out.sort((a, b) => b.rect.y2 - a.rect.y2 || a.rect.x1 - b.rect.x1)
}

/**
 * Gives detections their names: the label (or "Field N", N its position in the document) and a
 * machine name unique among `existing` names and each other.
 */
export const name = (detections: ReadonlyArray<PageDetection>, existing: Iterable<string> = []): Array<DetectedField> => {
  const used = new Set(existing)
  return detections.map((d, i) => {
    const human = d.label ?? `Field ${i + 1}`
    return { ...d, name: human, formName: Labels.uniqueName(Labels.machineName(human), used) }
  })
}

const asRect = (r: unknown): Rect | undefined => {
  if (!Array.isArray(r) || r.length < 4 || !r.slice(0, 4).every((n) => typeof n === "number" && Number.isFinite(n))) return undefined
  const [a, b, c, d] = r as [number, number, number, number]
  return { x1: Math.min(a, c), y1: Math.min(b, d), x2: Math.max(a, c), y2: Math.max(b, d) }
}

/** Reads one page's text, drawing and widgets, and releases the page's resources. */
const readPage = (doc: PDFDocumentProxy, pageNumber: number): Effect.Effect<PageInput> =>
  Effect.gen(function* () {
    const { text, truncated } = yield* PageText.ofPageWithLimit(doc, pageNumber)
    // A page that draws more text items than the limit is no page a person fills in (nested
    // forms drawing each other, say); its drawing would be as large, so it is not analysed.
    if (truncated) {
      yield* Effect.logWarning(`FieldDetector: page ${pageNumber} draws more text than the limit, so it was not analysed for fields`)
      return { page: pageNumber, view: [0, 0, text.width, text.height] as const, runs: [], graphics: EMPTY_GRAPHICS, widgets: [] }
    }
    const page = yield* Effect.tryPromise({ try: () => doc.getPage(pageNumber), catch: (error) => error })
    return yield* Effect.gen(function* () {
      const graphics = yield* VectorLines.ofPage(page)
      const annotations = yield* Effect.tryPromise(() => page.getAnnotations()).pipe(Effect.orElseSucceed(() => []))
      const widgets = annotations.flatMap((a: { subtype?: string; rect?: unknown }) => {
        const rect = a.subtype === "Widget" ? asRect(a.rect) : undefined
        return rect ? [rect] : []
      })
      const [x1, y1, x2, y2] = page.view as [number, number, number, number]
      return { page: pageNumber, view: [x1, y1, x2, y2] as const, runs: text.runs, graphics, widgets }
    }).pipe(Effect.ensuring(Effect.sync(() => page.cleanup())))
  }).pipe(
    Effect.catchCause((cause) => {
      const error = Cause.squash(cause)
      return Effect.logWarning(`FieldDetector: page ${pageNumber} could not be read, so no fields were detected on it`).pipe(
        Effect.annotateLogs({ reason: error instanceof Error ? error.message : String(error) }),
        Effect.as({ page: pageNumber, view: [0, 0, 0, 0] as const, runs: [], graphics: EMPTY_GRAPHICS, widgets: [] })
      )
    })
  )

/** The names of fields already in the document, so new names never collide with them. */
const existingFieldNames = (doc: PDFDocumentProxy): Effect.Effect<Array<string>> =>
  Effect.tryPromise(() => doc.getFieldObjects()).pipe(
    Effect.map((objects) => [...(objects?.keys() ?? [])]),
    Effect.orElseSucceed(() => [])
  )

/** The result of detecting on a whole document. */
export interface Detection {
  readonly fields: ReadonlyArray<DetectedField>
  /** Pages examined (the selected pages that exist). */
  readonly pagesTotal: number
}

/**
 * Detects fields on the selected pages of `bytes`, page by page, reporting progress after each.
 * Fails only when pdf.js cannot open the document; an unreadable page yields no fields.
 */
export const detect = Effect.fn("FieldDetector.detect")(function* (
  bytes: Uint8Array,
  options: DetectOptions,
  onProgress: (progress: ConversionProgress) => Effect.Effect<void> = () => Effect.void
): Effect.fn.Return<Detection, PdfUnusable | PdfRejected> {
  return yield* PdfJs.use(bytes, (doc) =>
    Effect.gen(function* () {
      yield* PdfLimits.checkPages(doc.numPages)
      const all = Array.from({ length: doc.numPages }, (_, i) => i + 1)
      const selected = options.pages === undefined ? all : all.filter((n) => options.pages!.includes(n))
      const existing = yield* existingFieldNames(doc)
      const found: Array<PageDetection> = []
      for (const [index, pageNumber] of selected.entries()) {
        const input = yield* readPage(doc, pageNumber)
        found.push(...detectPage(input, options))
        yield* onProgress({ pagesDone: index + 1, pagesTotal: selected.length })
      }
      return { fields: name(found, existing), pagesTotal: selected.length }
    })
  )
})
