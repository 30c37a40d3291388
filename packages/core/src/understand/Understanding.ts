/**
 * Field understanding for a whole form: for every field its label (the /TU, else the printed
 * label found from page text and geometry, else a cleaned partial name), its radio options'
 * captions, its section and role, its meaning and its format. Pure: it takes the fields as read
 * from the PDF and the pages' text, and returns what it understood of each.
 */
import type { FormField } from "../FormField.ts"
import type { PageText } from "../pdf/PageText.ts"
import * as FieldFormat from "./FieldFormat.ts"
import * as FieldLabel from "./FieldLabel.ts"
import * as ItemNotes from "./ItemNotes.ts"
import * as Section from "./Section.ts"
import * as Semantic from "./Semantic.ts"
import type { Phrase, Rect } from "./TextLayout.ts"
import * as TextLayout from "./TextLayout.ts"
import * as Vocabulary from "./Vocabulary.ts"

/** One widget of a field: where it is and, for buttons, the value its on-state stands for. */
export interface WidgetPlace {
  readonly page: number
  readonly rect: Rect
  readonly value?: string | undefined
}

/** A field as read from the PDF, before understanding. */
export interface FieldInput {
  readonly field: FormField
  /** The field's /TU, when it has a non-blank one. */
  readonly tooltip?: string | undefined
  /** The name to fall back on when neither /TU nor page text names the field (a cleaned partial name). */
  readonly fallbackName: string
  readonly widgets: ReadonlyArray<WidgetPlace>
}

/** Where a field's name came from. */
export type LabelSource = "tooltip" | "text" | "name"

/** What was understood of one field. */
export interface Understood {
  /**
   * The field's name (`FormField.name`): its accessible name, what a screen reader should say
   * and the /TU a careful author writes. The /TU itself when there is one; otherwise, on a form
   * set out in numbered parts, the path to the field (part, heading, item number) before its
   * label, and for a check box of a group its question; else the label.
   */
  readonly name: string
  /** The label printed for the field (told from its namesakes by a heading), else its /TU or partial name. */
  readonly label: string
  readonly source: LabelSource
  /** Where the printed label was found (for `source: "text"`). */
  readonly position?: FieldLabel.LabelPosition | undefined
  /** Caption printed by each option of a radio group or check box, by export value. */
  readonly captions: ReadonlyMap<string, string>
  readonly semantic: Semantic.FieldSemantic
}

export interface Options {
  /** Name fields by their /TU when they have one (default true); off, every label is inferred. */
  readonly useTooltips?: boolean
}

/** A page prepared once for all of its fields. */
export interface PageLayout {
  readonly page: number
  readonly phrases: ReadonlyArray<Phrase>
  readonly direction: "ltr" | "rtl"
}

/**
 * Pages past these sizes are not read for labels (their fields keep their /TU or partial names):
 * naming compares every field with the text and the widgets around it, so a hostile page of
 * tens of thousands of widgets or text items must not cost minutes.
 */
const MAX_WIDGETS_PER_PAGE = 3_000
const MAX_RUNS_PER_PAGE = 30_000

/** Phrases of every page, by page number. */
export const layoutPages = (pages: ReadonlyArray<PageText>): ReadonlyMap<number, PageLayout> =>
  new Map(pages.filter((text) => text.runs.length <= MAX_RUNS_PER_PAGE).map((text) => {
    const phrases = TextLayout.phrases(text.runs)
    return [text.page, { page: text.page, phrases, direction: FieldLabel.rightToLeft(phrases) ? "rtl" : "ltr" }]
  }))

const kindOf = (field: FormField): FieldLabel.LabelKind | undefined => {
  switch (field.form_type) {
    case "CheckBox":
    case "RadioButton":
      return "check"
    case "Signature":
      return "signature"
    case "PushButton":
      return undefined
    default:
      return "text"
  }
}

const sameRect = (a: Rect, b: Rect) => a.x1 === b.x1 && a.y1 === b.y1 && a.x2 === b.x2 && a.y2 === b.y2

const union = (rects: ReadonlyArray<Rect>): Rect => ({
  x1: Math.min(...rects.map((r) => r.x1)),
  y1: Math.min(...rects.map((r) => r.y1)),
  x2: Math.max(...rects.map((r) => r.x2)),
  y2: Math.max(...rects.map((r) => r.y2))
})

const usableRect = (r: Rect) => r.x2 - r.x1 > 0.5 && r.y2 - r.y1 > 0.5

/** A field's rectangle widened to the start of its label's words printed before it on its line. */
const withLabelLeft = (rect: Rect, label: FieldLabel.Label | undefined): Rect => {
  const before = (label?.phrases ?? []).filter((p) => p.x2 <= rect.x1 + 2 && TextLayout.overlapY(p, rect) > 0.3 * (p.y2 - p.y1))
  return before.length === 0 ? rect : { ...rect, x1: Math.min(rect.x1, ...before.map((p) => p.x1)) }
}

/**
 * Understands every field of a form. `inputs` in document order; `pages` the text of each page
 * (pages without text, or missing, leave their fields to the /TU or the partial name).
 */
