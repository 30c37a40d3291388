/**
 * The guard of the routes that take a JSON body: `application/json` only (415 otherwise, in the
 * error object rather than the framework's plain-text answer), within the server's body limit
 * (413). It runs after authentication and before the body is read.
 */
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "./Errors.ts"

export class JsonBody extends HttpApiMiddleware.Service<JsonBody>()("@formwright/api/JsonBody", {
  error: [UnsupportedMediaType, PayloadTooLarge, BadRequest]
}) {}
