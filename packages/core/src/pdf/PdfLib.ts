/**
 * One place that opens a PDF with pdf-lib (the writer, and the reader of the AcroForm), decides
 * why a file cannot be used, and walks the field tree defensively: real-world forms have cyclic
 * or shared field trees, widgets without pages and broken entries that pdf-lib's own walkers
 * would turn into an exception for the whole form.
 */
import {
  createPDFAcroField,
  ParseSpeeds,
  PDFAcroCheckBox,
  PDFAcroComboBox,
  PDFAcroListBox,
  PDFAcroNonTerminal,
  PDFAcroPushButton,
  PDFAcroRadioButton,
  PDFAcroSignature,
  PDFAcroText,
  PDFArray,
  PDFButton,
  PDFCheckBox,
  PDFDict,
  PDFDocument,
  PDFDropdown,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFOptionList,
  PDFRadioGroup,
  PDFRawStream,
  PDFRef,
  PDFSignature,
  PDFString,
  PDFTextField
} from "@cantoo/pdf-lib"
import type { PDFAcroField, PDFField, PDFObject } from "@cantoo/pdf-lib"
import { Effect } from "effect"
import { unusable, type PdfUnusable } from "./PdfError.ts"
import * as PdfLimits from "./PdfLimits.ts"

// A form with more terminal fields than this is not a form a person fills in; stopping keeps a
// crafted file from using unbounded memory.
const maxFields = 50_000

/** Where in the file the header may start: Acrobat accepts garbage before it, within 1 KB. */
const headerWindow = 1024

const hasPdfHeader = (bytes: Uint8Array): boolean => {
  const window = bytes.subarray(0, headerWindow)
  for (let i = 0; i + 5 <= window.length; i++) {
    if (window[i] === 0x25 && window[i + 1] === 0x50 && window[i + 2] === 0x44 && window[i + 3] === 0x46 && window[i + 4] === 0x2d) {
      return true
    }
  }
  return false
}

const classifyLoadError = (error: unknown): PdfUnusable => {
  const message = error instanceof Error ? error.message : String(error)
  if (message.includes("NEEDS PASSWORD")) return unusable("UserPassword")
  return unusable("Damaged")
}

/**
 * Opens `bytes` with pdf-lib. Owner-password PDFs (empty user password) are decrypted
 * transparently; XFA data is kept so that callers decide what to do with it. The page tree is
 * walked once here so that cyclic or absurdly deep trees fail as `Damaged` up front.
 */
export const load = Effect.fnUntraced(function*(bytes: Uint8Array) {
  if (bytes.length === 0) return yield* unusable("Empty")
  if (!hasPdfHeader(bytes)) return yield* unusable("NotPdf")
  const doc = yield* Effect.tryPromise({
    try: () =>
      PDFDocument.load(bytes, {
        password: "",
        ignoreEncryption: true,
        updateMetadata: false,
        throwOnInvalidObject: false,
        preserveXFA: true,
        parseSpeed: ParseSpeeds.Fast
      }),
    catch: classifyLoadError
  })
  const pageCount = yield* Effect.try({
    try: () => doc.getPages().length,
    catch: () => unusable("Damaged")
  })
  if (pageCount === 0) return yield* unusable("Damaged")
  yield* PdfLimits.checkPages(pageCount)
  return doc
})

/** The document's AcroForm dictionary, without creating one (pdf-lib's `getForm` would). */
export const acroForm = (doc: PDFDocument): PDFDict | undefined => {
  const value = doc.catalog.lookup(PDFName.of("AcroForm"))
  return value instanceof PDFDict ? value : undefined
}

/** Whether the AcroForm carries XFA data (an XFA-only form when it also has no fields). */
export const hasXfa = (doc: PDFDocument): boolean => acroForm(doc)?.has(PDFName.of("XFA")) ?? false

const isField = (value: PDFObject | undefined): value is PDFDict => value instanceof PDFDict && value.has(PDFName.of("T"))

const kidsOf = (dict: PDFDict): PDFArray | undefined => {
  const kids = dict.lookup(PDFName.of("Kids"))
  return kids instanceof PDFArray ? kids : undefined
}

// pdf-lib's rule: a field is non-terminal when one of its kids has a /T (widgets have none).
const isNonTerminal = (dict: PDFDict): boolean => {
  const kids = kidsOf(dict)
  if (!kids) return false
  for (let i = 0; i < kids.size(); i++) if (isField(kids.lookup(i))) return true
  return false
}

