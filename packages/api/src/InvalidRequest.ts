/**
 * Request decoding failures (query, path parameters, headers) answered with the route's own 400,
 * whose message names the parameter, instead of the framework's empty one.
 */
import { HttpApiMiddleware } from "effect/http-api"

export class InvalidRequest extends HttpApiMiddleware.Service<InvalidRequest>()("@formwright/api/InvalidRequest") {}
