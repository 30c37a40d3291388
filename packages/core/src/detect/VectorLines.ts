/**
 * Lines and boxes drawn on a page, read from pdf.js operator lists: the vector raw material of
 * field detection (rules people write on, boxes they write in, squares they tick).
 *
 * The operator-list format is internal to pdf.js and pinned with it (6.x): paths arrive as
 * `constructPath` ops whose arguments are `[paintOp, [Float32Array of DrawOPS codes and
 * coordinates], minMax]`, in the coordinates current at that point, so the transformation
 * matrix is tracked through save/restore/transform and form XObjects here.
 */
import { Effect } from "effect"
import { AnnotationMode, OPS } from "pdfjs-dist/legacy/build/pdf.mjs"
import type { PDFPageProxy } from "pdfjs-dist"
import { apply, asMatrix, compose, IDENTITY, type Matrix } from "./Matrix.ts"

/** An axis-aligned rectangle in PDF user space (origin bottom-left), `x1 <= x2`, `y1 <= y2`. */
export interface Rect {
  readonly x1: number
  readonly y1: number
  readonly x2: number
  readonly y2: number
}

/** A horizontal stroke or thin filled bar; `y` is its centre line. */
export interface HorizontalSegment {
  readonly x1: number
  readonly x2: number
  readonly y: number
  readonly thickness: number
  /** Stroked with a dash pattern: often a leader (". . . .") pointing at a field elsewhere. */
  readonly dashed?: boolean
}

/** A vertical stroke or thin filled bar; `x` is its centre line. */
export interface VerticalSegment {
  readonly x: number
  readonly y1: number
  readonly y2: number
  readonly thickness: number
  /** Stroked with a dash pattern: a soft divider (the groups of an id number), not a wall. */
  readonly dashed?: boolean
}

/** A closed rectangle: stroked (an outlined box) or only filled (a shaded area). */
export interface Box extends Rect {
  readonly stroked: boolean
  /** Painted with a visible (non-white) fill: a tinted area. */
  readonly filled?: boolean
  /**
   * Filled in a mid or dark tone: a blocked-out cell (the grey of a tax form's "do not enter"
   * squares) or a heading bar. Forms tint the places to write in pale colours.
   */
  readonly dark?: boolean
}

/** Everything of interest the page draws, in user space. */
export interface PageGraphics {
  readonly horizontals: ReadonlyArray<HorizontalSegment>
  readonly verticals: ReadonlyArray<VerticalSegment>
  readonly boxes: ReadonlyArray<Box>
  /**
   * Ink that is neither a rule nor a box: small filled shapes (mostly text drawn as outlines,
   * which pdf.js cannot read as text), slanted strokes (hatching that marks a cell "not
   * applicable") and small curves. No field should cover it.
   */
  readonly marks: ReadonlyArray<Rect>
  /** Small closed curves about as wide as tall (radio buttons, round check boxes); also in `marks`. */
  readonly circles?: ReadonlyArray<Rect>
  /**
   * Rectangles filled white (and not stroked): invisible on paper, but on a tinted area they are
   * the blank boxes a person writes in (see `Pipeline`, which keeps those over a shaded area).
   */
  readonly whites?: ReadonlyArray<Rect>
}

/** The subset of pdf.js's `PDFOperatorList` read here (kept structural so tests can build one). */
export interface OperatorList {
  readonly fnArray: ArrayLike<number>
  readonly argsArray: ArrayLike<unknown>
}

/** pdf.js `DrawOPS` (not exported by its public API): codes inside a `constructPath` buffer. */
const Draw = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const

/** The red, green and blue of a colour pdf.js gives as "#rrggbb" (0-255); none for a pattern or an unknown colour. */
const channels = (hex: unknown): readonly [number, number, number] | undefined =>
  typeof hex === "string" && /^#[0-9a-f]{6}$/i.test(hex)
    ? [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)]
    : undefined

const nearWhite = ([r, g, b]: readonly [number, number, number]) => r >= 0xf0 && g >= 0xf0 && b >= 0xf0

/** Near-white paint is invisible on paper: such lines are knock-outs or spacing, not rules. */
const isVisibleColor = (hex: unknown): boolean => {
  const rgb = channels(hex)
  return rgb === undefined || !nearWhite(rgb)
}

/** Below this relative luminance a fill reads as grey or dark on paper, not as a pale tint. */
const PALE = 0.8

