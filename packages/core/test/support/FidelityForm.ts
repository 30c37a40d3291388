/**
 * A form with one field per appearance rule a filler must honour: a comb, a multi-line box, an
 * auto-sized (0 Tf) box, each /Q alignment (for Latin, Greek, Japanese and Hebrew text), a radio
 * group and a check box whose on-states are not /Yes, a read-only field, a widget whose
 * appearance carries a /Matrix, a hidden widget, and a second page turned by /Rotate.
 */
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFString, TextAlignment } from "@cantoo/pdf-lib"

export const names = {
  comb: "comb",
  notes: "notes",
  auto: "auto",
  left: "left",
  centre: "centre",
  right: "right",
  greekRight: "greek_right",
  japaneseCentre: "japanese_centre",
  hebrewLeft: "hebrew_left",
  hebrewCentre: "hebrew_centre",
  radio: "choice",
  check: "agree",
  locked: "locked",
  turned: "turned",
  hidden: "hidden",
  rotatedPage: "rotated_page"
} as const

/** Cells of the comb field, and its rectangle. */
export const comb = { cells: 8, rect: [50, 730, 250, 754] as const }
export const multilineRect = [50, 600, 200, 700] as const
export const autoRect = [50, 560, 150, 580] as const
/** The on-state names the fixture's buttons use instead of /Yes. */
export const radioStates = ["1", "2", "3"] as const
export const checkState = "On"
export const lockedValue = "LOCKED-1"
export const turnedRect = [540, 300, 570, 460] as const

const lineRect = (row: number, width = 250) => [320, 740 - row * 34, 320 + width, 740 - row * 34 + 22] as const

export const alignedRects: Record<string, readonly [number, number, number, number]> = {
  [names.left]: lineRect(0),
  [names.centre]: lineRect(1),
  [names.right]: lineRect(2),
  [names.greekRight]: lineRect(3),
  [names.japaneseCentre]: lineRect(4),
  [names.hebrewLeft]: lineRect(5),
  [names.hebrewCentre]: lineRect(6)
}

/** Renames a button widget's appearance state `from` to `to` (both /N and /D). */
const renameState = (widget: PDFDict, from: string, to: string) => {
  const ap = widget.lookup(PDFName.of("AP"), PDFDict)
  for (const key of ["N", "D"]) {
    const states = ap.lookup(PDFName.of(key))
    if (!(states instanceof PDFDict)) continue
    const value = states.get(PDFName.of(from))
    if (value === undefined) continue
    states.delete(PDFName.of(from))
    states.set(PDFName.of(to), value)
  }
}

const rectOf = (r: ReadonlyArray<number>) => ({ x: r[0]!, y: r[1]!, width: r[2]! - r[0]!, height: r[3]! - r[1]! })

export const build = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create()
  const page = doc.addPage([612, 792])
  const form = doc.getForm()

  const combField = form.createTextField(names.comb)
  combField.setMaxLength(comb.cells)
  combField.enableCombing()
  combField.addToPage(page, rectOf(comb.rect))
  combField.acroField.setDefaultAppearance("0 g /Helv 12 Tf")

  const notes = form.createTextField(names.notes)
  notes.enableMultiline()
  notes.addToPage(page, rectOf(multilineRect))
  notes.acroField.setDefaultAppearance("0 g /Helv 10 Tf")

  const auto = form.createTextField(names.auto)
  auto.addToPage(page, rectOf(autoRect))
  auto.acroField.setDefaultAppearance("0 g /Helv 0 Tf")

  const alignments: Record<string, TextAlignment> = {
    [names.left]: TextAlignment.Left,
    [names.centre]: TextAlignment.Center,
    [names.right]: TextAlignment.Right,
    [names.greekRight]: TextAlignment.Right,
    [names.japaneseCentre]: TextAlignment.Center,
    [names.hebrewLeft]: TextAlignment.Left,
    [names.hebrewCentre]: TextAlignment.Center
  }
  for (const [name, rect] of Object.entries(alignedRects)) {
    const field = form.createTextField(name)
    field.addToPage(page, { ...rectOf(rect), borderWidth: 0 })
    field.acroField.setDefaultAppearance("0 g /Helv 12 Tf")
    field.setAlignment(alignments[name]!)
  }

  const radio = form.createRadioGroup(names.radio)
  radioStates.forEach((state, i) => radio.addOptionToPage(`option${i}`, page, { x: 50 + i * 40, y: 500, width: 16, height: 16 }))
  radio.acroField.getWidgets().forEach((widget, i) => {
    const current = widget.getOnValue()
    if (current) renameState(widget.dict, current.decodeText(), radioStates[i]!)
  })
  // The states are now the names; the /Opt export values stay as they were.
  const check = form.createCheckBox(names.check)
  check.addToPage(page, { x: 200, y: 500, width: 16, height: 16 })
  renameState(check.acroField.getWidgets()[0]!.dict, "Yes", checkState)

  const locked = form.createTextField(names.locked)
  locked.acroField.setDefaultAppearance("0 g /Helv 12 Tf")
  locked.setText(lockedValue)
  locked.addToPage(page, { x: 50, y: 440, width: 200, height: 22 })
  locked.enableReadOnly()

  // A widget standing on its end (30 wide, 160 tall) whose appearance is drawn lying down in a box
  // that does not start at 0 0, and turned a quarter by its /Matrix: a viewer places the turned
  // box onto the rectangle.
  const turned = form.createTextField(names.turned)
  turned.setText("TURNED")
  turned.addToPage(page, { ...rectOf(turnedRect), borderWidth: 0 })
  const turnedAppearance = doc.context.stream(
    [
      "0 g 10 10 40 30 re f",
      "BT /Helv 14 Tf 60 20 Td (TURNED) Tj ET"
    ].join("\n"),
    {
      Type: "XObject",
      Subtype: "Form",
      BBox: [10, 10, 170, 40],
      Matrix: [0, 1, -1, 0, 0, 0],
      Resources: { Font: { Helv: doc.context.register(doc.context.obj({ Type: "Font", Subtype: "Type1", BaseFont: "Helvetica", Encoding: "WinAnsiEncoding" })) } }
    }
  )
  turned.acroField.getWidgets()[0]!.dict.set(PDFName.of("AP"), doc.context.obj({ N: doc.context.register(turnedAppearance) }))

  const hidden = form.createTextField(names.hidden)
  hidden.addToPage(page, { x: 50, y: 400, width: 200, height: 22 })
  hidden.acroField.setDefaultAppearance("0 g /Helv 12 Tf")
  const hiddenWidget = hidden.acroField.getWidgets()[0]!
  hiddenWidget.dict.set(PDFName.of("F"), PDFNumber.of(2 | 4))

  const page2 = doc.addPage([612, 792])
  page2.node.set(PDFName.of("Rotate"), PDFNumber.of(90))
  const rotated = form.createTextField(names.rotatedPage)
  rotated.addToPage(page2, { x: 100, y: 600, width: 220, height: 24 })
  rotated.acroField.setDefaultAppearance("0 g /Helv 12 Tf")

  // pdf-lib writes /DA strings on the widgets too; the field's own /DA is what a filler reads.
  for (const field of form.getFields()) {
    for (const widget of field.acroField.getWidgets()) widget.dict.delete(PDFName.of("DA"))
  }
  form.acroForm.dict.set(PDFName.of("DA"), PDFString.of("0 g /Helv 0 Tf"))
  // Every widget got its appearance when added; redrawing would replace the hand-made one.
  return doc.save({ updateFieldAppearances: false })
}
