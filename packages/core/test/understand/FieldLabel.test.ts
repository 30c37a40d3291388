import { describe, expect, it } from "@effect/vitest"
import * as FieldLabel from "../../src/understand/FieldLabel.ts"
import type { Rect } from "../../src/understand/TextLayout.ts"
import { box, page, run } from "./support.ts"

const find = (rect: Rect, phrases: ReturnType<typeof page>, others: ReadonlyArray<Rect> = [], extra: Partial<FieldLabel.LabelQuery> = {}) =>
  FieldLabel.find({ rect, kind: "text", obstacles: others, ...extra }, phrases)

describe("FieldLabel.find: text boxes", () => {
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

  it("keeps the first sentence of a paragraph", () => {
    expect(FieldLabel.firstSentence("14) What happened? Tell us how the injury occurred.")).toBe("14) What happened?")
    expect(FieldLabel.firstSentence("Name of employer")).toBe("Name of employer")
  })
})
