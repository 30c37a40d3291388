/**
 * PDF fixtures generated in code with pdf-lib, so tests need no binary files and every case
 * (each field type, encryption, damage, XFA) is spelled out where it is made.
 */
import { PDFDocument, PDFHexString, PDFName, PDFRef, rgb, StandardFonts } from "@cantoo/pdf-lib"
import type { PDFFont, PDFPage } from "@cantoo/pdf-lib"

const pageSize: [number, number] = [612, 792]

const label = (page: PDFPage, font: PDFFont, text: string, y: number) => page.drawText(text, { x: 50, y: y + 5, size: 11, font, color: rgb(0, 0, 0) })

const setTooltip = (dict: { set(name: PDFName, value: PDFHexString): void }, text: string) => dict.set(PDFName.of("TU"), PDFHexString.fromText(text))

/** Full names of the fields `formWithEveryFieldType` holds, by role. */
export const everyFieldType = {
  firstName: "applicant.first_name",
  lastName: "applicant.last_name",
  notes: "notes",
  postcode: "postcode",
  subscribe: "subscribe",
  colour: "colour",
  country: "country",
  languages: "languages",
  signature: "signature",
  reset: "reset",
  reference: "reference"
} as const

// pdf-lib would redraw every field on save and freeze the fitted font size into /DA again.
const keepAppearances = { updateFieldAppearances: false } as const

const buildEveryFieldType = async (): Promise<PDFDocument> => {
  const doc = await PDFDocument.create({ updateMetadata: false })
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const form = doc.getForm()
  const page1 = doc.addPage(pageSize)
  const page2 = doc.addPage(pageSize)
  page1.drawText("Application form", { x: 50, y: 740, size: 18, font })
  page2.drawText("Application form, continued", { x: 50, y: 740, size: 18, font })

  label(page1, font, "First name:", 680)
  const firstName = form.createTextField(everyFieldType.firstName)
  firstName.addToPage(page1, { x: 200, y: 675, width: 250, height: 20 })
  setTooltip(firstName.acroField.dict, "Applicant first name")

  label(page1, font, "Last name:", 640)
  const lastName = form.createTextField(everyFieldType.lastName)
  lastName.addToPage(page1, { x: 200, y: 635, width: 250, height: 20 })
  lastName.enableRequired()

  label(page1, font, "Notes:", 580)
  const notes = form.createTextField(everyFieldType.notes)
  notes.enableMultiline()
  notes.addToPage(page1, { x: 200, y: 520, width: 300, height: 80 })

  label(page1, font, "Postcode:", 480)
  const postcode = form.createTextField(everyFieldType.postcode)
  postcode.setMaxLength(5)
  postcode.enableCombing()
  postcode.addToPage(page1, { x: 200, y: 475, width: 100, height: 20 })

  label(page1, font, "Subscribe:", 440)
  const subscribe = form.createCheckBox(everyFieldType.subscribe)
  subscribe.addToPage(page1, { x: 200, y: 437, width: 15, height: 15 })

  label(page1, font, "Colour:", 400)
  const colour = form.createRadioGroup(everyFieldType.colour)
  ;["Red", "Green", "Blue"].forEach((option, i) => colour.addOptionToPage(option, page1, { x: 200 + i * 60, y: 397, width: 15, height: 15 }))

  label(page2, font, "Country:", 680)
  const country = form.createDropdown(everyFieldType.country)
  country.addToPage(page2, { x: 200, y: 675, width: 200, height: 20 })
  // Export values differ from what is shown, as on many government forms.
  country.acroField.dict.set(
    PDFName.of("Opt"),
    doc.context.obj([
      [PDFHexString.fromText("US"), PDFHexString.fromText("United States")],
      [PDFHexString.fromText("GR"), PDFHexString.fromText("Greece")],
      [PDFHexString.fromText("RU"), PDFHexString.fromText("Russia")]
    ])
  )

  label(page2, font, "Languages:", 600)
  const languages = form.createOptionList(everyFieldType.languages)
  languages.setOptions(["English", "Greek", "Russian", "French"])
  languages.enableMultiselect()
  languages.addToPage(page2, { x: 200, y: 560, width: 150, height: 60 })

  label(page2, font, "Signature:", 500)
  const signature = doc.context.obj({
    FT: "Sig",
    T: PDFHexString.fromText(everyFieldType.signature),
    Type: "Annot",
    Subtype: "Widget",
    Rect: [200, 495, 450, 525],
    F: 4,
    P: page2.ref
  })
  const signatureRef = doc.context.register(signature)
  page2.node.addAnnot(signatureRef)
  form.acroForm.addField(signatureRef)

  const reset = form.createButton(everyFieldType.reset)
  reset.addToPage("Reset", page2, { x: 200, y: 440, width: 80, height: 25 })

  label(page2, font, "Reference:", 400)
  const reference = form.createTextField(everyFieldType.reference)
  reference.setText("REF-001")
  reference.addToPage(page2, { x: 200, y: 395, width: 150, height: 20 })
  reference.enableReadOnly()
  // pdf-lib freezes the size it fitted into /DA; real forms mostly say 0 (auto), so do they here.
  for (const field of [firstName, lastName, notes, postcode, reference]) field.acroField.setFontSize(0)
  return doc
}

