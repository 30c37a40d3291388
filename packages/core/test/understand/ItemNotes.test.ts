import { describe, expect, it } from "@effect/vitest"
import * as ItemNotes from "../../src/understand/ItemNotes.ts"
import { page, run } from "./support.ts"

describe("ItemNotes.itemNotes", () => {
  it("reads a note over its lines and the run of items it names", () => {
    const phrases = page(
      run("If you provided a United States address in Part 3., provide the", 36, 657),
      run("person's foreign address in Item Numbers 3.a. - 3.f.:", 36, 645),
      run("3.a. Street Number", 36, 628)
    )
    const [note, ...rest] = ItemNotes.itemNotes(phrases, new Set())
    expect(rest).toEqual([])
    expect(note!.text).toBe(
      "If you provided a United States address in Part 3., provide the person's foreign address in Item Numbers 3.a. - 3.f."
    )
    expect([note!.from, note!.to]).toEqual([[3, "a"], [3, "f"]])
    expect(["3.a.", "3.f.", "3.g.", "2.", "4.a."].map((n) => ItemNotes.names(note!, ItemNotes.keyOf(n)!))).toEqual([true, true, false, false, false])
  })

  it("takes every item a note names, a last item without a letter with all its letters, and not an item it sends the reader to", () => {
    const phrases = page(
      run("If you answer \"Yes\" to Item Numbers 6.a. - 10., provide the case", 36, 136),
      run("number in Part 11. (If not, proceed to Item Number 12.)", 36, 124)
    )
    const [note] = ItemNotes.itemNotes(phrases, new Set())
    expect([note!.from, note!.to]).toEqual([[6, "a"], [10, ""]])
    expect(["6.a.", "9.", "10.b.", "11.", "12."].map((n) => ItemNotes.names(note!, ItemNotes.keyOf(n)!))).toEqual([true, true, true, false, false])
  })

  it("leaves a single reference, a choice, an item's own label and a caption", () => {
    const phrases = page(
      run("NOTE: If you answered \"Yes\" to Item Numbers 4. or 5., explain.", 36, 700),
      run("6.b. If you answered Yes to Item Numbers 6.a. - 6.c., select all", 36, 650),
      run("Yes (then answer Item Numbers 5.a. - 5.c.)", 78, 600),
      run("See Item Number 2.", 36, 550)
    )
    const caption = phrases.find((p) => p.text.startsWith("Yes"))!
    expect(ItemNotes.itemNotes(phrases, new Set([caption]))).toEqual([])
  })
})

describe("ItemNotes.endsBlockOf", () => {
  it("ends the block of a heading with other items between the two, not of a heading right over the note", () => {
    const phrases = page(
      run("Mailing Address", 36, 400, 11),
      run("5.a. In Care Of Name", 36, 380),
      run("5.b. City or Town", 36, 360),
      run("If you answer Yes to Item Numbers 6.a. - 10., give the case number.", 36, 330),
      run("6.a. Are you filing any other petitions?", 36, 310)
    )
    const [note] = ItemNotes.itemNotes(phrases, new Set())
    const heading = phrases.find((p) => p.text === "Mailing Address")!
    expect(ItemNotes.endsBlockOf(note!, heading, phrases)).toBe(true)
    const right = page(run("Worksite Location", 36, 350, 11), ...phrases.slice(3).map((p) => run(p.text, p.x1, p.y, p.size)))
    expect(ItemNotes.endsBlockOf(note!, right[0]!, right)).toBe(false)
  })
})
