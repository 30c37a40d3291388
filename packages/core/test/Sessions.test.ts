/**
 * A session explains itself (issue 7): evidence for every value, a reason for every empty field,
 * what each source gave, the sources that could not be read, and where sources disagree. On the
 * real core services over in-memory storage, with URL fetching disabled (every URL unreachable).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as EmbeddedConverter from "../src/EmbeddedConverter.ts"
import * as Forms from "../src/Forms.ts"
import * as Formwright from "../src/Formwright.ts"
import * as Id from "../src/Id.ts"
import * as PdfEngine from "../src/PdfEngine.ts"
import * as Profiles from "../src/Profiles.ts"
import * as Sessions from "../src/Sessions.ts"
import * as SourceFetcher from "../src/SourceFetcher.ts"
import { Fixtures, MemoryStorage } from "@formwright/testing"

const alice = Id.UserId.make("alice")
const n = Fixtures.everyFieldType

const core = Formwright.layer().pipe(
  Layer.provideMerge(Layer.mergeAll(MemoryStorage.layer, EmbeddedConverter.layer, SourceFetcher.layerDisabled)),
  Layer.provideMerge(PdfEngine.layerWorkers())
)

const settled = (id: string) =>
  Effect.gen(function*() {
    const sessions = yield* Sessions.Sessions
    for (let i = 0; i < 600; i++) {
      const session = yield* sessions.get(alice, id)
      if (session.status === "completed" || session.status === "failed") return session
      yield* Effect.sleep("25 millis")
    }
    return yield* sessions.get(alice, id)
  })

const text = (s: string) => new TextEncoder().encode(s)
/** A PDF header and nothing a reader can use after it. */
const damagedPdf = text("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\nthis is not the rest of a PDF\n")

describe("Sessions: a session explains itself", () => {
  it.live("an unreachable URL and a damaged PDF are reported unreadable; the session completes from the other sources, with evidence and conflicts", () =>
    Effect.gen(function*() {
      const forms = yield* Forms.Forms
      const profiles = yield* Profiles.Profiles
      const sessions = yield* Sessions.Sessions
      const form = yield* forms.upload({ owner: alice, bytes: yield* Effect.promise(() => Fixtures.formWithEveryFieldType()) })
      const profile = yield* profiles.create(alice, { name: "Ada's profile", data: { "Last name": "Byron", Postcode: "12345" } })
      const url = "https://example.com/facts.txt"
      const created = yield* sessions.create({
        owner: alice,
        formId: form.id,
        textInfo: "Applicant first name: Ada\nLast name: Lovelace",
        profileIds: [profile.idInternal],
        fileUrls: [url],
        files: [
          { fileName: "broken.pdf", contentType: "application/pdf", bytes: damagedPdf },
          { fileName: "facts.txt", contentType: "text/plain", bytes: text("Notes: From the text file\nLast name: King\n") }
        ]
      })
      const [broken, facts] = created.files
      const done = yield* settled(created.id)
      expect(done.status).toBe("completed")
      expect(done.error_message).toBeUndefined()

      // Every source, in priority order, with what it gave or why it could not be read.
      expect(done.sources).toEqual([
        { source: "text_info", status: "read", facts: 2 },
        { source: `profile:${profile.idInternal}`, status: "read", facts: 2 },
        { source: `file:${broken!.id}`, status: "unreadable", facts: 0, reason: expect.stringMatching(/PDF/) },
        { source: `file:${facts!.id}`, status: "read", facts: 2 },
        { source: `url:${url}`, status: "unreadable", facts: 0, reason: "Fetching file URLs is not enabled on this server." }
      ])

      // Values with their evidence: text_info first, then the profile, then the file.
      const filled = Object.fromEntries((done.filled_fields ?? []).map((f) => [f.form_name, f]))
      expect(filled[n.firstName]).toMatchObject({ value: "Ada", source: "text_info" })
      expect(filled[n.lastName]).toMatchObject({ value: "Lovelace", source: "text_info" })
      expect(filled[n.postcode]).toMatchObject({ value: "12345", source: `profile:${profile.idInternal}` })
      expect(filled[n.notes]).toMatchObject({ value: "From the text file", source: `file:${facts!.id}` })
      expect(filled[n.lastName]!.evidence).toEqual({ fact: "Last name", type: "family_name", role: "self", transform: "as given" })
      expect(filled[n.notes]!.evidence).toEqual({ fact: "Notes", type: "unknown", role: "self", transform: "same name" })
      for (const f of done.filled_fields ?? []) {
        expect(f.evidence).toBeDefined()
        expect(f.confidence).toBeGreaterThan(0)
        expect(f.confidence).toBeLessThanOrEqual(1)
      }
      // A match by meaning from text typed for the session is surer than one by name from a file.
      expect(filled[n.notes]!.confidence).toBeLessThan(filled[n.lastName]!.confidence)

      // The last name: three sources, three values; text_info's was chosen.
      expect(done.conflicts).toEqual([
        {
          field_id: filled[n.lastName]!.field_id,
          form_name: n.lastName,
          chosen: { source: "text_info", value: "Lovelace" },
          others: [{ source: `profile:${profile.idInternal}`, value: "Byron" }, { source: `file:${facts!.id}`, value: "King" }]
        }
      ])

      // Every empty field says why.
      const unfilled = Object.fromEntries((done.unfilled_fields ?? []).map((f) => [f.form_name, f]))
      expect(unfilled[n.reference]).toMatchObject({ reason: "read_only" })
      expect(unfilled[n.signature]).toMatchObject({ reason: "signature" })
      for (const f of done.unfilled_fields ?? []) {
        expect(f.reason).toBeDefined()
        expect(f.detail).toMatch(/\w/)
      }
    }).pipe(Effect.provide(core)))

  it.live("only unreadable sources: an honest empty result, every field with a reason", () =>
    Effect.gen(function*() {
      const forms = yield* Forms.Forms
      const sessions = yield* Sessions.Sessions
      const form = yield* forms.upload({ owner: alice, bytes: yield* Effect.promise(() => Fixtures.formWithEveryFieldType()) })
      const created = yield* sessions.create({
        owner: alice,
        formId: form.id,
        fileUrls: ["https://example.com/a.pdf"],
        files: [{ fileName: "broken.pdf", contentType: "application/pdf", bytes: damagedPdf }]
      })
      const done = yield* settled(created.id)
      expect(done.status).toBe("completed")
      expect(done.filled_fields).toEqual([])
      expect(done.conflicts).toEqual([])
      expect(done.sources?.map((s) => s.status)).toEqual(["unreadable", "unreadable"])
      const fillable = form.fields.filter((f) => f.form_type !== "PushButton")
      expect(done.unfilled_fields?.map((f) => f.field_id).sort()).toEqual(fillable.map((f) => f.id).sort())
      for (const f of done.unfilled_fields ?? []) expect(f.reason).toBeDefined()
    }).pipe(Effect.provide(core)))
})
