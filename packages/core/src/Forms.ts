/**
 * The Forms service: upload, read, update and delete a user's forms.
 */
import { Context, Effect, Layer, Option, Schema, type Stream } from "effect"
import * as Clock from "./Clock.ts"
import type { Detection } from "./Converter.ts"
import * as Events from "./Events.ts"
import * as FileName from "./FileName.ts"
import { Form, FormPatch, FormForbidden, FormNotFound } from "./Form.ts"
import { FormField } from "./FormField.ts"
import * as Id from "./Id.ts"
import { InvalidInput, validate } from "./InvalidInput.ts"
import type { PdfRejected, PdfUnusable } from "./pdf/PdfError.ts"
import type { ParsedForm } from "./pdf/FormReader.ts"
import * as PdfEngine from "./PdfEngine.ts"
import * as Storage from "./Storage.ts"
import { withUndoAll } from "./Undo.ts"

export interface UploadInput {
  readonly owner: Id.UserId
  readonly bytes: Uint8Array
  /** The client's name for the file (multipart name or `X-File-Name`), if any. */
  readonly fileName?: string | undefined
}

/** A converted PDF to store as a form: its detections' names and confidences go on its fields. */
export interface ConvertedInput extends UploadInput {
  readonly detections: ReadonlyArray<Detection>
  /** The PDF as `readForm` reads it, when the converter read it already; read here otherwise. */
  readonly parsed?: ParsedForm | undefined
}

export interface ListQuery {
  /** Case-insensitive substring of the file name. */
  readonly name?: string | undefined
  /** 1-based. */
  readonly page: number
  readonly size: number
}

export interface ListResult<A> {
  readonly items: ReadonlyArray<A>
  /** Matching items across all pages. */
  readonly total: number
}

export type Lookup = FormNotFound | FormForbidden | Storage.StorageError

export interface FormsShape {
  /** Parses and stores a PDF; nothing is stored when it is not a usable PDF. */
  readonly upload: (input: UploadInput) => Effect.Effect<Form, PdfUnusable | PdfRejected | Storage.StorageError>
  /** Stores the fillable result of a conversion as a new form of the job's owner. */
  /** A converted PDF as a form; `parsed` is the PDF as `readForm` reads it, when the converter read it already. */
  readonly createConverted: (input: ConvertedInput) => Effect.Effect<Form, PdfUnusable | PdfRejected | Storage.StorageError>
  readonly list: (owner: Id.UserId, query: ListQuery) => Effect.Effect<ListResult<Form>, Storage.StorageError>
  readonly get: (owner: Id.UserId, id: string) => Effect.Effect<Form, Lookup>
  readonly pdf: (owner: Id.UserId, id: string) => Effect.Effect<{ readonly form: Form; readonly bytes: Uint8Array }, Lookup>
  /** The stored PDF as a stream, so a large file is never held whole in memory to be sent. */
  readonly pdfStream: (
    owner: Id.UserId,
    id: string
  ) => Effect.Effect<{ readonly form: Form; readonly stream: Stream.Stream<Uint8Array, Storage.StorageError> }, Lookup>
  readonly update: (owner: Id.UserId, id: string, patch: FormPatch) => Effect.Effect<Form, Lookup | InvalidInput>
  readonly delete: (owner: Id.UserId, id: string) => Effect.Effect<void, Lookup>
}

export class Forms extends Context.Service<Forms, FormsShape>()("@formwright/core/Forms") {}

/** Storage layout of forms; an owner index makes listing a user's forms cheap. */
export const keys = {
  form: (id: string) => `forms/${id}`,
  pdf: (id: string) => `forms/${id}.pdf`,
  ownerIndex: (owner: string) => `owners/${owner}/forms/`,
  ownerEntry: (owner: string, id: string) => `owners/${owner}/forms/${id}`
}

/**
 * An owner's index entry: what a listing filters and sorts on, so it reads these small entries
 * and then only the forms of the page it returns. Entries written before `file_name` was kept
 * here lack it; a name filter reads those forms' records instead.
 */
/**
 * A form's entry in its owner's listing. `name` repeats the file name under the member a store
 * that answers queries (PostgreSQL) filters and sorts on with `created`; entries written before
 * it lack it and are listed by the scan.
 */
const OwnerEntry = Schema.Struct({
  form_id: Schema.String,
  created: Schema.String,
  file_name: Schema.optionalKey(Schema.String),
  name: Schema.optionalKey(Schema.String)
})
type OwnerEntry = typeof OwnerEntry.Type

const newestFirst = (a: OwnerEntry, b: OwnerEntry) =>
  a.created < b.created ? 1 : a.created > b.created ? -1 : a.form_id < b.form_id ? 1 : a.form_id > b.form_id ? -1 : 0

