/**
 * The one pipeline every page goes through: build the page context, ask each candidate source,
 * keep the most certain candidate where several overlap, label and score the survivors, size
 * line fields to their text. Pure: everything it needs is in the `PageInput`.
 */
import { alongThePage } from "../pdf/PageText.ts"
import type { Candidate, DetectOptions, FieldSource, PageContext, PageInput } from "./Candidate.ts"
import { area, height, overlapRatio, pieceBottom, width } from "./Geometry.ts"
import * as Labels from "./Labels.ts"
import * as MultiLines from "./MultiLines.ts"
import * as OfficialUse from "./OfficialUse.ts"
import * as RadioGroups from "./RadioGroups.ts"
import * as Scorer from "./Scorer.ts"
import * as Boxes from "./sources/Boxes.ts"
import * as BoxGlyphs from "./sources/BoxGlyphs.ts"
import * as CheckSquares from "./sources/CheckSquares.ts"
import * as Combs from "./sources/Combs.ts"
import * as Rules from "./sources/Rules.ts"
import * as ScaleCells from "./sources/ScaleCells.ts"
import * as UnderscoreFields from "./sources/UnderscoreFields.ts"
import * as Tables from "./Tables.ts"
import type { TextPiece } from "./Underscores.ts"
import * as Underscores from "./Underscores.ts"
import type { Box, PageGraphics, Rect } from "./VectorLines.ts"

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
  /** Comb boxes: one character per cell. */
  readonly maxLength?: number
  /**
   * Round buttons answering one question: the group's key (unique on the page) and this
   * option's caption as its export value. Options of one group are mutually exclusive.
   */
  readonly radio?: { readonly group: string; readonly value: string }
  /** A line or box captioned as a signature: a Signature field rather than a text field. */
  readonly signature?: boolean
}

/** Captions of signature lines, in the languages of the forms seen so far. */
const SIGNATURE = /\b(signature|signed|sign here)\b|\bunterschrift\b|\bfirma\b|署名|签名|签字|서명|подпись/i
/** Captions that ask when something was signed, not for the signature: "Date", "Signed on". */
const SIGNING_DATE = /\bdate\b|\b(?:on|le|am)\s*:?\s*$/i

/** A box taller than this many label heights holds more than the one line its label is on. */
const TALL_FOR_ONE_LINE = 2.2
/** A rule at least this share of the page wide runs across it, margin to margin. */
const ACROSS_THE_PAGE = 0.85
/** The least room (in points) over a rule for a line of writing. */
const MIN_ROOM_ON_RULE = 9
/** How far below a labelled line its unlabelled continuation lines may follow. */
const MAX_LINE_SPACING = 36
/** Shapes on a page beyond which its drawing is not read (underscore runs still are). */
const MAX_SHAPES = 20_000
/** Candidates per page beyond which the rest are dropped: no real page has that many fields. */
const MAX_CANDIDATES = 3_000

export const EMPTY_GRAPHICS: PageGraphics = { horizontals: [], verticals: [], boxes: [], marks: [] }

/** The sources, asked in this order. Adding a kind of evidence means adding a module here. */
const SOURCES: ReadonlyArray<(context: PageContext) => Array<Candidate>> = [
  UnderscoreFields.candidates,
  Rules.candidates,
  Boxes.candidates,
  Combs.candidates,
  CheckSquares.candidates,
  ScaleCells.candidates,
  BoxGlyphs.candidates
]

/** Most certain source first: it wins where candidates overlap. */
const PRIORITY: Record<FieldSource, number> = { checkbox: 0, glyph: 0, comb: 1, underscore: 1, box: 2, cell: 2, rule: 3 }

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
    marks: graphics.marks.filter(within),
    circles: (graphics.circles ?? []).filter(within),
    whites: (graphics.whites ?? []).filter(within)
  }
}

/**
 * White rectangles painted on a tinted area: the blank boxes of a form printed on a coloured
 * background, as plain to a reader as outlined ones, so kept as outlined boxes. A white
 * rectangle on white paper shows nothing and is left out.
 */
