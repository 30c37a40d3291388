import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import * as ApiKeys from "../src/ApiKeys.ts"
import * as Conversions from "../src/Conversions.ts"
import * as EmbeddedConverter from "../src/EmbeddedConverter.ts"
import * as Forms from "../src/Forms.ts"
import * as Formwright from "../src/Formwright.ts"
import * as Id from "../src/Id.ts"
import * as JobRunner from "../src/JobRunner.ts"
import * as PdfEngine from "../src/PdfEngine.ts"
import * as Profiles from "../src/Profiles.ts"
import * as Sessions from "../src/Sessions.ts"
import * as SourceFetcher from "../src/SourceFetcher.ts"
import * as Storage from "../src/Storage.ts"
import { Fixtures, FlatFixtures, MemoryStorage } from "@formwright/testing"

const alice = Id.UserId.make("alice")
const bob = Id.UserId.make("bob")

const core = Formwright.layer().pipe(
  Layer.provideMerge(Layer.mergeAll(MemoryStorage.layer, EmbeddedConverter.layer, SourceFetcher.layerDisabled)),
  Layer.provideMerge(PdfEngine.layerWorkers())
)

const waitFor = <A>(read: Effect.Effect<A, any>, done: (a: A) => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 400; i++) {
      const value = yield* read
      if (done(value)) return value
      yield* Effect.sleep("25 millis")
    }
    return yield* read
  })

describe("core services on in-memory storage", () => {
  it.live("upload stores nothing for an unusable PDF", () =>
    Effect.gen(function*() {
      const forms = yield* Forms.Forms
      const storage = yield* Storage.Storage
      const error = yield* Effect.flip(forms.upload({ owner: alice, bytes: Fixtures.notAPdf() as Uint8Array }))
      expect(error._tag).toBe("PdfUnusable")
      expect((yield* storage.listAllBlobs("")).length).toBe(0)
      expect((yield* storage.listDocuments("forms/")).items.length).toBe(0)
    }).pipe(Effect.provide(core)))

  it.live("ownership: another user's form is forbidden, an unknown one not found", () =>
    Effect.gen(function*() {
      const forms = yield* Forms.Forms
      const form = yield* forms.upload({ owner: alice, bytes: yield* Effect.promise(() => Fixtures.formWithEveryFieldType()) })
      expect((yield* Effect.flip(forms.get(bob, form.id)))._tag).toBe("FormForbidden")
      expect((yield* Effect.flip(forms.get(alice, "frm_missing")))._tag).toBe("FormNotFound")
      expect((yield* Effect.flip(forms.get(alice, "../../etc")))._tag).toBe("FormNotFound")
      expect((yield* forms.list(bob, { page: 1, size: 10 })).total).toBe(0)
    }).pipe(Effect.provide(core)))

  it.live("update merges: absent members kept, fields patched by id, unknown ids refused", () =>
    Effect.gen(function*() {
      const forms = yield* Forms.Forms
      const form = yield* forms.upload({ owner: alice, bytes: yield* Effect.promise(() => Fixtures.formWithEveryFieldType()) })
      const target = form.fields[0]!
      const updated = yield* forms.update(alice, form.id, { form_url: "https://example.com/f", fields: [{ id: target.id, name: "Renamed" }] })
      expect(updated.as_text).toBe(form.as_text)
      expect(updated.form_url).toBe("https://example.com/f")
      expect(updated.fields[0]).toEqual({ ...target, name: "Renamed" })
      expect(updated.fields.slice(1)).toEqual(form.fields.slice(1))
      const error = yield* Effect.flip(forms.update(alice, form.id, { fields: [{ id: "fld_nope", name: "x" }] }))
      expect(error._tag).toBe("InvalidInput")
      // Twenty concurrent renames of different fields: none is lost.
      const targets = form.fields.slice(0, Math.min(10, form.fields.length))
      yield* Effect.forEach(targets, (f, i) => forms.update(alice, form.id, { fields: [{ id: f.id, name: `Name ${i}` }] }), { concurrency: "unbounded" })
      const after = yield* forms.get(alice, form.id)
      expect(after.fields.slice(0, targets.length).map((f) => f.name)).toEqual(targets.map((_, i) => `Name ${i}`))
    }).pipe(Effect.provide(core)))

  it.live("a session fills from a profile and reports sources", () =>
    Effect.gen(function*() {
      const forms = yield* Forms.Forms
      const profiles = yield* Profiles.Profiles
      const sessions = yield* Sessions.Sessions
      const form = yield* forms.upload({ owner: alice, bytes: yield* Effect.promise(() => Fixtures.formWithEveryFieldType()) })
      const text = form.fields.find((f) => f.form_type === "Text" && !f.read_only)!
      const profile = yield* profiles.create(alice, { name: "Ada", data: { [text.name]: "Жанна" } })
      expect((yield* Effect.flip(sessions.create({ owner: bob, formId: form.id })))._tag).toBe("FormForbidden")
      expect((yield* Effect.flip(sessions.create({ owner: alice, formId: form.id, profileIds: ["prf_nope"] })))._tag).toBe("ProfileNotFound")
      const session = yield* sessions.create({ owner: alice, formId: form.id, profileIds: [profile.idInternal] })
      const done = yield* waitFor(sessions.get(alice, session.id), (s) => s.status === "completed" || s.status === "failed")
      expect(done.status).toBe("completed")
      expect(done.filled_fields).toContainEqual(expect.objectContaining({ field_id: text.id, value: "Жанна", source: `profile:${profile.idInternal}` }))
      expect((yield* Effect.flip(sessions.get(bob, session.id)))._tag).toBe("SessionNotFound")
    }).pipe(Effect.provide(core)))

  it.live("api keys: issued keys authenticate, others do not, only hashes are stored", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      const storage = yield* Storage.Storage
      const issued = yield* keys.create("carol")
      expect(issued.key).toMatch(/^fw_[A-Za-z0-9_-]{43}$/)
      expect(yield* keys.authenticate(issued.key)).toEqual(Option.some("carol"))
      expect(yield* keys.authenticate(`${issued.key}x`)).toEqual(Option.none())
      expect(yield* keys.authenticate("")).toEqual(Option.none())
      const stored = yield* storage.listDocuments("apikeys/")
      expect(stored.items.map((i) => i.document.value).join()).not.toContain(issued.key)
    }).pipe(Effect.provide(core)))
})

