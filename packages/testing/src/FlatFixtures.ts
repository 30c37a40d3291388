/**
 * Flat PDFs (no form fields) generated in code, for testing field detection: labels followed by
 * underscore runs or drawn rules, checkbox squares, pages with nothing to detect, a scanned-like
 * page. Each fixture also lists where a detector should place fields, computed from the same
 * numbers that drew the page, so tests and drawing cannot drift apart.
 */
import { deflateSync } from "node:zlib"
import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "@cantoo/pdf-lib"

/** A fillable spot drawn on a flat fixture page, in PDF user space (origin bottom-left). */
export interface ExpectedField {
  /** 1-based page. */
  readonly page: number
  /** The label as a person reads it, cleaned of trailing ':' (what a detector should name it). */
  readonly name: string
  readonly kind: "underscore" | "rule" | "checkbox" | "box"
  /** Horizontal extent of the drawn line, square or box. */
  readonly x1: number
  readonly x2: number
  /** Baseline of the underscore run, y of the rule, or bottom of the square or box. */
  readonly y: number
}

/** A generated flat PDF and the fields drawn on it. */
export interface FlatFixture {
  readonly bytes: Uint8Array
  readonly fields: ReadonlyArray<ExpectedField>
}

const LETTER: [number, number] = [612, 792]
const LABEL_SIZE = 11

interface Ctx {
  readonly page: PDFPage
  readonly pageNumber: number
  readonly font: PDFFont
  readonly bold: PDFFont
  readonly fields: Array<ExpectedField>
}

/** "Label: ______": one text run, as word processors and typewriter-style forms write it. */
const underscoreLine = (ctx: Ctx, x: number, y: number, label: string, underscores: number): number => {
  const prefix = `${label}: `
  ctx.page.drawText(prefix + "_".repeat(underscores), { x, y, size: LABEL_SIZE, font: ctx.font })
  const x1 = x + ctx.font.widthOfTextAtSize(prefix, LABEL_SIZE)
  const x2 = x1 + ctx.font.widthOfTextAtSize("_".repeat(underscores), LABEL_SIZE)
  ctx.fields.push({ page: ctx.pageNumber, name: label, kind: "underscore", x1, x2, y })
  return x2
}

/** "Label:" then a drawn horizontal rule a little below the label's baseline. */
const ruleLine = (ctx: Ctx, x: number, y: number, label: string, length: number, gap = 6): number => {
  const text = `${label}:`
  ctx.page.drawText(text, { x, y, size: LABEL_SIZE, font: ctx.font })
  const x1 = x + ctx.font.widthOfTextAtSize(text, LABEL_SIZE) + gap
  const x2 = x1 + length
  const ruleY = y - 2
  ctx.page.drawLine({ start: { x: x1, y: ruleY }, end: { x: x2, y: ruleY }, thickness: 0.75, color: rgb(0, 0, 0) })
  ctx.fields.push({ page: ctx.pageNumber, name: label, kind: "rule", x1, x2, y: ruleY })
  return x2
}

/** A small square with its label to the right. */
const checkbox = (ctx: Ctx, x: number, y: number, label: string, size = 10): void => {
  ctx.page.drawRectangle({ x, y, width: size, height: size, borderWidth: 0.8, borderColor: rgb(0, 0, 0) })
  ctx.page.drawText(label, { x: x + size + 5, y: y + 1.5, size: LABEL_SIZE, font: ctx.font })
  ctx.fields.push({ page: ctx.pageNumber, name: label, kind: "checkbox", x1: x, x2: x + size, y })
}

const newDoc = async (title: string) => {
  const doc = await PDFDocument.create()
  doc.setTitle(title)
  doc.setProducer("@formwright/testing FlatFixtures")
  doc.setCreationDate(new Date(Date.UTC(2024, 0, 1)))
  doc.setModificationDate(new Date(Date.UTC(2024, 0, 1)))
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  return { doc, font, bold }
}

const ctxFor = (page: PDFPage, pageNumber: number, font: PDFFont, bold: PDFFont, fields: Array<ExpectedField>): Ctx => ({
  page,
  pageNumber,
  font,
  bold,
  fields
})