/** A colour given as a mid or dark tone (a pattern or an unknown colour is not). */
const isDark = (hex: unknown): boolean => {
  const rgb = channels(hex)
  return rgb !== undefined && (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255 < PALE
}

/** Only a colour given as near-white counts as white (a pattern or an unknown colour does not). */
const isWhite = (hex: unknown): boolean => {
  const rgb = channels(hex)
  return rgb !== undefined && nearWhite(rgb)
}

interface GraphicsState {
  ctm: Matrix
  lineWidth: number
  dashed: boolean
  strokeVisible: boolean
  fillVisible: boolean
  /** Filling in (near) white: invisible on paper, a blank box on a tinted area. */
  fillWhite: boolean
  /** Filling with a tiling pattern: hatching that marks an area "not applicable". */
  fillHatched: boolean
  /** Filling in a mid or dark tone (see `Box.dark`). */
  fillDark: boolean
}

const STROKES: ReadonlySet<number> = new Set([OPS.stroke, OPS.closeStroke])
const FILLS: ReadonlySet<number> = new Set([OPS.fill, OPS.eoFill])
const FILL_STROKES: ReadonlySet<number> = new Set([OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke])

/** Straightness tolerance, in points, for a segment to count as horizontal or vertical. */
const AXIS_TOLERANCE = 0.5
/** A filled rectangle this thin or thinner is a line, not an area. */
const THIN = 2.5
/** Glyph-sized: larger filled shapes are drawings (logos, arrows), not letters. */
const MAX_MARK = 24
/** Radio buttons and round check boxes are drawn at 5-20 pt across. */
const MIN_CIRCLE = 5
const MAX_CIRCLE = 20
/** More buttons than any form has: the rest of a drawing's dots are not read as buttons. */
const MAX_CIRCLES = 2_000
/** White rectangles kept per page: more are a drawing's knock-outs, not a form's boxes. */
const MAX_WHITES = 5_000

interface SubPath {
  readonly points: Array<[number, number]>
  /** Straight segments drawn with lineTo, as point index pairs (from, to). */
  readonly lines: Array<number>
  closed: boolean
  curved: boolean
}

const splitPath = (data: ArrayLike<number>, ctm: Matrix): Array<SubPath> => {
  const paths: Array<SubPath> = []
  let current: SubPath | undefined
  for (let i = 0; i < data.length; ) {
    const op = data[i++]
    if (op === Draw.moveTo) {
      current = { points: [apply(ctm, data[i]!, data[i + 1]!)], lines: [], closed: false, curved: false }
      paths.push(current)
      i += 2
    } else if (op === Draw.lineTo) {
      const point = apply(ctm, data[i]!, data[i + 1]!)
      if (current === undefined) {
        current = { points: [], lines: [], closed: false, curved: false }
        paths.push(current)
      }
      if (current.points.length > 0) current.lines.push(current.points.length)
      current.points.push(point)
      i += 2
    } else if (op === Draw.curveTo || op === Draw.quadraticCurveTo) {
      const n = op === Draw.curveTo ? 6 : 4
      if (current !== undefined) {
        current.curved = true
        current.points.push(apply(ctm, data[i + n - 2]!, data[i + n - 1]!))
      }
      i += n
    } else if (op === Draw.closePath) {
      if (current !== undefined) current.closed = true
    } else {
      // An unknown code means the format moved under us: stop rather than misread coordinates.
      break
    }
  }
  return paths
}

const bounds = (points: ReadonlyArray<readonly [number, number]>): Rect | undefined => {
  if (points.length === 0) return undefined
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const [x, y] of points) {
    x1 = Math.min(x1, x)
    y1 = Math.min(y1, y)
    x2 = Math.max(x2, x)
    y2 = Math.max(y2, y)
  }
  return { x1, y1, x2, y2 }
}

/** The rectangle a closed four-corner axis-aligned sub-path outlines, if it is one. */
const asRectangle = (path: SubPath): Rect | undefined => {
  if (path.curved) return undefined
  let points = path.points
  const first = points[0]
  const last = points[points.length - 1]
  if (points.length === 5 && first && last && Math.hypot(first[0] - last[0], first[1] - last[1]) < AXIS_TOLERANCE) {
    points = points.slice(0, 4)
  } else if (!path.closed) {
    return undefined
  }
  if (points.length !== 4) return undefined
  for (let k = 0; k < 4; k++) {
    const [ax, ay] = points[k]!
    const [bx, by] = points[(k + 1) % 4]!
    if (Math.abs(ax - bx) > AXIS_TOLERANCE && Math.abs(ay - by) > AXIS_TOLERANCE) return undefined
  }
  return bounds(points)
}