const applyFieldPatch = (fields: ReadonlyArray<FormField>, patches: NonNullable<FormPatch["fields"]>, pages: number) =>
  Effect.gen(function*() {
    const byId = new Map(fields.map((f) => [f.id, f] as const))
    for (const [index, patch] of patches.entries()) {
      const current = byId.get(patch.id)
      if (!current) {
        return yield* new InvalidInput({ field: `form.fields[${index}].id`, message: `Unknown field id '${patch.id.slice(0, 200)}'.` })
      }
      if (patch.page !== undefined && patch.page > pages) {
        return yield* new InvalidInput({
          field: `form.fields[${index}].page`,
          message: `Page ${patch.page} is past the end of the form (${pages} ${pages === 1 ? "page" : "pages"}).`
        })
      }
      const merged: Record<string, unknown> = { ...current }
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) merged[k] = v
      // A member of the wrong type (`name: 5`, an unknown `form_type`) is the client's mistake,
      // not a record that cannot be stored.
      const checked = yield* Schema.decodeUnknownEffect(FormField)(merged, { onExcessProperty: "ignore" }).pipe(
        Effect.mapError((error) =>
          new InvalidInput({ field: `form.fields[${index}]`, message: error.message.replace(/\s+/g, " ").slice(0, 300) })
        )
      )
      byId.set(patch.id, checked)
    }
    return fields.map((f) => byId.get(f.id)!)
  })

