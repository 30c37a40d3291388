/**
 * Flattening: every form widget's current appearance is drawn into its page's content, then the
 * widgets and the AcroForm are removed, so the page looks as it did in a viewer and nothing is
 * left to edit.
 *
 * Written here on pdf-lib's objects rather than with pdf-lib's `form.flatten()`, which (2.11)
 * redraws appearances unless told not to, places each appearance at the /Rect origin without
 * its /BBox and /Matrix (a rotated or offset appearance lands in the wrong place, at the wrong
 * size), chooses a button's appearance by the field's /V instead of the widget's /AS, draws
 * hidden and no-view widgets, and appends to a page content that may leave its graphics state
 * changed. The placement below is the one PDF 32000-1 12.5.5 gives viewers (algorithm 8.1).
 */
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFStream,
  type PDFDocument,
  type PDFPage
} from "@cantoo/pdf-lib"
import * as PdfLib from "./PdfLib.ts"

/** Annotation flags (PDF 32000-1, table 165) under which a viewer draws nothing. */
const annotationFlags = { hidden: 1 << 1, noView: 1 << 5 } as const

type Matrix = readonly [number, number, number, number, number, number]

const numbers = (value: unknown, count: number): ReadonlyArray<number> | undefined => {
  if (!(value instanceof PDFArray) || value.size() < count) return undefined
  const out: Array<number> = []
  for (let i = 0; i < count; i++) {
    const n = value.lookup(i)
    if (!(n instanceof PDFNumber) || !Number.isFinite(n.asNumber())) return undefined
    out.push(n.asNumber())
  }
  return out
}

const apply = (m: Matrix, x: number, y: number): readonly [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]

/** The appearance stream a viewer shows for `widget`: /N itself, or the state /AS names; none for a state it lacks. */
const currentAppearance = (widget: PDFDict): { readonly stream: PDFStream; readonly ref: PDFRef | undefined } | undefined => {
  const ap = widget.lookup(PDFName.of("AP"))
  if (!(ap instanceof PDFDict)) return undefined
  let raw = ap.get(PDFName.of("N"))
  let normal = ap.lookup(PDFName.of("N"))
  if (normal instanceof PDFDict && !(normal instanceof PDFStream)) {
    const state = widget.lookup(PDFName.of("AS"))
    if (!(state instanceof PDFName)) return undefined
    raw = normal.get(state)
    normal = normal.lookup(state)
  }
  if (!(normal instanceof PDFStream)) return undefined
  return { stream: normal, ref: raw instanceof PDFRef ? raw : undefined }
}

/**
 * The matrix that draws an appearance with bounding box `bbox` and matrix `matrix` into `rect`:
 * the box, transformed by the appearance's own matrix, is stretched onto the rectangle.
 */
const placement = (bbox: ReadonlyArray<number>, matrix: Matrix, rect: ReadonlyArray<number>): Matrix | undefined => {
  const corners = [
    apply(matrix, bbox[0]!, bbox[1]!),
    apply(matrix, bbox[2]!, bbox[1]!),
    apply(matrix, bbox[0]!, bbox[3]!),
    apply(matrix, bbox[2]!, bbox[3]!)
  ]
  const xs = corners.map((c) => c[0])
  const ys = corners.map((c) => c[1])
  const [bx, by] = [Math.min(...xs), Math.min(...ys)]
  const [bw, bh] = [Math.max(...xs) - bx, Math.max(...ys) - by]
  const [rx, ry] = [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!)]
  const [rw, rh] = [Math.abs(rect[2]! - rect[0]!), Math.abs(rect[3]! - rect[1]!)]
  if (bw <= 0 || bh <= 0 || rw <= 0 || rh <= 0) return undefined
  const [sx, sy] = [rw / bw, rh / bh]
  return [sx, 0, 0, sy, rx - bx * sx, ry - by * sy]
}

const fmt = (n: number): string => {
  const rounded = Math.round(n * 1e5) / 1e5
  return Object.is(rounded, -0) ? "0" : String(rounded)
}

/** The operators that draw `widget`'s appearance on `page`, or nothing when a viewer would show nothing. */
const drawWidget = (doc: PDFDocument, page: PDFPage, widget: PDFDict): string => {
  const f = widget.lookup(PDFName.of("F"))
  const annotFlags = f instanceof PDFNumber ? f.asNumber() : 0
  if ((annotFlags & (annotationFlags.hidden | annotationFlags.noView)) !== 0) return ""
  const appearance = currentAppearance(widget)
  const rect = numbers(widget.lookup(PDFName.of("Rect")), 4)
  if (!appearance || !rect) return ""
  const dict = appearance.stream.dict
  const bbox = numbers(dict.lookup(PDFName.of("BBox")), 4)
  if (!bbox) return ""
  const matrix = (numbers(dict.lookup(PDFName.of("Matrix")), 6) ?? [1, 0, 0, 1, 0, 0]) as unknown as Matrix
  const at = placement(bbox, matrix, rect)
  if (!at) return ""
  // An appearance drawn with Do must be a form XObject; some producers leave the type out.
  dict.set(PDFName.of("Type"), PDFName.of("XObject"))
  dict.set(PDFName.of("Subtype"), PDFName.of("Form"))
  const ref = appearance.ref ?? doc.context.register(appearance.stream)
  const name = page.node.newXObject("FlatWidget", ref)
  return `q ${at.map(fmt).join(" ")} cm ${name.toString()} Do Q\n`
}

/**
 * Draws every widget of `doc` into its page as a viewer shows it now (its current appearance
 * stream, the /AS state of a button, nothing for a hidden one), then removes the widgets from
 * the pages and the AcroForm from the document. Other annotations stay. Page rotation needs
 * nothing of its own: the appearance becomes page content, which the page's /Rotate turns as
 * it turned the widget.
 */
export const flatten = (doc: PDFDocument): void => {
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(PDFName.of("Annots"))
    if (!(annots instanceof PDFArray)) continue
    const kept: Array<ReturnType<PDFArray["get"]>> = []
    let drawing = ""
    for (let i = 0; i < annots.size(); i++) {
      const entry = annots.get(i)
      const annot = annots.lookup(i)
      if (!(annot instanceof PDFDict) || annot.lookup(PDFName.of("Subtype")) !== PDFName.of("Widget")) {
        kept.push(entry)
        continue
      }
      drawing += drawWidget(doc, page, annot)
    }
    page.node.set(PDFName.of("Annots"), doc.context.obj(kept))
    if (drawing === "") continue
    // The page's own content is closed in q ... Q, so a graphics state it leaves changed
    // (a stray cm) does not move what is drawn after it.
    const contents = page.node.get(PDFName.of("Contents"))
    const before = doc.context.register(doc.context.stream("q\n"))
    const after = doc.context.register(doc.context.flateStream(`Q\n${drawing}`))
    const list = contents === undefined ? [] : page.node.lookup(PDFName.of("Contents")) instanceof PDFArray
      ? (page.node.lookup(PDFName.of("Contents")) as PDFArray).asArray()
      : [contents]
    page.node.set(PDFName.of("Contents"), doc.context.obj([before, ...list, after]))
  }
  if (PdfLib.acroForm(doc)) doc.catalog.delete(PDFName.of("AcroForm"))
}