/**
 * The rectangle a rounded box outlines: a closed curved path whose straight top and bottom edges
 * run along most of its width (a logo or seal has no such edges).
 */
const asRoundedRectangle = (path: SubPath): Rect | undefined => {
  if (!path.curved || path.lines.length < 2) return undefined
  const r = bounds(path.points)
  if (!r) return undefined
  const [w, h] = [r.x2 - r.x1, r.y2 - r.y1]
  if (w < 4 || h < 4) return undefined
  let top = false
  let bottom = false
  for (const to of path.lines) {
    const [a, b] = [path.points[to - 1]!, path.points[to]!]
    if (Math.abs(a[1] - b[1]) > AXIS_TOLERANCE || Math.abs(a[0] - b[0]) < 0.5 * w) continue
    if (Math.abs(a[1] - r.y2) <= 1.5) top = true
    if (Math.abs(a[1] - r.y1) <= 1.5) bottom = true
  }
  return top && bottom ? r : undefined
}

/**
 * A box outline drawn as one filled shape: the outer rectangle and, inside it, the inner one
 * (a ring), so every corner lies on the border. Seen in CAD-exported forms.
 */
const asFrame = (path: SubPath): Rect | undefined => {
  if (path.curved || path.points.length < 8) return undefined
  const r = bounds(path.points)
  if (!r || r.x2 - r.x1 < 4 || r.y2 - r.y1 < 4) return undefined
  const onBorder = path.points.every(
    ([x, y]) => Math.min(x - r.x1, r.x2 - x) <= THIN || Math.min(y - r.y1, r.y2 - y) <= THIN
  )
  // Corners on the border but not one of them inside: a ring, not an "L" or a "U".
  const inner = path.points.some(([x, y]) => x - r.x1 > 0.01 && r.x2 - x > 0.01 && y - r.y1 > 0.01 && r.y2 - y > 0.01)
  // Two nested rectangles have four distinct x and four distinct y (six with a joining step); an outlined letter
  // ("P", "O" drawn with straight segments) has more.
  const distinct = (values: ReadonlyArray<number>) => new Set(values.map((v) => Math.round(v * 20))).size
  const nested = distinct(path.points.map((p) => p[0])) <= 6 && distinct(path.points.map((p) => p[1])) <= 6
  return onBorder && inner && nested ? r : undefined
}

/**
 * Reads horizontal and vertical segments and closed boxes from an operator list. Text, images
 * and curves are ignored; clipping paths (`endPath`) and invisible paint are not drawings.
 */
