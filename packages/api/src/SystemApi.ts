/**
 * Operations routes, outside /v1 and without authentication.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as Wire from "./Wire.ts"

export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/health", { success: Wire.Health }).annotate(OpenApi.Summary, "Liveness").annotate(OpenApi.Description, "Answers while the server is up, with its version; needs no key."))
  .annotate(OpenApi.Title, "System")
  .annotate(OpenApi.Description, "Operations routes outside /v1; they need no key.")
{}