/** In-memory storage that refuses to create form records, as a store that fails part-way would. */
const refusingFormRecords = Layer.sync(Storage.Storage, () => {
  const storage = Storage.make(MemoryStorage.make())
  return Storage.Storage.of({
    ...storage,
    insertJson: (schema, key, value) =>
      key.startsWith(Forms.keys.form("")) ? Effect.fail(new Storage.StorageError({ message: "refused" })) : storage.insertJson(schema, key, value)
  })
})

describe("a conversion whose form cannot be stored", () => {
  it.live("fails, and leaves neither its output nor the form's PDF behind", () =>
    Effect.gen(function*() {
      const conversions = yield* Conversions.Conversions
      const storage = yield* Storage.Storage
      const flat = yield* Effect.promise(() => FlatFixtures.flatApplicationForm())
      const job = yield* conversions.start({ owner: alice, bytes: flat.bytes, options: { confidence: 0.1, resolution: 1600, allow_checkboxes: true } })
      const done = yield* waitFor(conversions.status(alice, job.id), (s) => s.job.status === "completed" || s.job.status === "failed")
      expect(done.job.status).toBe("failed")
      expect(done.job.error_message).toBe("The conversion could not be completed.")
      // The job keeps its input (the record of what was asked); nothing else was left written.
      expect(yield* storage.listAllBlobs("")).toEqual([Conversions.keys.input(alice, job.id)])
      expect((yield* storage.listDocuments("forms/")).items).toEqual([])
      expect((yield* storage.listDocuments(Forms.keys.ownerIndex(alice))).items).toEqual([])
    }).pipe(Effect.provide(Formwright.layer().pipe(
      Layer.provideMerge(Layer.mergeAll(refusingFormRecords, EmbeddedConverter.layer, SourceFetcher.layerDisabled)),
      Layer.provideMerge(PdfEngine.layerWorkers())
    ))))
})

