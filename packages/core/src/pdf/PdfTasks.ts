/**
 * Every piece of PDF work the services hand off, by name: the functions a PDF worker runs (or
 * the calling thread, with `PdfEngine.layerInline`). Inputs and outputs are plain data, so they
 * cross a thread boundary by structured clone; errors cross as `SerializedError`.
 */
import type { PDFDocument } from "@cantoo/pdf-lib"
import { Effect, Exit, Option } from "effect"
import type { ConversionOptions, ConversionProgress, ConvertedPdf } from "../Converter.ts"
import { ConverterError } from "../Converter.ts"
import * as AddFields from "../detect/AddFields.ts"
import * as FieldDetector from "../detect/FieldDetector.ts"
import * as FlatCheck from "../detect/FlatCheck.ts"
import * as FormFiller from "./FormFiller.ts"
import * as FormReader from "./FormReader.ts"
import * as PagePreview from "./PagePreview.ts"
import * as PageText from "./PageText.ts"
import type { PdfRejected, PdfUnusable } from "./PdfError.ts"
import type { TaskError } from "./TaskError.ts"
import * as PdfJs from "./PdfJs.ts"
import * as PdfLib from "./PdfLib.ts"
import * as PdfLimits from "./PdfLimits.ts"

/** What a source document holds for autofill: its filled fields and its text, line by line. */
export interface DocumentContent {
  readonly fields: ReadonlyArray<{ readonly name: string; readonly value: string }>
  readonly lines: ReadonlyArray<string>
}

/**
 * Detects fields and writes them into the PDF; with nothing detected the PDF comes back unchanged.
 * The writer opens the document first: a file it cannot use (a user password, damage) fails at
 * once, not after every page has been analysed.
 */
const convert = (
  pdf: Uint8Array,
  options: ConversionOptions,
  onProgress: (progress: ConversionProgress) => Effect.Effect<void>
): Effect.Effect<ConvertedPdf, ConverterError | PdfUnusable | PdfRejected> =>
  Effect.gen(function*() {
    const doc = yield* PdfLib.load(pdf)
    const detection = yield* FieldDetector.detect(pdf, options, onProgress)
    if (detection.fields.length === 0) return { pdf, detections: [], ...(yield* readOutput(doc, detection.text)) } satisfies ConvertedPdf
    const written = yield* AddFields.addFields(doc, detection.fields).pipe(
      Effect.catchTag("AddFieldsError", (error) => Effect.fail(new ConverterError({ message: error.message, cause: error.cause })))
    )
    return {
      pdf: written.pdf,
      detections: written.fields.map((f) => ({ formName: f.formName, name: f.name, confidence: f.confidence })),
      ...(yield* readOutput(doc, detection.text))
    } satisfies ConvertedPdf
  })

/**
 * The output as `readForm` would read it, from the document as written (`doc`, which saving
 * left as the output is) and the text the detector read of every page: a second parse of the
 * PDF (pdf-lib and pdf.js, the largest cost after detection) is saved. Without the text of
 * every page, or should reading fail, the form is read from the output by whoever stores it.
 */
const readOutput = (doc: PDFDocument, text: ReadonlyArray<PageText.PageText> | undefined) =>
  Effect.gen(function*() {
    if (text === undefined) return {}
    const form = yield* Effect.option(FormReader.readOpenForm(doc, text))
    return Option.isSome(form) ? { form: form.value } : {}
  })

const readDocument = (bytes: Uint8Array): Effect.Effect<DocumentContent, PdfUnusable | PdfRejected> =>
  Effect.gen(function*() {
    const form = yield* Effect.result(FormReader.readForm(bytes))
    if (form._tag === "Failure" && form.failure._tag === "PdfRejected") return yield* form.failure
    const fields = form._tag === "Success"
      ? form.success.fields.flatMap((field) =>
        // Keyed by the label printed beside the field, the words a person reads as its key.
        typeof field.value === "string" && field.value.trim() !== "" ? [{ name: field.semantic?.label ?? field.name, value: field.value.trim() }] : [])
      : []
    const pages = yield* PageText.read(bytes).pipe(
      Effect.catchTag("PdfUnusable", (error) => (form._tag === "Success" ? Effect.succeed([]) : Effect.fail(error)))
    )
    return { fields, lines: pages.flatMap(PageText.toLines) }
  })

/** The tasks, each taking its input and a progress callback. */
export const tasks = {
  readForm: (bytes: Uint8Array) => FormReader.readForm(bytes),
  fill: (input: { readonly pdf: Uint8Array; readonly assignments: ReadonlyArray<FormFiller.Assignment>; readonly options?: FormFiller.FillOptions }) =>
    FormFiller.fillForm(input.pdf, input.assignments, input.options),
  pageCount: (bytes: Uint8Array) =>
    PdfJs.use(bytes, (doc) => Effect.as(PdfLimits.checkPages(doc.numPages), doc.numPages)),
  readDocument,
  preview: (input: PagePreview.Input) => PagePreview.render(input),
  convert: (input: { readonly pdf: Uint8Array; readonly options: ConversionOptions }, onProgress: (value: unknown) => void) =>
    convert(input.pdf, input.options, (progress) => Effect.sync(() => onProgress(progress))),
  checkFlat: (input: { readonly pdf: Uint8Array; readonly options: FlatCheck.CheckOptions }) => FlatCheck.check(input.pdf, input.options)
}

export type { SerializedError, TaskError } from "./TaskError.ts"

export type TaskName = keyof typeof tasks
export type Input<T extends TaskName> = Parameters<(typeof tasks)[T]>[0]
export type Output<T extends TaskName> = (typeof tasks)[T] extends (...args: any) => Effect.Effect<infer A, any, any> ? A : never

/**
 * Runs a task under `limits`: the streams of every PDF input are checked first, so no library
 * expands a bomb, then the task itself.
 */
export const run = <T extends TaskName>(
  name: T,
  input: Input<T>,
  limits: PdfLimits.Limits,
  onProgress: (value: unknown) => void
): Promise<Exit.Exit<Output<T>, unknown>> => {
  const bytes = input instanceof Uint8Array ? input : (input as { readonly pdf: Uint8Array }).pdf
  const task = tasks[name] as (input: Input<T>, onProgress: (value: unknown) => void) => Effect.Effect<Output<T>, TaskError>
  return Effect.runPromiseExit(
    PdfLimits.checkStreams(bytes).pipe(
      Effect.andThen(Effect.suspend(() => task(input, onProgress))),
      Effect.provideService(PdfLimits.PdfLimits, limits)
    )
  )
}
