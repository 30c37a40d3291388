import { describe, expect, it } from "@effect/vitest"
import * as FieldLabel from "../../src/understand/FieldLabel.ts"
import type { Rect } from "../../src/understand/TextLayout.ts"
import { box, page, run } from "./support.ts"

const find = (rect: Rect, phrases: ReturnType<typeof page>, others: ReadonlyArray<Rect> = [], extra: Partial<FieldLabel.LabelQuery> = {}) =>
  FieldLabel.find({ rect, kind: "text", obstacles: others, ...extra }, phrases)

describe("FieldLabel.find: text boxes", () => {
  it("takes the caption on the side the page prints captions over text a few characters to the left", () => {
    // A form with captions under its lines: "Judge" under the box; the end of the other
    // column's sentence 44 points to its left.
    const phrases = page(run("over 18 years of age, and", 160, 312), run("Judge", 330, 296))
    const blank = box(330, 308, 520, 322)
    expect(find(blank, phrases, [], { captions: "below" })).toMatchObject({ text: "Judge", position: "below" })
    // Without a known caption side the text beside the box still wins, as before.
    expect(find(blank, phrases)).toMatchObject({ position: "left" })
  })

  it("reads the label to the left on the same line", () => {
    const phrases = page(run("1. First name:", 50, 705), run("Unrelated heading", 50, 760, 14))
    expect(find(box(200, 700, 400, 718), phrases)).toMatchObject({ text: "First name", position: "left" })
  })

  it("does not take a line of a paragraph far to the left as a label", () => {
    const phrases = page(
      run("This form must be kept on file for five years following the year", 40, 720),
      run("to which it pertains, and a copy given to the employee concerned.", 40, 705)
    )
    expect(find(box(420, 700, 560, 716), phrases)).toBeUndefined()
  })

  it("reads the label just above, left-aligned, with its wrapped lines", () => {
    const phrases = page(run("Name of the physician or other", 100, 733), run("health care professional", 100, 722))
    expect(find(box(100, 700, 300, 718), phrases)).toMatchObject({ text: "Name of the physician or other health care professional", position: "above" })
  })

  it("takes the question of a paragraph above, not its instructions", () => {
    const phrases = page(
      run("14) What was the employee doing just before the incident? Describe the", 100, 757),
      run("activity, as well as the tools, equipment or material the employee was", 100, 746),
      run("using. Examples: climbing a ladder while carrying roofing materials.", 100, 735)
    )
    expect(find(box(100, 700, 500, 732), phrases)?.text).toBe("What was the employee doing just before the incident?")
  })

  it("takes the caption in the top of the box's cell over margin text to its left", () => {
    // "Step 1:" in the margin, higher than the box; the cell's caption right over the box.
    const step = page(run("Step 1:", 40, 700, 10), run("(a) First name and middle initial", 95, 699, 6.5))
    expect(find(box(94, 683, 272, 697), step)).toMatchObject({ text: "First name and middle initial", position: "above" })
    // A margin heading in larger type on the box's line.
    const heading = page(run("Address,", 40, 700, 12), run("Your first name and initial", 110, 711, 6.5))
    expect(find(box(108, 696, 273, 710), heading)).toMatchObject({ text: "Your first name and initial" })
    // A label right beside the box still wins over text above it.
    const beside = page(run("Name:", 60, 700, 9), run("Please print", 100, 712, 6.5))
    expect(find(box(100, 696, 300, 710), beside)).toMatchObject({ text: "Name", position: "left" })
  })

  it("reads a label printed inside the box it covers", () => {
    const phrases = page(run("Your first name and initial", 60, 728, 7))
    expect(find(box(55, 712, 250, 738), phrases)).toMatchObject({ text: "Your first name and initial", position: "inside" })
  })

  it("reads the caption under a line when the page prints captions below", () => {
    const phrases = page(run("Name", 72, 656, 8), run("Address", 72, 630, 8))
    const name = box(66, 666, 297, 684)
    const address = box(66, 638, 297, 656)
    const sides = FieldLabel.captionSides([name, address], phrases)
    expect(sides).toEqual(["below", "below"])
    expect(find(address, phrases, [name], { captions: sides[1] })?.text).toBe("Address")
    expect(find(name, phrases, [address], { captions: sides[0] })?.text).toBe("Name")
  })

  it("reads a stack's captions below when its first box is labelled beside its line and a title is over it", () => {
    // "salarié(e): ____" under a title in large type, then two boxes, each with its caption under it.
    const phrases = page(
      run("Certificat de salaire 2019", 223, 763, 16),
      run("salarié(e):", 187, 751, 8),
      run("nom", 244, 741, 7),
      run("numéro", 244, 718, 7),
      run("code postal", 244, 695, 7)
    )
    const name = box(242, 750, 400, 763)
    const number = box(242, 727, 290, 740)
    const postcode = box(242, 704, 290, 717)
    const sides = FieldLabel.captionSides([name, number, postcode], phrases)
    expect(sides.slice(1)).toEqual(["below", "below"])
    expect(find(number, phrases, [name, postcode], { captions: sides[1] })?.text).toBe("numéro")
    // The box labelled beside its line is named by that label, not by the title right over it.
    expect(find(name, phrases, [number, postcode], { captions: sides[0] })).toMatchObject({ text: "salarié(e)", position: "left" })
  })

  it("decides labels above when the stack ends with a label over its first box", () => {
    const phrases = page(run("Street", 72, 690, 8), run("City", 72, 660, 8))
    const street = box(66, 670, 297, 688)
    const city = box(66, 640, 297, 658)
    expect(FieldLabel.captionSides([street, city], phrases)).toEqual(["above", "above"])
  })

  it("names a table cell by its row label and its column header", () => {
    const phrases = page(run("Quantity", 320, 530), run("Opening stock", 40, 505), run("Received", 40, 485))
    const top = box(300, 500, 380, 516)
    const second = box(300, 480, 380, 496)
    expect(find(second, phrases, [top])).toMatchObject({ text: "Received: Quantity", position: "column" })
  })

  it("reads a label wrapped under its first line, past the first line's item number", () => {
    const phrases = page(run("1.b. Given Name", 36, 364), run("(First Name)", 60, 354))
    expect(find(box(120, 354, 294, 372), phrases)?.text).toBe("Given Name (First Name)")
  })

  it("finds a label's second line across a column of other text between the two lines", () => {
    const phrases = page(run("3.b. Street Number", 36, 214), run("Part 2. Petition Type", 320, 209, 12), run("and Name", 60, 204))
    expect(find(box(120, 204, 294, 222), phrases)?.text).toBe("Street Number and Name")
  })

  it("does not read boxes that only end at the same margin as a table column", () => {
    const phrases = page(run("3.a. In Care Of Name", 36, 249), run("3.b. Street Number", 36, 214))
    const care = box(60, 228, 294, 246)
    const street = box(120, 204, 294, 222)
    expect(find(street, phrases, [care])).toMatchObject({ text: "Street Number", position: "left" })
  })

  it("takes no note printed from the left margin as the header of the boxes under it", () => {
    const phrases = page(run("NOTE: Print the name you use.", 60, 399), run("Family Name", 36, 382), run("Given Name", 36, 358))
    const family = box(120, 372, 294, 390)
    const given = box(120, 348, 294, 366)
    expect(find(given, phrases, [family])?.text).toBe("Given Name")
  })

  it("gives each column of a grid its own words of headers printed as one line", () => {
    const phrases = page(run("Plants Extracts", 300, 520), run("Opening", 40, 500))
    const plants = box(290, 496, 330, 512)
    const extracts = box(331, 496, 371, 512)
    const plantsBelow = box(290, 478, 330, 494)
    const extractsBelow = box(331, 478, 371, 494)
    const all = [plants, extracts, plantsBelow, extractsBelow]
    const others = (r: typeof plants) => all.filter((o) => o !== r)
    expect(find(plants, phrases, others(plants))?.text).toBe("Opening: Plants")
    expect(find(extracts, phrases, others(extracts))?.text).toBe("Opening: Extracts")
  })

  it("follows a column through rows where only the column beside it has cells", () => {
    const phrases = page(run("Duty", 310, 522), run("Adjustment", 380, 522))
    const duty = [0, 1, 2, 3, 4, 5, 6].map((i) => box(300, 500 - 18 * i, 360, 516 - 18 * i))
    const first = box(370, 500, 430, 516)
    const last = box(370, 392, 430, 408)
    const all = [...duty, first, last]
    expect(find(last, phrases, all.filter((o) => o !== last))).toMatchObject({ text: "Adjustment", position: "column" })
  })

  it("steps over the row labels of a table to the header of a column that starts lower", () => {
    const phrases = page(run("Unit Type", 100, 360), run("Rooms", 240, 360), run("Memory Care", 36, 338), run("Other (specify):", 36, 323))
    const memory = box(230, 334, 280, 347)
    const other = box(45, 305, 224, 318)
    const otherRooms = box(230, 305, 280, 318)
    const other2 = box(45, 290, 224, 303)
    const other2Rooms = box(230, 290, 280, 303)
    expect(find(other2, phrases, [memory, other, otherRooms, other2Rooms])?.text).toBe("Other (specify)")
  })

  it("takes no header over a column from a block above a section heading", () => {
    const phrases = page(run("1st year: 300 minutes", 300, 255), run("E) Doctors", 40, 240, 12), run("Prescriber", 40, 220))
    const prescriber = box(180, 212, 380, 227)
    const family = box(180, 194, 380, 209)
    expect(find(prescriber, phrases, [family])?.text).toBe("Prescriber")
  })

  it("cuts a line of labels over boxes side by side at the next box's label", () => {
    const phrases = page(run("Page Number", 342, 729), run("Part Number", 420, 729))
    const pageBox = box(342, 708, 414, 726)
    const partBox = box(420, 708, 492, 726)
    expect(find(pageBox, phrases, [partBox])?.text).toBe("Page Number")
  })

  it("takes no caption under a tall box from the label of the box below it", () => {
    const phrases = page(run("Page Number", 60, 273))
    const notes = box(60, 294, 294, 474)
    const pageBox = box(60, 252, 132, 270)
    expect(find(notes, phrases, [pageBox])?.text).toBeUndefined()
  })

  it("reads a label printed on the line a long box is drawn up from", () => {
    const phrases = page(run("Signature ►", 262, 294))
    expect(find(box(323, 292, 539, 321), phrases, [], { kind: "signature" })?.text).toBe("Signature")
  })

  it("prefers a label above over another box's caption beside it", () => {
    const phrases = page(run("Form G-28 is attached.", 150, 502), run("Attorney State Bar Number", 280, 520))
    const caption = phrases.filter((p) => p.text.startsWith("Form"))
    expect(find(box(280, 498, 400, 516), phrases, [], { claimed: caption })?.text).toBe("Attorney State Bar Number")
  })

  it("names a box under a check box's caption by that caption when nothing else is printed for it", () => {
    const phrases = page(run("Other (describe the accommodation):", 78, 578))
    expect(find(box(78, 540, 294, 572), phrases, [box(61, 577, 71, 587)], { claimed: phrases })?.text).toBe("Other (describe the accommodation)")
    // A small box under an option of a sentence is no explanation of it.
    expect(find(box(78, 560, 120, 572), phrases, [box(61, 577, 71, 587)], { claimed: phrases })).toBeUndefined()
  })

  it("reads the question above, not the examples after it", () => {
    const phrases = page(
      run("16)* What was the injury or illness? Tell us the part of the body that was affected.", 598, 201, 8),
      run("Examples: strained back; chemical burn, hand.", 614, 193, 8)
    )
    expect(find(box(611, 153, 989, 188), phrases)?.text).toBe("What was the injury or illness?")
  })

  it("reads a wrapped label above whose last line ends in a colon", () => {
    const phrases = page(run("(Describe the nature of your impairment and the accommodation you are", 78, 554), run("requesting):", 78, 542))
    expect(find(box(78, 468, 294, 540), phrases)?.text).toBe("(Describe the nature of your impairment and the accommodation you are requesting)")
  })

  it("names an amount box by the line its repeated line number starts", () => {
    const phrases = page(
      run("9a Taxable interest", 36, 339, 9),
      run("9a", 425, 339, 9),
      run("21", 31, 171, 9),
      run("Other income. List type", 51, 171, 9),
      run("21", 425, 171, 9)
    )
    const typeBox = box(260, 169, 400, 180)
    expect(find(box(443, 337, 504, 348), phrases)?.text).toBe("9a Taxable interest")
    expect(find(box(443, 169, 504, 180), phrases, [typeBox])?.text).toBe("21 Other income. List type")
  })

  it("reads a note in brackets before a box with the label on the line over it", () => {
    const phrases = page(run("15. Date of Admission", 36, 405), run("(mm/dd/yyyy)", 120, 390))
    expect(find(box(193, 384, 294, 402), phrases)?.text).toBe("Date of Admission (mm/dd/yyyy)")
  })

  it("heads the rows of a block with their heading, but not with a note", () => {
    const phrases = page(run("H) Designation of the employer", 320, 663, 8), run("name:", 320, 640, 8), run("address:", 320, 621, 8))
    const name = box(375, 639, 525, 652)
    const address = box(375, 620, 525, 633)
    expect(find(name, phrases, [address])?.text).toBe("name: Designation of the employer")
    const noted = page(run("NOTE: Write them as printed.", 320, 663, 8), run("name:", 320, 640, 8), run("address:", 320, 621, 8))
    expect(find(name, noted, [address])?.text).toBe("name")
  })

  it("takes no header over a column from the words after another box on their line", () => {
    const phrases = page(
      run("Signed at", 72, 645),
      run("(city and state).", 395, 645),
      run("Signature", 262, 616),
      run("Printed Name", 250, 592)
    )
    const signedAt = box(117, 644, 417, 667)
    const signature = box(329, 614, 545, 638)
    const printed = box(328, 590, 545, 614)
    expect(find(signature, phrases, [signedAt, printed], { kind: "signature" })?.text).toBe("Signature")
  })

  it("leaves whole a sentence over several columns of a grid, under which each column has its header", () => {
    const phrases = page(run("Enter amount of income under the rate", 310, 500, 6), run("(b) Rate 10%", 368, 490, 6))
    const cells = [300, 362, 424].map((x) => box(x, 470, x + 60, 482))
    const below = [300, 362, 424].map((x) => box(x, 456, x + 60, 468))
    const all = [...cells, ...below]
    expect(find(cells[1]!, phrases, all.filter((o) => o !== cells[1]))?.text).toBe("Rate 10%")
  })

  it("does not join a heading over the first line of an item to it", () => {
    const phrases = page(run("4. ASSETS", 39, 726), run("(a) Describe your assets:", 57, 709))
    expect(find(box(57, 660, 300, 705), phrases)?.text).toBe("Describe your assets")
  })

  it("keeps another box's caption beside a box when the text above is not aligned with it", () => {
    const phrases = page(run("Year & Make", 216, 683), run("Balance Owed $", 360, 707))
    const caption = phrases.filter((p) => p.text === "Year & Make")
    expect(find(box(279, 674, 430, 698), phrases, [], { claimed: caption })?.text).toBe("Year & Make")
  })

  it("says a short box right after another box continues it (cents after dollars)", () => {
    const phrases = page(run("7 Wages, salaries, tips", 40, 447, 8))
    const dollars = box(482, 444, 554, 456)
    const cents = box(554.4, 444, 576, 456)
    expect(find(cents, phrases, [dollars])).toMatchObject({ position: "continued", follows: dollars })
  })

  it("reads labels to the right on a right-to-left page", () => {
    const phrases = page(run("الاسم", 420, 705))
    expect(FieldLabel.rightToLeft(phrases)).toBe(true)
    expect(find(box(200, 700, 400, 718), phrases, [], { direction: "rtl" })?.text).toBe("الاسم")
  })
})