/** A heading with a drawn underline and a frame around the page: decoration, never fields. */
const decorate = (ctx: Ctx, title: string): void => {
  const [width, height] = [ctx.page.getWidth(), ctx.page.getHeight()]
  ctx.page.drawRectangle({ x: 20, y: 20, width: width - 40, height: height - 40, borderWidth: 1, borderColor: rgb(0, 0, 0) })
  const titleWidth = ctx.bold.widthOfTextAtSize(title, 16)
  ctx.page.drawText(title, { x: 72, y: height - 72, size: 16, font: ctx.bold })
  ctx.page.drawLine({ start: { x: 72, y: height - 75 }, end: { x: 72 + titleWidth, y: height - 75 }, thickness: 1 })
}

const save = async (doc: PDFDocument): Promise<Uint8Array> => doc.save({ useObjectStreams: false })

/**
 * One Letter page: four underscore fields (two of them on one line), three labelled rules,
 * an underlined heading and a page frame (neither is a field), and two checkboxes.
 */
export const flatApplicationForm = async (): Promise<FlatFixture> => {
  const { doc, font, bold } = await newDoc("Application form")
  const fields: Array<ExpectedField> = []
  const ctx = ctxFor(doc.addPage(LETTER), 1, font, bold, fields)
  decorate(ctx, "Application Form")
  ctx.page.drawText("Please complete every section in block capitals.", { x: 72, y: 690, size: 10, font })
  underscoreLine(ctx, 72, 650, "Given name", 30)
  underscoreLine(ctx, 72, 620, "Family name", 30)
  const cityEnd = underscoreLine(ctx, 72, 590, "City", 20)
  underscoreLine(ctx, cityEnd + 12, 590, "Postal code", 10)
  ruleLine(ctx, 72, 550, "Street address", 300)
  ruleLine(ctx, 72, 515, "Email", 250)
  ruleLine(ctx, 72, 480, "Phone number", 180)
  checkbox(ctx, 72, 430, "I agree to the terms")
  checkbox(ctx, 72, 410, "Send me the newsletter")
  return { bytes: await save(doc), fields }
}

/** Two pages: underscore fields on page 1, rules on page 2. */
export const flatTwoPageForm = async (): Promise<FlatFixture> => {
  const { doc, font, bold } = await newDoc("Two page form")
  const fields: Array<ExpectedField> = []
  const one = ctxFor(doc.addPage(LETTER), 1, font, bold, fields)
  one.page.drawText("Part 1: Applicant", { x: 72, y: 720, size: 14, font: bold })
  underscoreLine(one, 72, 680, "Full name", 32)
  underscoreLine(one, 72, 650, "Date of birth", 16)
  const two = ctxFor(doc.addPage(LETTER), 2, font, bold, fields)
  two.page.drawText("Part 2: Employer", { x: 72, y: 720, size: 14, font: bold })
  ruleLine(two, 72, 680, "Employer name", 260)
  ruleLine(two, 72, 650, "Job title", 200)
  return { bytes: await save(doc), fields }
}

/** A letter: paragraphs, an underlined heading and a frame; nothing a person fills in. */
export const flatNoFields = async (): Promise<FlatFixture> => {
  const { doc, font, bold } = await newDoc("Letter")
  const ctx = ctxFor(doc.addPage(LETTER), 1, font, bold, [])
  decorate(ctx, "Notice of Change")
  const lines = [
    "Dear customer,",
    "from 1 March the office moves to a new address. Nothing changes for your account:",
    "your number, your contacts and your payment dates stay the same.",
    "Kind regards, the Formwright team"
  ]
  lines.forEach((text, i) => ctx.page.drawText(text, { x: 72, y: 660 - i * 18, size: LABEL_SIZE, font }))
  // A separator across the text column, with nothing on its line: not a field.
  ctx.page.drawLine({ start: { x: 72, y: 560 }, end: { x: 540, y: 560 }, thickness: 0.5 })
  return { bytes: await save(doc), fields: [] }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Uint8Array): Uint8Array => {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

/** A grey-scale PNG of a "scanned form": light paper with dark horizontal lines as pixels. */
const scannedPng = (width: number, height: number): Uint8Array => {
  const raw = new Uint8Array((width + 1) * height)
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0 // filter: none
    const isLine = y % 40 === 20
    for (let x = 0; x < width; x++) {
      const noise = (x * 31 + y * 17) % 7
      raw[y * (width + 1) + 1 + x] = isLine && x > width / 3 && x < width - 20 ? 20 : 235 + noise
    }
  }
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([8, 0, 0, 0, 0], 8) // 8-bit grey, no interlace
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array(0))
  ]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

