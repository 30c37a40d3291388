/**
 * Operations routes, outside /v1 and without authentication.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as Wire from "./Wire.ts"

export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/health", { success: Wire.Health }).annotate(OpenApi.Description, "Liveness."))
  .annotate(OpenApi.Title, "System")
{}
