/**
 * Detected fields are named by the field understanding uploaded forms use: a radio group by its
 * question, a text box by the label before it, never by a value left inside it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as DetectedNames from "../src/detect/DetectedNames.ts"
import type { PageDetection } from "../src/detect/Pipeline.ts"
import type { PageText } from "../src/pdf/PageText.ts"

const run = (text: string, x: number, y: number, size = 10) => ({ text, x, y, width: text.length * size * 0.5, height: size })
const detection = (over: Partial<PageDetection> & Pick<PageDetection, "rect">): PageDetection => ({
  page: 1,
  kind: "Text",
  source: "box",
  confidence: 0.8,
  label: undefined,
  multiline: false,
  ...over
} as PageDetection)

describe("DetectedNames.labels", () => {
  it("names boxes by their printed labels, a radio group by its question, and not by a value inside a box", () => {
    const pages: ReadonlyArray<PageText> = [{
      page: 1,
      width: 612,
      height: 792,
      runs: [
        run("Given name:", 40, 704),
        run("Preferred contact:", 40, 654),
        run("Email", 214, 654),
        run("Phone", 294, 654),
        run("City:", 40, 604),
        run("Springfield", 130, 604)
      ]
    }]
    const detections = [
      detection({ rect: { x1: 120, y1: 700, x2: 320, y2: 716 }, label: "Given name" }),
      detection({ kind: "CheckBox", rect: { x1: 200, y1: 652, x2: 210, y2: 662 }, radio: { group: "g1", value: "Email" } }),
      detection({ kind: "CheckBox", rect: { x1: 280, y1: 652, x2: 290, y2: 662 }, radio: { group: "g1", value: "Phone" } }),
      detection({ rect: { x1: 120, y1: 600, x2: 320, y2: 616 }, label: "City" })
    ]
    const labels = DetectedNames.labels(detections, pages)
    expect(labels[0]).toBe("Given name")
    expect(labels[1]).toBe("Preferred contact")
    expect(labels[2]).toBe("Preferred contact")
    // "Springfield" sits inside the box: a flattened value; the caller keeps the detector's label.
    expect(labels[3]).not.toBe("Springfield")
  })
})
