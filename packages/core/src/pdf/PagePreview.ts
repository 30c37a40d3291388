/**
 * The review picture of a form page: the page as pdf.js draws it (with `@napi-rs/canvas`), every
 * field's widgets outlined in the colour of its type, each field tagged with its name and, for
 * fields a converter placed, its confidence; a legend above the page. Runs where PDF work runs
 * (a PDF worker), since drawing a hostile page can take any time and memory.
 */
import { createRequire } from "node:module"
import { createCanvas, GlobalFonts, type SKRSContext2D } from "@napi-rs/canvas"
import { Effect } from "effect"
import { AnnotationMode } from "pdfjs-dist/legacy/build/pdf.mjs"
import type { FormType } from "../FormField.ts"
import { type PdfRejected, unusable, type PdfUnusable } from "./PdfError.ts"
import * as Fonts from "./Fonts.ts"
import * as PdfJs from "./PdfJs.ts"
import * as PdfLimits from "./PdfLimits.ts"
import * as Scripts from "./Scripts.ts"

/** What the picture shows of a field: the form's record of it (its name may be the one a person gave). */
export interface Mark {
  readonly name: string
  readonly form_name: string
  readonly form_type: FormType
  /** 1-based page and `[x1, y1, x2, y2]` in that page's user space, of the field's first widget. */
  readonly page: number
  readonly rect: ReadonlyArray<number>
  readonly confidence?: number | undefined
}

export interface Input {
  readonly pdf: Uint8Array
  /** 1-based. */
  readonly page: number
  readonly fields: ReadonlyArray<Mark>
}

/** A PNG of the page, or the page count when the page is past the end. */
export type Preview =
  | { readonly _tag: "Rendered"; readonly png: Uint8Array; readonly width: number; readonly height: number; readonly pages: number }
  | { readonly _tag: "PastEnd"; readonly pages: number }

/** One colour per field type: Okabe-Ito where it has enough hues (told apart with most kinds of colour blindness), and none a grey that anti-aliased text could produce. */
export const typeColors: Record<FormType, string> = {
  Text: "#0072b2",
  CheckBox: "#009e73",
  RadioButton: "#cc79a7",
  ComboBox: "#e69f00",
  ListBox: "#d55e00",
  Signature: "#6a3d9a",
  PushButton: "#8c564b"
}

/** Bounds of the picture: about 144 dpi for a letter page, less where that would pass the caps. */
export const bounds = {
  /** Image pixels per PDF point at most (2 = 144 dpi). */
  maxScale: 2,
  /** Pixels of the page at most, whatever its size: 4 MP is 16 MiB of canvas. */
  maxPixels: 4_000_000,
  /** The longest side in pixels at most, so a page of 200 x 2 inches stays a picture, not a line. */
  maxSide: 4_000,
  /**
   * Images in the page of more pixels than this are left undrawn rather than decoded: pdf.js
   * decodes an image whole, at its own size, and a 20 MP one (a letter page scanned at 500 dpi)
   * went past a worker's 384 MiB; 12 MP holds letter and A4 pages scanned at 300 dpi (8.4-8.7 MP).
   */
  maxImagePixels: 12_000_000
} as const

/** Pixels per point for a page of `width` x `height` points (as displayed, rotation applied). */
export const scaleFor = (width: number, height: number): number => {
  const area = Math.max(1, width * height)
  return Math.min(bounds.maxScale, Math.sqrt(bounds.maxPixels / area), bounds.maxSide / Math.max(1, width, height))
}

const legendHeight = 26
const labelFont = 11

const fontFamily = (() => {
  let family: string | undefined
  return () => {
    if (family === undefined) {
      // The canvas finds no font on a bare system: Noto Sans, which the form engine ships anyway.
      try {
        const path = createRequire(import.meta.url).resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf")
        family = GlobalFonts.registerFromPath(path, "Formwright Noto Sans") ? "Formwright Noto Sans" : "sans-serif"
      } catch {
        family = "sans-serif"
      }
    }
    return family
  }
})()

/**
 * The fonts for names in other scripts (a Japanese form's "生年月日", an Arabic one's "سبب"),
 * registered the first time a name needs one, after Noto Sans in the tag's font list: skia
 * takes each character from the first font of the list that has it.
 */
const scriptFamilies = new Map<Fonts.Family, string | undefined>()