export const understand = (
  inputs: ReadonlyArray<FieldInput>,
  pages: ReadonlyArray<PageText>,
  options: Options = {}
): ReadonlyArray<Understood> => {
  const useTooltips = options.useTooltips ?? true
  // Every widget of a page is an obstacle for the labels of the others.
  const widgetsByPage = new Map<number, Array<{ owner: number; rect: Rect }>>()
  inputs.forEach((input, owner) => {
    for (const w of input.widgets) {
      if (!usableRect(w.rect)) continue
      const list = widgetsByPage.get(w.page) ?? []
      list.push({ owner, rect: w.rect })
      widgetsByPage.set(w.page, list)
    }
  })
  const crowded = new Set([...widgetsByPage.entries()].filter(([, list]) => list.length > MAX_WIDGETS_PER_PAGE).map(([page]) => page))
  const layouts = new Map([...layoutPages(pages)].filter(([page]) => !crowded.has(page)))
  // Caption sides of the text boxes of each page, by widget rectangle.
  const captionSides = new Map<Rect, FieldLabel.CaptionSide | undefined>()
  const sidesDone = new Set<number>()
  const captionSideOf = (page: number, rect: Rect) => {
    if (!sidesDone.has(page)) {
      sidesDone.add(page)
      const layout = layouts.get(page)
      const boxes = (widgetsByPage.get(page) ?? [])
        .filter(({ owner }) => kindOf(inputs[owner]!.field) === "text" || kindOf(inputs[owner]!.field) === "signature")
        .map(({ rect }) => rect)
      if (layout) FieldLabel.captionSides(boxes, layout.phrases).forEach((side, i) => captionSides.set(boxes[i]!, side))
    }
    return captionSides.get(rect)
  }

  const query = (
    page: number,
    rect: Rect,
    kind: FieldLabel.LabelKind,
    ignore: ReadonlyArray<Rect>,
    exclude?: ReadonlyArray<Phrase>,
    claimed?: ReadonlyArray<Phrase>
  ): FieldLabel.Label | undefined => {
    const layout = layouts.get(page)
    if (!layout) return undefined
    const all = widgetsByPage.get(page) ?? []
    return FieldLabel.find(
      {
        rect,
        kind,
        obstacles: all.filter((w) => !ignore.some((r) => sameRect(r, w.rect))).map((w) => w.rect),
        captions: captionSideOf(page, rect),
        exclude,
        claimed,
        direction: layout.direction
      },
      layout.phrases
    )
  }

  // Captions first: the text beside a check box is its caption, never another field's label.
  const captionsOf = inputs.map((input) => {
    if (kindOf(input.field) !== "check") return []
    return input.widgets
      .filter((w) => usableRect(w.rect) && layouts.has(w.page))
      .map((w) => ({ widget: w, caption: query(w.page, w.rect, "check", [w.rect]) }))
  })
  const captionPhrases = new Map<number, Array<Phrase>>()
  for (const list of captionsOf) {
    for (const { widget, caption } of list) {
      if (!caption) continue
      const taken = captionPhrases.get(widget.page) ?? []
      taken.push(...caption.phrases)
      captionPhrases.set(widget.page, taken)
    }
  }

  const found = inputs.map((input, index) => {
    const kind = kindOf(input.field)
    const captions = new Map<string, string>()
    const widgets = input.widgets.filter((w) => usableRect(w.rect) && layouts.has(w.page))
    const first = widgets[0]
    let found: FieldLabel.Label | undefined
    if (kind !== undefined && first !== undefined) {
      const taken = captionPhrases.get(first.page) ?? []
      if (kind === "check") {
        const onPage = captionsOf[index]!.filter((c) => c.widget.page === first.page)
        for (const { widget, caption } of onPage) {
          if (caption && widget.value !== undefined && !captions.has(widget.value)) captions.set(widget.value, caption.text)
        }
        // A group: its question is beside or above all of its options, not any one caption.
        found = onPage.length > 1 ? query(first.page, union(onPage.map((c) => c.widget.rect)), "group", [], taken) : onPage[0]?.caption
      } else found = query(first.page, first.rect, kind, [first.rect], undefined, taken)
    }
    return { found, captions }
  })

  // A box that continues the one before it (cents, the parts of a split number) shares its label.
  const ownerOf = new Map<Rect, number>()
  for (const list of widgetsByPage.values()) for (const w of list) ownerOf.set(w.rect, w.owner)
  // Unless the two fields' PDF names say they hold different things ("Applicant Email" then
  // "Applicant Phone 1", "Contact Address" then "Contact City"): boxes side by side on one line.
  const nameTypes = inputs.map((input) => Vocabulary.typeOf(input.fallbackName))
  const previousOf = found.map((f, i) => {
    const previous = f.found?.follows ? ownerOf.get(f.found.follows) : undefined
    if (previous === undefined) return undefined
    const [before, after] = [nameTypes[previous]!, nameTypes[i]!]
    return before !== "unknown" && after !== "unknown" && before !== after ? undefined : previous
  })
  const chainOf = (index: number): Array<number> => {
    const chain = [index]
    for (let p = previousOf[index]; p !== undefined && !chain.includes(p) && chain.length < 12; p = previousOf[p]) chain.unshift(p)
    return chain
  }
  // Each chain's boxes, by its head: the longest chain that starts there.
  const chains = new Map<number, Array<number>>()
  found.forEach((_, i) => {
    const chain = chainOf(i)
    if (chain.length > (chains.get(chain[0]!)?.length ?? 1)) chains.set(chain[0]!, chain)
  })
  // The number of characters each box of a chain takes, when every box says ("13 cells, then 2").
  const lengthsOf = (chain: ReadonlyArray<number>) => {
    const lengths = chain.map((i) => inputs[i]!.field.max_length)
    return lengths.every((n): n is number => n !== undefined && n > 0) ? lengths : undefined
  }

  const labels = inputs.map((input, index) => {
    const chain = chainOf(index)
    const head = chain[0]!
    const own = found[index]!.found
    const printed = chain.length > 1 ? found[head]!.found : own
    const tooltip = useTooltips ? input.tooltip : undefined
    const text = printed?.text !== undefined && printed.text !== "" ? printed.text : undefined
    const source: LabelSource = tooltip ? "tooltip" : text ? "text" : "name"
    const label = tooltip ?? text ?? (chain.length > 1 ? inputs[head]!.fallbackName : input.fallbackName)
    const whole = chains.get(head)
    const lengths = whole && lengthsOf(whole)
    const segment = whole !== undefined ? { index: chain.length, count: whole.length, ...(lengths ? { lengths } : {}) } : undefined
    // A box numbered with no words ("3.d." by a blank) keeps its number for its accessible name.
    const number = printed ? FieldLabel.itemNumberOf(printed) : undefined
    return { label, source, position: own?.position, captions: found[index]!.captions, found: text !== undefined ? printed : undefined, number, segment }
  })

  // Check boxes listed together under one question ("Rationale: ☐ A ☐ B", "Smoker? ☐ Yes ☐ No"):
  // the question is the innermost heading of each; a caption that says nothing alone ("Yes",
  // "Other") is named with it.
  const questionLabels = checkBoxQuestions(inputs, captionsOf, (page, rect, kind, exclude) => query(page, rect, kind, [], exclude), captionPhrases)
  const groupQuestions = new Map([...questionLabels].map(([i, question]) => [i, question.text]))
  const names = labels.map((l, i) => {
    const question = groupQuestions.get(i)
    return question && l.source === "text" && Vocabulary.saysNothingAlone(l.label) ? { ...l, label: `${question}: ${l.label}` } : l
  })

  // Sections: the headings of every page, a numbered part carried over to the pages after it.
  const sectionsByPage = new Map<number, SectionsOfPage>()
  let carried: Section.Heading | undefined
  const pageOrder = [...layouts.keys()].sort((a, b) => a - b)
  const boxesOf = (page: number) => (widgetsByPage.get(page) ?? []).map((w) => w.rect)
  const ranked = Section.ranked(pageOrder.map((page) => Section.headings(layouts.get(page)!.phrases, boxesOf(page))))
  for (const [n, page] of pageOrder.entries()) {
    const layout = layouts.get(page)!
    const headings = ranked[n]!
    // Columns place fields: a page without any needs none.
    const boxes = boxesOf(page)
    sectionsByPage.set(page, { headings, carried, columns: boxes.length > 0 ? TextLayout.columns(layout.phrases, boxes) : undefined })
    carried = Section.lastNumbered(headings, carried)
  }

  // Dates: the order the form spells somewhere ("mm/dd/yyyy"), else the one of its language.
  const allText = [...layouts.values()].map((l) => l.phrases.map((p) => p.text).join(" ")).join("\n")
  const language = Vocabulary.languageOf(allText)
  const spelled = [...layouts.values()].flatMap((l) => l.phrases.map((p) => FieldFormat.datePattern(p.text))).filter((p) => p !== undefined)
  const orders = spelled.map(FieldFormat.orderOf).filter((o) => o !== undefined)
  const formDateOrder = mostCommon(orders) ?? FieldFormat.orderOfLanguage(language)
  const capitalsByPage = new Map([...layouts.entries()].map(([page, l]) => [page, FieldFormat.asksForCapitals(l.phrases.map((p) => p.text).join(" "))]))

  const signatures = inputs.flatMap((input) => (input.field.form_type === "Signature" ? input.widgets : []))
  const nearSignature = (page: number, rect: Rect): boolean => {
    const close = (r: Rect) => r.y1 <= rect.y2 + 30 && r.y2 >= rect.y1 - 30
    if (signatures.some((w) => w.page === page && close(w.rect))) return true
    const layout = layouts.get(page)
    return layout?.phrases.some((p) => close(p) && Math.abs(p.x1 - rect.x1) < 300 && SIGNATURE_WORD.test(p.text)) ?? false
  }

  const firstWidgets = inputs.map((input) => input.widgets.find((w) => usableRect(w.rect) && layouts.has(w.page)))
  // The headings each field sits under, outermost first.
  // A field is placed with the label printed to its left on its line: a heading over the labels
  // of a block ("Physical address" over "City:") heads their boxes too, however far right they are.
  const placed = firstWidgets.map((first, i) => {
    const place = sectionsByPage.get(first?.page ?? -1)
    return first && place ? Section.sectionOf(withLabelLeft(first.rect, names[i]!.found), place.headings, place.carried, place.columns) : []
  })
  // Each field's item number: printed before its label, at the start of its line, or before its group's question.
  const lineNumberOf = (i: number, label = names[i]!.found) => {
    const page = firstWidgets[i]?.page
    const layout = page === undefined ? undefined : layouts.get(page)
    return layout && leadingItemNumber(label, layout.phrases, boxesOf(page!), sectionsByPage.get(page!)?.columns)
  }
  const numbers = names.map((name, i) => {
    // A check box of a group answers its question's item ("7. Is the person ... in removal proceedings? ☐ Yes").
    const question = questionLabels.get(i)
    return name.number ?? lineNumberOf(i) ?? (question && (FieldLabel.itemNumberOf(question) ?? lineNumberOf(i, question)))
  })
  const noteOf = governingNotes(inputs, names, captionPhrases, layouts, sectionsByPage)
  const notes = numbers.map((number, i) => (number === undefined ? undefined : noteOf(i, number, placed[i]!)))
  // A note over a run of items ends the block of the heading above it when other items stand
  // between the two: its items are the part's, not that block's.
  const paths = placed.map((path, i) => {
    const note = notes[i]
    const nearest = path.at(-1)
    const phrases = layouts.get(firstWidgets[i]?.page ?? -1)?.phrases ?? []
    return note && nearest?.level === 2 && ItemNotes.endsBlockOf(note, nearest.rect, phrases) ? path.slice(0, -1) : path
  })
  const semantics = names.map((l, i) => {
    const input = inputs[i]!
    const first = firstWidgets[i]
    const headings = paths[i]!.map((h) => h.text)
    const question = groupQuestions.get(i)
    const section = question && !saidIn(headings, question) ? [...headings, question] : headings
    const hints = first ? hintsNear(layouts.get(first.page)!.phrases, first.rect) : ""
    return Semantic.describe({
      field: input.field,
      label: l.label,
      fromTooltip: l.source === "tooltip",
      printed: l.found?.text,
      partialName: input.fallbackName,
      captions: [...l.captions.values()],
      question,
      section,
      hints,
      nearSignature: first ? nearSignature(first.page, first.rect) : false,
      formDateOrder,
      pageCapitals: first ? capitalsByPage.get(first.page) : false,
      segment: l.segment
    })
  })

  const qualifiedNames = qualified(names, semantics, inputs.map((input) => input.field.page), layouts)
  // Each field's own words: the label printed for it, else its name.
  const ownWords = names.map((l) => l.found?.text ?? l.label)
  const explicit = ownWords.map(Vocabulary.roleOf)
  const inRow = withRowRoles(inputs, semantics, explicit)
  const representatives = ownWords.map(Vocabulary.namesRepresentative)
  const inBlock = withSignerRoles(inputs, withSigningBlockRoles(inputs, inRow, explicit, representatives), explicit, layouts)
  const numbered = withWholeNames(withHouseNumbers(inputs, inBlock, ownWords), names.map((l) => l.label))
  // A form set out in three numbered parts or more ("Part 1" to "Part 8", "1." to "5."), as
  // long forms are, names its fields with their place in it (see `accessibleName`).
  const parts = new Set(paths.flatMap((path) => path.filter((h) => h.level === 1).map((h) => headingWords(h.text))))
  const inParts = parts.size >= MIN_PARTS
  return withRowIndexes(inputs, numbered).map((semantic, i) => {
    const label = qualifiedNames[i]!
    const name = labels[i]!.source === "tooltip"
      ? label
      : Vocabulary.spokenUnits(
        accessibleName(label, names[i]!.label, inParts ? paths[i]! : [], groupQuestions.get(i), numbers[i], notes[i]?.text),
        language
      )
    return {
      name,
      label,
      source: labels[i]!.source,
      position: labels[i]!.position,
      captions: labels[i]!.captions,
      // The printed label alone, for a reader of the field list, where the name says more.
      semantic: name !== label ? { ...semantic, label } : semantic
    }
  })
}