const boxesOnTint = (graphics: PageGraphics): Array<Box> => {
  const tints = graphics.boxes.filter((b) => b.filled)
  if (tints.length === 0) return []
  return (graphics.whites ?? []).flatMap((w) =>
    tints.some((t) => t.x1 <= w.x1 + 0.5 && t.x2 >= w.x2 - 0.5 && t.y1 <= w.y1 + 0.5 && t.y2 >= w.y2 - 0.5 && area(t) >= 2 * area(w))
      ? [{ ...w, stroked: true }]
      : []
  )
}

/** Double borders and fill-then-stroke draw one box twice. */
const dedupeBoxes = (boxes: ReadonlyArray<Box>): Array<Box> => {
  const kept: Array<Box> = []
  const seen = new Map<string, Array<Box>>()
  for (const b of [...boxes].sort((p, q) => Number(q.stroked) - Number(p.stroked))) {
    // Bucketed by rounded corner, so the check stays linear on pages of many boxes.
    const key = `${Math.round(b.x1 / 3)}:${Math.round(b.y1 / 3)}`
    const near: Array<Box> = []
    for (const dx of [-1, 0, 1]) for (const dy of [-1, 0, 1]) near.push(...(seen.get(`${Math.round(b.x1 / 3) + dx}:${Math.round(b.y1 / 3) + dy}`) ?? []))
    const same = near.some(
      (k) => Math.abs(k.x1 - b.x1) < 1.5 && Math.abs(k.x2 - b.x2) < 1.5 && Math.abs(k.y1 - b.y1) < 1.5 && Math.abs(k.y2 - b.y2) < 1.5
    )
    if (same) continue
    kept.push(b)
    const bucket = seen.get(key)
    if (bucket) bucket.push(b)
    else seen.set(key, [b])
  }
  return kept
}

const median = (values: ReadonlyArray<number>, fallback: number): number => {
  if (values.length === 0) return fallback
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[sorted.length >> 1]!
}

