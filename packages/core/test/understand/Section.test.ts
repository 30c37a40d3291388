import { describe, expect, it } from "@effect/vitest"
import * as Section from "../../src/understand/Section.ts"
import * as TextLayout from "../../src/understand/TextLayout.ts"
import { box, page, run } from "./support.ts"

// Body text, so that the headings are larger than most of the page.
const body = [300, 288, 276].map((y) => run("Fill in every line of this part with the details the person has on record.", 40, y))

describe("Section.headings", () => {
  it("finds numbered parts, capitals and larger text, not labels before a box", () => {
    const phrases = page(
      run("Part 3. Information About Your Spouse", 40, 740),
      run("EMERGENCY CONTACT", 40, 600),
      run("Mailing Address", 300, 700, 13),
      run("Street", 300, 680),
      run("a sentence in large type that goes on,", 40, 500, 14)
    )
    const streetBox = box(340, 676, 500, 692)
    const found = Section.headings(phrases, [streetBox])
    expect(found.map((h) => [h.text, h.level])).toEqual([
      ["Part 3. Information About Your Spouse", 1],
      ["Mailing Address", 2],
      ["EMERGENCY CONTACT", 2]
    ])
  })
})

describe("Section.headings, wrapped", () => {
  it("joins a heading set on several lines, and not the heading of the next block", () => {
    const phrases = page(
      run("Part 1. Information About the Person or", 40, 740, 12),
      run("Organization Filing This Petition", 40, 726, 12),
      run("Other Information", 320, 739, 12),
      run("Mailing Address", 40, 660, 12),
      run("Part 3. (select only one box):", 320, 600),
      run("Part 4. Processing", 40, 560, 12),
      run("Information", 40, 546, 12),
      ...body
    )
    expect(Section.headings(phrases, []).map((h) => [h.text, h.level])).toEqual([
      ["Part 1. Information About the Person or Organization Filing This Petition", 1],
      ["Other Information", 2],
      ["Mailing Address", 2],
      ["Part 4. Processing Information", 1]
    ])
  })
})

describe("Section.sectionOf", () => {
  const body = run("Fill in every line of this part with the details the person has on record.", 40, 600)
  const phrases = page(run("Part 2. Spouse", 40, 740), run("Address", 40, 700, 13), run("Employer", 320, 700, 13), body)
  const headings = Section.headings(phrases, [])

  it("gives the part and the nearest heading above the field in its column", () => {
    expect(Section.sectionOf(box(40, 660, 250, 676), headings).map((h) => h.text)).toEqual(["Part 2. Spouse", "Address"])
    expect(Section.sectionOf(box(320, 660, 560, 676), headings).map((h) => h.text)).toEqual(["Part 2. Spouse", "Employer"])
  })

  it("carries a numbered part over to the next page", () => {
    const next = Section.headings(page(run("Children", 40, 740, 13), body), [])
    const carried = Section.lastNumbered(headings)
    expect(Section.sectionOf(box(40, 700, 250, 716), next, carried).map((h) => h.text)).toEqual(["Part 2. Spouse", "Children"])
  })
})

describe("Section.sectionOf, two columns", () => {
  // Part 5 goes on at the top of the left column and Part 6 starts lower in it; Part 7 heads the
  // right column, where "Person 1" and "Person 2" each open the block of one person.
  const phrases = page(
    run("Part 5. Additional Information (continued)", 40, 740, 12),
    run("Part 7. Information About the Spouse and Children", 320, 740, 12),
    run("Person 1", 320, 700),
    run("Part 6. Basic Information About the Employment", 40, 560, 12),
    run("Person 2", 320, 500),
    run("Page 4", 320, 60),
    ...body
  )
  const headings = Section.headings(phrases, [])

  it("reads a thing of several, numbered alone on its line, as the heading of its block", () => {
    expect(headings.filter((h) => h.level === 2).map((h) => h.text)).toEqual(["Person 1", "Person 2"])
  })

  it("never takes the other column's part for a field's nearest heading", () => {
    const middleName = box(400, 470, 560, 486)
    expect(Section.sectionOf(middleName, headings).map((h) => h.text)).toEqual([
      "Part 7. Information About the Spouse and Children",
      "Person 2"
    ])
    // Below Part 6's heading on the page, but in the other column: still Person 1's block.
    expect(Section.sectionOf(box(400, 520, 560, 536), headings).map((h) => h.text)).toEqual([
      "Part 7. Information About the Spouse and Children",
      "Person 1"
    ])
    // In the left column, under Part 6, Part 6 is both the part and the nearest heading.
    expect(Section.sectionOf(box(40, 520, 250, 536), headings).map((h) => h.text)).toEqual(["Part 6. Basic Information About the Employment"])
  })
})

