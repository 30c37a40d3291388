import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { FormField } from "../../src/FormField.ts"
import type { PageText } from "../../src/pdf/PageText.ts"
import * as FormReader from "../../src/pdf/FormReader.ts"
import * as Understanding from "../../src/understand/Understanding.ts"
import { box, run } from "./support.ts"

const field = (formName: string, over: Partial<FormField> = {}): FormField => ({
  id: `fld_${formName}`,
  name: formName,
  form_name: formName,
  form_type: "Text",
  page: 1,
  rect: [0, 0, 0, 0],
  required: false,
  read_only: false,
  ...over
})

const input = (formName: string, rect: ReturnType<typeof box>, over: Partial<FormField> = {}, tooltip?: string): Understanding.FieldInput => ({
  field: field(formName, over),
  tooltip,
  fallbackName: FormReader.cleanName(formName),
  widgets: [{ page: 1, rect }]
})

const text = (...runs: Parameters<typeof run>[]): ReadonlyArray<PageText> => [{ page: 1, width: 612, height: 792, runs: runs.map((r) => run(...r)) }]

describe("Understanding.understand", () => {
  it("names fields by /TU, else by the printed label, else by the partial name", () => {
    const inputs = [
      input("f1_01", box(200, 700, 400, 716), {}, "Applicant's given name"),
      input("f1_02", box(200, 670, 400, 686)),
      input("dateOfBirth", box(200, 640, 400, 656))
    ]
    const pages = text(["First name:", 50, 704], ["Family name:", 50, 674])
    const understood = Understanding.understand(inputs, pages)
    expect(understood.map((u) => [u.label, u.source])).toEqual([
      ["Applicant's given name", "tooltip"],
      ["Family name", "text"],
      ["Date of birth", "name"]
    ])
    expect(understood.map((u) => u.semantic.type)).toEqual(["given_name", "family_name", "birth_date"])
    // With tooltips hidden, every label comes from the page (what the evaluation measures).
    expect(Understanding.understand(inputs, pages, { useTooltips: false })[0]!.label).toBe("First name")
  })

  it("reads a box asking only for a number beside a street box as the house number", () => {
    const inputs = [input("A.NUMERO", box(242, 727, 290, 740)), input("A.RUE", box(299, 727, 500, 740)), input("A.REF", box(242, 680, 290, 693))]
    const pages = text(["numéro", 244, 718, 7], ["rue", 301, 718, 7], ["numéro", 244, 671, 7])
    expect(Understanding.understand(inputs, pages).map((u) => u.semantic.type)).toEqual(["house_number", "street_address", "unknown"])
  })

  it("reads a bare 'Nombre' as the given name beside a surname box, and as the whole name without one", () => {
    const withSurname = [input("a", box(120, 700, 300, 716)), input("b", box(380, 700, 560, 716))]
    const both = text(["Nombre:", 50, 704], ["Apellidos:", 310, 704])
    expect(Understanding.understand(withSurname, both).map((u) => u.semantic.type)).toEqual(["given_name", "family_name"])
    const alone = [input("a", box(120, 700, 300, 716)), input("b", box(380, 700, 560, 716))]
    const nameAndEmail = text(["Nombre:", 50, 704], ["Correo:", 310, 704])
    expect(Understanding.understand(alone, nameAndEmail).map((u) => u.semantic.type)).toEqual(["full_name", "email"])
    // "First name" is only ever the given name.
    expect(Understanding.understand(alone, text(["First name:", 50, 704], ["Email:", 310, 704]))[0]!.semantic.type).toBe("given_name")
  })

  it("tells repeated rows of one block apart by the item number each row starts with", () => {
    // "3. Page Number | Part Number" over two boxes, then the same row numbered 4.
    const inputs = [
      input("p3", box(60, 680, 120, 696)),
      input("r3", box(140, 680, 200, 696)),
      input("p4", box(60, 620, 120, 636)),
      input("r4", box(140, 620, 200, 636))
    ]
    const pages = text(["3.", 36, 700], ["Page Number", 60, 700], ["Part Number", 140, 700], ["4.", 36, 640], ["Page Number", 60, 640], ["Part Number", 140, 640])
    expect(Understanding.understand(inputs, pages).map((u) => u.label)).toEqual(["3. Page Number", "3. Part Number", "4. Page Number", "4. Part Number"])
  })

  it("names lines of yes/no boxes one under another each by its own question, and a grid of options by the one over it", () => {
    const check = (name: string, x: number, y: number) => input(name, box(x, y, x + 8, y + 8), { form_type: "CheckBox" })
    const inputs = [
      check("q6_yes", 218, 271), check("q6_no", 260, 271), check("q7_yes", 218, 253), check("q7_no", 260, 253),
      check("black", 344, 486), check("blue", 410, 486), check("gray", 344, 471), check("green", 410, 471)
    ]
    const pages = text(
      ["6.", 36, 272], ["Is this a permanent position?", 60, 272], ["Yes", 231, 272], ["No", 273, 272],
      ["7.", 36, 254], ["Is this a new position?", 60, 254], ["Yes", 231, 254], ["No", 273, 254],
      ["8.", 36, 236], ["Wages (specify hour, week, month, or year):", 60, 236],
      ["10.", 320, 500], ["Eye Color (select only one box)", 344, 500],
      ["Black", 356, 487], ["Blue", 422, 487], ["Gray", 356, 472], ["Green", 422, 472]
    )
    // The wages box under "8. Wages": its label is not the question of line 7.
    const understood = Understanding.understand([...inputs, input("wages", box(72, 216, 200, 230))], pages)
    expect(understood.slice(0, 4).map((u) => u.label)).toEqual([
      "Is this a permanent position?: Yes", "Is this a permanent position?: No", "Is this a new position?: Yes", "Is this a new position?: No"
    ])
    // The grid's second line of options answers the question over the first.
    expect(understood.slice(4, 8).map((u) => u.semantic.section?.at(-1))).toEqual(["Eye Color", "Eye Color", "Eye Color", "Eye Color"])
    // Their accessible names carry the question and its item number.
    expect(understood.slice(4, 6).map((u) => u.name)).toEqual(["10. Eye Color: Black", "10. Eye Color: Blue"])
    expect(understood.slice(0, 3).map((u) => u.name)).toEqual([
      "6. Is this a permanent position?: Yes", "6. Is this a permanent position?: No", "7. Is this a new position?: Yes"
    ])
  })

  it("gives each field of a form in numbered parts an accessible name that says where it is; a shorter form keeps its labels", () => {
    // Three parts, each asking "1.a. Given Name" (of the applicant, the spouse, the employer's contact).
    const parts = ["Part 1. Information About You", "Part 2. Information About Your Spouse", "Part 3. Information About Your Employer"]
    const inputs = parts.map((_, i) => input(`given${i}`, box(150, 680 - 200 * i, 350, 696 - 200 * i)))
    const pages = text(...parts.flatMap((title, i): Array<Parameters<typeof run>> => [
      [title, 36, 730 - 200 * i, 13],
      ["MAILING ADDRESS", 36, 712 - 200 * i],
      ["1.a.", 36, 684 - 200 * i],
      ["Given Name", 60, 684 - 200 * i]
    ]))
    const understood = Understanding.understand(inputs, pages)
    // The three names are alike (each under a heading of the same words); the accessible names say where each is.
    expect(understood.map((u) => u.label)).toEqual(["Given Name", "Given Name", "Given Name"])
    expect(understood.map((u) => u.name)).toEqual([
      "Part 1. Information About You. MAILING ADDRESS. 1.a. Given Name",
      "Part 2. Information About Your Spouse. MAILING ADDRESS. 1.a. Given Name",
      "Part 3. Information About Your Employer. MAILING ADDRESS. 1.a. Given Name"
    ])
    // The printed label stays on the semantic, for a reader of the field list.
    expect(understood.map((u) => u.semantic.label)).toEqual(["Given Name", "Given Name", "Given Name"])
    // The spouse's part gives the role; the accessible name changes nothing of the meaning.
    expect(understood.map((u) => u.semantic.role)).toEqual(["self", "spouse", "employer"])
    // With two parts only, the accessible name is the name with its item number.
    const two = Understanding.understand(inputs.slice(0, 2), text(...pages[0]!.runs.slice(0, 8).map((r): Parameters<typeof run> => [r.text, r.x, r.y, r.height])))
    expect(two.map((u) => u.name)).toEqual(["1.a. Given Name", "1.a. Given Name"])
    // A /TU is the accessible name as its author wrote it: nothing is added.
    const told = Understanding.understand([input("given0", box(150, 680, 350, 696), {}, "Your given name"), ...inputs.slice(1)], pages)
    expect(told[0]!.name).toBe("Your given name")
    expect(told[0]!.semantic.label).toBeUndefined()
  })

  it("numbers check boxes and a box after them by the item number their line starts with, not another column's", () => {
    // "2.c. ☐ Apt. ☐ Ste. [box]" in the left column; "☐ Yes" in the right one, level with "2.d." and its box.
    const parts = ["Part 1. Information About You", "Part 2. Information About Your Home", "Part 3. Information About Your Employer"]
    const inputs = [
      input("apt", box(60, 600, 68, 608), { form_type: "CheckBox" }),
      input("ste", box(100, 600, 108, 608), { form_type: "CheckBox" }),
      input("number", box(150, 598, 280, 612)),
      input("unit", box(60, 570, 280, 584)),
      input("yes", box(330, 570, 338, 578), { form_type: "CheckBox" })
    ]
    const pages = text(
      ...parts.map((title, i): Parameters<typeof run> => [title, 36, 730 - 40 * i, 13]),
      ["2.c.", 36, 602],
      ["Apt.", 71, 602],
      ["Ste.", 111, 602],
      ["2.d.", 36, 573],
      ["Yes", 341, 573]
    )
    expect(Understanding.understand(inputs, pages).map((u) => u.name.replace(/^.*\. (?=\d|Yes)/, ""))).toEqual([
      "2.c. Apt",
      "2.c. Ste",
      "2.c. Apt. Ste",
      "2.d. Unit",
      "Yes"
    ])
  })

  it("reads the note over a run of items with each item it names, and a hanging item number with a label over its box", () => {
    const inputs = [
      input("family", box(200, 716, 400, 730)),
      input("street", box(200, 656, 400, 670)),
      input("city", box(200, 636, 400, 650)),
      input("province", box(200, 616, 400, 630)),
      input("employerStreet", box(200, 536, 400, 550)),
      input("arrival", box(66, 480, 200, 494))
    ]
    const pages = text(
      ["Part 1. Information About You", 36, 745, 13],
      ["1. Family Name", 36, 720],
      ["Part 2. Your Address", 36, 700, 13],
      ["If you live abroad, give your foreign address in Item Numbers 3.a. - 3.b.:", 36, 680],
      ["3.a. Street Number and Name", 36, 660],
      ["3.b. City or Town", 36, 640],
      ["4. Province", 36, 620],
      ["Part 3. Your Employer", 36, 570, 13],
      ["3.a. Street Number and Name", 36, 540],
      ["10.", 36, 500],
      ["Date of Last Arrival", 66, 500]
    )
    const note = "If you live abroad, give your foreign address in Item Numbers 3.a. - 3.b."
    expect(Understanding.understand(inputs, pages).map((u) => u.name)).toEqual([
      "Part 1. Information About You. 1. Family Name",
      `Part 2. Your Address. ${note} 3.a. Street Number and Name`,
      `Part 2. Your Address. ${note} 3.b. City or Town`,
      "Part 2. Your Address. 4. Province",
      "Part 3. Your Employer. 3.a. Street Number and Name",
      "Part 3. Your Employer. 10. Date of Last Arrival"
    ])
  })

  it("captions the options of a radio group and names the group by its question", () => {
    const radio: Understanding.FieldInput = {
      field: field("sex", { form_type: "RadioButton", options: [{ label: "0", value: "0" }, { label: "1", value: "1" }] }),
      fallbackName: "Sex",
      widgets: [{ page: 1, rect: box(150, 700, 160, 710), value: "0" }, { page: 1, rect: box(220, 700, 230, 710), value: "1" }]
    }
    const [u] = Understanding.understand([radio], text(["Gender:", 50, 702], ["Female", 163, 702], ["Male", 233, 702]))
    expect(u!.label).toBe("Gender")
    expect([...u!.captions]).toEqual([["0", "Female"], ["1", "Male"]])
    expect(u!.semantic.type).toBe("sex")
  })

  it("names check boxes of a list by their captions, with the question where a caption says nothing alone", () => {
    const check = (name: string, y: number): Understanding.FieldInput => ({
      field: field(name, { form_type: "CheckBox", options: [{ label: "Yes", value: "Yes" }] }),
      fallbackName: name,
      widgets: [{ page: 1, rect: box(60, y, 70, y + 10), value: "Yes" }]
    })
    const understood = Understanding.understand(
      [check("c1", 680), check("c2", 664), check("c3", 648)],
      text(["Filing status:", 50, 700], ["Single", 75, 682], ["Married filing jointly", 75, 666], ["Other", 75, 650])
    )
    expect(understood.map((u) => u.label)).toEqual(["Single", "Married filing jointly", "Filing status: Other"])
    expect(understood.map((u) => u.semantic.type)).toEqual(["filing_status", "filing_status", "filing_status"])
    expect(understood[0]!.semantic.section).toEqual(["Filing status"])
  })

  it("never takes the label of a box beside a list of options, within the options' reach, for their question", () => {
    // The first captions run long, past the label of a box printed beside the list's last line.
    const check = (name: string, y: number): Understanding.FieldInput => ({
      field: field(name, { form_type: "CheckBox", options: [{ label: "Yes", value: "Yes" }] }),
      fallbackName: name,
      widgets: [{ page: 1, rect: box(100, y, 110, y + 10), value: "Yes" }]
    })
    const inputs = [check("monthly", 684), check("reduced", 668), check("yearly", 652), input("number", box(300, 628, 400, 642))]
    const pages = text(
      ["Normal hackerspace membership for 42 EUR a month", 115, 686],
      ["Reduced hackerspace membership for 23 EUR a month", 115, 670],
      ["Yearly, 70 EUR", 115, 654],
      ["Member number", 300, 654, 7]
    )
    const understood = Understanding.understand(inputs, pages)
    expect(understood.map((u) => u.label)).toEqual([
      "Normal hackerspace membership for 42 EUR a month",
      "Reduced hackerspace membership for 23 EUR a month",
      "Yearly, 70 EUR",
      "Member number"
    ])
    for (const u of understood.slice(0, 3)) expect(u.name).not.toContain("Member number")
  })

  it("numbers dependents by their table row and gives split boxes their place", () => {
    const inputs = [
      input("dep1", box(100, 680, 250, 694)),
      input("dep2", box(100, 664, 250, 678)),
      input("dep3", box(100, 648, 250, 662)),
      input("ssn_a", box(300, 600, 330, 614), { max_length: 3 }),
      input("ssn_b", box(332, 600, 352, 614), { max_length: 2 }),
      input("ssn_c", box(354, 600, 394, 614), { max_length: 4 })
    ]
    const understood = Understanding.understand(
      inputs,
      text(["Dependents", 40, 740, 14], ["First name", 110, 700, 8], ["Social security number", 120, 604], ["Income and other things on this page", 40, 400])
    )
    expect(understood.slice(0, 3).map((u) => [u.label, u.semantic.role, u.semantic.dependent_index])).toEqual([
      ["First name", "dependent", 1],
      ["First name", "dependent", 2],
      ["First name", "dependent", 3]
    ])
    expect(understood.slice(3).map((u) => [u.label, u.semantic.type, u.semantic.format?.segment])).toEqual([
      ["Social security number", "ssn", { index: 1, count: 3, lengths: [3, 2, 4] }],
      ["Social security number", "ssn", { index: 2, count: 3, lengths: [3, 2, 4] }],
      ["Social security number", "ssn", { index: 3, count: 3, lengths: [3, 2, 4] }]
    ])
  })

  it("does not chain boxes side by side whose PDF names say they hold different things", () => {
    const inputs = [
      input("Applicant Email", box(100, 600, 250, 614)),
      input("Applicant Phone 1", box(252, 600, 282, 614)),
      input("Applicant Phone 2", box(284, 600, 314, 614)),
      input("Applicant Phone 3", box(316, 600, 356, 614))
    ]
    const understood = Understanding.understand(inputs, text(["Email", 100, 618, 8], ["Other words far away on the page", 40, 300]))
    expect(understood[0]!.semantic.type).toBe("email")
    expect(understood[0]!.semantic.format?.segment).toBeUndefined()
    expect(understood.slice(1).map((u) => u.semantic.type)).toEqual(["phone", "phone", "phone"])
  })

  it("gives the title and phone boxes stacked under \"Completed by\" to that person", () => {
    const inputs = [
      input("Completed by", box(80, 620, 270, 638)),
      input("Title", box(45, 594, 270, 612)),
      input("Phone", box(53, 567, 135, 585)),
      // A phone box elsewhere on the page stays the holder's.
      input("Phone 2", box(300, 300, 400, 318))
    ]
    const understood = Understanding.understand(
      inputs,
      text(["Completed by", 10, 624, 8], ["Title", 10, 598, 8], ["Phone", 10, 571, 8], ["Phone", 260, 304, 8])
    )
    expect(understood.map((u) => [u.semantic.type, u.semantic.role])).toEqual([
      ["full_name", "other"],
      ["occupation", "other"],
      ["phone", "other"],
      ["phone", "self"]
    ])
  })

  it("names a grid of check boxes without captions by row and column", () => {
    // Check boxes that fill their table cells, as in a grid form.
    const cell = (x: number, y: number) => box(x, y, x + 55, y + 14)
    const inputs = [
      input("cb1", cell(200, 700), { form_type: "CheckBox" }),
      input("cb2", cell(260, 700), { form_type: "CheckBox" }),
      input("cb3", cell(200, 680), { form_type: "CheckBox" }),
      input("cb4", cell(260, 680), { form_type: "CheckBox" })
    ]
    const understood = Understanding.understand(
      inputs,
      text(["Listening", 195, 718, 8], ["Reading", 257, 718, 8], ["⑮ with friends", 60, 702], ["⑯ with family", 60, 682])
    )
    expect(understood.map((u) => u.label)).toEqual([
      "with friends: Listening",
      "with friends: Reading",
      "with family: Listening",
      "with family: Reading"
    ])
  })

  it("gives the boxes under a signature line that names another party to that party", () => {
    const inputs = [
      input("Text1", box(110, 600, 250, 614)),
      input("Text2", box(170, 575, 300, 589)),
      input("Text3", box(110, 500, 250, 514)),
      // The holder's own block further down: no party named.
      input("Text4", box(110, 400, 250, 414))
    ]
    const understood = Understanding.understand(
      inputs,
      text(
        ["Buyer's Signature: ________________", 40, 630],
        ["Print Name:", 40, 603],
        ["Driver's License Number:", 40, 578],
        ["Seller's Signature: ________________", 40, 530],
        ["Print Name:", 40, 503],
        ["Your Signature: ________________", 40, 430],
        ["Print Name:", 40, 403]
      )
    )
    expect(understood.map((u) => [u.label, u.semantic.type, u.semantic.role])).toEqual([
      ["Print Name", "full_name", "other"],
      ["Driver's License Number", "driver_license", "other"],
      ["Print Name", "full_name", "other"],
      ["Print Name", "full_name", "self"]
    ])
  })

  it("tells apart one label printed under two headings of a page", () => {
    const inputs = [input("a", box(120, 680, 300, 694)), input("b", box(120, 600, 300, 614))]
    const understood = Understanding.understand(
      inputs,
      text(["Mailing Address", 40, 710, 13], ["City", 50, 684], ["Physical Address", 40, 630, 13], ["City", 50, 604], [
        "Provide this information for every address you have had.",
        40,
        500
      ])
    )
    expect(understood.map((u) => u.label)).toEqual(["Mailing Address: City", "Physical Address: City"])
  })
})

