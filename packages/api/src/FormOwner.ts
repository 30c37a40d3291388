/**
 * Whose form it is comes before anything about the body: on a route that changes the form named
 * by its `{id}`, another user's form is a 403 and a missing one a 404, whatever was sent. It runs
 * after authentication and before the body is read or decoded.
 */
import { HttpApiMiddleware } from "effect/http-api"
import type { CurrentUser } from "./Authorization.ts"
import { Forbidden, Internal, InsufficientStorage, NotFound } from "./Errors.ts"

export class FormOwner extends HttpApiMiddleware.Service<FormOwner, { requires: CurrentUser }>()("@formwright/api/FormOwner", {
  error: [Forbidden, NotFound, Internal, InsufficientStorage]
}) {}