describe("Section.sectionOf, a short part title", () => {
  it("ends the part above at a later part in the same column, for a field right of the short title", () => {
    const phrases = page(
      run("5. Calculation of the sales and duty payable", 23, 740, 12),
      run("6. Certification", 23, 446, 12),
      ...body
    )
    const headings = Section.headings(phrases, [])
    // "Title", far right of "6. Certification" but under the long title of part 5.
    expect(Section.sectionOf(box(255, 381, 456, 399), headings).map((h) => h.text)).toEqual(["6. Certification"])
    expect(Section.sectionOf(box(255, 600, 456, 620), headings).map((h) => h.text)).toEqual([
      "5. Calculation of the sales and duty payable"
    ])
  })
})

describe("Section.headings, a table's title", () => {
  // A landscape page: the part, then a table whose title is centred over its column heads.
  const text = [
    run("5. Calculation of the sales and duty payable", 23, 559, 12),
    run("Dried/Fresh cannabis", 351, 465, 9),
    run("Sales ($)", 198, 448, 9),
    run("Packages sold", 367, 448, 9),
    run("Cannabis duty ($)", 456, 448, 9),
    run("Alberta", 35, 412, 8),
    run("Protected B when completed", 646, 583, 9),
    ...[536, 525, 514].map((y) => run("For each province and territory where sales were made, enter the total sales in dollars.", 33, y))
  ]
  const row = [box(190, 405, 260, 420), box(360, 405, 440, 420), box(450, 405, 530, 420)]

  it("reads a short line alone, centred over the column heads of a table of boxes, as a heading", () => {
    const headings = Section.headings(page(...text), row)
    expect(headings.map((h) => h.text)).toEqual(["5. Calculation of the sales and duty payable", "Dried/Fresh cannabis"])
    expect(Section.sectionOf(row[1]!, headings).map((h) => h.text)).toEqual([
      "5. Calculation of the sales and duty payable",
      "Dried/Fresh cannabis"
    ])
  })

  it("heads every column of its table with the title, the first column far left of its words too", () => {
    const headings = Section.headings(page(...text), row)
    const first = box(40, 380, 110, 395)
    expect([first, ...row].map((r) => Section.sectionOf(r, headings).at(-1)?.text)).toEqual(Array(4).fill("Dried/Fresh cannabis"))
  })

  it("does not take a column's own head, with its box right under it, for a title", () => {
    const under = [box(340, 440, 440, 458)]
    expect(Section.headings(page(...text), under).map((h) => h.text)).toEqual(["5. Calculation of the sales and duty payable"])
  })
})

describe("Section.sectionOf, the top of a second column", () => {
  it("puts a field level with the part that tops the first column in that part, not in the part carried over", () => {
    // The part's heading runs over two lines, down past the top of the right column's first box.
    const phrases = page(run("Part 11. Additional", 40, 740, 12), run("Information (continued)", 40, 726, 12), run("Person 5", 320, 740), ...body)
    const headings = Section.headings(phrases, [])
    const carried = Section.headings(page(run("Part 10. Preparer", 40, 740, 12), ...body), [])[0]
    // The first box of the right column, under "Person 5", level with Part 11's heading.
    expect(Section.sectionOf(box(340, 714, 560, 734), headings, carried).map((h) => h.text)).toEqual([
      "Part 11. Additional Information (continued)",
      "Person 5"
    ])
  })
})

