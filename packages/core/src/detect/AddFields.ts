/**
 * Writes detected fields into the PDF as AcroForm widgets with @cantoo/pdf-lib. Page content is
 * left as it is: widgets are annotations on top of it, transparent and borderless, so the
 * drawn lines stay what the person sees. Every widget gets an appearance stream (viewers that
 * ignore `NeedAppearances` still show it) and a tooltip (`/TU`) holding the human-readable name,
 * which is where readers of the form take `name` from.
 */
import { Effect, Schema } from "effect"
import {
  PDFContentStream,
  PDFAcroCheckBox,
  PDFAcroRadioButton,
  PDFAcroText,
  PDFArray,
  PDFCheckBox,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFPage,
  PDFRadioGroup,
  PDFTextField,
  StandardFonts
} from "@cantoo/pdf-lib"
import type { PdfRejected, PdfUnusable } from "../pdf/PdfError.ts"
import * as PdfLib from "../pdf/PdfLib.ts"
import type { DetectedField } from "./FieldDetector.ts"

/** pdf-lib could not load or save the document, or rejected a widget. */
export class AddFieldsError extends Schema.TaggedError<AddFieldsError>()("AddFieldsError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/** The fillable PDF and the fields as written (a `formName` changes only if it was taken). */
export interface Written {
  readonly pdf: Uint8Array
  readonly fields: ReadonlyArray<DetectedField>
}

/**
 * The partial names of the AcroForm's top-level entries: new fields are top-level, so only these
 * can collide. Read from the dictionary once: pdf-lib's own lookups walk every field per call,
 * quadratic on forms with hundreds of fields, and throw on broken field trees.
 */
const topLevelNames = (doc: PDFDocument): Set<string> => {
  const names = new Set<string>()
  const fields = PdfLib.acroForm(doc)?.lookup(PDFName.of("Fields"))
  if (!(fields instanceof PDFArray)) return names
  for (let i = 0; i < fields.size(); i++) {
    try {
      const field = fields.lookup(i)
      const name = field instanceof PDFDict ? PdfLib.decodeText(field.lookup(PDFName.of("T"))) : undefined
      if (name !== undefined) names.add(name)
    } catch {
      // An entry that does not resolve names nothing.
    }
  }
  return names
}

/**
 * New top-level fields, as `form.createTextField` and its siblings make them but without
 * pdf-lib's check for a taken name, which wraps every field of the form and decodes its name on
 * each call: quadratic, and most of the writing time on a page of a few hundred fields. The names
 * given here are unique already (`taken` in `write`). A name with a period is a path of parent
 * fields, which only pdf-lib's own methods create.
 */
const creator = (doc: PDFDocument) => {
  const form = doc.getForm()
  const topLevel = <F extends PDFAcroText | PDFAcroCheckBox | PDFAcroRadioButton>(field: F, name: string): F => {
    field.setPartialName(name)
    form.acroForm.addField(field.ref)
    return field
  }
  return {
    textField: (name: string): PDFTextField => {
      if (name.includes(".")) return form.createTextField(name)
      const field = topLevel(PDFAcroText.create(doc.context), name)
      return PDFTextField.of(field, field.ref, doc)
    },
    checkBox: (name: string): PDFCheckBox => {
      if (name.includes(".")) return form.createCheckBox(name)
      const field = topLevel(PDFAcroCheckBox.create(doc.context), name)
      return PDFCheckBox.of(field, field.ref, doc)
    },
    radioGroup: (name: string): PDFRadioGroup => {
      if (name.includes(".")) return form.createRadioGroup(name)
      const field = topLevel(PDFAcroRadioButton.create(doc.context), name)
      return PDFRadioGroup.of(field, field.ref, doc)
    }
  }
}

type Creator = ReturnType<typeof creator>

/** /TU belongs to the field; pdf.js reads it from the widget only, so it goes on both. */
const named = (field: PDFDict, widgets: ReadonlyArray<PDFDict>, name: string) => {
  const tooltip = PDFHexString.fromText(name)
  field.set(PDFName.of("TU"), tooltip)
  for (const widget of widgets) widget.set(PDFName.of("TU"), tooltip)
}

const placementOf = (field: DetectedField) => ({
  x: field.rect.x1,
  y: field.rect.y1,
  width: field.rect.x2 - field.rect.x1,
  height: field.rect.y2 - field.rect.y1,
  borderWidth: 0,
  // Present but undefined: pdf-lib would otherwise paint a white background and black border.
  backgroundColor: undefined,
  borderColor: undefined
})

/**
 * One radio group: a button per option, each option's caption its export value (made unique
 * within the group), the group named by its first option's label. Its confidence is the mean of
 * its options'.
 */
const writeRadioGroup = (create: Creator, page: PDFPage, options: ReadonlyArray<DetectedField>, formName: string): DetectedField => {
  const group = create.radioGroup(formName)
  const used = new Set<string>()
  for (const option of options) {
    const caption = option.radio!.value.trim() || `Option ${used.size + 1}`
    let value = caption
    for (let k = 2; used.has(value); k++) value = `${caption} ${k}`
    used.add(value)
    group.addOptionToPage(value, page, placementOf(option))
  }
  const first = options[0]!
  named(group.acroField.dict, group.acroField.getWidgets().map((w) => w.dict), first.name)
  const confidence = options.reduce((sum, o) => sum + o.confidence, 0) / options.length
  return { ...first, formName, confidence }
}

/**
 * A signature field (`/FT /Sig`), which pdf-lib cannot create: one field merged with its widget,
 * on the page and in the AcroForm. Viewers draw their own "sign here" appearance.
 */
const addSignature = (doc: PDFDocument, page: PDFPage, formName: string, field: DetectedField): PDFDict => {
  const dict = doc.context.obj({
    FT: "Sig",
    Type: "Annot",
    Subtype: "Widget",
    T: PDFHexString.fromText(formName),
    Rect: [field.rect.x1, field.rect.y1, field.rect.x2, field.rect.y2],
    F: 4,
    P: page.ref
  })
  const ref = doc.context.register(dict)
  page.node.addAnnot(ref)
  doc.getForm().acroForm.addField(ref)
  return dict
}

/**
 * Makes the content streams `doc` creates from now on plain rather than deflated. A widget's
 * appearance is a few dozen bytes of drawing; pdf-lib deflates every content stream on its own,
 * which on a form of hundreds of widgets was about 7 % of a conversion's CPU for next to no
 * saving. The other new objects still go into compressed object streams.
 */
const plainContentStreams = (doc: PDFDocument) => {
  const context = doc.context
  context.contentStream = (operators, dict = {}) => PDFContentStream.of(context.obj(dict), operators, false)
}

const write = async (doc: PDFDocument, fields: ReadonlyArray<DetectedField>): Promise<Written> => {
  // An XFA-aware viewer would show the XFA form and never the fields added here.
  PdfLib.makeAcroFormAuthoritative(doc)
  plainContentStreams(doc)
  const create = creator(doc)
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const pages = doc.getPages()
  const written: Array<DetectedField> = []
  const taken = topLevelNames(doc)
  const unique = (wanted: string) => {
    let formName = wanted
    for (let k = 2; taken.has(formName); k++) formName = `${wanted}_${k}`
    taken.add(formName)
    return formName
  }
  // The options of one radio group, in the order found, by page and group key.
  const groups = new Map<string, Array<DetectedField>>()
  for (const field of fields) {
    if (!field.radio) continue
    const key = `${field.page}|${field.radio.group}`
    groups.set(key, [...(groups.get(key) ?? []), field])
  }
  for (const field of fields) {
    const page = pages[field.page - 1]
    if (!page) continue
    const options = field.radio ? groups.get(`${field.page}|${field.radio.group}`) : undefined
    // A group is written once, with its first option; a "group" of one is a check box.
    if (field.radio && options === undefined) continue
    if (options && options.length >= 2) {
      groups.delete(`${field.page}|${field.radio!.group}`)
      written.push(writeRadioGroup(create, page, options, unique(options[0]!.formName)))
      continue
    }
    const formName = unique(field.formName)
    if (field.signature && field.kind === "Text") {
      const dict = addSignature(doc, page, formName, field)
      named(dict, [dict], field.name)
    } else if (field.kind === "CheckBox") {
      const created = create.checkBox(formName)
      created.addToPage(page, placementOf(field))
      named(created.acroField.dict, created.acroField.getWidgets().map((w) => w.dict), field.name)
    } else {
      const created = create.textField(formName)
      if (field.multiline) created.enableMultiline()
      // Comb boxes: one character per cell, as many as the cells.
      if (field.maxLength !== undefined && field.maxLength > 1 && !field.multiline) {
        created.setMaxLength(field.maxLength)
        created.enableCombing()
      }
      created.addToPage(page, { ...placementOf(field), font })
      if (field.multiline) {
        // Auto-size would fill a tall box with one huge line. Needs the /DA addToPage wrote.
        created.setFontSize(10)
        created.updateAppearances(font)
      }
      named(created.acroField.dict, created.acroField.getWidgets().map((w) => w.dict), field.name)
    }
    written.push(formName === field.formName ? field : { ...field, formName })
  }
  // An owner-password PDF was decrypted on loading and is written out in the clear: the source's
  // cross-reference streams must not carry its /Encrypt over (see dropStaleStructure).
  PdfLib.dropStaleStructure(doc)
  // addToPage wrote each new widget's appearance; regenerating all of them on save would also
  // rewrite the appearances of fields the document already had. pdf-lib pauses every 50 objects
  // by default to let an event loop turn, with a timer that waits at least a millisecond: tens
  // of milliseconds of idle waiting on a form of a few thousand objects, in a PDF worker whose
  // event loop has nothing else to do.
  return { pdf: await doc.save({ updateFieldAppearances: false, objectsPerTick: Infinity }), fields: written }
}

/**
 * Adds `fields` as widgets to the PDF and returns the new PDF. `source` may be the document
 * already opened with `PdfLib.load` (which a conversion does first, so that a file pdf-lib cannot
 * use fails before any page is analysed); it is changed in place. Bytes are opened here, failing
 * as `PdfUnusable` (a user password, damage) or `PdfRejected` (a limit).
 */
export const addFields = Effect.fn("AddFields.addFields")(function* (
  source: Uint8Array | PDFDocument,
  fields: ReadonlyArray<DetectedField>
): Effect.fn.Return<Written, AddFieldsError | PdfUnusable | PdfRejected> {
  const doc = source instanceof PDFDocument ? source : yield* PdfLib.load(source)
  return yield* Effect.tryPromise({
    try: () => write(doc, fields),
    catch: (cause) => new AddFieldsError({ message: "The detected fields could not be written into this PDF.", cause })
  })
})