export const fromOperatorList = (list: OperatorList): PageGraphics => {
  const horizontals: Array<HorizontalSegment> = []
  const verticals: Array<VerticalSegment> = []
  const boxes: Array<Box> = []
  const marks: Array<Rect> = []
  const circles: Array<Rect> = []
  const whites: Array<Rect> = []
  let state: GraphicsState = { ctm: IDENTITY, lineWidth: 1, dashed: false, strokeVisible: true, fillVisible: true, fillWhite: false, fillHatched: false, fillDark: false }
  const stack: Array<GraphicsState> = []

  /** Records an axis-aligned segment; false for a slanted one (or a point). */
  const addSegment = (ax: number, ay: number, bx: number, by: number, thickness: number): boolean => {
    const [dx, dy] = [Math.abs(ax - bx), Math.abs(ay - by)]
    if (dx <= AXIS_TOLERANCE && dy <= AXIS_TOLERANCE) return true
    if (dy <= AXIS_TOLERANCE) {
      horizontals.push({ x1: Math.min(ax, bx), x2: Math.max(ax, bx), y: (ay + by) / 2, thickness, dashed: state.dashed })
    } else if (dx <= AXIS_TOLERANCE) verticals.push({ x: (ax + bx) / 2, y1: Math.min(ay, by), y2: Math.max(ay, by), thickness, dashed: state.dashed })
    else return false
    return true
  }
  const addThinOrBox = (r: Rect, stroked: boolean, filled: boolean, extra: number) => {
    const w = r.x2 - r.x1
    const h = r.y2 - r.y1
    if (h <= THIN && w > h) horizontals.push({ x1: r.x1, x2: r.x2, y: (r.y1 + r.y2) / 2, thickness: h + extra })
    else if (w <= THIN && h > w) verticals.push({ x: (r.x1 + r.x2) / 2, y1: r.y1, y2: r.y2, thickness: w + extra })
    else if (!filled) boxes.push({ ...r, stroked })
    else boxes.push(state.fillDark ? { ...r, stroked, filled, dark: true } : { ...r, stroked, filled })
  }

  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i]
    const args = list.argsArray[i] as Array<unknown> | null
    switch (fn) {
      case OPS.save:
        stack.push(state)
        state = { ...state }
        break
      case OPS.restore:
        state = stack.pop() ?? state
        break
      case OPS.transform: {
        const m = asMatrix(args)
        if (m) state.ctm = compose(state.ctm, m)
        break
      }
      case OPS.paintFormXObjectBegin: {
        stack.push(state)
        state = { ...state }
        const m = asMatrix(args?.[0])
        if (m) state.ctm = compose(state.ctm, m)
        break
      }
      case OPS.paintFormXObjectEnd:
        state = stack.pop() ?? state
        break
      case OPS.setDash: {
        const pattern = args?.[0]
        state.dashed = Array.isArray(pattern) && pattern.some((v) => typeof v === "number" && v > 0)
        break
      }
      case OPS.setLineWidth:
        if (typeof args?.[0] === "number") state.lineWidth = Math.abs(args[0])
        break
      case OPS.setStrokeRGBColor:
        state.strokeVisible = isVisibleColor(args?.[0])
        break
      case OPS.setFillRGBColor:
        state.fillVisible = isVisibleColor(args?.[0])
        state.fillWhite = isWhite(args?.[0])
        state.fillHatched = false
        state.fillDark = isDark(args?.[0])
        break
      case OPS.setFillColorN:
        state.fillVisible = true
        state.fillWhite = false
        state.fillHatched = Array.isArray(args) && args[0] === "TilingPattern"
        state.fillDark = false
        break
      case OPS.setStrokeTransparent:
        state.strokeVisible = false
        break
      case OPS.setFillTransparent:
        state.fillVisible = false
        state.fillWhite = false
        break
      case OPS.setGState: {
        for (const entry of (args?.[0] as Array<[string, unknown]> | undefined) ?? []) {
          if (!Array.isArray(entry)) continue
          const [key, value] = entry
          if (key === "LW" && typeof value === "number") state.lineWidth = Math.abs(value)
          if (key === "CA" && value === 0) state.strokeVisible = false
          if (key === "ca" && value === 0) {
            state.fillVisible = false
            state.fillWhite = false
          }
        }
        break
      }
      case OPS.constructPath: {
        const paint = args?.[0] as number
        const data = (args?.[1] as Array<ArrayLike<number> | null> | undefined)?.[0]
        if (!data) break
        const stroke = (STROKES.has(paint) || FILL_STROKES.has(paint)) && state.strokeVisible
        const fill = (FILLS.has(paint) || FILL_STROKES.has(paint)) && state.fillVisible
        if (!stroke && !fill) {
          if (FILLS.has(paint) && state.fillWhite) {
            for (const path of splitPath(data, state.ctm)) {
              const rect = asRectangle(path)
              if (rect && rect.x2 - rect.x1 > THIN && rect.y2 - rect.y1 > THIN && whites.length < MAX_WHITES) whites.push(rect)
            }
          }
          break
        }
        const scale = Math.sqrt(Math.abs(state.ctm[0] * state.ctm[3] - state.ctm[1] * state.ctm[2])) || 1
        const lineWidth = stroke ? Math.max(state.lineWidth * scale, 0.1) : 0
        for (const path of splitPath(data, state.ctm)) {
          // A filled glyph-sized shape with straight top and bottom is a letter ("P", "D") of
          // outlined text, not a rounded box.
          const rounded = asRoundedRectangle(path)
          const rect = asRectangle(path) ?? (rounded && (stroke || rounded.x2 - rounded.x1 > MAX_MARK) ? rounded : undefined)
          const frame = rect || !fill ? undefined : asFrame(path)
          if (frame) {
            boxes.push({ ...frame, stroked: true })
          } else if (rect && fill && !stroke && state.fillHatched) {
            marks.push(rect)
          } else if (rect) {
            addThinOrBox(rect, stroke, fill, lineWidth)
          } else if ((fill && !stroke) || path.curved) {
            const mark = bounds(path.points)
            if (mark && mark.x2 - mark.x1 <= MAX_MARK && mark.y2 - mark.y1 <= MAX_MARK) marks.push(mark)
            // Outlined letters (an "o") are filled; a button is a stroked ring.
            if (mark && stroke && path.curved && isCircleLike(path, mark)) circles.push(mark)
          } else if (stroke) {
            const points = path.closed && path.points.length > 2 ? [...path.points, path.points[0]!] : path.points
            for (let k = 1; k < points.length; k++) {
              const [a, b] = [points[k - 1]!, points[k]!]
              if (!addSegment(a[0], a[1], b[0], b[1], lineWidth)) {
                const mark = bounds([a, b])
                if (mark) marks.push(mark)
              }
            }
          }
        }
        break
      }
    }
  }
  return { horizontals: mergeHorizontals(horizontals), verticals: mergeVerticals(verticals), boxes, marks, circles: dedupeCircles(circles.slice(0, MAX_CIRCLES)), whites }
}