describe("JobRunner", () => {
  it.live("runs recorded work items after a restart", () =>
    Effect.gen(function*() {
      const backend = MemoryStorage.make()
      const storage = Layer.succeed(Storage.Storage, Storage.make(backend))
      const ran: Array<string> = []
      // First life: an item is submitted but no handler ever runs it (the process "dies").
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(JobRunner.layerInProcess().pipe(Layer.provide(storage)))
        yield* Context.get(context, JobRunner.JobRunner).submit({ kind: "conversion", id: "job_1", owner: "alice" })
      }))
      // Second life: resume finds it and runs it once.
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(JobRunner.layerInProcess().pipe(Layer.provide(storage)))
        const runner = Context.get(context, JobRunner.JobRunner)
        yield* runner.register("conversion", {
          run: (item) => Effect.sync(() => ran.push(item.id)).pipe(Effect.as("done" as const)),
          abandon: () => Effect.void
        })
        expect(yield* runner.resume).toBe(1)
        yield* runner.idle
      }))
      expect(ran).toEqual(["job_1"])
      const left = yield* Storage.make(backend).listDocuments("work/")
      expect(left.items).toEqual([])
    }))

  it.live("a run the process died in counts as an attempt; past the limit the item is abandoned, not run", () =>
    Effect.gen(function*() {
      const backend = MemoryStorage.make()
      const storage = Layer.succeed(Storage.Storage, Storage.make(backend))
      const runs: Array<number> = []
      const abandoned: Array<string> = []
      const handler: JobRunner.Handler = {
        // Never finishes: the process "dies" (the scope closes) in the middle of every run.
        run: (_item, attempt) => Effect.sync(() => runs.push(attempt.number)).pipe(Effect.andThen(Effect.never)),
        abandon: (item, message) => Effect.sync(() => abandoned.push(`${item.id}: ${message}`))
      }
      const life = (submit: boolean) =>
        Effect.scoped(Effect.gen(function*() {
          const context = yield* Layer.build(JobRunner.layerInProcess({ maxAttempts: 2 }).pipe(Layer.provide(storage)))
          const runner = Context.get(context, JobRunner.JobRunner)
          yield* runner.register("session", handler)
          if (submit) yield* runner.submit({ kind: "session", id: "ses_poison", owner: "alice" })
          else yield* runner.resume
          yield* Effect.sleep("100 millis")
        }))
      yield* life(true)
      yield* life(false)
      expect(runs).toEqual([1, 2])
      expect(abandoned).toEqual([])
      // The third start finds two attempts used up: the item is ended, never run again.
      yield* life(false)
      expect(runs).toEqual([1, 2])
      expect(abandoned).toHaveLength(1)
      expect(abandoned[0]).toContain("ses_poison: Processing stopped 2 times")
      expect((yield* Storage.make(backend).listDocuments("work/")).items).toEqual([])
    }))

  it.live("a run that asks for a retry runs again after a delay, the last time told it is the last", () =>
    Effect.gen(function*() {
      const storage = Layer.succeed(Storage.Storage, Storage.make(MemoryStorage.make()))
      const attempts: Array<JobRunner.Attempt> = []
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(JobRunner.layerInProcess({ maxAttempts: 3, retryDelayMs: 20 }).pipe(Layer.provide(storage)))
        const runner = Context.get(context, JobRunner.JobRunner)
        yield* runner.register("conversion", {
          run: (_item, attempt) => Effect.sync(() => attempts.push(attempt)).pipe(Effect.as(attempt.last ? "done" as const : "retry" as const)),
          abandon: () => Effect.void
        })
        yield* runner.submit({ kind: "conversion", id: "job_flaky", owner: "alice" })
        yield* runner.idle
      }))
      expect(attempts).toEqual([{ number: 1, last: false }, { number: 2, last: false }, { number: 3, last: true }])
    }))
})

describe("service inputs are checked by the core itself", () => {
  it.live("bad conversion options, profiles and sessions are InvalidInput naming the field", () =>
    Effect.gen(function*() {
      const conversions = yield* Conversions.Conversions
      const profiles = yield* Profiles.Profiles
      const sessions = yield* Sessions.Sessions
      const pdf = yield* Effect.promise(() => Fixtures.flatPdf())
      const bad = yield* Effect.flip(conversions.start({ owner: alice, bytes: pdf, options: { confidence: 2, resolution: 1600, allow_checkboxes: true } }))
      expect(bad).toMatchObject({ _tag: "InvalidInput", field: "options.confidence" })
      const pages = yield* Effect.flip(conversions.start({ owner: alice, bytes: pdf, options: { pages: [0], confidence: 0.1, resolution: 1600, allow_checkboxes: true } }))
      expect(pages).toMatchObject({ _tag: "InvalidInput", field: "options.pages[0]" })
      expect(yield* Effect.flip(profiles.create(alice, { name: "" }))).toMatchObject({ _tag: "InvalidInput", field: "name" })
      expect(yield* Effect.flip(profiles.create(alice, { name: "A", status: "Gone" as never }))).toMatchObject({ _tag: "InvalidInput", field: "status" })
      expect(yield* Effect.flip(sessions.create({ owner: alice, formId: "" }))).toMatchObject({ _tag: "InvalidInput", field: "formId" })
    }).pipe(Effect.provide(core)))
})
