/**
 * What the contract declares in its OpenAPI description: every operation summarised and
 * described, and each route's errors with the body that route really answers with.
 */
import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { Api } from "../src/index.ts"

const spec = OpenApi.fromApi(Api) as any
const operations = Object.entries<Record<string, any>>(spec.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method, op })))

/** The component a response's JSON body refers to. */
const bodyOf = (path: string, method: string, status: string) => {
  const ref: string = spec.paths[path][method].responses[status]?.content?.["application/json"]?.schema?.$ref ?? ""
  return spec.components.schemas[ref.replace("#/components/schemas/", "")]
}

describe("the OpenAPI description", () => {
  it("gives every operation a summary and a description", () => {
    expect(operations.length).toBeGreaterThanOrEqual(20)
    expect(operations.filter(({ op }) => !op.summary || !op.description).map(({ method, path }) => `${method} ${path}`)).toEqual([])
  })

  it("declares the conversion routes' errors as {error_message} alone, 401 and 415 included", () => {
    for (const status of ["400", "401", "413", "415", "422", "429", "500"]) {
      expect(Object.keys(bodyOf("/v1/forms/convert", "post", status).properties), status).toEqual(["error_message"])
    }
    expect(Object.keys(bodyOf("/v1/utils/convert/{job_id}/status", "get", "404").properties)).toEqual(["error_message"])
  })

  it("declares the error object elsewhere, with 409 on a session's PDF and 429 on every keyed route", () => {
    expect(Object.keys(bodyOf("/v1/sessions/{id}/pdf", "get", "409").properties).sort()).toEqual(["created", "error_message", "id", "object"])
    const keyed = operations.filter(({ path }) => path.startsWith("/v1/"))
    expect(keyed.filter(({ op }) => !op.responses["429"] || !op.responses["401"]).map(({ method, path }) => `${method} ${path}`)).toEqual([])
    expect(spec.paths["/health"].get.responses["401"]).toBeUndefined()
  })

  it("types query parameters as the handlers receive them, with their ranges", () => {
    const query = (path: string, method: string) =>
      Object.fromEntries(spec.paths[path][method].parameters.filter((p: any) => p.in === "query").map((p: any) => [p.name, p.schema]))
    expect(query("/v1/forms", "get")).toMatchObject({
      name: { type: "string" },
      page: { type: "integer", minimum: 1 },
      size: { type: "integer", minimum: 1, maximum: 100 }
    })
    expect(query("/v1/forms/convert", "post")).toMatchObject({
      pages: { type: "string" },
      confidence: { type: "number", minimum: 0, maximum: 1 },
      resolution: { type: "integer", minimum: 256, maximum: 4096 },
      allow_checkboxes: { type: "boolean" }
    })
    expect(query("/v1/profiles", "get")["status"]).toMatchObject({ type: "string", enum: ["Active", "Inactive"] })
  })

  it("declares files as binary and every JSON value so that generated clients accept it", () => {
    expect(JSON.stringify(spec).includes('"contentEncoding":"base64"'), "a file declared as base64 text").toBe(false)
    expect(spec.paths["/v1/sessions"].post.requestBody.content["multipart/form-data"].schema.properties.files.items).toEqual({ type: "string", format: "binary" })
    expect(spec.paths["/v1/profiles/{id}/files"].post.requestBody.content["multipart/form-data"].schema.properties.file).toEqual({ type: "string", format: "binary" })
    // A bare `{type: "object"}` reads as an object with no members in openapi-typescript.
    const bare: Array<string> = []
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== "object") return
      const o = node as Record<string, unknown>
      if (o["type"] === "object" && o["properties"] === undefined && o["additionalProperties"] === undefined) bare.push(at)
      for (const [key, value] of Object.entries(o)) walk(value, `${at}/${key}`)
    }
    walk(spec, "#")
    expect(bare).toEqual([])
  })

  it("describes every tag and gives the license", () => {
    expect(spec.tags.filter((tag: any) => !tag.description)).toEqual([])
    expect(spec.info.license).toEqual({ name: "MIT", identifier: "MIT" })
  })

  it("declares 415 only on routes that read a body", () => {
    const with415 = operations.filter(({ op }) => op.responses["415"]).map(({ method }) => method)
    expect(with415.every((method) => method === "post" || method === "put" || method === "patch")).toBe(true)
  })
})
