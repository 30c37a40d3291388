/**
 * Authentication of the /v1 routes: `Authorization: Bearer <key>` or `x-api-key: <key>`.
 */
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { Unauthorized } from "./Errors.ts"

/** The user behind the request's API key. */
export class CurrentUser extends Context.Service<CurrentUser, { readonly id: string & import("effect").Brand.Brand<"UserId"> }>()(
  "@formwright/http-node/CurrentUser"
) {}

/** The unauthorized error, in the contract's error-object shape. */
export const UnauthorizedError = Unauthorized

export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentUser }>()(
  "@formwright/http-node/Authorization",
  {
    security: {
      bearer: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "`Authorization: Bearer <API key>`")
      ),
      apiKey: HttpApiSecurity.apiKey({ key: "x-api-key", in: "header" }).pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "`x-api-key: <API key>`")
      )
    },
    error: UnauthorizedError
  }
) {}