describe("FormReader.readForm with field understanding", () => {
  it.effect("names fields without /TU by their printed labels and describes them", () =>
    Effect.gen(function*() {
      const bytes = yield* Effect.promise(async () => {
        const doc = await PDFDocument.create()
        const font = await doc.embedFont(StandardFonts.Helvetica)
        const page = doc.addPage([612, 792])
        const form = doc.getForm()
        page.drawText("Spouse", { x: 50, y: 740, size: 16, font })
        page.drawText("Vorname:", { x: 50, y: 705, size: 11, font })
        form.createTextField("f1_01").addToPage(page, { x: 200, y: 700, width: 200, height: 18 })
        page.drawText("Geburtsdatum (TT.MM.JJJJ):", { x: 50, y: 675, size: 11, font })
        const dob = form.createTextField("f1_02")
        dob.setMaxLength(8)
        dob.enableCombing()
        dob.addToPage(page, { x: 200, y: 670, width: 160, height: 18 })
        const sex = form.createRadioGroup("f1_03")
        sex.addOptionToPage("0", page, { x: 200, y: 640, width: 12, height: 12 })
        sex.addOptionToPage("1", page, { x: 280, y: 640, width: 12, height: 12 })
        page.drawText("Geschlecht:", { x: 50, y: 642, size: 11, font })
        page.drawText("weiblich", { x: 216, y: 642, size: 11, font })
        page.drawText("männlich", { x: 296, y: 642, size: 11, font })
        return doc.save()
      })
      const parsed = yield* FormReader.readForm(bytes)
      const [given, birth, gender] = parsed.fields
      expect(given).toMatchObject({ name: "Vorname", semantic: { type: "given_name", role: "spouse" } })
      expect(birth).toMatchObject({
        name: "Geburtsdatum (TT.MM.JJJJ)",
        semantic: { type: "birth_date", role: "spouse", format: { comb_cells: 8, date_pattern: "DD.MM.YYYY", date_order: "DMY", digits_only: true } }
      })
      expect(gender).toMatchObject({ name: "Geschlecht", semantic: { type: "sex" } })
      expect(gender!.options).toEqual([{ label: "weiblich", value: "0" }, { label: "männlich", value: "1" }])
    }))
})

describe("Understanding.understand, blocks", () => {
  it("places a box under the block title printed over its label, however far right the box is", () => {
    const inputs = [input("f1", box(290, 676, 560, 692)), input("f2", box(290, 646, 400, 662))]
    const pages: ReadonlyArray<PageText> = [{
      page: 1,
      width: 612,
      height: 792,
      runs: [
        run("1. Business information", 30, 740, 12),
        { ...run("Physical address", 40, 710), bold: true },
        run("Street address of the business:", 40, 680),
        run("Postal code of the business:", 40, 650),
        ...[300, 288, 276].map((y) => run("Fill in every line of this part with the details the business has on record.", 30, y))
      ]
    }]
    const understood = Understanding.understand(inputs, pages)
    expect(understood.map((u) => u.label)).toEqual(["Street address of the business", "Postal code of the business"])
    expect(understood.map((u) => u.semantic.section)).toEqual([
      ["1. Business information", "Physical address"],
      ["1. Business information", "Physical address"]
    ])
  })
})