describe("FieldLabel.find: check boxes", () => {
  it("reads the caption to the right of a box", () => {
    const phrases = page(run("Married filing jointly", 120, 702))
    expect(FieldLabel.find({ rect: box(100, 700, 110, 710), kind: "check", obstacles: [] }, phrases)).toMatchObject({
      text: "Married filing jointly",
      position: "right"
    })
  })

  it("gives each box of \"Yes ☐ No ☐\" its own word", () => {
    const phrases = page(run("Yes", 100, 702), run("No", 140, 702))
    const yes = box(118, 700, 128, 710)
    const no = box(153, 700, 163, 710)
    expect(FieldLabel.find({ rect: yes, kind: "check", obstacles: [no] }, phrases)?.text).toBe("Yes")
    expect(FieldLabel.find({ rect: no, kind: "check", obstacles: [yes] }, phrases)?.text).toBe("No")
  })

  it("reads a caption wrapped under its first line, up to the next option", () => {
    const phrases = page(
      run("A professional (at a minimum, possessing a", 360, 76),
      run("bachelor's degree).", 360, 64),
      run("An alien of extraordinary ability.", 360, 46)
    )
    const next = box(343, 44, 353, 54)
    expect(FieldLabel.find({ rect: box(343, 74, 353, 84), kind: "check", obstacles: [next] }, phrases)?.text).toBe(
      "A professional (at a minimum, possessing a bachelor's degree)"
    )
  })

  it("ends a caption where another box's label over that box begins", () => {
    const phrases = page(run("Select this box if", 177, 532), run("Attorney State Bar Number", 280, 532))
    const blank = box(280, 498, 400, 516)
    expect(FieldLabel.find({ rect: box(163, 530, 173, 540), kind: "check", obstacles: [blank] }, phrases)?.text).toBe("Select this box if")
  })

  it("names a group by the question over it whose item number hangs left of the options", () => {
    // "12d. Is there ...?" starts 22 points left of its options; its words start over them.
    const phrases = page(run("12d. Is there a dedicated ventilator unit?", 47, 363), run("Yes", 84, 349), run("No", 84, 337))
    const captions = phrases.filter((p) => p.text === "Yes" || p.text === "No")
    const options = box(70, 336, 78, 357)
    expect(FieldLabel.find({ rect: options, kind: "group", obstacles: [], exclude: captions }, phrases)?.text).toBe(
      "Is there a dedicated ventilator unit?"
    )
  })

  it("names a group by the question over a note in brackets, not by the note", () => {
    const phrases = page(
      run("12. Does the facility have residents on a ventilator?", 32, 577),
      run("(If no, skip remainder of this section)", 47, 563),
      run("Yes", 64, 549),
      run("No", 64, 537)
    )
    const captions = phrases.filter((p) => p.text === "Yes" || p.text === "No")
    expect(FieldLabel.find({ rect: box(50, 536, 58, 557), kind: "group", obstacles: [], exclude: captions }, phrases)?.text).toBe(
      "Does the facility have residents on a ventilator?"
    )
  })

  it("does not take the label over another box as the question of a group", () => {
    const phrases = page(run("Country of residence abroad.", 60, 694), run("Form I-485", 360, 699), run("Form I-131", 360, 681))
    const country = box(60, 672, 294, 690)
    const captions = phrases.filter((p) => p.text.startsWith("Form"))
    const area = box(343, 679, 410, 707)
    expect(FieldLabel.find({ rect: area, kind: "group", obstacles: [country], exclude: captions }, phrases)).toBeUndefined()
  })

  it("does not read the next item under a question as a paragraph", () => {
    const phrases = page(
      run("Is this a full-time position?", 60, 340),
      run("If the answer to Item Number 4 is No, how many", 60, 322),
      run("Yes", 231, 340),
      run("No", 273, 340)
    )
    const captions = phrases.filter((p) => p.text === "Yes" || p.text === "No")
    expect(FieldLabel.find({ rect: box(218, 338, 285, 348), kind: "row", obstacles: [], exclude: captions }, phrases)?.text).toBe(
      "Is this a full-time position?"
    )
  })

  it("names a row of options by its question on the line right above it", () => {
    const phrases = page(
      run("For Item Numbers 9.a. - 9.e., give the address.", 36, 159),
      run("12.", 318, 159),
      run("Is he or she applying for a visa abroad?", 342, 159),
      run("Yes", 513, 147),
      run("No", 554, 147)
    )
    const captions = phrases.filter((p) => p.text === "Yes" || p.text === "No")
    expect(FieldLabel.find({ rect: box(500, 145, 567, 155), kind: "row", obstacles: [], exclude: captions }, phrases)?.text).toBe(
      "Is he or she applying for a visa abroad?"
    )
  })

  it("names a row of options beside the first line of a question by the whole question", () => {
    const phrases = page(
      run("Are you a nonprofit organized as tax", 342, 405),
      run("exempt or a governmental research", 342, 393),
      run("organization?", 342, 381),
      run("Yes", 552, 405),
      run("No", 595, 405)
    )
    const captions = phrases.filter((p) => p.text === "Yes" || p.text === "No")
    expect(FieldLabel.find({ rect: box(540, 403, 607, 413), kind: "row", obstacles: [], exclude: captions }, phrases)?.text).toBe(
      "Are you a nonprofit organized as tax exempt or a governmental research organization?"
    )
  })

  it("reads a question on to its \"?\" over as many as six lines", () => {
    const lines = [
      "Do you currently employ a total of",
      "25 or fewer full-time equivalent",
      "employees in the United States,",
      "including all affiliates or subsidiaries",
      "of this company/organization?"
    ]
    const phrases = page(...lines.map((text, k) => run(text, 342, 364 - 12 * k)), run("Yes", 572, 363), run("No", 615, 363))
    const captions = phrases.filter((p) => p.text === "Yes" || p.text === "No")
    // The label's text is cut to its first words; all five lines are its phrases.
    const label = FieldLabel.find({ rect: box(560, 361, 627, 371), kind: "row", obstacles: [], exclude: captions }, phrases)
    expect(label?.phrases.map((p) => p.text)).toEqual(lines)
  })

  it("takes the lines of a question above its last line, even where they run on over the options", () => {
    const phrases = page(
      run("L Have you excluded any gross income other", 0, 96, 8),
      run("than foreign income not effectively", 14, 84, 8),
      run("connected with a trade or business?", 14, 72, 8),
      run("Yes", 202, 72, 8),
      run("No", 239, 72, 8)
    )
    const captions = phrases.filter((p) => p.text === "Yes" || p.text === "No")
    expect(FieldLabel.find({ rect: box(190, 71, 250, 80), kind: "row", obstacles: [], exclude: captions }, phrases)?.text).toBe(
      "L Have you excluded any gross income other than foreign income not effectively connected with a trade or business?"
    )
  })

  it("names a row of options by the question before them, never by a caption", () => {
    const phrases = page(run("Is this a full-time position?", 40, 702), run("Yes", 262, 702), run("No", 312, 702))
    const captions = phrases.filter((p) => p.text === "Yes" || p.text === "No")
    const area = box(250, 700, 330, 712)
    expect(FieldLabel.find({ rect: area, kind: "row", obstacles: [], exclude: captions }, phrases)?.text).toBe("Is this a full-time position?")
  })
})