/** The headings of a page, the part carried over from the pages before, and its columns. */
interface SectionsOfPage {
  readonly headings: ReadonlyArray<Section.Heading>
  readonly carried?: Section.Heading | undefined
  readonly columns?: TextLayout.Columns | undefined
}

/** Whether one of `headings` says `text` already (a group's question that heads its section). */
const saidIn = (headings: ReadonlyArray<string>, text: string): boolean =>
  headings.some((h) => Vocabulary.normalize(h).includes(Vocabulary.normalize(text)))

/** How many numbered parts make a form long enough for its fields' names to say where they are. */
const MIN_PARTS = 3

/** A heading's words without the page's note that it goes on from the page before. */
const headingWords = (text: string): string =>
  text.replace(/\s*[([]?\s*(?:continued|cont'd|cont\.|suite|fortsetzung|continuaci[oó]n)\s*[)\]]?\s*$/iu, "").replace(/[\s:.;,–—-]+$/u, "").trim()

/**
 * The accessible name of a field without a /TU. A check box of a group is named with the
 * question it answers ("Hair Color: Blond"). A form set out in numbered parts repeats its labels
 * from part to part ("Given Name" of the applicant, then of the mother): there the name also says
 * where the field is, part and heading, then the item number printed before the label ("Part 1.
 * Information About You. Mailing Address. 3.b. Street Number and Name"), as accessible forms
 * write their /TU.
 */
const accessibleName = (
  qualified: string,
  own: string,
  path: ReadonlyArray<Section.Heading>,
  question: string | undefined,
  number: string | undefined,
  note: string | undefined
): string => {
  const placed = path[0]?.level === 1
  // Where the path says where the field is, the label is read without the heading `qualified`
  // may have put before it to tell it from its namesakes.
  const label = placed ? own : qualified
  const said = (text: string) => Vocabulary.normalize(label).includes(Vocabulary.normalize(text))
  // A question that is a heading of the path already ("Section A. (To be used only by ...") is said there.
  const headed = (text: string) => placed && saidIn(path.map((h) => h.text), text)
  const asked = question !== undefined && !said(question) && !headed(question) ? `${question}: ${label}` : label
  const item = number !== undefined && !label.startsWith(number) ? `${number} ${asked}` : asked
  const parts = placed ? path.map((h) => headingWords(h.text)).filter((text, i, all) => text !== "" && all.indexOf(text) === i && !said(text)) : []
  // The note that governs the item comes before its number, as it is printed.
  return asSentences([...parts, ...(note !== undefined ? [note] : []), item])
}

/** Phrases read one after another, each ending a sentence unless it ends one already ("... in commuter status.)"). */
const asSentences = (phrases: ReadonlyArray<string>): string =>
  phrases.reduce((name, part) => (name === "" ? part : /[.?!][)\]]?$/.test(name) ? `${name} ${part}` : `${name}. ${part}`), "")

/**
 * The note that governs each field's item, by field index: a note printed before a run of items
 * that names them ("... in Item Numbers 3.a. - 3.f."; see `ItemNotes`), on the field's page and
 * in its part, read before it (above it in its column, or in a column before its own).
 */
const governingNotes = (
  inputs: ReadonlyArray<FieldInput>,
  names: ReadonlyArray<{ readonly found?: FieldLabel.Label | undefined }>,
  captionPhrases: ReadonlyMap<number, ReadonlyArray<Phrase>>,
  layouts: ReadonlyMap<number, PageLayout>,
  sectionsByPage: ReadonlyMap<number, SectionsOfPage>
): (i: number, number: string, path: ReadonlyArray<Section.Heading>) => ItemNotes.ItemNote | undefined => {
  const notesByPage = new Map<number, ReadonlyArray<{ readonly note: ItemNotes.ItemNote; readonly part: Section.Heading | undefined }>>()
  const labelPhrases = names.flatMap((n) => n.found?.phrases ?? [])
  const notesOf = (page: number) => {
    const known = notesByPage.get(page)
    if (known) return known
    const layout = layouts.get(page)
    const place = sectionsByPage.get(page)
    const taken = new Set([...(captionPhrases.get(page) ?? []), ...labelPhrases])
    const notes = layout && place
      ? ItemNotes.itemNotes(layout.phrases, taken).map((note) => ({
        note,
        part: Section.sectionOf(note.rect, place.headings, place.carried, place.columns).find((h) => h.level === 1)
      }))
      : []
    notesByPage.set(page, notes)
    return notes
  }
  return (i, number, path) => {
    const widget = inputs[i]!.widgets.find((w) => usableRect(w.rect) && layouts.has(w.page))
    const key = ItemNotes.keyOf(number)
    if (!widget || !key) return undefined
    const part = path.find((h) => h.level === 1)
    const readBefore = (note: Rect) =>
      (widget.rect.y2 <= note.y1 + 2 && TextLayout.overlapX(widget.rect, note) > 0) || widget.rect.x1 >= note.x2
    return notesOf(widget.page).find(({ note, part: noteOf }) => noteOf?.text === part?.text && readBefore(note.rect) && ItemNotes.names(note, key))
      ?.note
  }
}

/**
 * The question each check box of a group answers, by field index: boxes of one size in a row on
 * one line, or in a column one under another, each its own field, with its caption beside it.
 * The question is the label of the whole group (before a row; before or above a column), never
 * one of the captions. Lines that each print their own question before their boxes are groups
 * of their own, however close under one another.
 */
const checkBoxQuestions = (
  inputs: ReadonlyArray<FieldInput>,
  captionsOf: ReadonlyArray<ReadonlyArray<{ readonly widget: WidgetPlace; readonly caption: FieldLabel.Label | undefined }>>,
  ask: (page: number, rect: Rect, kind: FieldLabel.LabelKind, exclude: ReadonlyArray<Phrase>) => FieldLabel.Label | undefined,
  captionPhrases: ReadonlyMap<number, ReadonlyArray<Phrase>>
): ReadonlyMap<number, FieldLabel.Label> => {
  const boxes = inputs.flatMap((input, i) => {
    const list = captionsOf[i]!
    return input.field.form_type === "CheckBox" && list.length === 1 && list[0]!.caption ? [{ i, ...list[0]!, caption: list[0]!.caption }] : []
  })
  const alike = (ra: Rect, rb: Rect) => Math.abs(rb.y2 - rb.y1 - (ra.y2 - ra.y1)) <= 0.3 * (ra.y2 - ra.y1)
  const parent = boxes.map((_, k) => k)
  const find = (k: number): number => (parent[k] === k ? k : (parent[k] = find(parent[k]!)))
  const join = (ka: number, kb: number) => (parent[find(kb)] = find(ka))
  const pairs = (test: (a: (typeof boxes)[number], b: (typeof boxes)[number]) => boolean) =>
    boxes.flatMap((a, ka) => boxes.flatMap((b, kb) => (kb > ka && a.widget.page === b.widget.page && alike(a.widget.rect, b.widget.rect) && test(a, b) ? [[ka, kb] as const] : [])))
  const membersOf = () => {
    const groups = new Map<number, Array<number>>()
    boxes.forEach((_, k) => groups.set(find(k), [...(groups.get(find(k)) ?? []), k]))
    return groups
  }
  const areaOf = (members: ReadonlyArray<number>) => union(members.flatMap((k) => [boxes[k]!.widget.rect, ...boxes[k]!.caption.phrases]))
  // Lines first: boxes side by side on one line.
  for (const [ka, kb] of pairs((a, b) => TextLayout.overlapY(a.widget.rect, b.widget.rect) >= 0.5 * (a.widget.rect.y2 - a.widget.rect.y1) && Math.abs(b.widget.rect.x1 - a.widget.rect.x1) <= 250)) join(ka, kb)
  // Each line's own question, if it has one (asked once, and only of lines that need it).
  const lines = membersOf()
  const asked = new Map<number, FieldLabel.Label | undefined>()
  const lineQuestion = (root: number) => {
    if (!asked.has(root)) {
      const members = lines.get(root) ?? [root]
      const page = boxes[members[0]!]!.widget.page
      asked.set(root, ask(page, areaOf(members), "row", captionPhrases.get(page) ?? []))
    }
    return asked.get(root)
  }
  const lineOf = boxes.map((_, k) => find(k))
  // Two questions that share printed text are one, wrapped over the lines of its options.
  const distinct = (a: FieldLabel.Label | undefined, b: FieldLabel.Label | undefined) =>
    a !== undefined && b !== undefined && !a.phrases.some((p) => b.phrases.includes(p))
  // Then columns: lines of options one under another are one group, unless each asks its own
  // question ("6. Permanent? ☐ Yes ☐ No" over "7. New? ☐ Yes ☐ No"); a line of more options under
  // a question's first line ("Eye color: ☐ Black ☐ Blue" over "☐ Gray ☐ Green") asks none.
  const columns = pairs((a, b) =>
    Math.abs(b.widget.rect.x1 - a.widget.rect.x1) <= 3 &&
    Math.abs(b.widget.rect.y1 - a.widget.rect.y1) <= 2.6 * Math.max(a.widget.rect.y2 - a.widget.rect.y1, a.caption.size)
  )
  const stacked = new Set<number>()
  for (const [ka, kb] of columns) {
    if (find(ka) === find(kb) || distinct(lineQuestion(lineOf[ka]!), lineQuestion(lineOf[kb]!))) continue
    join(ka, kb)
    stacked.add(ka).add(kb)
  }
  const out = new Map<number, FieldLabel.Label>()
  for (const members of membersOf().values()) {
    if (members.length < 2) continue
    const page = boxes[members[0]!]!.widget.page
    const column = members.some((k) => stacked.has(k))
    const question = column ? ask(page, areaOf(members), "group", captionPhrases.get(page) ?? []) : lineQuestion(lineOf[members[0]!]!)
    if (!question?.text) continue
    for (const k of members) out.set(boxes[k]!.i, question)
  }
  return out
}

/**
 * Printed labels that several fields share ("City or Town" under a mailing and a physical
 * address) are told apart by the nearest heading of each one's section, when those differ:
 * "Mailing Address: City or Town"; rows under one heading, by the item number each row starts
 * with: "3. Page Number". Tooltips and names are left as they are.
 */
const qualified = (
  labels: ReadonlyArray<{
    readonly label: string
    readonly source: LabelSource
    readonly position?: FieldLabel.LabelPosition | undefined
    readonly found?: FieldLabel.Label | undefined
  }>,
  semantics: ReadonlyArray<Semantic.FieldSemantic>,
  pagesOf: ReadonlyArray<number>,
  layouts: ReadonlyMap<number, PageLayout>
): ReadonlyArray<string> => {
  const key = (text: string) => Vocabulary.normalize(text).trim()
  const groups = new Map<string, Array<number>>()
  labels.forEach((l, i) => {
    if (l.source !== "text") return
    const list = groups.get(key(l.label)) ?? []
    list.push(i)
    groups.set(key(l.label), list)
  })
  const names = labels.map((l) => l.label)
  const headingOf = (i: number) => semantics[i]!.section?.at(-1)
  for (const all of groups.values()) {
    // Only where one page shows the same label under two headings; table cells have their row and column.
    const members = all.filter((i) => labels[i]!.position !== "column")
    const pages = new Map<number, Array<number>>()
    for (const i of members) pages.set(pagesOf[i]!, [...(pages.get(pagesOf[i]!) ?? []), i])
    const ambiguous = [...pages.values()]
      .filter((onPage) => onPage.every((i) => headingOf(i) !== undefined) && new Set(onPage.map(headingOf)).size >= 2)
      .flat()
    for (const i of ambiguous) {
      const heading = headingOf(i)
      if (heading && key(heading) !== key(names[i]!)) names[i] = `${FieldLabel.clean(heading)}: ${names[i]}`
    }
    // Rows of one block repeated under one heading ("3. Page Number | Part Number | Item Number",
    // then "4. ..."): the item number each row starts with tells them apart.
    for (const onPage of pages.values()) {
      if (onPage.length < 2 || new Set(onPage.map((i) => key(names[i]!))).size === onPage.length) continue
      const numbers = onPage.map((i) => rowItemNumber(labels[i]!.found, layouts.get(pagesOf[i]!)?.phrases ?? []))
      if (numbers.some((n) => n === undefined) || new Set(numbers).size < 2) continue
      onPage.forEach((i, k) => (names[i] = `${numbers[k]} ${names[i]}`))
    }
  }
  return names
}

const BARE_ITEM_NUMBER = /^\(?(\d{1,3}\.?(?:[a-z]\.?)?)\)?$/i
const LEADING_ITEM_NUMBER = /^\(?(\d{1,3}[.)](?:\s?[a-z][.)])?)\s/i

/**
 * The item number a label's row starts with: printed before the label itself ("3. Page Number"),
 * or alone at the start of its line, left of it and of the labels of the boxes before it.
 */
const rowItemNumber = (label: FieldLabel.Label | undefined, phrases: ReadonlyArray<Phrase>): string | undefined => {
  const first = label?.phrases[0]
  if (!first) return undefined
  const own = LEADING_ITEM_NUMBER.exec(first.text)
  if (own) return own[1]!.replace(/\s/g, "")
  const nearest = phrases
    .filter((p) =>
      p.x2 <= first.x1 + 1 && TextLayout.overlapY(p, first) >= 0.5 * Math.min(p.y2 - p.y1, first.y2 - first.y1) && BARE_ITEM_NUMBER.test(p.text.trim())
    )
    .sort((a, b) => b.x2 - a.x2)[0]
  return nearest && `${BARE_ITEM_NUMBER.exec(nearest.text.trim())![1]!.replace(/\.$/, "")}.`
}

/**
 * The item number a label's line starts with when the label has none of its own: "6.c." before
 * "☐ Apt. ☐ Ste. ☐ Flr." and the box after them, "1.a." before a check box and its caption. Only
 * check boxes and their captions may stand between the number and the label: other words, or a
 * box to write in, belong to another item (another column's). A label over or under its box
 * takes the number hanging right before it ("10." then "Date of Last Arrival"). Never a number
 * across the gutter of a page set in two columns.
 */
const leadingItemNumber = (
  label: FieldLabel.Label | undefined,
  phrases: ReadonlyArray<Phrase>,
  boxes: ReadonlyArray<Rect>,
  columns: TextLayout.Columns | undefined
): string | undefined => {
  const first = label?.phrases[0]
  if (!first) return undefined
  const onLine = (r: Rect) => TextLayout.overlapY(r, first) >= 0.5 * Math.min(r.y2 - r.y1, first.y2 - first.y1)
  const checkBox = (b: Rect) => b.x2 - b.x1 <= 3 * first.size
  // Nothing across the gutter of a page set in two columns: that is the other column's item.
  const acrossGutter = (p: Phrase) =>
    columns !== undefined && p.x2 <= columns.gutter && first.x1 >= columns.gutter && first.y1 >= columns.y1 - 2 && first.y2 <= columns.y2 + 2
  const before = phrases.filter((p) => p !== first && onLine(p) && p.x2 <= first.x1 + 1 && !acrossGutter(p)).sort((a, b) => b.x2 - a.x2)
  // A label over or under its box: only a number printed right before it, in a hanging indent
  // ("10." then "Date of Last Arrival" over the box), is its own.
  if (label.position === "above" || label.position === "below") {
    const nearest = before[0]
    return nearest && first.x1 - nearest.x2 <= 6 * first.size ? FieldLabel.bareItemNumber(nearest.text) : undefined
  }
  for (const p of before) {
    if (boxes.some((b) => onLine(b) && !checkBox(b) && b.x1 >= p.x2 - 1 && b.x2 <= first.x1 + 1)) return undefined
    const number = FieldLabel.bareItemNumber(p.text)
    if (number) return number
    const caption = boxes.some((b) => onLine(b) && checkBox(b) && p.x1 - b.x2 >= -2 && p.x1 - b.x2 <= 2 * p.size)
    if (!caption) return undefined
  }
  return undefined
}

/**
 * A field whose own label names nobody ("Last name", "Relationship") on the line of one whose
 * label does ("Spouse's first name", a dependent's row) is that person's too.
 */
const withRowRoles = (
  inputs: ReadonlyArray<FieldInput>,
  semantics: ReadonlyArray<Semantic.FieldSemantic>,
  explicit: ReadonlyArray<Vocabulary.Role | undefined>
): ReadonlyArray<Semantic.FieldSemantic> => {
  // The fields that name someone, by page: each field looks only at those of its own page.
  const namingByPage = new Map<number, Array<{ readonly j: number; readonly r: WidgetPlace }>>()
  inputs.forEach((input, j) => {
    const r = input.widgets[0]
    if (r === undefined || explicit[j] === undefined) return
    const onPage = namingByPage.get(r.page)
    if (onPage) onPage.push({ j, r })
    else namingByPage.set(r.page, [{ j, r }])
  })
  return semantics.map((s, i) => {
    if (explicit[i] !== undefined) return s
    const w = inputs[i]!.widgets[0]
    if (!w) return s
    const h = w.rect.y2 - w.rect.y1
    const before = (namingByPage.get(w.page) ?? [])
      .filter(({ j, r }) =>
        j !== i && r.rect.x2 <= w.rect.x1 + 2 && TextLayout.overlapY(r.rect, w.rect) >= 0.5 * Math.min(h, r.rect.y2 - r.rect.y1)
      )
      .sort((a, b) => b.r.rect.x2 - a.r.rect.x2)[0]
    if (!before) return s
    const role = semantics[before.j]!.role
    const index = semantics[before.j]!.dependent_index
    const { dependent_index: _, ...rest } = s
    return role === "dependent" && index !== undefined ? { ...rest, role, dependent_index: index } : { ...rest, role }
  })
}

// What a signing block asks of the person named at its top, on the lines under the name.
const SIGNING_BLOCK_TYPES: ReadonlySet<Vocabulary.SemanticType> = new Set(["occupation", "phone", "fax", "email"])

/**
 * A signing block ("Completed by ___ / Title ___ / Phone ___"): the title, phone and e-mail boxes
 * stacked under the box of the person who completes or signs for an organisation are that
 * person's, when their own labels name nobody.
 */
const withSigningBlockRoles = (
  inputs: ReadonlyArray<FieldInput>,
  semantics: ReadonlyArray<Semantic.FieldSemantic>,
  explicit: ReadonlyArray<Vocabulary.Role | undefined>,
  representatives: ReadonlyArray<boolean>
): ReadonlyArray<Semantic.FieldSemantic> => {
  const representative = new Set(representatives.flatMap((r, i) => (r && semantics[i]!.role === "other" ? [i] : [])))
  return extendBlocks(inputs, semantics, explicit, representative, (s) => SIGNING_BLOCK_TYPES.has(s.type))
}

/** How far under a signer's signature line its block reaches, in points (three lines of a form). */
const SIGNER_BLOCK_REACH = 60

/**
 * The block under a signature line that names another party ("Buyer's Signature ___ Date ___ /
 * Print Name ___ / Driver's License Number ___ State ___", a witness's, a parent's): its boxes
 * are that party's when their own labels name nobody. The nearest signature line above a box
 * decides, so the seller's block under the buyer's is the seller's.
 */
const withSignerRoles = (
  inputs: ReadonlyArray<FieldInput>,
  semantics: ReadonlyArray<Semantic.FieldSemantic>,
  explicit: ReadonlyArray<Vocabulary.Role | undefined>,
  layouts: ReadonlyMap<number, PageLayout>
): ReadonlyArray<Semantic.FieldSemantic> =>
  semantics.map((s, i) => {
    const w = inputs[i]!.widgets[0]
    const layout = w ? layouts.get(w.page) : undefined
    if (!w || !layout || explicit[i] !== undefined || s.role !== "self") return s
    const lines = layout.phrases
      .filter((p) => p.y1 >= w.rect.y2 - 2 && p.y1 - w.rect.y2 <= SIGNER_BLOCK_REACH && p.x1 <= w.rect.x2 && SIGNATURE_WORD.test(p.text))
      .sort((a, b) => a.y1 - b.y1)
    // Blocks side by side ("Attorney signature" left, "Petitioner signature" right): the one
    // over the box; else the nearest to its left.
    const line = lines.find((p) => p.x2 >= w.rect.x1) ?? [...lines].sort((a, b) => b.x2 - a.x2 || a.y1 - b.y1)[0]
    const role = line ? Vocabulary.roleOf(line.text) : undefined
    // A party or a preparer; the spouse's signature line of a joint return heads no block of its own.
    return role === "other" || role === "preparer" ? { ...s, role } : s
  })

/**
 * Gives the boxes right under a block's boxes (`seeds`) the role of the box above them, line by
 * line down the page, when their own labels name nobody and `takes` their meaning.
 */
const extendBlocks = (
  inputs: ReadonlyArray<FieldInput>,
  semantics: ReadonlyArray<Semantic.FieldSemantic>,
  explicit: ReadonlyArray<Vocabulary.Role | undefined>,
  seeds: ReadonlySet<number>,
  takes: (semantic: Semantic.FieldSemantic) => boolean
): ReadonlyArray<Semantic.FieldSemantic> => {
  const out = [...semantics]
  if (seeds.size === 0) return out
  const inBlock = new Set(seeds)
  // Top to bottom, so a block extends one line at a time.
  const order = inputs
    .map((input, i) => ({ i, w: input.widgets[0] }))
    .filter((x): x is { i: number; w: WidgetPlace } => x.w !== undefined)
    .sort((a, b) => a.w.page - b.w.page || b.w.rect.y2 - a.w.rect.y2)
  for (const { i, w } of order) {
    if (inBlock.has(i) || explicit[i] !== undefined || !takes(out[i]!)) continue
    const h = w.rect.y2 - w.rect.y1
    const above = order.find(({ i: j, w: v }) =>
      inBlock.has(j) && v.page === w.page && v.rect.y1 >= w.rect.y2 - 2 && v.rect.y1 - w.rect.y2 <= 2 * h &&
      v.rect.x1 <= w.rect.x2 && w.rect.x1 <= v.rect.x2
    )
    if (!above) continue
    out[i] = { ...out[i]!, role: out[above.i]!.role }
    inBlock.add(i)
  }
  return out
}

/** A label that asks for a number and says no more ("No.", "Nr.", "numéro", "Nummer", "n°"), as `normalize` writes it. */
const BARE_NUMBER = /^\s*(?:number|no|nr|nro|num|numero|nummer|n)\s*$/

/**
 * A box asking only for a number ("numéro", "Nr.") right beside a street box on its line (its
 * own person's) holds the house number: "numéro | rue", "Straße | Nr.".
 */
const withHouseNumbers = (
  inputs: ReadonlyArray<FieldInput>,
  semantics: ReadonlyArray<Semantic.FieldSemantic>,
  labels: ReadonlyArray<string>
): ReadonlyArray<Semantic.FieldSemantic> =>
  semantics.map((s, i) => {
    const w = inputs[i]!.widgets[0]
    if (s.type !== "unknown" || !w || inputs[i]!.field.form_type !== "Text" || !BARE_NUMBER.test(Vocabulary.normalize(labels[i]!))) return s
    const h = w.rect.y2 - w.rect.y1
    const street = semantics.some((t, j) => {
      const v = inputs[j]!.widgets[0]
      if (j === i || t.type !== "street_address" || t.role !== s.role || !v || v.page !== w.page) return false
      const gap = v.rect.x1 >= w.rect.x2 ? v.rect.x1 - w.rect.x2 : w.rect.x1 - v.rect.x2
      return TextLayout.overlapY(v.rect, w.rect) >= 0.5 * Math.min(h, v.rect.y2 - v.rect.y1) && gap >= -1 && gap <= 4 * h
    })
    return street ? { ...s, type: "house_number" } : s
  })

/** Words for a name that mean the given name beside a surname box, and the whole name without one. */
const BARE_NAME = /^ (?:nombre|nome) $/

/**
 * "Nombre", "Nome" alone: the given name on a form that asks for the surname too ("Nombre |
 * Apellidos"), the whole name on one that does not ("D./Dña. ____ con DNI ____").
 */
const withWholeNames = (
  semantics: ReadonlyArray<Semantic.FieldSemantic>,
  labels: ReadonlyArray<string>
): ReadonlyArray<Semantic.FieldSemantic> => {
  const withSurname = new Set(semantics.filter((s) => s.type === "family_name").map((s) => s.role))
  return semantics.map((s, i) =>
    s.type === "given_name" && !withSurname.has(s.role) && BARE_NAME.test(Vocabulary.normalize(labels[i]!)) ? { ...s, type: "full_name" } : s
  )
}

/**
 * Dependents listed in a table: the fields of one column (same type, same left edge) on a page
 * are numbered by their row, top first, when no label numbers them.
 */
const withRowIndexes = (
  inputs: ReadonlyArray<FieldInput>,
  semantics: ReadonlyArray<Semantic.FieldSemantic>
): ReadonlyArray<Semantic.FieldSemantic> => {
  const columns = new Map<string, Array<number>>()
  semantics.forEach((s, i) => {
    if (s.role !== "dependent" || s.dependent_index !== undefined) return
    const input = inputs[i]!
    const w = input.widgets[0]
    if (!w) return
    const key = `${w.page}:${s.type}:${input.field.form_type}:${Math.round(w.rect.x1 / 4)}`
    const list = columns.get(key) ?? []
    list.push(i)
    columns.set(key, list)
  })
  const index = new Map<number, number>()
  for (const list of columns.values()) {
    if (list.length < 2) continue
    const rows = [...list].sort((a, b) => inputs[b]!.widgets[0]!.rect.y2 - inputs[a]!.widgets[0]!.rect.y2)
    rows.forEach((i, row) => index.set(i, row + 1))
  }
  return semantics.map((s, i) => (index.has(i) ? { ...s, dependent_index: index.get(i)! } : s))
}

const SIGNATURE_WORD = /\b(?:signature|sign here|signed|unterschrift|firma|signé|signe)\b/i

/** Text inside the box or right under or after it: where forms print "mm/dd/yyyy" and the like. */
const hintsNear = (phrases: ReadonlyArray<Phrase>, rect: Rect): string =>
  phrases
    .filter((p) =>
      TextLayout.centreInside(p, rect) ||
      (TextLayout.overlapX(p, rect) > 0 && rect.y1 - p.y2 >= -2 && rect.y1 - p.y2 <= 1.2 * p.size) ||
      (TextLayout.overlapY(p, rect) > 0 && p.x1 >= rect.x2 - 2 && p.x1 - rect.x2 <= 3 * p.size)
    )
    .map((p) => p.text)
    .join(" ")

const mostCommon = <A>(items: ReadonlyArray<A>): A | undefined => {
  const counts = new Map<A, number>()
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1)
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0]
}
