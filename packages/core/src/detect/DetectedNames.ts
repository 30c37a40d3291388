/**
 * Names detected fields the way uploaded forms are named: by field understanding
 * (`understand/Understanding.ts`) over the detections' boxes and the pages' text, with no /TU.
 * One label inference for both, so a converted form reads like an uploaded one: table cells by
 * row and column, check boxes by their captions, a radio group by its question with each option's
 * caption. The detector's own label (which its scorer used as evidence) is the fallback, then
 * "Field N".
 */
import type { FormField, FormType } from "../FormField.ts"
import type { PageText } from "../pdf/PageText.ts"
import * as Understanding from "../understand/Understanding.ts"
import type { PageDetection } from "./Pipeline.ts"

const formTypeOf = (d: PageDetection): FormType =>
  d.radio ? "RadioButton" : d.signature && d.kind === "Text" ? "Signature" : d.kind === "CheckBox" ? "CheckBox" : "Text"

/** A detection (or a radio group's options) as the field understanding reads fields. */
const inputOf = (members: ReadonlyArray<PageDetection>, index: number): Understanding.FieldInput => {
  const first = members[0]!
  const field: FormField = {
    id: `det_${index}`,
    name: "",
    form_name: `det_${index}`,
    form_type: formTypeOf(first),
    page: first.page,
    rect: [first.rect.x1, first.rect.y1, first.rect.x2, first.rect.y2],
    required: false,
    read_only: false,
    ...(first.radio ? { options: members.map((m) => ({ label: m.radio!.value, value: m.radio!.value })) } : {}),
    ...(first.maxLength !== undefined ? { max_length: first.maxLength } : {})
  }
  return {
    field,
    fallbackName: first.label ?? "",
    widgets: members.map((m) => ({ page: m.page, rect: m.rect, ...(m.radio ? { value: m.radio.value } : {}) }))
  }
}

/**
 * The printed label of each detection, in order, by field understanding; `undefined` where it
 * found none. The options of one radio group share their group's label (its question).
 */
export const labels = (detections: ReadonlyArray<PageDetection>, pages: ReadonlyArray<PageText>): ReadonlyArray<string | undefined> => {
  const groups = new Map<string, Array<number>>()
  const units: Array<Array<number>> = []
  detections.forEach((d, i) => {
    if (!d.radio) return void units.push([i])
    const key = `${d.page}|${d.radio.group}`
    const group = groups.get(key)
    if (group) group.push(i)
    else {
      const fresh = [i]
      groups.set(key, fresh)
      units.push(fresh)
    }
  })
  const understood = Understanding.understand(
    units.map((members, k) => inputOf(members.map((i) => detections[i]!), k)),
    pages,
    { useTooltips: false }
  )
  const out: Array<string | undefined> = detections.map(() => undefined)
  units.forEach((members, k) => {
    const u = understood[k]!
    // Text inside a detected box is a value left by flattening ("ABC"), not its label.
    const label = u.source === "text" && u.position !== "inside" && u.label.trim() !== "" ? u.label : undefined
    for (const i of members) out[i] = label
  })
  return out
}
