/**
 * Reads a PDF's AcroForm: every terminal field with its type, place, flags, options and current
 * value, plus the page text in reading order with a marker where each field sits (`as_text`).
 */
import { createHash } from "node:crypto"
import {
  PDFArray,
  PDFButton,
  PDFCheckBox,
  PDFDict,
  PDFDropdown,
  PDFName,
  PDFNumber,
  PDFOptionList,
  PDFRadioGroup,
  PDFSignature,
  PDFTextField
} from "@cantoo/pdf-lib"
import type { PDFDocument, PDFField, PDFObject } from "@cantoo/pdf-lib"
import { Effect } from "effect"
import type { FieldOption, FieldValue, FormField, FormType } from "../FormField.ts"
import * as TextLayout from "../understand/TextLayout.ts"
import * as Understanding from "../understand/Understanding.ts"
import * as PageText from "./PageText.ts"
import * as PdfLimits from "./PdfLimits.ts"
import { type PdfRejected, unusable, type PdfUnusable } from "./PdfError.ts"
import * as PdfLib from "./PdfLib.ts"
import { decodeText, fieldFlags, flags, inherited, onStates } from "./PdfLib.ts"

/** What reading a form yields. */
export interface ParsedForm {
  readonly pages: number
  /** Terminal fields in document (AcroForm) order. */
  readonly fields: ReadonlyArray<FormField>
  /** Page text in reading order, one `--- page N ---` line per page, `[[field:<id>]]` per field. */
  readonly asText: string
}

/** The marker `asText` puts where a field sits. */
export const marker = (fieldId: string): string => `[[field:${fieldId}]]`

const formTypeOf = (field: PDFField): FormType | undefined => {
  if (field instanceof PDFTextField) return "Text"
  if (field instanceof PDFCheckBox) return "CheckBox"
  if (field instanceof PDFRadioGroup) return "RadioButton"
  if (field instanceof PDFDropdown) return "ComboBox"
  if (field instanceof PDFOptionList) return "ListBox"
  if (field instanceof PDFSignature) return "Signature"
  if (field instanceof PDFButton) return "PushButton"
  return undefined
}