describe("Section.headings, acronyms", () => {
  it("reads acronyms alone as a label, and letter-spaced capitals as a heading", () => {
    const phrases = page(run("IRS EIN", 40, 700), run("A N E X O", 40, 650, 12), ...body)
    expect(Section.headings(phrases, []).map((h) => h.text)).toEqual(["A N E X O"])
  })
})

describe("Section.headings, what is set like a heading but is not one", () => {
  it("does not take a numbered line in fine print, or a check box's caption, for a part", () => {
    const phrases = page(
      run("Part 1. Information About the Petitioner", 40, 740, 12),
      run("Schedule A, Group II", 300, 700, 7),
      run("Section 8 housing", 60, 650),
      ...body
    )
    const checkBox = box(44, 648, 54, 658)
    expect(Section.headings(phrases, [checkBox]).map((h) => h.text)).toEqual(["Part 1. Information About the Petitioner"])
  })

  it("reads small capitals drawn with one lower-case letter in a word as capitals, and not a line in lower case", () => {
    const phrases = page(run("EDUCATION (HIGHEST LEvEL AND YEAR)", 40, 700), run("(e.g., a-IPC, CIC, LTC-CIP, BCIDP)?", 40, 650), ...body)
    expect(Section.headings(phrases, []).map((h) => h.text)).toEqual(["EDUCATION (HIGHEST LEvEL AND YEAR)"])
  })
})


describe("Section.sectionOf, reading down the first column before the second", () => {
  // A page in two columns: the left one goes on with Part 2, starts Part 3 and its "Other
  // Information"; the right one goes on with that section, then opens a block of its own.
  const left = (y: number) => run("Fill in the details the person has on record here.", 40, y)
  const right = (y: number) => run("Give the details from the last record of arrival.", 330, y)
  const phrases = page(
    run("Part 2. Petition Type (continued)", 40, 740, 12),
    ...[720, 700, 680, 660, 640].map(left),
    run("Part 3. Information About the Person", 40, 600, 12),
    ...[580, 560, 540].map(left),
    run("Other Information", 40, 500, 12),
    ...[480, 460, 440].map(left),
    ...[740, 720, 700, 680].map(right),
    run("Information About His or Her Last Arrival", 330, 640, 12),
    ...[620, 600, 580, 560, 540].map(right)
  )
  const headings = Section.headings(phrases, [])
  const columns = TextLayout.columns(phrases, [])

  it("finds the gutter between two columns of text", () => {
    expect(columns).toBeDefined()
    expect(columns!.gutter).toBeGreaterThan(300)
    expect(columns!.gutter).toBeLessThan(330)
  })

  it("puts the top of the second column in the section the first column ends in", () => {
    const countryOfBirth = box(330, 700, 560, 716)
    expect(Section.sectionOf(countryOfBirth, headings, undefined, columns).map((h) => h.text)).toEqual([
      "Part 3. Information About the Person",
      "Other Information"
    ])
    // Under the second column's own heading: that heading, in the part the first column ends in.
    expect(Section.sectionOf(box(330, 560, 560, 576), headings, undefined, columns).map((h) => h.text)).toEqual([
      "Part 3. Information About the Person",
      "Information About His or Her Last Arrival"
    ])
    // The first column is read as before.
    expect(Section.sectionOf(box(40, 650, 250, 666), headings, undefined, columns).map((h) => h.text)).toEqual(["Part 2. Petition Type (continued)"])
  })

  it("reads blocks side by side in a grid across, when the first column holds no part", () => {
    const grid = page(
      run("TELEPHONE", 40, 700, 12),
      ...[680, 660, 640, 620, 600].map(left),
      ...[740, 720, 700, 680, 660, 640].map(right)
    )
    const gridColumns = TextLayout.columns(grid, [])
    expect(gridColumns).toBeDefined()
    expect(Section.sectionOf(box(330, 700, 560, 716), Section.headings(grid, []), undefined, gridColumns)).toEqual([])
  })

  it("finds no columns on a page of labels with their amount boxes on the right", () => {
    const lines = [700, 680, 660, 640, 620, 600, 580, 560, 540, 520].map((y) => run("Wages, salaries, tips, and other pay from your employer", 40, y))
    const amounts = [700, 680, 660, 640, 620, 600, 580, 560, 540, 520].map((y) => box(450, y - 2, 560, y + 10))
    expect(TextLayout.columns(page(...lines, ...[700, 600].map((y) => run("7", 440, y))), amounts)).toBeUndefined()
  })
})