const fontList = (size: number, texts: ReadonlyArray<string>): string => {
  const names = [fontFamily()]
  for (const family of new Set(texts.flatMap((t) => [...Scripts.familiesFor(t)].slice(0, 1)))) {
    if (family === "notoSans") continue
    if (!scriptFamilies.has(family)) {
      const name = `Formwright ${family}`
      try {
        scriptFamilies.set(family, GlobalFonts.registerFromPath(Fonts.path(family), name) ? name : undefined)
      } catch {
        scriptFamilies.set(family, undefined)
      }
    }
    const name = scriptFamilies.get(family)
    if (name) names.push(name)
  }
  return `${size}px ${names.map((n) => `"${n}"`).join(", ")}`
}

type Box = readonly [x: number, y: number, width: number, height: number]

const near = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => a.length >= 4 && b.length >= 4 && a.every((v, i) => Math.abs(v - b[i]!) < 0.5)

const normalized = (rect: ReadonlyArray<number>): ReadonlyArray<number> => {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = rect
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)]
}

/** The name part of a field's tag. Long names (a tooltip that repeats its section) differ at the end: both ends are kept. */
const shortName = (name: string): string => {
  const flat = name.replace(/\s+/g, " ").trim()
  return flat.length > 48 ? `${flat.slice(0, 14).trimEnd()}…${flat.slice(-33).trimStart()}` : flat
}

/** The confidence part of a field's tag, for fields a converter placed. */
const confidenceSuffix = (mark: Pick<Mark, "confidence">): string => (mark.confidence === undefined ? "" : ` · ${mark.confidence.toFixed(2)}`)

/** What a field's tag says: its name, and its confidence when a converter placed it. */
export const caption = (mark: Pick<Mark, "name" | "confidence">): string => `${shortName(mark.name)}${confidenceSuffix(mark)}`

/** The widest a tag may be: its box's width, or a little more for small boxes, so tags of neighbouring fields do not cover each other. */
const minTagWidth = 90

/** `text` cut with an ellipsis to fit `width` pixels in the current font. */
const fitted = (ctx: SKRSContext2D, text: string, width: number): string => {
  if (ctx.measureText(text).width <= width) return text
  let keep = text.length
  while (keep > 1 && ctx.measureText(`${text.slice(0, keep)}…`).width > width) keep = Math.floor(keep * 0.85)
  while (keep < text.length && ctx.measureText(`${text.slice(0, keep + 1)}…`).width <= width) keep++
  return `${text.slice(0, keep).trimEnd()}…`
}

const drawTag = (ctx: SKRSContext2D, mark: Mark, color: string, box: Box, top: number, imageWidth: number) => {
  ctx.font = fontList(labelFont, [mark.name])
  // The name gives way to the confidence, which is what a reviewer looks for.
  const suffix = confidenceSuffix(mark)
  const text = `${fitted(ctx, shortName(mark.name), Math.max(box[2], minTagWidth) - 6 - ctx.measureText(suffix).width)}${suffix}`
  const width = Math.ceil(ctx.measureText(text).width) + 6
  const height = labelFont + 4
  const x = Math.max(0, Math.min(box[0], imageWidth - width))
  // Above the box when there is room below the legend, else just inside its top edge.
  const y = box[1] - height >= top ? box[1] - height : box[1]
  ctx.globalAlpha = 0.85
  ctx.fillStyle = color
  ctx.fillRect(x, y, width, height)
  ctx.globalAlpha = 1
  ctx.fillStyle = "#ffffff"
  ctx.textBaseline = "top"
  ctx.fillText(text, x + 3, y + 2)
}

const drawLegend = (ctx: SKRSContext2D, width: number, types: ReadonlyArray<FormType>, summary: string) => {
  ctx.fillStyle = "#f2f2f2"
  ctx.fillRect(0, 0, width, legendHeight)
  ctx.font = `12px "${fontFamily()}"`
  ctx.textBaseline = "middle"
  let x = 8
  for (const type of types) {
    ctx.fillStyle = typeColors[type]
    ctx.fillRect(x, 7, 12, 12)
    ctx.fillStyle = "#202020"
    ctx.fillText(type, x + 16, legendHeight / 2)
    x += 16 + ctx.measureText(type).width + 14
  }
  ctx.fillStyle = "#505050"
  const summaryWidth = ctx.measureText(summary).width
  if (x + summaryWidth + 8 <= width) ctx.fillText(summary, width - summaryWidth - 8, legendHeight / 2)
}

/**
 * Draws page `input.page` of `input.pdf` with `input.fields` marked. Every widget of a field on
 * the page is outlined (a radio group's options, a field repeated on several pages), found by
 * the field's full name among the page's widget annotations; the field's own rect is outlined
 * too when no widget sits there (a record whose rect was changed). The tag goes on the field's
 * own rect when it is on this page, else on its first widget here.
 */