/** One page that is only an image (as a scanner makes it): no text, no vector lines. */
export const flatScannedPage = async (): Promise<FlatFixture> => {
  const { doc } = await newDoc("Scanned form")
  const page = doc.addPage(LETTER)
  const image = await doc.embedPng(scannedPng(306, 396))
  page.drawImage(image, { x: 0, y: 0, width: 612, height: 792 })
  return { bytes: await save(doc), fields: [] }
}

/**
 * Boxes and tables: a labelled outlined box, a two-row table drawn with lines (label cell, empty
 * cell), an address rule with two unlabelled continuation lines, and a tall box with its caption
 * printed inside its top. The continuation lines are named "Address (line 2)" and "(line 3)".
 */
export const flatBoxedForm = async (): Promise<FlatFixture> => {
  const { doc, font, bold } = await newDoc("Boxed form")
  const fields: Array<ExpectedField> = []
  const ctx = ctxFor(doc.addPage(LETTER), 1, font, bold, fields)
  const black = rgb(0, 0, 0)
  ctx.page.drawText("Registration", { x: 72, y: 720, size: 16, font: bold })

  ctx.page.drawText("Account number:", { x: 72, y: 665, size: LABEL_SIZE, font })
  ctx.page.drawRectangle({ x: 170, y: 660, width: 200, height: 20, borderWidth: 0.8, borderColor: black })
  fields.push({ page: 1, name: "Account number", kind: "box", x1: 170, x2: 370, y: 660 })

  // A table drawn line by line, as word processors export it.
  const [left, middle, right] = [72, 222, 472]
  const rows = [600, 578, 556]
  for (const y of rows) ctx.page.drawLine({ start: { x: left, y }, end: { x: right, y }, thickness: 0.75, color: black })
  for (const x of [left, middle, right]) {
    ctx.page.drawLine({ start: { x, y: rows[0]! }, end: { x, y: rows[rows.length - 1]! }, thickness: 0.75, color: black })
  }
  for (const [i, label] of ["Employer", "Position"].entries()) {
    ctx.page.drawText(label, { x: left + 4, y: rows[i + 1]! + 7, size: LABEL_SIZE, font })
    fields.push({ page: 1, name: label, kind: "box", x1: middle, x2: right, y: rows[i + 1]! })
  }

  const end = ruleLine(ctx, 72, 510, "Address", 300)
  const start = fields[fields.length - 1]!.x1
  for (const [i, y] of [486, 462].entries()) {
    ctx.page.drawLine({ start: { x: start, y }, end: { x: end, y }, thickness: 0.75, color: black })
    fields.push({ page: 1, name: `Address (line ${i + 2})`, kind: "rule", x1: start, x2: end, y })
  }

  ctx.page.drawRectangle({ x: 72, y: 340, width: 400, height: 70, borderWidth: 0.8, borderColor: black })
  ctx.page.drawText("Comments", { x: 76, y: 400, size: 8, font })
  fields.push({ page: 1, name: "Comments", kind: "box", x1: 72, x2: 472, y: 340 })
  return { bytes: await save(doc), fields }
}

/** A page whose /Rotate is 90: fields are still found in unrotated user space. */
export const flatRotatedForm = async (): Promise<FlatFixture> => {
  const { doc, font, bold } = await newDoc("Rotated form")
  const fields: Array<ExpectedField> = []
  const ctx = ctxFor(doc.addPage(LETTER), 1, font, bold, fields)
  ctx.page.setRotation(degrees(90))
  underscoreLine(ctx, 72, 650, "Given name", 30)
  ruleLine(ctx, 72, 600, "Signature", 220)
  return { bytes: await save(doc), fields }
}

/** `pages` pages, each with two underscore fields and one rule: for progress and speed. */
export const flatLongForm = async (pages = 13): Promise<FlatFixture> => {
  const { doc, font, bold } = await newDoc("Long form")
  const fields: Array<ExpectedField> = []
  for (let n = 1; n <= pages; n++) {
    const ctx = ctxFor(doc.addPage(LETTER), n, font, bold, fields)
    ctx.page.drawText(`Section ${n}`, { x: 72, y: 720, size: 14, font: bold })
    underscoreLine(ctx, 72, 680, `Name ${n}`, 30)
    underscoreLine(ctx, 72, 650, `Reference ${n}`, 20)
    ruleLine(ctx, 72, 610, `Notes ${n}`, 300)
  }
  return { bytes: await save(doc), fields }
}