/**
 * A two-page form with one field of every kind: text with a tooltip (/TU) and without, a
 * multiline text, a comb text with /MaxLen 5, a required field, a checkbox, a radio group with
 * three options, a combo box whose export values differ from its labels, a multi-select list
 * box, a signature, a push button and a read-only text holding "REF-001". Labels are drawn as
 * page text to the left of the fields. Names are in `everyFieldType`.
 */
export const formWithEveryFieldType = async (): Promise<Uint8Array> => (await buildEveryFieldType()).save(keepAppearances)

/** The every-field-type form encrypted (AES-256) with an owner password and an empty user password. */
export const encryptedOwnerPasswordForm = async (): Promise<Uint8Array> => {
  const doc = await buildEveryFieldType()
  doc.encrypt({ ownerPassword: "owner-secret", userPassword: "", permissions: { printing: "highResolution", fillingForms: true } })
  return doc.save(keepAppearances)
}

/** A PDF that cannot be opened without its user password ("user"). */
export const userPasswordPdf = async (): Promise<Uint8Array> => {
  const doc = await buildEveryFieldType()
  doc.encrypt({ ownerPassword: "owner-secret", userPassword: "user" })
  return doc.save(keepAppearances)
}

/** Bytes that are not a PDF at all. */
export const notAPdf = (): Uint8Array => new TextEncoder().encode("name,email\nZoë,zoe@example.com\n")

/** A zero-byte body. */
export const emptyFile = (): Uint8Array => new Uint8Array(0)

/** The start of a real PDF, cut before its catalog, page tree and cross-reference table. */
export const truncatedPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create({ updateMetadata: false })
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.addPage(pageSize).drawText("This file will be cut short.", { x: 50, y: 700, size: 12, font })
  const bytes = await doc.save({ useObjectStreams: false })
  const text = new TextDecoder("latin1").decode(bytes)
  // Cut inside the first object so no dictionary (and so no catalog) survives.
  const cut = text.indexOf("1 0 obj")
  return bytes.slice(0, cut > 0 ? cut + 12 : Math.floor(bytes.length / 10))
}

/** An XFA-only form: the AcroForm has an /XFA packet and no fields. */
export const xfaOnlyPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create({ updateMetadata: false })
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.addPage(pageSize).drawText("Please wait... this form needs an XFA-capable viewer.", { x: 50, y: 700, size: 12, font })
  const xdp = doc.context.stream(
    `<?xml version="1.0" encoding="UTF-8"?><xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform name="form1"><field name="Name"/></subform></template></xdp:xdp>`
  )
  const xdpRef = doc.context.register(xdp)
  doc.catalog.set(PDFName.of("AcroForm"), doc.context.obj({ Fields: [], XFA: xdpRef }))
  doc.catalog.set(PDFName.of("NeedsRendering"), doc.context.obj(true))
  return doc.save()
}

/** A flat PDF: text only, no AcroForm. */
export const flatPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create({ updateMetadata: false })
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage(pageSize)
  page.drawText("Invoice 2024-001", { x: 50, y: 740, size: 18, font })
  page.drawText("Name: ____________________", { x: 50, y: 700, size: 12, font })
  return doc.save()
}

/** A PDF whose page tree contains itself: readers must stop rather than loop or overflow. */
export const cyclicPageTreePdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.addPage(pageSize)
  const pagesRef = doc.catalog.get(PDFName.of("Pages"))
  if (!(pagesRef instanceof PDFRef)) throw new Error("pdf-lib wrote no page tree reference")
  const pages = doc.catalog.Pages()
  pages.Kids().push(pagesRef)
  // pdf-lib's default-page check would walk the (now endless) tree.
  return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false })
}
