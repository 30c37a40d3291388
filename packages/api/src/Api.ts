/**
 * The /v1 HTTP contract of Formwright as an Effect HttpApi: importable alone (no server code),
 * so clients can derive a typed client and the server serves its OpenAPI description.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { ConversionsApi } from "./ConversionsApi.ts"
import { FormsApi } from "./FormsApi.ts"
import { ProfilesApi } from "./ProfilesApi.ts"
import { SessionsApi } from "./SessionsApi.ts"
import { typedQueryParameters } from "./QueryParameters.ts"
import { SystemApi } from "./SystemApi.ts"
import { UtilsApi } from "./UtilsApi.ts"

/**
 * HTTP auth schemes in lower case ("bearer"): the name is case-insensitive (RFC 7235), but
 * OpenAPI tools match it as written, and Scalar's "Try it" sends Basic for "Bearer".
 */
const lowerCaseSchemes = (schemes: Record<string, { scheme?: string }> | undefined) =>
  schemes && Object.fromEntries(Object.entries(schemes).map(([name, s]) => [name, s.scheme ? { ...s, scheme: s.scheme.toLowerCase() } : s]))

const Routes = HttpApi.make("formwright")
  .add(FormsApi)
  .add(SessionsApi)
  .add(ConversionsApi)
  .add(ProfilesApi)
  .add(UtilsApi)
  .add(SystemApi)

const typedQuery = typedQueryParameters(Routes)

export class Api extends Routes.annotateMerge(OpenApi.annotations({
    title: "Formwright /v1",
    version: "1",
    description: "Read, fill and create PDF forms. Authenticate with `Authorization: Bearer <key>` or `x-api-key: <key>`.",
    // Relative to where the description is served: "Try it" in /docs calls the server it came from.
    servers: [{ url: "/", description: "The server that serves this description" }],
    license: { name: "MIT", identifier: "MIT" },
    transform: (spec) => typedQuery({ ...spec, components: { ...spec["components"], securitySchemes: lowerCaseSchemes(spec["components"]?.securitySchemes) } })
  }))
{}