/** Reads a page once into what every source needs. */
export const context = (raw: PageInput, options: DetectOptions): PageContext => {
  const clipped = clipToPage(raw.graphics, raw.view)
  // A technical drawing or map is no form, and pairwise analysis of its shapes would take long.
  const shapes = clipped.horizontals.length + clipped.verticals.length + clipped.boxes.length + clipped.marks.length
  // Text turned up the margin labels nothing here either (`alongThePage`), as in field understanding.
  const dotted = Underscores.dottedColumns(alongThePage(raw.runs), clipped.horizontals)
  const graphics = shapes > MAX_SHAPES
    ? EMPTY_GRAPHICS
    : { ...clipped, verticals: [...clipped.verticals, ...dotted.verticals], boxes: [...clipped.boxes, ...boxesOnTint(clipped)] }
  const input = { ...raw, runs: dotted.rest, graphics }
  const { pieces, underscores, glyphs } = Underscores.split(input.runs)
  // A box's edges are lines too: a row drawn as one rectangle with dividers inside is a table.
  const edges = graphics.boxes.filter((b) => b.stroked)
  const tables = Tables.analyse(
    [...graphics.horizontals, ...edges.flatMap((b) => [b.y1, b.y2].map((y) => ({ x1: b.x1, x2: b.x2, y, thickness: 1 })))],
    [...graphics.verticals, ...edges.flatMap((b) => [b.x1, b.x2].map((x) => ({ x, y1: b.y1, y2: b.y2, thickness: 1 })))]
  )
  const cells = new Set(tables.cells)
  const boxes = dedupeBoxes([...graphics.boxes, ...tables.cells])
  return {
    input,
    options,
    pageWidth: input.view[2] - input.view[0],
    pageHeight: input.view[3] - input.view[1],
    pieces,
    underscores,
    glyphs,
    boxes,
    cells: new Set(boxes.filter((b) => cells.has(b))),
    structural: tables.structural,
    openLines: new Set(boxes.filter((b) => tables.openLines.has(b))),
    fontSize: median(pieces.map((p) => p.size), 10)
  }
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

/**
 * The lowest baseline of the text left of a tall field within its height, in the label's column
 * and size: the last line of the item the label starts.
 */
const lastLineOf = (rect: Rect, label: Labels.Label, pieces: ReadonlyArray<TextPiece>): number => {
  let lowest = label.baseline
  for (const p of pieces) {
    if (p.y >= lowest || p.y - 0.25 * p.size < rect.y1 - 1 || p.x2 > rect.x1 + 1 || rect.x1 - p.x2 > Labels.MAX_LEFT) continue
    if (Math.abs(p.size - label.size) > 0.25 * label.size) continue
    lowest = p.y
  }
  return lowest
}

/** The line of a tall row cell its value goes on, when the row's text left of it has several lines. */
const onRowsLastLine = (rect: Rect, pieces: ReadonlyArray<TextPiece>): Rect | undefined => {
  const left = pieces.filter((p) => p.x2 <= rect.x1 + 1 && p.y > rect.y1 && p.y + 0.5 * p.size < rect.y2)
  if (left.length === 0) return undefined
  const lowest = left.reduce((a, b) => (b.y < a.y ? b : a))
  const lines = new Set(left.map((p) => Math.round(p.y / (0.5 * lowest.size))))
  if (lines.size < 2 || lowest.y > (rect.y1 + rect.y2) / 2) return undefined
  const y1 = Math.max(rect.y1, lowest.y - 0.35 * lowest.size)
  return { ...rect, y1, y2: Math.min(rect.y2, y1 + Math.max(12, 1.35 * lowest.size)) }
}

interface Named {
  readonly label: Labels.Label | undefined
  /** The label text, or the continued line's label with its line number. */
  readonly text: string | undefined
  readonly confidence: number
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

/** Labels and scores every candidate of a page (in the order given), each blocking the others. */
const labelAll = (candidates: ReadonlyArray<Candidate>, context: PageContext): Array<Named> => {
  const { input, pieces, pageWidth } = context
  const result: Array<Named> = new Array(candidates.length)
  // Lines already named, for naming the unlabelled lines that continue them ("Address: ____"
  // followed by a second and third line with nothing beside them): so, top to bottom.
  const lines: Array<{ readonly rect: Rect; readonly base: string; readonly index: number }> = []
  const order = candidates.map((d, i) => [d, i] as const).sort(([a], [b]) => b.rect.y1 - a.rect.y1 || a.rect.x1 - b.rect.x1)
  const rects = candidates.map((c) => c.rect)
  for (const [d, i] of order) {
    const others = rects.filter((r) => r !== d.rect)
    const label = Labels.find(
      { rect: d.rect, band: d.band, kind: d.kind, below: d.kind === "Text", line: d.line, obstacles: [...others, ...input.widgets] },
      pieces
    )
    let text = label?.text
    let confidence = Scorer.score(d, label, pageWidth)
    if (d.line !== undefined) {
      const previous = label ? undefined : continued(d.rect, lines)
      if (previous) {
        text = `${previous.base} (line ${previous.index + 1})`
        confidence = Scorer.continuationScore(d)
        lines.push({ rect: d.rect, base: previous.base, index: previous.index + 1 })
      } else if (label) lines.push({ rect: d.rect, base: label.text, index: 1 })
    }
    result[i] = { label, text, confidence }
  }
  return result
}

/**
 * The cells of one table row, two or more lines tall, take the line one of them was given from
 * its label (the row's amount columns beside "88 Multiply line 87 by ..."): a row's values are
 * written on one line, and the cells without a label of their own would keep their whole height.
 */
const alignRows = (out: Array<PageDetection>, kept: ReadonlyArray<Candidate>) => {
  const moved = (i: number) => out[i]!.rect.y1 !== kept[i]!.rect.y1 || out[i]!.rect.y2 !== kept[i]!.rect.y2
  const cells = out.flatMap((d, i) => (d.source === "cell" && d.kind === "Text" && !d.multiline ? [i] : []))
  // Each placed cell as its row was (the cell's own top and bottom) and the line it was given.
  const placed = cells.filter(moved).map((i) => ({ row: kept[i]!.rect, line: out[i]!.rect }))
  if (placed.length === 0) return
  for (const i of cells) {
    if (moved(i)) continue
    const cell = kept[i]!.rect
    const row = placed.find((p) => Math.abs(p.row.y1 - cell.y1) <= 1 && Math.abs(p.row.y2 - cell.y2) <= 1)
    if (row) out[i] = { ...out[i]!, rect: { ...out[i]!.rect, y1: row.line.y1, y2: row.line.y2 } }
  }
}

/**
 * Detects the fields of one page. Detections below `options.confidence` are dropped; so are
 * those over existing widgets.
 */
export const detectPage = (raw: PageInput, options: DetectOptions): Array<PageDetection> => {
  const page = context(raw, options)
  const { input, pieces } = page
  const accepted: Array<Candidate> = []
  const office = OfficialUse.panels(page)
  const candidates = MultiLines.answerAreas(MultiLines.merge(SOURCES.flatMap((source) => source(page)).slice(0, MAX_CANDIDATES), page), page)
    .filter((c) => !OfficialUse.inPanel(c.rect, office))
    .sort((a, b) => PRIORITY[a.source] - PRIORITY[b.source] || area(b.rect) - area(a.rect))
  for (const d of candidates) {
    if (accepted.some((a) => overlapRatio(a.rect, d.rect) > 0.4)) continue
    if (input.widgets.some((w) => overlapRatio(w, d.rect) > 0.1)) continue
    accepted.push(d)
  }
  // Twice: candidates that turn out to be nothing (a separator, an unlabelled shaded area) must
  // not stand between a real field and its label.
  const firstPass = labelAll(accepted, page)
  const survivors = accepted.filter((_, i) => firstPass[i]!.confidence > 0)
  const out: Array<PageDetection> = []
  const kept: Array<Candidate> = []
  for (const [i, named] of labelAll(survivors, page).entries()) {
    const d = survivors[i]!
    if (named.confidence <= 0 || named.confidence < options.confidence) continue
    let rect = d.rect
    const label = named.label
    if (!d.sized && d.kind === "Text" && !d.multiline && label?.position === "left" && height(rect) > TALL_FOR_ONE_LINE * label.size) {
      // A cell two or more lines tall beside an item of several lines (a tax form's amount
      // column next to "Total ... Add lines 1 through 5 / ... Enter here ▶"): the amount goes on
      // the item's last line, where its leader dots end.
      const baseline = lastLineOf(rect, label, pieces)
      const y1 = Math.max(rect.y1, baseline - 0.35 * label.size)
      rect = { ...rect, y1, y2: Math.min(rect.y2, y1 + Math.max(12, 1.35 * label.size)) }
    } else if (!d.sized && d.kind === "Text" && !d.multiline && (d.source === "cell" || d.source === "box") && label?.position !== "left" &&
      height(rect) > TALL_FOR_ONE_LINE * page.fontSize) {
      // A cell of a table row two or more lines tall, its row's item printed on several lines
      // to the left ("76 Dividends paid by:" over "a U.S. corporations"): the amount goes on
      // the row's last line.
      rect = onRowsLastLine(rect, pieces) ?? rect
    }
    if (d.sized) {
      const size = named.label?.position === "left" ? named.label.size : undefined
      const wanted = d.source === "rule" && size !== undefined ? Math.min(20, Math.max(12, 1.3 * size)) : height(rect)
      const others = survivors.filter((o) => o !== d).map((o) => o.rect)
      rect = capTop({ ...rect, y2: rect.y1 + wanted }, pieces, input.graphics, others)
      // A rule across the page with a heading standing just over it divides sections; an answer
      // line across the page has a line's room above it.
      if (d.source === "rule" && width(rect) >= ACROSS_THE_PAGE * page.pageWidth && height(rect) < MIN_ROOM_ON_RULE) continue
    }
    kept.push(d)
    out.push({
      page: input.page,
      kind: d.kind,
      rect,
      source: d.source,
      confidence: named.confidence,
      label: named.text,
      multiline: d.multiline ?? false,
      ...(d.features.combCells !== undefined ? { maxLength: d.features.combCells } : {}),
      ...(d.kind === "Text" && !d.multiline && named.label && SIGNATURE.test(named.label.text) && !SIGNING_DATE.test(named.label.text) ? { signature: true } : {})
    })
  }
  alignRows(out, kept)
  const round = out.flatMap((d, i) => (kept[i]!.features.round ? [i] : []))
  RadioGroups.group(round.map((i) => out[i]!)).forEach((members, g) => {
    for (const [k, m] of members.entries()) {
      const d = out[round[m]!]!
      out[round[m]!] = { ...d, radio: { group: `page${input.page}_group${g + 1}`, value: d.label ?? `Option ${k + 1}` } }
    }
  })
  // Reading order: top to bottom, then left to right.
  return out.sort((a, b) => b.rect.y2 - a.rect.y2 || a.rect.x1 - b.rect.x1)
}
