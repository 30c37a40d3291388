/**
 * Formwright's JSON routes through a client generated from the OpenAPI description alone, with
 * no Formwright package: types by openapi-typescript (`openapi-types.ts`, from `/openapi.json`),
 * calls by openapi-fetch. Every path, parameter, body and answer below is checked by `tsc`
 * against the description, with no cast: query parameters are numbers and booleans, and errors
 * carry their declared body.
 *
 * Regenerate the types after a change to the API: `node scripts/openapi-types.ts` (or
 * `npx openapi-typescript http://127.0.0.1:8080/openapi.json -o openapi-types.ts` in a project of
 * your own). docs/examples/openapi-fetch.test.ts checks that the committed types are the ones the
 * server's description gives, and runs this example against a real server.
 */
import createClient from "openapi-fetch"
import type { paths } from "./openapi-types.ts"

/** The data of a successful answer, or an error naming the status and the declared error body. */
const ok = <T>(result: { readonly data?: T; readonly error?: unknown; readonly response: Response }): T => {
  if (result.data === undefined) throw new Error(`HTTP ${result.response.status}: ${JSON.stringify(result.error)}`)
  return result.data
}

/** What the example saw, for a caller (or a test) to look at. */
export interface Outcome {
  readonly version: string
  readonly formsTotal: number
  readonly formFields: number
  readonly updated: boolean
  readonly profileNames: ReadonlyArray<string>
  readonly session: paths["/v1/sessions/{id}"]["get"]["responses"][200]["content"]["application/json"]
  readonly missingForm: string
  readonly conversion: string
  readonly missingJob: string
  readonly deleted: ReadonlyArray<boolean>
}

/**
 * Runs every JSON route once on the server at `baseUrl`, as the owner of `apiKey`. `formId` is a
 * form uploaded with that key and `jobId` a conversion it started (both take a PDF body).
 */
export const program = async (baseUrl: string, apiKey: string, formId: string, jobId: string): Promise<Outcome> => {
  const client = createClient<paths>({ baseUrl, headers: { "x-api-key": apiKey } })

  const health = ok(await client.GET("/health"))

  // Forms: a page of the list, one form, an update of its text.
  const list = ok(await client.GET("/v1/forms", { params: { query: { page: 1, size: 5 } } }))
  const form = ok(await client.GET("/v1/forms/{id}", { params: { path: { id: formId } } }))
  const update = ok(await client.PUT("/v1/forms/{id}", {
    params: { path: { id: formId } },
    body: { form: { as_text: "An application form.", group_instructions: { applicant: "The person applying." } } }
  }))

  // A declared error: its body is typed (the error object), no cast needed to read it.
  const missing = await client.GET("/v1/forms/{id}", { params: { path: { id: "form_missing" } } })
  const missingForm = missing.error?.error_message ?? "no error"

  // Profiles: data under any keys, numbers and nested objects included.
  const profile = ok(await client.POST("/v1/profiles", { body: { name: "Zoe Example", data: { "First name": "Zoe", age: 42, address: { city: "Lyon" } } } }))
  ok(await client.PATCH("/v1/profiles/{id}", { params: { path: { id: profile.idInternal } }, body: { data: { "Last name": "Example", age: null } } }))
  const read = ok(await client.GET("/v1/profiles/{id}", { params: { path: { id: profile.idInternal } } }))
  const profiles = ok(await client.GET("/v1/profiles", { params: { query: { status: "Active", size: 10 } } }))

  // A session fills the form from the profile; poll its `session_id`, not the answer's `id`.
  const created = ok(await client.POST("/v1/sessions", { body: { form_id: formId, profile_ids: [read.idInternal], text_info: "Postcode: 54321" } }))
  let session = ok(await client.GET("/v1/sessions/{id}", { params: { path: { id: created.session_id } } }))
  while (typeof session !== "string" && (session.status === "pending" || session.status === "processing")) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    session = ok(await client.GET("/v1/sessions/{id}", { params: { path: { id: created.session_id } } }))
  }
  if (typeof session === "string") throw new Error("asked for JSON, got a PDF")

  // Conversions: a job's status on both route families; their errors are `{error_message}` alone.
  let conversion = ok(await client.GET("/v1/forms/convert/{job_id}/status", { params: { path: { job_id: jobId } } }))
  while (conversion.status === "pending" || conversion.status === "processing") {
    await new Promise((resolve) => setTimeout(resolve, 100))
    conversion = ok(await client.GET("/v1/utils/convert/{job_id}/status", { params: { path: { job_id: jobId } } }))
  }
  const unknownJob = await client.GET("/v1/utils/convert/{job_id}/status", { params: { path: { job_id: "job_missing" } } })

  const deletedProfile = ok(await client.DELETE("/v1/profiles/{id}", { params: { path: { id: profile.idInternal } } }))
  const deletedForm = ok(await client.DELETE("/v1/forms/{id}", { params: { path: { id: formId } } }))

  return {
    version: health.version,
    formsTotal: list.total,
    formFields: form.fields.length,
    updated: update.updated,
    profileNames: profiles.profiles.map((p) => p.name),
    session,
    missingForm,
    conversion: conversion.status,
    missingJob: unknownJob.error?.error_message ?? "no error",
    deleted: [deletedProfile.deleted, deletedForm.deleted]
  }
}