export const layer: Layer.Layer<Forms, never, Storage.Storage | Events.Events | PdfEngine.PdfEngine> = Layer.effect(
  Forms,
  Effect.gen(function*() {
    const storage = yield* Storage.Storage
    const events = yield* Events.Events
    const engine = yield* PdfEngine.PdfEngine

    const load = (owner: Id.UserId, id: string) =>
      Effect.gen(function*() {
        if (!Id.isSafeSegment(id)) return yield* new FormNotFound({ formId: id })
        const found = yield* storage.getJson(Form, keys.form(id))
        if (Option.isNone(found)) return yield* new FormNotFound({ formId: id })
        if (found.value.value.owner !== owner) return yield* new FormForbidden({ formId: id })
        return found.value.value
      })

    const store = (
      input: UploadInput,
      origin: Form["origin"],
      enrich: (fields: ReadonlyArray<FormField>) => ReadonlyArray<FormField>,
      known?: ParsedForm | undefined
    ) =>
      Effect.gen(function*() {
        const parsed = known ?? (yield* engine.readForm(input.bytes, origin === "upload" ? "request" : "background"))
        const now = Clock.nowIso()
        const form: Form = {
          id: Id.FormId.make(Id.make("form")),
          owner: input.owner,
          file_name: FileName.choose(input.fileName),
          origin,
          pages: parsed.pages,
          size_bytes: input.bytes.byteLength,
          fields: enrich(parsed.fields),
          as_text: parsed.asText,
          group_instructions: {},
          line_by_line_instructions: {},
          processed: true,
          created: now,
          updated: now
        }
        // The PDF and the record go side by side, and the owner's index entry after both: a form
        // is reached only through that entry or the id this returns, so it is never seen without
        // its PDF. A write that fails (a full disk) or is interrupted (the client left) undoes the
        // others, so no PDF or record is left that nothing points to.
        yield* withUndoAll(
          [
            { write: storage.putBlob(keys.pdf(form.id), input.bytes, { contentType: "application/pdf" }), undo: storage.deleteBlob(keys.pdf(form.id)) },
            { write: storage.insertJson(Form, keys.form(form.id), form), undo: storage.deleteDocument(keys.form(form.id), "any") }
          ],
          storage.insertJson(OwnerEntry, keys.ownerEntry(form.owner, form.id), { form_id: form.id, created: now, file_name: form.file_name, name: form.file_name })
        )
        return form
      })

    const upload = Effect.fn("Forms.upload")(function*(input: UploadInput) {
      const form = yield* store(input, "upload", (fields) => fields)
      yield* events.publish({
        id: Id.make("event"),
        type: "form.uploaded",
        owner: form.owner,
        created: form.created,
        data: { form_id: form.id, file_name: form.file_name, pages: form.pages, fields: form.fields.length }
      })
      return form
    })

    const createConverted = Effect.fn("Forms.createConverted")(function*(input: ConvertedInput) {
      const byName = new Map(input.detections.map((d) => [d.formName, d] as const))
      return yield* store(input, "conversion", (fields) =>
        fields.map((field) => {
          const detection = byName.get(field.form_name)
          return detection ? { ...field, name: detection.name, confidence: detection.confidence } : field
        }), input.parsed)
    })

    /** The forms of `entries`, read together, in order; those gone (a delete that stopped half-way) counted apart. */
    const formsOf = (owner: Id.UserId, entries: ReadonlyArray<OwnerEntry>) =>
      Effect.forEach(entries, (entry) => storage.getJson(Form, keys.form(entry.form_id)), { concurrency: 8 }).pipe(
        Effect.map((found) => {
          const items = found.flatMap((f) => (Option.isSome(f) && f.value.value.owner === owner ? [f.value.value] : []))
          return { items, missing: found.length - items.length }
        })
      )

    const list = Effect.fn("Forms.list")(function*(owner: Id.UserId, query: ListQuery) {
      // A store that answers queries (PostgreSQL) filters, pages and counts the entries in one
      // query; then the page's forms are read.
      if (storage.queryJson !== undefined) {
        const page = yield* storage.queryJson(OwnerEntry, keys.ownerIndex(owner), {
          nameContains: query.name,
          offset: (query.page - 1) * query.size,
          limit: query.size
        })
        const { items, missing } = yield* formsOf(owner, page.items.map((entry) => entry.value))
        return { items, total: page.total - missing }
      }
      const entries = (yield* storage.listJson(OwnerEntry, keys.ownerIndex(owner))).map((entry) => entry.value)
      const needle = query.name?.toLowerCase()
      const matching: Array<OwnerEntry> = []
      for (const entry of entries) {
        if (needle === undefined) {
          matching.push(entry)
          continue
        }
        // An entry from before the index kept file names: its record has it.
        let fileName = entry.file_name
        if (fileName === undefined) {
          const found = yield* storage.getJson(Form, keys.form(entry.form_id))
          if (Option.isNone(found) || found.value.value.owner !== owner) continue
          fileName = found.value.value.file_name
        }
        if (fileName.toLowerCase().includes(needle)) matching.push(entry)
      }
      matching.sort(newestFirst)
      // Only the page's forms are read. An entry whose form is gone (a delete that stopped
      // half-way) is skipped for the next one and not counted.
      const items: Array<Form> = []
      let missing = 0
      for (let at = (query.page - 1) * query.size; at < matching.length && items.length < query.size; at++) {
        const found = yield* storage.getJson(Form, keys.form(matching[at]!.form_id))
        if (Option.isSome(found) && found.value.value.owner === owner) items.push(found.value.value)
        else missing++
      }
      return { items, total: matching.length - missing }
    })

    const update = Effect.fn("Forms.update")(function*(owner: Id.UserId, id: string, patch: FormPatch) {
      // Whose form it is comes first: someone else's form is a 403 whatever the body says.
      yield* load(owner, id)
      yield* validate(FormPatch, patch as typeof FormPatch.Encoded, "form")
      const updated = yield* storage.updateJson(Form, keys.form(id), (current) =>
        Effect.gen(function*() {
          const fields = patch.fields ? yield* applyFieldPatch(current.fields, patch.fields, current.pages) : current.fields
          return {
            ...current,
            fields,
            as_text: patch.as_text ?? current.as_text,
            // An optional key: absent rather than undefined, or the record cannot be encoded.
            ...(patch.form_url !== undefined || current.form_url !== undefined ? { form_url: patch.form_url ?? current.form_url } : {}),
            group_instructions: patch.group_instructions ?? current.group_instructions,
            line_by_line_instructions: patch.line_by_line_instructions ?? current.line_by_line_instructions,
            updated: Clock.nowIso()
          } satisfies Form
        }))
      if (Option.isNone(updated)) return yield* new FormNotFound({ formId: id })
      return updated.value
    })

    return Forms.of({
      upload,
      createConverted,
      list,
      get: Effect.fn("Forms.get")(load),
      pdf: Effect.fn("Forms.pdf")(function*(owner: Id.UserId, id: string) {
        const form = yield* load(owner, id)
        const bytes = yield* storage.getBlob(keys.pdf(id))
        if (Option.isNone(bytes)) return yield* new FormNotFound({ formId: id })
        return { form, bytes: bytes.value }
      }),
      pdfStream: Effect.fn("Forms.pdfStream")(function*(owner: Id.UserId, id: string) {
        const form = yield* load(owner, id)
        const stream = yield* storage.getBlobStream(keys.pdf(id))
        if (Option.isNone(stream)) return yield* new FormNotFound({ formId: id })
        return { form, stream: stream.value }
      }),
      update,
      delete: Effect.fn("Forms.delete")(function*(owner: Id.UserId, id: string) {
        const form = yield* load(owner, id)
        // The record goes before the PDF so a half-finished delete never shows a form without its
        // PDF; a listing skips an index entry whose form is gone.
        yield* storage.deleteDocument(keys.form(id), "any").pipe(Effect.catchTag("StorageConflict", () => Effect.void))
        yield* storage.deleteDocument(keys.ownerEntry(form.owner, id), "any").pipe(Effect.catchTag("StorageConflict", () => Effect.void))
        yield* storage.deleteBlob(keys.pdf(id))
      })
    })
  })
)