const toField = (acroField: PDFAcroField, ref: PDFRef, doc: PDFDocument): PDFField | undefined => {
  if (acroField instanceof PDFAcroPushButton) return PDFButton.of(acroField, ref, doc)
  if (acroField instanceof PDFAcroCheckBox) return PDFCheckBox.of(acroField, ref, doc)
  if (acroField instanceof PDFAcroComboBox) return PDFDropdown.of(acroField, ref, doc)
  if (acroField instanceof PDFAcroListBox) return PDFOptionList.of(acroField, ref, doc)
  if (acroField instanceof PDFAcroText) return PDFTextField.of(acroField, ref, doc)
  if (acroField instanceof PDFAcroRadioButton) return PDFRadioGroup.of(acroField, ref, doc)
  if (acroField instanceof PDFAcroSignature) return PDFSignature.of(acroField, ref, doc)
  return undefined
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * The text of a name (a button's on-state, say): its bytes as UTF-8 when they are valid UTF-8
 * (what PDF 2.0 prescribes and most producers write), else one character per byte.
 */
export const nameText = (name: PDFName): string => {
  const bytes = name.asBytes()
  try {
    return utf8.decode(bytes)
  } catch {
    return String.fromCharCode(...bytes)
  }
}

/** Field flags (PDF 32000-1, tables 221, 226, 228 and 230). */
export const flags = {
  readOnly: 1 << 0,
  required: 1 << 1,
  multiline: 1 << 12,
  password: 1 << 13,
  edit: 1 << 18,
  multiSelect: 1 << 21,
  comb: 1 << 24
} as const

/** The text of a PDF string object, or undefined for anything else. */
export const decodeText = (value: PDFObject | undefined): string | undefined =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined

/** An attribute looked up on the field and then its ancestors, as inheritable entries are. */
export const inherited = (dict: PDFDict, key: string): PDFObject | undefined => {
  const name = PDFName.of(key)
  const seen = new Set<PDFDict>()
  let node: PDFDict | undefined = dict
  while (node && !seen.has(node) && seen.size < 256) {
    seen.add(node)
    const value = node.lookup(name)
    if (value !== undefined) return value
    const parent: PDFObject | undefined = node.lookup(PDFName.of("Parent"))
    node = parent instanceof PDFDict ? parent : undefined
  }
  return undefined
}

/** The field's /Ff flags, inherited like every field attribute. */
export const fieldFlags = (dict: PDFDict): number => {
  const ff = inherited(dict, "Ff")
  return ff instanceof PDFNumber ? ff.asNumber() : 0
}

/** The on-state names of a button widget: the keys of its normal appearance other than /Off. */
export const onStates = (widget: PDFDict): ReadonlyArray<PDFName> => {
  const ap = widget.lookup(PDFName.of("AP"))
  if (!(ap instanceof PDFDict)) return []
  const normal = ap.lookup(PDFName.of("N"))
  if (!(normal instanceof PDFDict)) return []
  return normal.keys().filter((k) => k !== PDFName.of("Off"))
}

/** A terminal field with the fully qualified name this engine uses for it. */
export interface TerminalField {
  readonly field: PDFField
  readonly formName: string
}


/**
 * The fully qualified name: partial names from the root down, joined with dots. Parents
 * without a /T add nothing (pdf-lib would write "undefined"), and a cyclic /Parent chain stops.
 */
export const fullName = (dict: PDFDict): string => {
  const parts: Array<string> = []
  const seen = new Set<PDFDict>()
  let node: PDFDict | undefined = dict
  while (node && !seen.has(node) && seen.size < 256) {
    seen.add(node)
    const partial = decodeText(node.lookup(PDFName.of("T")))
    if (partial !== undefined) parts.push(partial)
    const parent: PDFObject | undefined = node.lookup(PDFName.of("Parent"))
    node = parent instanceof PDFDict ? parent : undefined
  }
  return parts.reverse().join(".")
}

/**
 * Every terminal field in document order, as pdf-lib's `PDFForm.getFields` would list them,
 * but skipping entries that are not field dictionaries and visiting each field object once,
 * so cyclic or shared /Kids neither hang nor overflow the stack. Fields of an unknown type
 * (no /FT) are left out, as pdf-lib does.
 */
export const terminalFields = (doc: PDFDocument): ReadonlyArray<TerminalField> => {
  const form = acroForm(doc)
  const top = form?.lookup(PDFName.of("Fields"))
  if (!(top instanceof PDFArray)) return []
  const result: Array<TerminalField> = []
  const seen = new Set<PDFRef>()
  // An explicit stack of (array, next index) keeps document order without recursion.
  const stack: Array<{ readonly kids: PDFArray; index: number }> = [{ kids: top, index: 0 }]
  while (stack.length > 0 && result.length < maxFields) {
    const frame = stack[stack.length - 1]!
    if (frame.index >= frame.kids.size()) {
      stack.pop()
      continue
    }
    const index = frame.index++
    const ref = frame.kids.get(index)
    if (!(ref instanceof PDFRef) || seen.has(ref)) continue
    seen.add(ref)
    let dict: PDFObject | undefined
    try {
      dict = frame.kids.lookup(index)
    } catch {
      continue
    }
    if (!(dict instanceof PDFDict)) continue
    try {
      if (isNonTerminal(dict)) {
        const kids = kidsOf(dict)
        if (kids) stack.push({ kids, index: 0 })
        continue
      }
      const acroField = createPDFAcroField(dict, ref)
      if (acroField instanceof PDFAcroNonTerminal) continue
      const field = toField(acroField, ref, doc)
      if (field) result.push({ field, formName: fullName(dict) })
    } catch {
      // A broken field (cyclic /Parent, wrong types) is left out rather than failing the form.
    }
  }
  return result
}

/**
 * The widget annotation dictionaries of a terminal field: its kids, or the field itself when
 * field and widget are merged. Entries that are not dictionaries are skipped.
 */
export const widgetsOf = (field: PDFField): ReadonlyArray<PDFDict> => {
  const dict = field.acroField.dict
  const kids = kidsOf(dict)
  if (!kids) return [dict]
  const widgets: Array<PDFDict> = []
  for (let i = 0; i < kids.size(); i++) {
    const kid = kids.lookup(i)
    if (kid instanceof PDFDict) widgets.push(kid)
  }
  return widgets
}

/**
 * Finds the 1-based page of a widget: the page whose /Annots lists it (where viewers draw it),
 * else its /P when that names a page of this document (some producers leave /Annots out).
 */
export const pageLocator = (doc: PDFDocument): ((widget: PDFDict) => number | undefined) => {
  const pages = doc.getPages()
  const byRef = new Map<PDFRef, number>()
  const byAnnot = new Map<PDFDict, number>()
  pages.forEach((page, i) => {
    byRef.set(page.ref, i + 1)
    try {
      const annots = page.node.lookup(PDFName.of("Annots"))
      if (!(annots instanceof PDFArray)) return
      for (let j = 0; j < annots.size(); j++) {
        const annot = annots.lookup(j)
        if (annot instanceof PDFDict && !byAnnot.has(annot)) byAnnot.set(annot, i + 1)
      }
    } catch {
      // An unreadable /Annots only loses this fallback for the page.
    }
  })
  return (widget) => {
    const fromAnnots = byAnnot.get(widget)
    if (fromAnnots !== undefined) return fromAnnots
    const p = widget.get(PDFName.of("P"))
    return p instanceof PDFRef ? byRef.get(p) : undefined
  }
}

/**
 * Drops the source file's object streams and cross-reference streams before saving. pdf-lib
 * keeps them as ordinary objects and would write them out again: dead weight, and a reader
 * that scans objects in file order (pdf-lib itself) would take the stale cross-reference
 * stream's trailer, /Encrypt included, for the new file's.
 */
export const dropStaleStructure = (doc: PDFDocument): void => {
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream) {
      const type = object.dict.lookup(PDFName.of("Type"))
      if (type === PDFName.of("ObjStm") || type === PDFName.of("XRef")) doc.context.delete(ref)
    } else if (object instanceof PDFInvalidObject) {
      // Decryption leaves cross-reference streams unparsed (they are never encrypted).
      const bytes = new Uint8Array(object.sizeInBytes())
      object.copyBytesInto(bytes, 0)
      const head = String.fromCharCode(...bytes.subarray(0, 1024))
      if (/\/Type\s*\/(XRef|ObjStm)\b/.test(head)) doc.context.delete(ref)
    }
  }
}

/**
 * Makes the AcroForm the form viewers show, before fields change: drops the XFA (an XFA-aware
 * viewer would show it and never the AcroForm fields), the `NeedsRendering` flag that goes with
 * it, and the usage-rights signature, which no longer matches once fields change (Reader then
 * disables the form with an error; without it the form is an ordinary AcroForm).
 */
export const makeAcroFormAuthoritative = (doc: PDFDocument): void => {
  acroForm(doc)?.delete(PDFName.of("XFA"))
  doc.catalog.delete(PDFName.of("NeedsRendering"))
  const perms = doc.catalog.lookup(PDFName.of("Perms"))
  if (perms instanceof PDFDict) {
    perms.delete(PDFName.of("UR3"))
    perms.delete(PDFName.of("UR"))
    if (perms.keys().length === 0) doc.catalog.delete(PDFName.of("Perms"))
  }
}