/** A closed curve as wide as tall, of button size: its points lie on all four sides. */
const isCircleLike = (path: SubPath, r: Rect): boolean => {
  const [w, h] = [r.x2 - r.x1, r.y2 - r.y1]
  if (w < MIN_CIRCLE || w > MAX_CIRCLE || Math.abs(w - h) > 0.15 * Math.max(w, h)) return false
  const first = path.points[0]
  const last = path.points[path.points.length - 1]
  return path.closed || (first !== undefined && last !== undefined && Math.hypot(first[0] - last[0], first[1] - last[1]) < 0.1 * w)
}

/** A ring is often drawn as two circles (outline and inner fill): one button. */
const dedupeCircles = (circles: ReadonlyArray<Rect>): Array<Rect> => {
  const kept: Array<Rect> = []
  for (const c of [...circles].sort((a, b) => b.x2 - b.x1 - (a.x2 - a.x1))) {
    const cx = (c.x1 + c.x2) / 2
    const cy = (c.y1 + c.y2) / 2
    if (!kept.some((k) => cx > k.x1 && cx < k.x2 && cy > k.y1 && cy < k.y2)) kept.push(c)
  }
  return kept
}

/** Joins collinear pieces (dashes, lines drawn in parts) into whole rules. */
export const mergeHorizontals = (segments: ReadonlyArray<HorizontalSegment>): Array<HorizontalSegment> => {
  const byY = [...segments].sort((a, b) => a.y - b.y)
  const merged: Array<HorizontalSegment> = []
  // Lines within 0.75pt of the first line of a cluster are on the same y.
  for (let start = 0; start < byY.length; ) {
    let end = start
    while (end < byY.length && byY[end]!.y - byY[start]!.y <= 0.75) end++
    const cluster = byY.slice(start, end).sort((a, b) => a.x1 - b.x1)
    let current = cluster[0]!
    for (const s of cluster.slice(1)) {
      if (s.x1 <= current.x2 + 1.5) {
        current = {
          x1: current.x1,
          x2: Math.max(current.x2, s.x2),
          y: current.y,
          thickness: Math.max(current.thickness, s.thickness),
          dashed: (current.dashed ?? false) || (s.dashed ?? false)
        }
      } else {
        merged.push(current)
        current = s
      }
    }
    merged.push(current)
    start = end
  }
  return merged
}

const mergeVerticals = (segments: ReadonlyArray<VerticalSegment>): Array<VerticalSegment> =>
  mergeHorizontals(segments.map((v) => ({ x1: v.y1, x2: v.y2, y: v.x, thickness: v.thickness, ...(v.dashed ? { dashed: true } : {}) }))).map((h) => ({
    x: h.y,
    y1: h.x1,
    y2: h.x2,
    thickness: h.thickness,
    ...(h.dashed ? { dashed: true } : {})
  }))

const EMPTY: PageGraphics = { horizontals: [], verticals: [], boxes: [], marks: [] }

/**
 * The graphics of one page, without annotation appearances (existing widgets are not the
 * page's drawing). A page pdf.js cannot interpret yields nothing rather than failing.
 */
export const ofPage = (page: PDFPageProxy): Effect.Effect<PageGraphics> =>
  Effect.tryPromise(() => page.getOperatorList({ annotationMode: AnnotationMode.DISABLE })).pipe(
    Effect.map(fromOperatorList),
    Effect.catchCause(() => Effect.succeed(EMPTY))
  )