export const render = (input: Input): Effect.Effect<Preview, PdfUnusable | PdfRejected> =>
  PdfJs.use(input.pdf, (doc) =>
    Effect.gen(function*() {
      yield* PdfLimits.checkPages(doc.numPages)
      if (input.page < 1 || input.page > doc.numPages) return { _tag: "PastEnd", pages: doc.numPages } as const
      const page = yield* Effect.tryPromise({ try: () => doc.getPage(input.page), catch: () => unusable("Damaged") })
      const natural = page.getViewport({ scale: 1 })
      const viewport = page.getViewport({ scale: scaleFor(natural.width, natural.height) })
      const width = Math.max(1, Math.round(viewport.width))
      const pageHeight = Math.max(1, Math.round(viewport.height))
      const canvas = createCanvas(width, pageHeight + legendHeight)
      const ctx = canvas.getContext("2d")
      ctx.fillStyle = "#ffffff"
      ctx.fillRect(0, 0, width, pageHeight + legendHeight)
      ctx.save()
      ctx.translate(0, legendHeight)
      // A page pdf.js cannot draw in full still gets its marks: drawing is best effort, as a viewer's is.
      yield* Effect.tryPromise(() =>
        page.render({ canvas: canvas as never, canvasContext: ctx as never, viewport, annotationMode: AnnotationMode.ENABLE }).promise
      ).pipe(Effect.ignore)
      const annotations = yield* Effect.tryPromise(() => page.getAnnotations()).pipe(Effect.orElseSucceed(() => []))
      page.cleanup()

      const widgets = new Map<string, Array<ReadonlyArray<number>>>()
      for (const annotation of annotations as ReadonlyArray<{ subtype?: string; fieldName?: string; rect?: ReadonlyArray<number> }>) {
        if (annotation.subtype !== "Widget" || typeof annotation.fieldName !== "string" || !Array.isArray(annotation.rect)) continue
        const list = widgets.get(annotation.fieldName) ?? []
        list.push(normalized(annotation.rect))
        widgets.set(annotation.fieldName, list)
      }
      const toBox = (rect: ReadonlyArray<number>): Box => {
        const [x1, y1, x2, y2] = normalized(rect) as [number, number, number, number]
        const [ax, ay] = viewport.convertToViewportPoint(x1, y1) as [number, number]
        const [bx, by] = viewport.convertToViewportPoint(x2, y2) as [number, number]
        return [Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay)]
      }

      const shown: Array<{ readonly mark: Mark; readonly boxes: ReadonlyArray<Box> }> = []
      for (const mark of input.fields) {
        const own = mark.page === input.page && mark.rect.length >= 4 ? normalized(mark.rect) : undefined
        const rects = [...(widgets.get(mark.form_name) ?? [])]
        if (own !== undefined) {
          const at = rects.findIndex((rect) => near(rect, own))
          if (at >= 0) rects.splice(at, 1)
          rects.unshift(own)
        }
        if (rects.length > 0) shown.push({ mark, boxes: rects.map(toBox) })
      }
      // Outlines first, then every tag, so no outline is drawn over a name.
      ctx.lineWidth = 2
      for (const { mark, boxes } of shown) {
        const color = typeColors[mark.form_type]
        for (const [x, y, w, h] of boxes) {
          ctx.globalAlpha = 0.12
          ctx.fillStyle = color
          ctx.fillRect(x, y, w, h)
          ctx.globalAlpha = 1
          ctx.strokeStyle = color
          ctx.strokeRect(Math.round(x) + 1, Math.round(y) + 1, Math.max(1, Math.round(w) - 2), Math.max(1, Math.round(h) - 2))
        }
      }
      ctx.restore()
      for (const { mark, boxes } of shown) {
        const [x, y, w, h] = boxes[0]!
        drawTag(ctx, mark, typeColors[mark.form_type], [x, y + legendHeight, w, h], legendHeight, width)
      }
      const types = (Object.keys(typeColors) as Array<FormType>).filter((type) => shown.some((s) => s.mark.form_type === type))
      drawLegend(ctx, width, types, `page ${input.page} of ${doc.numPages} · ${shown.length} field${shown.length === 1 ? "" : "s"}`)
      const png = yield* Effect.promise(() => canvas.encode("png"))
      return { _tag: "Rendered", png: new Uint8Array(png), width, height: pageHeight + legendHeight, pages: doc.numPages } as const
    }), { forRendering: true, maxImagePixels: bounds.maxImagePixels })