/** A field id derived from its full name, so re-reading the same PDF gives the same ids. */
const idFor = (formName: string, taken: Set<string>): string => {
  for (let attempt = 0; ; attempt++) {
    const source = attempt === 0 ? formName : `${formName}\u0000${attempt}`
    const id = `fld_${createHash("sha256").update(source).digest("hex").slice(0, 12)}`
    if (!taken.has(id)) {
      taken.add(id)
      return id
    }
  }
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim()

/**
 * A readable name from a field's full name: the last partial name without `[n]` indices,
 * underscores and camelCase split into words, e.g. `topmostSubform[0].Page1[0].f1_01[0]` ->
 * "f1 01", `first_name` -> "First name", `dateOfBirth` -> "Date of birth".
 */
export const cleanName = (formName: string): string => {
  const parts = formName.split(".").reverse()
  for (const part of parts) {
    const words = part
      .replace(/\[\d*\]/g, " ")
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
      .replace(/[_\-.#:]+/g, " ")
      .split(/\s+/)
      .filter((w) => w.length > 0)
      // Title-case words after the first read better in lower case; acronyms stay as they are.
      .map((w, i) => (i > 0 && /^\p{Lu}\p{Ll}+$/u.test(w) ? w.toLowerCase() : w))
    if (words.length === 0) continue
    const [first, ...rest] = words
    const head = /^\p{L}+$/u.test(first!) ? first!.charAt(0).toUpperCase() + first!.slice(1) : first!
    return [head, ...rest].join(" ")
  }
  return collapse(formName) || "Field"
}

const normalizeRect = (rect: PDFObject | undefined): ReadonlyArray<number> => {
  if (!(rect instanceof PDFArray) || rect.size() < 4) return [0, 0, 0, 0]
  const n = [0, 1, 2, 3].map((i) => {
    const v = rect.lookup(i)
    return v instanceof PDFNumber && Number.isFinite(v.asNumber()) ? v.asNumber() : 0
  })
  const round = (v: number) => Math.round(v * 100) / 100
  return [round(Math.min(n[0]!, n[2]!)), round(Math.min(n[1]!, n[3]!)), round(Math.max(n[0]!, n[2]!)), round(Math.max(n[1]!, n[3]!))]
}

const uniqueOptions = (options: ReadonlyArray<FieldOption>): ReadonlyArray<FieldOption> => {
  const seen = new Set<string>()
  return options.filter((o) => (seen.has(o.value) ? false : (seen.add(o.value), true)))
}

/**
 * The on-state a button is in: its /V when that names a state other than /Off (the value is
 * what the PDF says, even when a broken appearance dictionary lacks that state), else, without
 * a /V, the state a widget shows.
 */
const buttonState = (dict: PDFDict, widgets: ReadonlyArray<PDFDict>): PDFName | undefined => {
  const v = inherited(dict, "V")
  if (v instanceof PDFName) return v !== PDFName.of("Off") ? v : undefined
  for (const widget of widgets) {
    const as = widget.lookup(PDFName.of("AS"))
    if (as instanceof PDFName && as !== PDFName.of("Off") && onStates(widget).includes(as)) return as
  }
  return undefined
}

/** Export values of a button group's widgets, from /Opt when present (index-aligned with the kids). */
const buttonExports = (dict: PDFDict, widgets: ReadonlyArray<PDFDict>): ReadonlyArray<{ state: PDFName; value: string }> => {
  const opt = inherited(dict, "Opt")
  const exports = opt instanceof PDFArray ? Array.from({ length: opt.size() }, (_, i) => decodeText(opt.lookup(i))) : []
  const result: Array<{ state: PDFName; value: string }> = []
  widgets.forEach((widget, i) => {
    for (const state of onStates(widget)) result.push({ state, value: exports[i] ?? PdfLib.nameText(state) })
  })
  return result
}

/** The choice options of a combo or list box: export value and display text. */
const choiceOptions = (dict: PDFDict): ReadonlyArray<FieldOption> => {
  const opt = inherited(dict, "Opt")
  if (!(opt instanceof PDFArray)) return []
  const options: Array<FieldOption> = []
  for (let i = 0; i < opt.size(); i++) {
    const entry = opt.lookup(i)
    if (entry instanceof PDFArray) {
      const value = decodeText(entry.lookup(0))
      const label = decodeText(entry.lookup(1))
      if (value !== undefined) options.push({ label: label ?? value, value })
    } else {
      const value = decodeText(entry)
      if (value !== undefined) options.push({ label: value, value })
    }
  }
  return options
}

const choiceValues = (dict: PDFDict): ReadonlyArray<string> => {
  const v = inherited(dict, "V")
  if (v instanceof PDFArray) {
    return Array.from({ length: v.size() }, (_, i) => decodeText(v.lookup(i))).filter((s): s is string => s !== undefined && s.trim() !== "")
  }
  const single = decodeText(v)
  return single === undefined || single.trim() === "" ? [] : [single]
}

const describe = (
  entry: PdfLib.TerminalField,
  locate: (widget: PDFDict) => number | undefined,
  taken: Set<string>
): Understanding.FieldInput | undefined => {
  const { field, formName } = entry
  const formType = formTypeOf(field)
  if (formType === undefined) return undefined
  const dict = field.acroField.dict
  const widgets = PdfLib.widgetsOf(field)
  const ff = fieldFlags(dict)

  let page = 1
  let rect: ReadonlyArray<number> = normalizeRect(widgets[0]?.lookup(PDFName.of("Rect")))
  let located = false
  // Every visible widget with its page, for naming: radio options are captioned one by one.
  const places: Array<{ page: number; rect: ReadonlyArray<number>; widget: PDFDict }> = []
  for (const widget of widgets) {
    const found = locate(widget)
    if (found === undefined) continue
    const widgetRect = normalizeRect(widget.lookup(PDFName.of("Rect")))
    if (!located) {
      located = true
      page = found
      rect = widgetRect
    }
    const f = widget.lookup(PDFName.of("F"))
    const hidden = f instanceof PDFNumber && (f.asNumber() & 2) !== 0
    if (!hidden) places.push({ page: found, rect: widgetRect, widget })
  }

  const written = collapse(decodeText(dict.lookup(PDFName.of("TU"))) ?? decodeText(widgets[0]?.lookup(PDFName.of("TU"))) ?? "")
  // "undefined" and "null" are what a form tool's script wrote when it had no tooltip to give.
  const tooltip = /^(?:undefined|null)$/i.test(written) ? "" : written
  const extra: {
    options?: ReadonlyArray<FieldOption>
    max_length?: number
    multiline?: boolean
    comb?: boolean
    value?: FieldValue
  } = {}

  switch (formType) {
    case "Text": {
      const maxLen = inherited(dict, "MaxLen")
      const maxLength = maxLen instanceof PDFNumber && maxLen.asNumber() > 0 ? Math.floor(maxLen.asNumber()) : undefined
      const multiline = (ff & flags.multiline) !== 0
      if (maxLength !== undefined) extra.max_length = maxLength
      extra.multiline = multiline
      extra.comb = (ff & flags.comb) !== 0 && maxLength !== undefined && !multiline && (ff & flags.password) === 0
      // Producers end lines with CR (Acrobat) or CRLF; readers of the value expect LF.
      const value = decodeText(inherited(dict, "V"))?.replace(/\r\n?/g, "\n")
      if (value !== undefined && value.trim() !== "") extra.value = value
      break
    }
    case "CheckBox": {
      const exports = buttonExports(dict, widgets)
      // Without an appearance for its on-state a checkbox gets "Yes", as filling would give it.
      const options = exports.map((e) => ({ label: e.value, value: PdfLib.nameText(e.state) }))
      extra.options = uniqueOptions(options.length > 0 ? options : [{ label: "Yes", value: "Yes" }])
      if (buttonState(dict, widgets) !== undefined) extra.value = true
      break
    }
    case "RadioButton": {
      const exports = buttonExports(dict, widgets)
      extra.options = uniqueOptions(exports.map((e) => ({ label: e.value, value: e.value })))
      const state = buttonState(dict, widgets)
      if (state) extra.value = exports.find((e) => e.state === state)?.value ?? PdfLib.nameText(state)
      break
    }
    case "ComboBox": {
      extra.options = choiceOptions(dict)
      const [value] = choiceValues(dict)
      if (value !== undefined) extra.value = value
      break
    }
    case "ListBox": {
      extra.options = choiceOptions(dict)
      const values = choiceValues(dict)
      if (values.length > 0) extra.value = (ff & flags.multiSelect) !== 0 ? values : values[0]!
      break
    }
    case "Signature":
    case "PushButton":
      break
  }

  // The value each widget's on-state stands for, as the options list it.
  const radioExports = formType === "RadioButton" ? buttonExports(dict, widgets) : []
  const widgetValue = (widget: PDFDict): string | undefined => {
    if (formType !== "CheckBox" && formType !== "RadioButton") return undefined
    const state = onStates(widget)[0]
    if (state === undefined) return undefined
    return formType === "CheckBox" ? PdfLib.nameText(state) : (radioExports[widgets.indexOf(widget)]?.value ?? PdfLib.nameText(state))
  }

  const described: FormField = {
    id: idFor(formName, taken),
    name: tooltip || cleanName(formName),
    form_name: formName,
    form_type: formType,
    page,
    rect,
    required: (ff & flags.required) !== 0,
    read_only: (ff & flags.readOnly) !== 0,
    ...extra
  }
  return {
    field: described,
    tooltip: tooltip === "" ? undefined : tooltip,
    fallbackName: cleanName(formName),
    widgets: places.map((p) => ({ page: p.page, rect: TextLayout.rectOf(p.rect), value: widgetValue(p.widget) }))
  }
}

/**
 * Every terminal field of `doc` as read, before understanding: the field named by its /TU or its
 * cleaned partial name, its /TU, and its visible widgets. A field that cannot be described
 * (broken dictionaries) is left out rather than failing the whole form.
 */
export const readFields = (doc: PDFDocument): ReadonlyArray<Understanding.FieldInput> => {
  const locate = PdfLib.pageLocator(doc)
  const taken = new Set<string>()
  const fields: Array<Understanding.FieldInput> = []
  for (const entry of PdfLib.terminalFields(doc)) {
    try {
      const field = describe(entry, locate, taken)
      if (field) fields.push(field)
    } catch {
      // Skipped: see the doc comment.
    }
  }
  return fields
}

/**
 * Every terminal field of `doc` as a `FormField`, named by its /TU or its cleaned partial name
 * (without page text; `readForm` also reads labels printed on the page).
 */
export const fieldsOf = (doc: PDFDocument): ReadonlyArray<FormField> => readFields(doc).map((input) => input.field)

/**
 * The fields as understood from their /TU and the pages' text: fields without a /TU are named
 * by their accessible name read from the page (see `Understanding.Understood.name`; else their
 * cleaned partial name), radio options get the captions printed beside them, and every field
 * gets its `semantic`.
 */
export const understandFields = (
  inputs: ReadonlyArray<Understanding.FieldInput>,
  text: ReadonlyArray<PageText.PageText>
): ReadonlyArray<FormField> => {
  const understood = Understanding.understand(inputs, text)
  return inputs.map((input, i) => {
    const u = understood[i]!
    const field = input.field
    // A radio group's options, and those of a check box group whose boxes have on-states of their own.
    const grouped = field.form_type === "RadioButton" || (field.form_type === "CheckBox" && (field.options?.length ?? 0) > 1)
    const options = grouped && field.options && u.captions.size > 0
      ? field.options.map((o) => ({ ...o, label: u.captions.get(o.value) ?? o.label }))
      : field.options
    return { ...field, name: u.name, ...(options ? { options } : {}), semantic: u.semantic }
  })
}

interface LineItem {
  readonly x: number
  readonly text: string
}

interface Line {
  readonly y: number
  readonly height: number
  readonly items: Array<LineItem>
}

/**
 * One page of `as_text`: text runs grouped into lines top to bottom, and each field's marker
 * placed on the line its widget sits on, after the text to its left.
 */
const pageAsText = (runs: ReadonlyArray<PageText.TextRun>, fields: ReadonlyArray<FormField>): ReadonlyArray<string> => {
  const lines: Array<Line> = []
  for (const run of [...runs].sort((p, q) => q.y - p.y || p.x - q.x)) {
    const line = lines.find((l) => Math.abs(l.y - run.y) <= Math.max(2, Math.min(l.height, run.height) * 0.4))
    if (line) line.items.push({ x: run.x, text: run.text })
    else lines.push({ y: run.y, height: run.height, items: [{ x: run.x, text: run.text }] })
  }
  for (const field of fields) {
    const [x1 = 0, y1 = 0, , y2 = 0] = field.rect
    const height = y2 - y1
    // Labels sit on a baseline a little above the widget's bottom edge.
    const anchor = y2 - Math.min(height, 16) * 0.7
    let best: Line | undefined
    for (const line of lines) {
      if (line.y < y1 - 3 || line.y > y2 + 1) continue
      if (!best || Math.abs(line.y - anchor) < Math.abs(best.y - anchor)) best = line
    }
    const item = { x: x1, text: marker(field.id) }
    if (best) best.items.push(item)
    else lines.push({ y: anchor, height: Math.min(height, 16), items: [item] })
  }
  return lines
    .sort((p, q) => q.y - p.y)
    .map((l) =>
      l.items
        .sort((p, q) => p.x - q.x)
        .map((i) => i.text)
        .join(" ")
        .replace(/\s+/g, " ")
        .trim()
    )
    .filter((l) => l.length > 0)
}

/** Builds `as_text` from page text and fields: one `--- page N ---` header per page. */
export const textWithMarkers = (pages: number, text: ReadonlyArray<PageText.PageText>, fields: ReadonlyArray<FormField>): string => {
  const out: Array<string> = []
  for (let page = 1; page <= pages; page++) {
    const runs = text.find((t) => t.page === page)?.runs ?? []
    out.push(`--- page ${page} ---`, ...pageAsText(runs, fields.filter((f) => f.page === page)))
  }
  return out.join("\n")
}

/**
 * Reads every terminal AcroForm field of `bytes`. Owner-password PDFs are read transparently;
 * hybrid XFA forms are read through their AcroForm; a flat PDF gives `fields: []`. Fails with
 * `PdfUnusable` for an empty or non-PDF body, a damaged file, a user password or an XFA-only form.
 *
 * Values: text as a string, a checked checkbox as `true` (omitted when unchecked), the selected
 * radio export value, a combo box's export value, a list box's value (an array when it allows
 * several); empty values are omitted.
 */
export const readForm: (bytes: Uint8Array) => Effect.Effect<ParsedForm, PdfUnusable | PdfRejected> = Effect.fn("FormReader.readForm")(
  function*(bytes: Uint8Array) {
    const doc = yield* PdfLib.load(bytes)
    const inputs = yield* fieldInputs(doc)
    // pdf.js reads the text; when it cannot, the fields are still worth returning.
    const text = yield* PageText.read(bytes).pipe(
      Effect.catchDefect(() => Effect.succeed([])),
      Effect.catch(() => Effect.succeed([]))
    )
    return yield* formFrom(doc, inputs, text)
  }
)

const fieldInputs = (doc: PDFDocument) =>
  Effect.gen(function*() {
    const inputs = yield* Effect.try({ try: () => readFields(doc), catch: () => unusable("Damaged") })
    if (inputs.length === 0 && PdfLib.hasXfa(doc)) return yield* unusable("XfaOnly")
    yield* PdfLimits.checkFields(inputs.length)
    return inputs
  })

const formFrom = (doc: PDFDocument, inputs: ReadonlyArray<Understanding.FieldInput>, text: ReadonlyArray<PageText.PageText>) =>
  Effect.gen(function*() {
    const pages = doc.getPageCount()
    // Understanding is a refinement: should it ever throw, the fields as read are still right.
    const fields = yield* Effect.sync(() => understandFields(inputs, text)).pipe(
      Effect.catchDefect(() => Effect.succeed(inputs.map((input) => input.field)))
    )
    return { pages, fields, asText: textWithMarkers(pages, text, fields) } satisfies ParsedForm
  })

/**
 * What `readForm` gives for a document already open with pdf-lib whose page text was already
 * read as `PageText.read` reads it (every page, in order): a conversion reads its output this
 * way rather than parsing the PDF it has just written a second time.
 */
export const readOpenForm = (doc: PDFDocument, text: ReadonlyArray<PageText.PageText>): Effect.Effect<ParsedForm, PdfUnusable | PdfRejected> =>
  Effect.flatMap(fieldInputs(doc), (inputs) => formFrom(doc, inputs, text))