describe("FieldLabel.clean", () => {
  it("drops item numbers, blanks, trailing colons and how-to-answer notes", () => {
    expect(FieldLabel.clean("6.d. City or Town:")).toBe("City or Town")
    expect(FieldLabel.clean("(4) Relationship ______")).toBe("Relationship")
    expect(FieldLabel.clean("Race (Select all applicable boxes)")).toBe("Race")
    expect(FieldLabel.clean("Total additions B =")).toBe("Total additions")
    expect(FieldLabel.clean("D./Dña")).toBe("D./Dña")
    expect(FieldLabel.clean("12")).toBe("")
  })

  it("keeps only the last of a run of margin line numbers a label spans", () => {
    expect(FieldLabel.clean("46 47 48 49 Credits from Form")).toBe("49 Credits from Form")
    expect(FieldLabel.clean("38 39a Check if:")).toBe("39a Check if")
    // One number, or numbers that are the text itself, stay.
    expect(FieldLabel.clean("49 Credits from")).toBe("49 Credits from")
    expect(FieldLabel.clean("Lines 46 47 48")).toBe("Lines 46 47 48")
  })

  it("drops the letter of the next option that ends a caption, where words remain", () => {
    expect(FieldLabel.clean("Form 2439 b")).toBe("Form 2439")
    expect(FieldLabel.clean("Check if any tax is from: a")).toBe("Check if any tax is from")
    // A number and a letter alone are all the caption there is.
    expect(FieldLabel.clean("2439 b")).toBe("2439 b")
    // Capitals are names ("Schedule C"), not option letters.
    expect(FieldLabel.clean("Schedule C")).toBe("Schedule C")
  })

  it("keeps the first sentence of a paragraph", () => {
    expect(FieldLabel.firstSentence("14) What happened? Tell us how the injury occurred.")).toBe("14) What happened?")
    expect(FieldLabel.firstSentence("Name of employer")).toBe("Name of employer")
  })
})

describe("FieldLabel.find: a box numbered with no words", () => {
  it("keeps the number printed by its top line, and does not take the next item's line under it", () => {
    const phrases = page(run("3.d.", 36, 423), run("4.a. Page Number", 36, 240), run("4.b. Part Number", 126, 240))
    const tall = box(60, 252, 294, 432)
    const label = find(tall, phrases)
    expect(label).toMatchObject({ text: "", position: "left" })
    expect(FieldLabel.itemNumberOf(label!)).toBe("3.d.")
  })
})

describe("FieldLabel.find: the parts of one value", () => {
  it("gives a year's box after \", 20\" the label of the date box before it", () => {
    const phrases = page({ text: "- At a future date no later than", x: 176, y: 322, width: 159, height: 12 }, { text: ", 20", x: 473, y: 322, width: 19, height: 12 })
    const date = box(339, 321, 472, 347)
    const year = box(492, 321, 519, 347)
    expect(find(year, phrases, [date])).toMatchObject({ position: "continued", follows: date })
  })
})

