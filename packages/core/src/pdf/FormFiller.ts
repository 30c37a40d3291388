/**
 * Fills AcroForm fields and writes their appearance streams, so the values show in every viewer
 * (never left to `NeedAppearances`). Plain WinAnsi text keeps the field's standard font; other
 * text is drawn with an embedded subset of the Noto font for its script (Fonts.ts, chosen per
 * field by Scripts.ts), right-to-left text in visual order and right-aligned (Bidi.ts). A value
 * no font can draw is skipped with the character named, rather than drawn as empty boxes.
 */
import fontkit, { type Font as FontkitFont } from "@cantoo/fontkit"
import {
  defaultDropdownAppearanceProvider,
  defaultOptionListAppearanceProvider,
  PDFArray,
  PDFBool,
  PDFButton,
  PDFCheckBox,
  PDFDict,
  PDFDropdown,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOptionList,
  PDFRadioGroup,
  PDFSignature,
  PDFStream,
  PDFString,
  PDFTextField,
  layoutMultilineText,
  StandardFonts,
  TextAlignment,
  defaultTextFieldAppearanceProvider
} from "@cantoo/pdf-lib"
import type { PDFDocument, PDFField, PDFFont, PDFObject } from "@cantoo/pdf-lib"
import { Effect } from "effect"
import { checkboxWord, type FieldValue } from "../FormField.ts"
import * as Bidi from "./Bidi.ts"
import * as Flatten from "./Flatten.ts"
import * as Fonts from "./Fonts.ts"
import * as FontSubset from "./FontSubset.ts"
import { type PdfRejected, unusable, type PdfUnusable } from "./PdfError.ts"
import * as PdfLib from "./PdfLib.ts"
import { decodeText, fieldFlags, flags, inherited, onStates } from "./PdfLib.ts"
import * as Scripts from "./Scripts.ts"

/** One value to put into the field whose full name is `formName`. */
export interface Assignment {
  readonly formName: string
  readonly value: FieldValue
}

/** How to write the filled PDF. */
export interface FillOptions {
  /** Draw every field's appearance into its page and remove the form, so nothing stays editable. */
  readonly flatten?: boolean | undefined
}

/** The filled PDF and what happened to each assignment. */
export interface FillResult {
  readonly pdf: Uint8Array
  /** Full names of the fields that were filled, in assignment order. */
  readonly applied: ReadonlyArray<string>
  /** Assignments left out, with a reason a person can read. */
  readonly skipped: ReadonlyArray<{ readonly formName: string; readonly reason: string }>
}

const loose = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()


/** Text as a field can hold it: no control characters, one line unless the field is multiline. */
const cleanText = (text: string, multiline: boolean): string => {
  const unified = text.replace(/\r\n?/g, "\n").replace(/\t/g, " ")
  const lines = multiline ? unified : unified.replace(/\n+/g, " ")
  return lines.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "")
}

/**
 * At most `max` characters, counting code points as a person would, and never more UTF-16
 * units than `max` either (pdf-lib checks `/MaxLen` against the UTF-16 length).
 */
const truncate = (text: string, max: number): string => {
  let out = ""
  for (const ch of text) {
    if (out.length + ch.length > max) break
    out += ch
  }
  return out
}

/** The standard font closest to the one a field's /DA names, so plain values keep their look. */
const standardFontFor = (da: string | undefined): StandardFonts => {
  const name = /\/([^\s/]+)\s+[-\d.]+\s+Tf/.exec(da ?? "")?.[1]?.toLowerCase() ?? ""
  if (name.startsWith("cour")) return StandardFonts.Courier
  if (name.startsWith("tiro") || name.startsWith("times")) return StandardFonts.TimesRoman
  if (name === "helvb" || name === "hebo" || name.startsWith("helvetica-bold")) return StandardFonts.HelveticaBold
  return StandardFonts.Helvetica
}

/** Fonts embedded on demand, once per document. */
interface FontBox {
  readonly standard: (which: StandardFonts) => Effect.Effect<PDFFont, Error>
  readonly unicode: (family: Fonts.Family) => Effect.Effect<PDFFont, Error>
  readonly used: Set<PDFFont>
  readonly isUnicode: (font: PDFFont) => boolean
  /** The embedded font's file read by fontkit, for glyph positions (right-to-left text only). */
  readonly shaperOf: (font: PDFFont) => FontkitFont | undefined
}

