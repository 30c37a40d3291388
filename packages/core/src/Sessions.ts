/**
 * The Sessions service: autofill sessions, created at once and filled in the background. A
 * session's work is orchestration: the form and profiles come through `Forms` and `Profiles`,
 * documents through `PdfEngine` and `SourceFetcher`, the choice of values and the account of
 * them from the pure pipeline `autofill/Autofill.ts`.
 */
import { Context, Effect, Layer, Option, type Stream } from "effect"
import * as Autofill from "./autofill/Autofill.ts"
import * as Documents from "./autofill/Documents.ts"
import * as Clock from "./Clock.ts"
import * as Events from "./Events.ts"
import * as FileName from "./FileName.ts"
import type { FormForbidden, FormNotFound } from "./Form.ts"
import * as Forms from "./Forms.ts"
import * as Id from "./Id.ts"
import { InvalidInput, validate } from "./InvalidInput.ts"
import * as JobRunner from "./JobRunner.ts"
import * as MediaType from "./MediaType.ts"
import { finalMessage } from "./pdf/PdfError.ts"
import * as PdfEngine from "./PdfEngine.ts"
import type { Profile, ProfileNotFound } from "./Profile.ts"
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
  /** Flatten the filled PDF: the values become page content and no field stays editable. */
  readonly flatten?: boolean | undefined
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