describe("Section.headings, a part named in a sentence", () => {
  it("does not open a part where a sentence goes on at the start of a line", () => {
    const phrases = page(
      run("above, provide a detailed explanation in the space provided in", 40, 500),
      run("Part 8. Additional Information.", 40, 489),
      ...body
    )
    expect(Section.headings(phrases, [])).toEqual([])
  })
})

describe("Section.headings, a parenthesis left open", () => {
  it("reads the heading on to the line that closes it", () => {
    const phrases = page(
      run("Section A. (To be used only by a lawful permanent resident or", 40, 700),
      run("a permanent resident in commuter status.)", 40, 689),
      ...body
    )
    expect(Section.headings(phrases, []).map((h) => h.text)).toEqual([
      "Section A. (To be used only by a lawful permanent resident or a permanent resident in commuter status.)"
    ])
  })
})

describe("Section.ranked", () => {
  it("makes a numbered heading of another kind than the form's parts a heading inside a part", () => {
    const first = Section.headings(page(run("Part 1. Information About You", 40, 740, 12), ...body), [])
    const second = Section.headings(page(run("Part 2. Application Type", 40, 740, 12), run("Section A. Reason for Application", 40, 600, 12), ...body), [])
    const [one, two] = Section.ranked([first, second])
    expect(one!.map((h) => h.level)).toEqual([1])
    expect(two!.map((h) => [h.text, h.level])).toEqual([["Part 2. Application Type", 1], ["Section A. Reason for Application", 2]])
  })

  it("does not let a kind the form uses once outrank its parts", () => {
    const headings = Section.headings(
      page(run("Schedule A. Attachments", 40, 760, 12), run("Part 1. Name", 40, 700, 12), run("Part 2. Address", 40, 600, 12), ...body),
      []
    )
    expect(Section.ranked([headings])[0]!.map((h) => [h.text, h.level])).toEqual([
      ["Schedule A. Attachments", 2],
      ["Part 1. Name", 1],
      ["Part 2. Address", 1]
    ])
  })
})

describe("Section.headings, bold", () => {
  const bold = (text: string, x: number, y: number, size = 10) => ({ ...run(text, x, y, size), bold: true as const })

  it("takes a few bold words alone on their line as a block's title, in the body's size", () => {
    const phrases = TextLayout.phrases([
      bold("Physical address", 40, 700),
      run("City:", 40, 680),
      // Column heads of a table, side by side: not titles.
      bold("Dried cannabis", 300, 640),
      bold("Viable seed", 400, 640),
      // A sentence in bold, a bold word alone, and the start of a bold paragraph: not titles.
      bold("Give this form to your employer.", 40, 600),
      bold("Date", 40, 570),
      bold("Does your name match the", 40, 540),
      run("name on your card?", 40, 530),
      // Over its box, a caption.
      bold("Name of applicant", 40, 500),
      ...body
    ])
    const boxes = [box(200, 676, 500, 692), box(300, 600, 380, 630), box(400, 600, 480, 630), box(40, 475, 300, 494)]
    expect(Section.headings(phrases, boxes).map((h) => h.text)).toEqual(["Physical address"])
  })
})
