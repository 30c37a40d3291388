/**
 * The Sessions service: autofill sessions, created at once and filled in the background.
 */
import { Context, Effect, Layer, Option, type Stream } from "effect"
import * as Documents from "./autofill/Documents.ts"
import { type Fact, fromLines, fromRecord, sourceConfidence } from "./autofill/Fact.ts"
import * as Facts from "./autofill/Facts.ts"
import * as Matcher from "./autofill/Matcher.ts"
import * as Prose from "./autofill/Prose.ts"
import * as Resolve from "./autofill/Resolve.ts"
import * as Clock from "./Clock.ts"
import * as Events from "./Events.ts"
import * as FileName from "./FileName.ts"
import { Form, FormForbidden, FormNotFound } from "./Form.ts"
import * as Forms from "./Forms.ts"
import * as Id from "./Id.ts"
import { InvalidInput, validate } from "./InvalidInput.ts"
import * as JobRunner from "./JobRunner.ts"
import * as MediaType from "./MediaType.ts"
import { finalMessage } from "./pdf/PdfError.ts"
import * as PdfEngine from "./PdfEngine.ts"
import { Profile, ProfileNotFound } from "./Profile.ts"
import * as Profiles from "./Profiles.ts"
import { CreateSessionInput, Session, type SessionFile, SessionNotFound, SessionNotReady } from "./Session.ts"
import * as SourceFetcher from "./SourceFetcher.ts"
import * as Storage from "./Storage.ts"
import { undo, withUndo } from "./Undo.ts"

export interface UploadedFile {
  readonly fileName: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

export interface CreateSession {
  readonly owner: Id.UserId
  readonly formId: string
  readonly profileIds?: ReadonlyArray<string> | undefined
  readonly fileUrls?: ReadonlyArray<string> | undefined
  readonly textInfo?: string | undefined
  readonly files?: ReadonlyArray<UploadedFile> | undefined
}

export interface SessionsShape {
  /** Checks the form and profiles, stores the sources, and schedules the fill. */
  readonly create: (input: CreateSession) => Effect.Effect<
    Session,
    FormNotFound | FormForbidden | ProfileNotFound | InvalidInput | Storage.StorageError
  >
  readonly get: (owner: Id.UserId, id: string) => Effect.Effect<Session, SessionNotFound | Storage.StorageError>
  /** The filled PDF of a completed session. */
  readonly filledPdf: (owner: Id.UserId, id: string) => Effect.Effect<Uint8Array, SessionNotFound | SessionNotReady | Storage.StorageError>
  /** The filled PDF of a completed session as a stream. */
  readonly filledPdfStream: (
    owner: Id.UserId,
    id: string
  ) => Effect.Effect<Stream.Stream<Uint8Array, Storage.StorageError>, SessionNotFound | SessionNotReady | Storage.StorageError>
}

export class Sessions extends Context.Service<Sessions, SessionsShape>()("@formwright/core/Sessions") {}

export const keys = {
  session: (owner: string, id: string) => `sessions/${owner}/${id}`,
  file: (owner: string, id: string, fileId: string) => `sessions/${owner}/${id}/files/${fileId}`,
  filled: (owner: string, id: string) => `sessions/${owner}/${id}/filled.pdf`
}

const validateUrl = (url: string, index: number) =>
  Effect.gen(function*() {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return yield* new InvalidInput({ field: `file_urls[${index}]`, message: `'${url}' is not a URL.` })
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
      return yield* new InvalidInput({ field: `file_urls[${index}]`, message: `'${url}' must use https.` })
    }
    return parsed.toString()
  })

/** A reason the session failed that the client may read. */
class FillFailure extends Error {
  readonly _tag = "FillFailure"
}

export const layer: Layer.Layer<
  Sessions,
  never,
  Storage.Storage | Forms.Forms | Profiles.Profiles | JobRunner.JobRunner | SourceFetcher.SourceFetcher | Events.Events | PdfEngine.PdfEngine