/** The event of a finished session, built from its record (see `Events.finalEvent`). */
const finalEvent = (session: Session): Events.Event =>
  session.status === "completed"
    ? Events.finalEvent(session.id, session.owner, "session.completed", {
      session_id: session.id,
      form_id: session.form_id,
      filled: session.filled_fields?.length ?? 0
    })
    : Events.finalEvent(session.id, session.owner, "session.failed", {
      session_id: session.id,
      form_id: session.form_id,
      error_message: session.error_message ?? ""
    })

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

    /**
     * A document's facts. One that cannot be read (damaged, or refused by a limit) is reported
     * with its reason: the session goes on with its other sources rather than failing, or
     * retrying, for it.
     */
    const documentSource = (bytes: Uint8Array, contentType: string, source: string): Effect.Effect<Autofill.Source> =>
      Documents.isPdf(bytes, contentType)
        ? engine.readDocument(bytes).pipe(
          Effect.map((content): Autofill.Source => ({ _tag: "Document", source, facts: Documents.fromPdf(content, source) })),
          Effect.catch((error) =>
            Effect.logWarning(`source ${source} could not be read: ${error.message}`).pipe(
              Effect.as<Autofill.Source>({ _tag: "Unreadable", source, reason: error.message })
            )
          )
        )
        : Effect.succeed({ _tag: "Document", source, facts: Documents.fromText(bytes, contentType, source) })

    const storedDocument = (stored: Option.Option<Uint8Array>, contentType: string, source: string) =>
      Option.isSome(stored)
        ? documentSource(stored.value, contentType, source)
        : Effect.succeed<Autofill.Source>({ _tag: "Unreadable", source, reason: "The file is no longer stored." })

    /**
     * The sources after `text_info`, in priority order: each profile then its files, the
     * session's files, then its URLs. A source that cannot be read (a profile deleted since the
     * session was created, a URL that cannot be fetched, a damaged document) is reported as
     * unreadable rather than failing the session; storage failures still fail it.
     */
    const gatherSources = (session: Session) =>
      Effect.gen(function*() {
        const sources: Array<Autofill.Source> = []
        for (const profileId of session.profile_ids) {
          const source = `profile:${profileId}`
          const profile = yield* profiles.get(session.owner, profileId).pipe(
            Effect.map(Option.some),
            Effect.catchTag("ProfileNotFound", () => Effect.succeed(Option.none<Profile>()))
          )
          if (Option.isNone(profile)) {
            sources.push({ _tag: "Unreadable", source, reason: "The profile no longer exists." })
            continue
          }
          sources.push({ _tag: "Profile", source, name: profile.value.name, data: profile.value.data })
          for (const file of profile.value.files) {
            sources.push(yield* storedDocument(yield* profiles.fileBytes(session.owner, profileId, file.id), file.content_type, `file:${file.id}`))
          }
        }
        for (const file of session.files) {
          sources.push(yield* storedDocument(yield* storage.getBlob(keys.file(session.owner, session.id, file.id)), file.content_type, `file:${file.id}`))
        }
        // URLs are fetched a few at a time; their order of priority stays the order given.
        const fetched = yield* Effect.forEach(session.file_urls, (url) =>
          fetcher.fetch(url).pipe(
            Effect.flatMap((document) => documentSource(document.bytes, document.contentType, `url:${url}`)),
            Effect.catchTag("SourceFetchError", (error) =>
              Effect.succeed<Autofill.Source>({ _tag: "Unreadable", source: `url:${url}`, reason: error.message }))
          ), { concurrency: 4 })
        sources.push(...fetched)
        return sources
      })

    const fill = (session: Session) =>
      Effect.gen(function*() {
        const { form, bytes } = yield* forms.pdf(session.owner, session.form_id).pipe(
          Effect.catchTags({
            FormNotFound: () => Effect.fail(new FillFailure("The form of this session no longer exists.")),
            FormForbidden: () => Effect.fail(new FillFailure("The form of this session no longer exists."))
          })
        )
        const planned = Autofill.plan({ fields: form.fields, textInfo: session.text_info, sources: yield* gatherSources(session) })
        const result = yield* engine.fill(
          bytes,
          planned.matches.map((m) => ({ formName: m.field.form_name, value: m.value })),
          { flatten: session.flatten === true }
        ).pipe(Effect.mapError((e) => (e._tag === "PdfRejected" && e.transient ? e : new FillFailure(e.message))))
        yield* storage.putBlob(keys.filled(session.owner, session.id), result.pdf, { contentType: "application/pdf" })
        return Autofill.report(planned, result)
      })

    const fail = (session: Session, message: string) =>
      Effect.gen(function*() {
        yield* setState(session, { status: "failed", error_message: message })
        yield* events.publish(finalEvent({ ...session, status: "failed", error_message: message }))
      })

    const process = (item: JobRunner.WorkItem, attempt: JobRunner.Attempt) =>
      Effect.gen(function*() {
        const found = yield* storage.getJson(Session, keys.session(item.owner, item.id))
        if (Option.isNone(found)) return "done" as const
        const session = found.value.value
        if (session.status === "completed" || session.status === "failed") {
          // A run finished the record and may have died before its event was written: publish
          // it again, under the same id (at least once; receivers drop ids they have seen).
          yield* events.publish(finalEvent(session))
          return "done" as const
        }
        yield* setState(session, { status: "processing" })
        const outcome = yield* Effect.result(fill(session))
        if (outcome._tag === "Failure" && outcome.failure._tag === "PdfRejected" && outcome.failure.transient && !attempt.last) {
          yield* Effect.logWarning(`session fill will be retried: ${outcome.failure.message}`)
          return "retry" as const
        }
        // The records cannot be reached: nothing can be recorded now, so the job waits for a retry.
        if (outcome._tag === "Failure" && Storage.isUnavailable(outcome.failure)) {
          yield* Effect.logWarning(`session will be retried: ${outcome.failure.message}`)
          return "retry" as const
        }
        if (outcome._tag === "Success") {
          yield* setState(session, { status: "completed", ...outcome.success })
          yield* events.publish(finalEvent({ ...session, status: "completed", ...outcome.success }))
        } else {
          const error = outcome.failure
          const known = error._tag === "FillFailure" || error._tag === "PdfRejected"
          if (!known) yield* Effect.logError("session failed", error)
          yield* fail(session, known ? finalMessage(error, attempt.number) : "The session could not be processed.")
        }
        return "done" as const
      }).pipe(
        Effect.catchCause((cause) =>
          Storage.isUnavailable(cause)
            ? Effect.logWarning("session will be retried: its records cannot be reached", cause).pipe(Effect.as("retry" as const))
            : Effect.logError("session processing crashed", cause).pipe(Effect.as("done" as const))
        ),
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
          ...(input.flatten === true ? { flatten: true } : {}),
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
