/**
 * Helpers shared by the HTTP tests: uploads, JSON calls, error-shape checks and a pdf.js reader
 * of a PDF's form fields (an independent reader of what the server wrote).
 */
import { expect } from "vitest"
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs"
import { Wire } from "@formwright/api"
import * as ApiClient from "./ApiClient.ts"
import * as TestServer from "./TestServer.ts"

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/** POST a raw PDF to the upload route. */
export const upload = (
  server: TestServer.TestServer,
  bytes: Uint8Array,
  init: { headers?: Record<string, string>; key?: string | null } = {}
) =>
  server.call("/v1/forms/upload", {
    method: "POST",
    headers: { "content-type": "application/pdf", ...init.headers },
    body: bytes as Uint8Array<ArrayBuffer>,
    ...(init.key !== undefined ? { key: init.key } : {})
  })

/** Uploads and returns the single upload element (asserting 200). */
export const uploadOk = async (
  server: TestServer.TestServer,
  bytes: Uint8Array,
  init: { headers?: Record<string, string>; key?: string | null } = {}
): Promise<any> => {
  const res = await upload(server, bytes, init)
  const text = await res.text()
  expect(res.status, text).toBe(200)
  const body = JSON.parse(text)
  expect(Array.isArray(body)).toBe(true)
  expect(body).toHaveLength(1)
  return body[0]
}

/** A JSON request; the body is stringified. */
export const jsonCall = (
  server: TestServer.TestServer,
  path: string,
  method: string,
  body: unknown,
  key?: string | null
) =>
  server.call(path, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(key !== undefined ? { key } : {})
  })

/** Asserts the contract's error object with an exact status, returning its message. */
export const expectErrorObject = async (res: Response, status: number, message?: string | RegExp): Promise<string> => {
  const text = await res.text()
  expect(res.status, text).toBe(status)
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/)
  const body = JSON.parse(text)
  expect(Object.keys(body).sort()).toEqual(["created", "error_message", "id", "object"])
  expect(body.object).toBe("error")
  expect(body.id).toMatch(/^error_[0-9A-Z]{26}$/)
  expect(body.created).toMatch(ISO)
  expect(typeof body.error_message).toBe("string")
  if (typeof message === "string") expect(body.error_message).toBe(message)
  else if (message) expect(body.error_message).toMatch(message)
  return body.error_message
}

/** Asserts a conversion-route error: a body holding only `error_message`. */
export const expectBareError = async (res: Response, status: number, message?: string | RegExp): Promise<string> => {
  const text = await res.text()
  expect(res.status, text).toBe(status)
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/)
  const body = JSON.parse(text)
  expect(Object.keys(body)).toEqual(["error_message"])
  expect(typeof body.error_message).toBe("string")
  if (typeof message === "string") expect(body.error_message).toBe(message)
  else if (message) expect(body.error_message).toMatch(message)
  return body.error_message
}

/** Whether bytes start like a PDF. */
export const isPdf = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes.subarray(0, 8)).startsWith("%PDF-")

/** The form fields pdf.js sees in a PDF: full name -> the field objects of that name. */
export const pdfFields = async (bytes: Uint8Array): Promise<{ pages: number; fields: Record<string, Array<any>> }> => {
  const task = getDocument({ data: new Uint8Array(bytes), verbosity: VerbosityLevel.ERRORS, disableFontFace: true, useSystemFonts: false })
  try {
    const doc = await task.promise
    // pdf.js 6 answers a Map (null when the PDF has no fields).
    const objects = (await doc.getFieldObjects()) as Map<string, Array<any>> | null
    return { pages: doc.numPages, fields: Object.fromEntries(objects ?? []) }
  } finally {
    await task.destroy()
  }
}

/** The value pdf.js reads for a field (the first object carrying one). */
export const pdfValue = (fields: Record<string, Array<any>>, name: string): unknown => {
  const objects = fields[name]
  if (!objects) return undefined
  for (const o of objects) if (o.value !== undefined && o.value !== null && o.value !== "") return o.value
  return objects[0]?.value
}

/** Polls a session, through the typed client, until it leaves pending/processing. */
export const settledSession = (server: TestServer.TestServer, id: string, key?: string, timeoutMs = 30_000): Promise<any> => {
  const client = ApiClient.of(server, key)
  return TestServer.poll(
    () => client.ok((c) => c.sessions.get({ params: { id } })),
    (s) => !(s instanceof Uint8Array) && (s.status === "completed" || s.status === "failed"),
    timeoutMs
  )
}

/** Creates a JSON session through the typed client and returns its session id (a 202, or a thrown failure). */
export const createSession = async (server: TestServer.TestServer, body: typeof Wire.CreateSessionJson.Type, key?: string): Promise<string> => {
  const created = await ApiClient.of(server, key).ok((c) => c.sessions.create({ payload: body }))
  expect(created.id).toMatch(/^cs_/)
  return created.session_id
}

/** A multipart body with the given parts (files as Blobs with names). */
export const multipart = (parts: Record<string, string | { bytes: Uint8Array; name: string; type?: string } | Array<{ bytes: Uint8Array; name: string; type?: string }>>) => {
  const form = new FormData()
  for (const [key, value] of Object.entries(parts)) {
    const list = Array.isArray(value) ? value : [value]
    for (const v of list) {
      if (typeof v === "string") form.append(key, v)
      else form.append(key, new Blob([v.bytes as Uint8Array<ArrayBuffer>], { type: v.type ?? "application/octet-stream" }), v.name)
    }
  }
  return form
}