> = Layer.effect(
  Sessions,
  Effect.gen(function*() {
    const storage = yield* Storage.Storage
    const forms = yield* Forms.Forms
    const profiles = yield* Profiles.Profiles
    const runner = yield* JobRunner.JobRunner
    const fetcher = yield* SourceFetcher.SourceFetcher
    const events = yield* Events.Events
    const engine = yield* PdfEngine.PdfEngine

    const get = Effect.fn("Sessions.get")(function*(owner: Id.UserId, id: string) {
      if (!Id.isSafeSegment(id)) return yield* new SessionNotFound({ sessionId: id })
      const found = yield* storage.getJson(Session, keys.session(owner, id))
      if (Option.isNone(found)) return yield* new SessionNotFound({ sessionId: id })
      return found.value.value
    })

    const setState = (session: Session, change: Partial<Session>) =>
      storage.updateJson(Session, keys.session(session.owner, session.id), (current) =>
        Effect.succeed({ ...current, ...change, updated: Clock.nowIso() } as Session))

    /** Facts in priority order: text typed for this session, profiles, then documents. */
    const gatherFacts = (session: Session) =>
      Effect.gen(function*() {
        const facts: Array<Fact> = []
        if (session.text_info) facts.push(...fromLines(session.text_info, "text_info", sourceConfidence.textInfo))
        for (const profileId of session.profile_ids) {
          const found = yield* storage.getJson(Profile, Profiles.keys.profile(session.owner, profileId))
          if (Option.isNone(found)) return yield* Effect.fail(new FillFailure(`Profile ${profileId} no longer exists.`))
          const profile = found.value.value
          facts.push(...fromRecord(profile.data, `profile:${profileId}`, sourceConfidence.profile))
          facts.push(...fromRecord({ name: profile.name }, `profile:${profileId}`, sourceConfidence.profile * 0.9))
          for (const file of profile.files) {
            const bytes = yield* profiles.fileBytes(session.owner, profileId, file.id)
            if (Option.isSome(bytes)) facts.push(...(yield* documentFacts(bytes.value, file.content_type, `file:${file.id}`)))
          }
        }
        for (const file of session.files) {
          const bytes = yield* storage.getBlob(keys.file(session.owner, session.id, file.id))
          if (Option.isSome(bytes)) facts.push(...(yield* documentFacts(bytes.value, file.content_type, `file:${file.id}`)))
        }
        for (const url of session.file_urls) {
          const fetched = yield* fetcher.fetch(url).pipe(Effect.mapError((e) => new FillFailure(e.message)))
          facts.push(...(yield* documentFacts(fetched.bytes, fetched.contentType, `url:${url}`)))
        }
        return facts
      })

    /**
     * A document's facts. One that cannot be read (damaged, or refused by a limit) holds none:
     * the session goes on with its other sources rather than failing, or retrying, for it.
     */
    const documentFacts = (bytes: Uint8Array, contentType: string, source: string) =>
      Documents.isPdf(bytes, contentType)
        ? engine.readDocument(bytes).pipe(
          Effect.map((content) => Documents.fromPdf(content, source)),
          Effect.catch((error) =>
            Effect.logWarning(`source ${source} could not be read: ${error.message}`).pipe(Effect.as([] as ReadonlyArray<Fact>))
          )
        )
        : Effect.succeed(Documents.fromText(bytes, contentType, source))

    const fill = (session: Session) =>
      Effect.gen(function*() {
        const formRecord = yield* storage.getJson(Form, Forms.keys.form(session.form_id))
        const pdf = yield* storage.getBlob(Forms.keys.pdf(session.form_id))
        if (Option.isNone(formRecord) || Option.isNone(pdf) || formRecord.value.value.owner !== session.owner) {
          return yield* Effect.fail(new FillFailure("The form of this session no longer exists."))
        }
        const form = formRecord.value.value
        const facts = yield* gatherFacts(session)
        // Facts by meaning first (prose and `key: value` lines of text_info, then profiles and
        // documents by their keys). Name equality (`Matcher`) only fills fields whose meaning is
        // not understood: on the others it was measured to add invented values. A profile's own
        // name is its label, not a person's name: it is no fact of meaning.
        const typed = [
          ...(session.text_info ? Prose.fromProse(session.text_info, "text_info", sourceConfidence.textInfo) : []),
          ...Facts.fromFacts(facts.filter((f) => f.source !== "text_info" && !(f.key === "name" && f.confidence < sourceConfidence.profile)))
        ]
        const resolved = Resolve.resolve(form.fields, typed)
        const resolvedIds = new Set(resolved.map((r) => r.field.id))
        const matches = [
          ...resolved.map((r) => ({ field: r.field, value: r.value, source: r.fact.source, confidence: r.fact.confidence })),
          ...Matcher.match(form.fields.filter((f) => !resolvedIds.has(f.id) && (f.semantic?.type ?? "unknown") === "unknown"), facts).map((m) => ({
            field: m.field,
            value: m.value,
            source: m.fact.source,
            confidence: m.fact.confidence
          }))
        ]
        const result = yield* engine.fill(
          pdf.value,
          matches.map((m) => ({ formName: m.field.form_name, value: m.value }))
        ).pipe(Effect.mapError((e) => (e._tag === "PdfRejected" && e.transient ? e : new FillFailure(e.message))))
        const applied = new Set(result.applied)
        const filled = matches.filter((m) => applied.has(m.field.form_name))
        const filledIds = new Set(filled.map((m) => m.field.id))
        yield* storage.putBlob(keys.filled(session.owner, session.id), result.pdf, { contentType: "application/pdf" })
        return {
          filled_fields: filled.map((m) => ({
            field_id: m.field.id,
            form_name: m.field.form_name,
            name: m.field.name,
            value: m.value,
            source: m.source,
            confidence: m.confidence
          })),
          unfilled_fields: form.fields
            .filter((f) => !filledIds.has(f.id) && f.form_type !== "PushButton")
            .map((f) => ({ field_id: f.id, form_name: f.form_name, name: f.name }))
        }
      })

    const fail = (session: Session, message: string) =>
      Effect.gen(function*() {
        yield* setState(session, { status: "failed", error_message: message })
        yield* events.publish({
          id: Id.make("event"),
          type: "session.failed",
          owner: session.owner,
          created: Clock.nowIso(),
          data: { session_id: session.id, form_id: session.form_id, error_message: message }
        })
      })

    const process = (item: JobRunner.WorkItem, attempt: JobRunner.Attempt) =>
      Effect.gen(function*() {
        const found = yield* storage.getJson(Session, keys.session(item.owner, item.id))
        if (Option.isNone(found)) return "done" as const
        const session = found.value.value
        if (session.status === "completed" || session.status === "failed") return "done" as const
        yield* setState(session, { status: "processing" })
        const outcome = yield* Effect.result(fill(session))
        if (outcome._tag === "Failure" && outcome.failure._tag === "PdfRejected" && outcome.failure.transient && !attempt.last) {
          yield* Effect.logWarning(`session fill will be retried: ${outcome.failure.message}`)
          return "retry" as const
        }
        if (outcome._tag === "Success") {
          yield* setState(session, { status: "completed", ...outcome.success })
          yield* events.publish({
            id: Id.make("event"),
            type: "session.completed",
            owner: session.owner,
            created: Clock.nowIso(),
            data: { session_id: session.id, form_id: session.form_id, filled: outcome.success.filled_fields.length }
          })
        } else {
          const error = outcome.failure
          const known = error._tag === "FillFailure" || error._tag === "PdfRejected"
          if (!known) yield* Effect.logError("session failed", error)
          yield* fail(session, known ? finalMessage(error, attempt.number) : "The session could not be processed.")
        }
        return "done" as const
      }).pipe(
        Effect.catchCause((cause) => Effect.logError("session processing crashed", cause).pipe(Effect.as("done" as const))),
        Effect.withSpan("Sessions.process", { attributes: { session_id: item.id } })
      )

    yield* runner.register("session", {
      run: process,
      abandon: JobRunner.failUnfinished(
        "session",
        (item) => Effect.map(storage.getJson(Session, keys.session(item.owner, item.id)), Option.map((found) => found.value)),
        fail
      )
    })

    const completed = (owner: Id.UserId, id: string) =>
      Effect.gen(function*() {
        const session = yield* get(owner, id)
        if (session.status !== "completed") return yield* new SessionNotReady({ sessionId: id, status: session.status })
        return session
      })

    return Sessions.of({
      create: Effect.fn("Sessions.create")(function*(input: CreateSession) {
        yield* validate(CreateSessionInput, {
          formId: input.formId,
          profileIds: input.profileIds,
          fileUrls: input.fileUrls,
          textInfo: input.textInfo,
          files: input.files?.length
        })
        yield* forms.get(input.owner, input.formId)
        const profileIds = [...new Set(input.profileIds ?? [])]
        for (const profileId of profileIds) yield* profiles.get(input.owner, profileId)
        const fileUrls: Array<string> = []
        for (const [index, url] of (input.fileUrls ?? []).entries()) fileUrls.push(yield* validateUrl(url, index))

        const id = Id.SessionId.make(Id.make("session"))
        const uploads = (input.files ?? []).map((file) => ({
          bytes: file.bytes,
          stored: {
            id: Id.make("file"),
            file_name: FileName.clean(file.fileName) ?? "document",
            content_type: MediaType.normalize(file.contentType),
            size_bytes: file.bytes.byteLength
          } satisfies SessionFile
        }))
        const files = uploads.map((upload) => upload.stored)
        const deleteFiles = Effect.forEach(files, (file) => storage.deleteBlob(keys.file(input.owner, id, file.id)), { discard: true })
        const now = Clock.nowIso()
        const session: Session = {
          id,
          owner: input.owner,
          form_id: Id.FormId.make(input.formId),
          status: "pending",
          profile_ids: profileIds,
          file_urls: fileUrls,
          ...(input.textInfo !== undefined && input.textInfo !== "" ? { text_info: input.textInfo } : {}),
          files,
          created: now,
          updated: now
        }
        // The files go first, so the record never names a file that is not there; a session that
        // cannot be recorded or scheduled (a full disk) takes its files and record with it, as
        // does a file that cannot be written.
        yield* withUndo(
          Effect.forEach(uploads, ({ bytes, stored }) =>
            storage.putBlob(keys.file(input.owner, id, stored.id), bytes, { contentType: stored.content_type }), { discard: true }).pipe(
              Effect.onError(() => undo(deleteFiles))
            ),
          deleteFiles,
          withUndo(
            storage.insertJson(Session, keys.session(input.owner, id), session),
            storage.deleteDocument(keys.session(input.owner, id), "any"),
            runner.submit({ kind: "session", id, owner: input.owner })
          )
        )
        return session
      }),
      get,
      filledPdf: Effect.fn("Sessions.filledPdf")(function*(owner: Id.UserId, id: string) {
        yield* completed(owner, id)
        const bytes = yield* storage.getBlob(keys.filled(owner, id))
        if (Option.isNone(bytes)) return yield* new Storage.StorageError({ message: `Filled PDF of ${id} is missing` })
        return bytes.value
      }),
      filledPdfStream: Effect.fn("Sessions.filledPdfStream")(function*(owner: Id.UserId, id: string) {
        yield* completed(owner, id)
        const stream = yield* storage.getBlobStream(keys.filled(owner, id))
        if (Option.isNone(stream)) return yield* new Storage.StorageError({ message: `Filled PDF of ${id} is missing` })
        return stream.value
      })
    })
  })
)