/**
 * `drawable` is every character the document may draw (asked once, when a font other than
 * Noto Sans is first needed): each such font is cut down to those characters before it is
 * embedded, so one subset serves every field that uses it.
 */
const makeFontBox = (doc: PDFDocument, drawable: () => string): FontBox => {
  const standard = new Map<StandardFonts, PDFFont>()
  const unicode = new Map<Fonts.Family, PDFFont>()
  const used = new Set<PDFFont>()
  const files = new Map<PDFFont, Uint8Array>()
  const shapers = new Map<PDFFont, FontkitFont>()
  let characters: string | undefined
  const embed = (data: Uint8Array) =>
    Effect.tryPromise({
      try: () => {
        doc.registerFontkit(fontkit)
        return doc.embedFont(data, { subset: true })
      },
      catch: (e) => toError(e)
    }).pipe(Effect.tap((font) => Effect.sync(() => files.set(font, data))))
  return {
    used,
    isUnicode: (font) => files.has(font),
    shaperOf: (font) => {
      const file = files.get(font)
      if (!file) return undefined
      let shaper = shapers.get(font)
      // Our files are single fonts, never collections.
      if (!shaper) shapers.set(font, (shaper = fontkit.create(file) as FontkitFont))
      return shaper
    },
    standard: (which) =>
      Effect.suspend(() => {
        const cached = standard.get(which)
        if (cached) return Effect.succeed(cached)
        return Effect.tryPromise({ try: () => doc.embedFont(which), catch: (e) => toError(e) }).pipe(
          Effect.tap((font) => Effect.sync(() => standard.set(which, font)))
        )
      }),
    unicode: (family) =>
      Effect.suspend(() => {
        const cached = unicode.get(family)
        if (cached) return Effect.succeed(cached)
        const bytes = Fonts.bytes(family).pipe(Effect.mapError((e) => new Error(e.message)))
        // Noto Sans is small enough for fontkit to subset on its own.
        const prepared = family === "notoSans" ? bytes : bytes.pipe(
          Effect.flatMap((data) => FontSubset.subset(data, (characters ??= drawable()))),
          Effect.mapError((e) => new Error(e.message))
        )
        return prepared.pipe(
          Effect.flatMap(embed),
          Effect.tap((font) => Effect.sync(() => unicode.set(family, font)))
        )
      })
  }
}

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)))

/** No embedded font has a glyph for one of a value's characters. */
class Undrawable extends Error {}

const coverage = new WeakMap<PDFFont, Set<number>>()

/** Whether `font` can encode every character of `text` (line breaks are layout, not glyphs). */
const covers = (font: PDFFont, text: string): boolean => {
  let set = coverage.get(font)
  if (!set) {
    set = new Set(font.getCharacterSet())
    coverage.set(font, set)
  }
  for (const ch of text) {
    if (ch === "\n") continue
    if (!set.has(ch.codePointAt(0)!)) return false
  }
  return true
}

const codePointName = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`

/**
 * The field's standard font when it can draw all of `texts`, else the first Unicode font that
 * can (see Scripts.familiesFor); fails with Undrawable when none can.
 */
const fontFor = (box: FontBox, field: PDFField, texts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const da = decodeText(inherited(field.acroField.dict, "DA")) ?? field.acroField.getDefaultAppearance()
    const standard = yield* box.standard(standardFontFor(da))
    if (texts.every((t) => covers(standard, t))) {
      box.used.add(standard)
      return standard
    }
    const joined = texts.join("\n")
    const families = Scripts.familiesFor(joined)
    const coverages: Array<Fonts.Coverage> = []
    for (const family of families) {
      const has = yield* Fonts.coverage(family).pipe(Effect.mapError((e) => new Error(e.message)))
      if (Fonts.covers(has, joined)) {
        const font = yield* box.unicode(family)
        box.used.add(font)
        return font
      }
      coverages.push(has)
    }
    const missing = Array.from(joined).find((ch) => ch !== "\n" && !covers(standard, ch) && coverages.every((c) => !Fonts.covers(c, ch)))
    return yield* Effect.fail(
      new Undrawable(
        missing === undefined
          ? "No one embedded font can draw all of this value's scripts, so part of it would show as empty boxes."
          : `No embedded font can draw ${codePointName(missing)}, so the value would show as empty boxes.`
      )
    )
  })

/** `font` as it draws `texts` at `size` points: in visual order when they hold right-to-left text. */
const drawingFont = (box: FontBox, font: PDFFont, texts: ReadonlyArray<string>, size: number | undefined): PDFFont => {
  const shaper = box.shaperOf(font)
  if (!shaper || !texts.some(Bidi.needsReordering)) return font
  return Bidi.visualFont({ font, shaper, size }, Bidi.isRtl(texts.join("\n")))
}

/** A text field drawn right-aligned: right-to-left text starts at the right, unless the form chose centring. */
const alignedForRtl = (field: PDFTextField): PDFTextField =>
  new Proxy(field, {
    get: (target, property) => {
      if (property === "getAlignment") {
        return () => (target.getAlignment() === TextAlignment.Left ? TextAlignment.Right : target.getAlignment())
      }
      const member = Reflect.get(target, property, target)
      return typeof member === "function" ? member.bind(target) : member
    }
  })

/** Draws a text field's appearances with `font`, right-aligned when `text` reads right to left. */
const drawText = (box: FontBox, field: PDFTextField, font: PDFFont, text: string, size: number | undefined) => {
  const drawn = drawingFont(box, font, [text], size)
  if (Bidi.needsReordering(text) && Bidi.isRtl(text)) {
    field.updateAppearances(drawn, (f, widget, fnt) => defaultTextFieldAppearanceProvider(alignedForRtl(f), widget, fnt))
  } else field.updateAppearances(drawn)
}

const missingAppearance = (widget: PDFDict): boolean => {
  const ap = widget.lookup(PDFName.of("AP"))
  return !(ap instanceof PDFDict) || ap.lookup(PDFName.of("N")) === undefined
}

/** Puts a button field into `state` (or /Off): /V on the field, /AS on each widget. */
const setButtonState = (field: PDFField, state: PDFName) => {
  field.acroField.dict.set(PDFName.of("V"), state)
  for (const widget of PdfLib.widgetsOf(field)) {
    widget.set(PDFName.of("AS"), onStates(widget).includes(state) ? state : PDFName.of("Off"))
  }
}

type Outcome = { readonly _tag: "Applied" } | { readonly _tag: "Skipped"; readonly reason: string }
const applied: Outcome = { _tag: "Applied" }
const skip = (reason: string): Outcome => ({ _tag: "Skipped", reason })

const daOf = (value: PDFObject | undefined): string | undefined => decodeText(value)

const tfPattern = /\/([^\s/]+)\s+([-+\d.]+)\s+Tf/g

/** `da` with its font (and, when given, its size) replaced. */
const rewriteDa = (da: string, fontName: string | undefined, size: number | undefined): string => {
  const matches = [...da.matchAll(tfPattern)]
  const last = matches[matches.length - 1]
  if (!last || last.index === undefined) return `${da} /${fontName ?? "Helv"} ${size ?? 0} Tf`.trim()
  const tf = `/${fontName ?? last[1]} ${size ?? last[2]} Tf`
  return da.slice(0, last.index) + tf + da.slice(last.index + last[0].length)
}

/**
 * Runs pdf-lib's appearance drawing with `size` as the font size, then puts every /DA back as
 * it was: pdf-lib would freeze an auto (0) size into the form. Only the font name changes,
 * to the embedded Unicode font when that drew the value, so a viewer that redraws the field
 * picks a font that has its glyphs.
 */
const drawKeepingDa = (doc: PDFDocument, field: PDFField, font: PDFFont, unicode: boolean, size: number | undefined, draw: () => void) => {
  const terminal = field.acroField.dict
  const dicts = [terminal, ...PdfLib.widgetsOf(field).filter((w) => w !== terminal)]
  const key = PDFName.of("DA")
  const saved = dicts.map((d) => d.get(key))
  const effective = daOf(inherited(terminal, "DA")) ?? daOf(PdfLib.acroForm(doc)?.lookup(key)) ?? "0 g /Helv 0 Tf"
  if (size !== undefined) {
    const owners = dicts.filter((d) => d.has(key))
    for (const d of owners.length > 0 ? owners : [terminal]) d.set(key, PDFString.of(rewriteDa(daOf(d.lookup(key)) ?? effective, undefined, size)))
  }
  try {
    draw()
  } finally {
    dicts.forEach((d, i) => {
      const before = saved[i]
      if (before === undefined) d.delete(key)
      else d.set(key, before)
    })
    if (unicode) {
      const owners = dicts.filter((d) => d.has(key))
      for (const d of owners.length > 0 ? owners : [terminal]) d.set(key, PDFString.of(rewriteDa(daOf(d.lookup(key)) ?? effective, font.name, undefined)))
    }
  }
}

/** The font size a field's /DA asks for; 0 or none means "fit the box". */
const daFontSize = (doc: PDFDocument, field: PDFField): number => {
  const dicts = [...PdfLib.widgetsOf(field), field.acroField.dict]
  const da = dicts.map((d) => daOf(d.lookup(PDFName.of("DA")))).find((x) => x !== undefined) ??
    daOf(inherited(field.acroField.dict, "DA")) ?? daOf(PdfLib.acroForm(doc)?.lookup(PDFName.of("DA"))) ?? ""
  const matches = [...da.matchAll(tfPattern)]
  const size = Number(matches[matches.length - 1]?.[2] ?? 0)
  return Number.isFinite(size) ? size : 0
}

/**
 * The font size for an auto-sized (0) text field: the largest size up to 12 pt at which the
 * text fits the box (wrapped, when multiline), as viewers do. pdf-lib's own fit would grow
 * short text to fill the box.
 */
const autoSize = (field: PDFField, font: PDFFont, text: string, multiline: boolean): number => {
  const widget = PdfLib.widgetsOf(field)[0]
  const rect = widget?.lookup(PDFName.of("Rect"))
  if (!(rect instanceof PDFArray) || rect.size() < 4) return 10
  const n = [0, 1, 2, 3].map((i) => {
    const v = rect.lookup(i)
    return v instanceof PDFNumber ? v.asNumber() : 0
  })
  const bounds = { x: 2, y: 2, width: Math.abs(n[2]! - n[0]!) - 4, height: Math.abs(n[3]! - n[1]!) - 4 }
  for (let size = 12; size > 4; size -= 0.5) {
    if (multiline) {
      const layout = layoutMultilineText(text, { alignment: TextAlignment.Left, fontSize: size, font, bounds })
      if (layout.lines.length * layout.lineHeight <= bounds.height && layout.lines.every((l) => l.width <= bounds.width)) return size
    } else if (font.heightAtSize(size) <= bounds.height && font.widthOfTextAtSize(text, size) <= bounds.width) return size
  }
  return 4
}

const fillText = (doc: PDFDocument, box: FontBox, field: PDFTextField, value: FieldValue) =>
  Effect.gen(function*() {
    if (typeof value !== "string") return skip("A text field takes a text value.")
    const dict = field.acroField.dict
    const multiline = (fieldFlags(dict) & flags.multiline) !== 0
    const maxLen = inherited(dict, "MaxLen")
    let text = cleanText(value, multiline)
    if (maxLen instanceof PDFNumber && maxLen.asNumber() > 0) text = truncate(text, Math.floor(maxLen.asNumber()))
    const font = yield* fontFor(box, field, [text])
    yield* Effect.try({
      try: () => {
        field.setText(text === "" ? undefined : text)
        const daSize = daFontSize(doc, field)
        const size = !field.isCombed() && daSize <= 0 ? autoSize(field, drawingFont(box, font, [text], undefined), text, multiline) : undefined
        drawKeepingDa(doc, field, font, box.isUnicode(font), size, () => drawText(box, field, font, text, size ?? (daSize > 0 ? daSize : undefined)))
      },
      catch: toError
    })
    return applied
  })

const fillCheckBox = (field: PDFCheckBox, value: FieldValue) =>
  Effect.try({
    try: () => {
      const widgets = PdfLib.widgetsOf(field)
      // A checkbox drawn by the viewer alone gets its own on/off appearances first.
      if (widgets.some(missingAppearance)) field.updateAppearances()
      const states = widgets.flatMap(onStates)
      let target: PDFName | undefined
      if (typeof value === "boolean") target = value ? (states[0] ?? PDFName.of("Yes")) : PDFName.of("Off")
      else if (typeof value === "string") {
        target = states.find((s) => PdfLib.nameText(s) === value) ?? states.find((s) => loose(PdfLib.nameText(s)) === loose(value))
        if (!target && checkboxWord(value) === true) target = states[0] ?? PDFName.of("Yes")
        if (!target && checkboxWord(value) === false) target = PDFName.of("Off")
      }
      if (!target) return skip(`"${String(value)}" is not a state of this checkbox.`)
      setButtonState(field, target)
      return applied
    },
    catch: toError
  })

const fillRadio = (field: PDFRadioGroup, value: FieldValue) =>
  Effect.try({
    try: () => {
      const widgets = PdfLib.widgetsOf(field)
      if (value === false || value === "") {
        setButtonState(field, PDFName.of("Off"))
        return applied
      }
      if (typeof value !== "string") return skip("A radio group takes one of its option values.")
      const opt = inherited(field.acroField.dict, "Opt")
      const exports = opt instanceof PDFArray ? Array.from({ length: opt.size() }, (_, i) => decodeText(opt.lookup(i))) : []
      const choices = widgets.flatMap((widget, i) =>
        onStates(widget).map((state) => ({ state, value: exports[i] ?? PdfLib.nameText(state), name: PdfLib.nameText(state) }))
      )
      const match = choices.find((c) => c.value === value) ??
        choices.find((c) => c.name === value) ??
        choices.find((c) => loose(c.value) === loose(value) || loose(c.name) === loose(value))
      if (!match) return skip(`"${value}" is not an option of this radio group.`)
      setButtonState(field, match.state)
      return applied
    },
    catch: toError
  })

interface ChoiceOption {
  readonly value: string
  readonly label: string
}

const choiceOptions = (dict: PDFDict): ReadonlyArray<ChoiceOption> => {
  const opt = inherited(dict, "Opt")
  if (!(opt instanceof PDFArray)) return []
  const options: Array<ChoiceOption> = []
  for (let i = 0; i < opt.size(); i++) {
    const entry = opt.lookup(i)
    const value = entry instanceof PDFArray ? decodeText(entry.lookup(0)) : decodeText(entry)
    const label = entry instanceof PDFArray ? decodeText(entry.lookup(1)) : undefined
    if (value !== undefined) options.push({ value, label: label ?? value })
  }
  return options
}

const findOption = (options: ReadonlyArray<ChoiceOption>, wanted: string): ChoiceOption | undefined =>
  options.find((o) => o.value === wanted) ??
    options.find((o) => o.label === wanted) ??
    options.find((o) => loose(o.value) === loose(wanted) || loose(o.label) === loose(wanted))

/**
 * Shows `labels` as the selection while pdf-lib draws the appearance: pdf-lib would draw /V,
 * which holds export values, not the text a person chose from.
 */
const showing = <F extends PDFDropdown | PDFOptionList>(field: F, labels: ReadonlyArray<string>): F =>
  new Proxy(field, {
    get: (target, property) => {
      if (property === "getSelected") return () => [...labels]
      const member = Reflect.get(target, property, target)
      return typeof member === "function" ? member.bind(target) : member
    }
  })

const fillChoice = (doc: PDFDocument, box: FontBox, field: PDFDropdown | PDFOptionList, value: FieldValue) =>
  Effect.gen(function*() {
    const dict = field.acroField.dict
    const ff = fieldFlags(dict)
    const isList = field instanceof PDFOptionList
    const wanted = typeof value === "string" ? (value === "" ? [] : [value]) : Array.isArray(value) ? value : undefined
    if (wanted === undefined) return skip("A choice field takes an option value.")
    if (wanted.length > 1 && (ff & flags.multiSelect) === 0) return skip("This list allows only one choice.")
    const options = choiceOptions(dict)
    const chosen: Array<ChoiceOption> = []
    for (const w of wanted) {
      const option = findOption(options, w)
      // An editable combo box takes any text; other choice fields only their options.
      if (option) chosen.push(option)
      else if (!isList && (ff & flags.edit) !== 0) chosen.push({ value: w, label: w })
      else return skip(`"${w}" is not an option of this field.`)
    }
    const labels = chosen.map((o) => o.label)
    const shown = isList ? [...options.map((o) => o.label), ...labels] : labels
    const font = yield* fontFor(box, field, shown)
    const daSize = daFontSize(doc, field)
    const drawn = drawingFont(box, font, shown, daSize > 0 ? daSize : undefined)
    yield* Effect.try({
      try: () => {
        const values = chosen.map((o) => PDFHexString.fromText(o.value))
        if (values.length === 0) dict.delete(PDFName.of("V"))
        else dict.set(PDFName.of("V"), values.length === 1 ? values[0]! : dict.context.obj(values))
        const indices = chosen.map((o) => options.indexOf(o)).filter((i) => i >= 0).sort((a, b) => a - b)
        if (isList && indices.length === chosen.length && indices.length > 0) dict.set(PDFName.of("I"), dict.context.obj(indices))
        else dict.delete(PDFName.of("I"))
        drawKeepingDa(doc, field, font, box.isUnicode(font), undefined, () => {
          if (field instanceof PDFDropdown) {
            field.updateAppearances(drawn, (f, widget, fnt) => defaultDropdownAppearanceProvider(showing(f, labels), widget, fnt))
          } else {
            field.updateAppearances(drawn, (f, widget, fnt) => defaultOptionListAppearanceProvider(showing(f, labels), widget, fnt))
          }
        })
      },
      catch: toError
    })
    return applied
  })

const fillOne = (doc: PDFDocument, box: FontBox, field: PDFField, value: FieldValue): Effect.Effect<Outcome, Error> => {
  if ((fieldFlags(field.acroField.dict) & flags.readOnly) !== 0) return Effect.succeed(skip("The field is read-only."))
  if (field instanceof PDFTextField) return fillText(doc, box, field, value)
  if (field instanceof PDFCheckBox) return fillCheckBox(field, value)
  if (field instanceof PDFRadioGroup) return fillRadio(field, value)
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) return fillChoice(doc, box, field, value)
  if (field instanceof PDFSignature) return Effect.succeed(skip("Signature fields are signed, not filled."))
  if (field instanceof PDFButton) return Effect.succeed(skip("A push button holds no value."))
  return Effect.succeed(skip("The field's type is not supported."))
}

/** Whether a text or choice field holds a value its appearance should show. */
const holdsText = (field: PDFField): boolean => {
  if (!(field instanceof PDFTextField || field instanceof PDFDropdown || field instanceof PDFOptionList)) return false
  const v = inherited(field.acroField.dict, "V")
  return (decodeText(v)?.trim() ?? "") !== "" || v instanceof PDFArray
}

const widgetsLackAppearance = (field: PDFField): boolean => {
  try {
    if (field instanceof PDFSignature) return false
    return PdfLib.widgetsOf(field).some(missingAppearance)
  } catch {
    return false
  }
}

/**
 * Gives every field still lacking an appearance one, so that turning `NeedAppearances` off
 * loses nothing a viewer would have drawn. When the form asked viewers to redraw its fields
 * (`stale`), the appearances it carries may not show the values at all, so every text or
 * choice field holding a value is redrawn too. Returns whether every field now has one.
 */
const completeAppearances = (
  doc: PDFDocument,
  box: FontBox,
  fields: ReadonlyArray<PdfLib.TerminalField>,
  touched: ReadonlySet<PDFField>,
  stale: boolean
) =>
  Effect.gen(function*() {
    let complete = true
    for (const { field } of fields) {
      if (touched.has(field)) continue
      if (!widgetsLackAppearance(field) && !(stale && holdsText(field))) continue
      const done = yield* Effect.gen(function*() {
        if (field instanceof PDFCheckBox || field instanceof PDFRadioGroup) {
          field.updateAppearances()
          return !widgetsLackAppearance(field)
        }
        if (field instanceof PDFTextField) {
          const text = field.getText() ?? ""
          const font = yield* fontFor(box, field, [text])
          const daSize = daFontSize(doc, field)
          const size = !field.isCombed() && daSize <= 0 ? autoSize(field, drawingFont(box, font, [text], undefined), text, field.isMultiline()) : undefined
          drawKeepingDa(doc, field, font, box.isUnicode(font), size, () => drawText(box, field, font, text, size ?? (daSize > 0 ? daSize : undefined)))
        } else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
          const shown = [...field.getOptions(), ...field.getSelected()]
          const font = yield* fontFor(box, field, shown)
          const daSize = daFontSize(doc, field)
          drawKeepingDa(doc, field, font, box.isUnicode(font), undefined, () => field.updateAppearances(drawingFont(box, font, shown, daSize > 0 ? daSize : undefined)))
        } else if (field instanceof PDFButton) {
          const caption = field.acroField.getWidgets()[0]?.getAppearanceCharacteristics()?.getCaptions()?.normal ?? ""
          field.updateAppearances(yield* fontFor(box, field, [caption]))
        }
        return !widgetsLackAppearance(field)
      }).pipe(
        Effect.catchDefect(() => Effect.succeed(false)),
        Effect.catch(() => Effect.succeed(false))
      )
      complete = complete && done
    }
    return complete
  })

/** Lists the fonts our appearances use in the AcroForm's /DR, so /DA entries naming them resolve. */
const registerFonts = (doc: PDFDocument, fonts: ReadonlySet<PDFFont>) => {
  const form = PdfLib.acroForm(doc)
  if (!form || fonts.size === 0) return
  let dr = form.lookup(PDFName.of("DR"))
  if (!(dr instanceof PDFDict)) {
    dr = doc.context.obj({})
    form.set(PDFName.of("DR"), dr)
  }
  const resources = dr as PDFDict
  let fontDict = resources.lookup(PDFName.of("Font"))
  if (!(fontDict instanceof PDFDict)) {
    fontDict = doc.context.obj({})
    resources.set(PDFName.of("Font"), fontDict)
  }
  for (const font of fonts) (fontDict as PDFDict).set(PDFName.of(font.name), font.ref)
}

/**
 * Every character the fill may draw: the values given, and what the form's fields already hold
 * or offer (redrawn when the form asked viewers to redraw them), with their bidi mirrors. Each once.
 */
const drawableText = (assignments: ReadonlyArray<Assignment>, fields: ReadonlyArray<PdfLib.TerminalField>): string => {
  const seen = new Set<string>()
  const add = (text: string | undefined) => {
    if (text === undefined) return
    for (const ch of text) {
      seen.add(ch)
      // Right-to-left text draws brackets mirrored, so the subset needs both.
      const mirror = Bidi.mirrorOf(ch)
      if (mirror !== undefined) seen.add(mirror)
    }
  }
  for (const { value } of assignments) {
    if (typeof value === "string") add(value)
    else if (Array.isArray(value)) value.forEach(add)
  }
  for (const { field } of fields) {
    try {
      if (field instanceof PDFTextField) add(field.getText())
      else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
        field.getOptions().forEach(add)
        choiceOptions(field.acroField.dict).forEach((o) => add(o.label))
      } else if (field instanceof PDFButton) add(field.acroField.getWidgets()[0]?.getAppearanceCharacteristics()?.getCaptions()?.normal)
    } catch {
      // A damaged field draws nothing new.
    }
  }
  return [...seen].join("")
}

/**
 * Fills `assignments` into the form in `bytes` and returns the new PDF. Text is cut to the
 * field's /MaxLen; a checkbox takes `true`/`false` or one of its states; a radio group an
 * option's export value or label; a combo or list box option values or labels (a list box
 * several, when it allows that). Unknown and read-only fields, signatures, push buttons and
 * values a field cannot take are reported in `skipped`, never failing the whole fill.
 * Owner-password PDFs come back decrypted; a hybrid form loses its XFA so viewers show the
 * AcroForm values written here. With `flatten`, the result has no form left: each field shows
 * as page content, as it looked filled (Flatten.ts).
 */
export const fillForm: (
  bytes: Uint8Array,
  assignments: ReadonlyArray<Assignment>,
  options?: FillOptions
) => Effect.Effect<FillResult, PdfUnusable | PdfRejected> = Effect.fn("FormFiller.fillForm")(
  function*(bytes: Uint8Array, assignments: ReadonlyArray<Assignment>, options?: FillOptions) {
    const doc = yield* PdfLib.load(bytes)
    const fields = yield* Effect.try({ try: () => PdfLib.terminalFields(doc), catch: () => unusable("Damaged") })
    if (fields.length === 0 && PdfLib.hasXfa(doc)) return yield* unusable("XfaOnly")
    // Fields sharing a full name are one field to a viewer (broken producers write them as
    // separate objects): they all get the value.
    const byName = new Map<string, Array<PDFField>>()
    for (const { field, formName } of fields) {
      const same = byName.get(formName)
      if (same) same.push(field)
      else byName.set(formName, [field])
    }

    const box = makeFontBox(doc, () => drawableText(assignments, fields))
    const appliedNames: Array<string> = []
    const skipped: Array<{ formName: string; reason: string }> = []
    const touched = new Set<PDFField>()
    for (const { formName, value } of assignments) {
      const targets = byName.get(formName)
      if (!targets) {
        skipped.push({ formName, reason: "No field has this name." })
        continue
      }
      const outcomes: Array<Outcome> = []
      for (const field of targets) {
        const outcome = yield* fillOne(doc, box, field, value).pipe(
          Effect.catchDefect((e) => Effect.succeed(skip(`The field could not be filled: ${String(e)}`))),
          Effect.catch((e) => Effect.succeed(skip(e instanceof Undrawable ? e.message : `The field could not be filled: ${e.message}`)))
        )
        outcomes.push(outcome)
        if (outcome._tag === "Applied") touched.add(field)
      }
      if (outcomes.some((o) => o._tag === "Applied")) {
        appliedNames.push(formName)
        // Radio buttons split over same-named fields: the chosen one is on, so the rest go off.
        targets.forEach((field, i) => {
          if (field instanceof PDFRadioGroup && outcomes[i]?._tag === "Skipped") {
            setButtonState(field, PDFName.of("Off"))
            touched.add(field)
          }
        })
      } else {
        const reason = outcomes.find((o): o is Extract<Outcome, { _tag: "Skipped" }> => o._tag === "Skipped")?.reason
        skipped.push({ formName, reason: reason ?? "The field could not be filled." })
      }
    }

    const needAppearances = PdfLib.acroForm(doc)?.lookup(PDFName.of("NeedAppearances"))
    const stale = needAppearances instanceof PDFBool && needAppearances.asBoolean()
    const complete = yield* completeAppearances(doc, box, fields, touched, stale)
    const pdf = yield* Effect.try({
      try: () => {
        const form = PdfLib.acroForm(doc)
        if (form) {
          // Viewers prefer XFA over the AcroForm values written here.
          PdfLib.makeAcroFormAuthoritative(doc)
          if (complete) form.set(PDFName.of("NeedAppearances"), PDFBool.False)
        }
        registerFonts(doc, box.used)
        if (options?.flatten === true) Flatten.flatten(doc)
        PdfLib.dropStaleStructure(doc)
      },
      catch: () => unusable("Damaged")
    }).pipe(
      Effect.andThen(Effect.tryPromise({
        try: () => doc.save({ updateFieldAppearances: false }),
        catch: () => unusable("Damaged")
      }))
    )
    return { pdf, applied: appliedNames, skipped }
  }
)

/** Whether a widget has a normal appearance stream (or state dictionary) of its own. */
export const hasAppearance = (widget: PDFDict): boolean => {
  const ap = widget.lookup(PDFName.of("AP"))
  if (!(ap instanceof PDFDict)) return false
  const normal = ap.lookup(PDFName.of("N"))
  return normal instanceof PDFStream || normal instanceof PDFDict
}
