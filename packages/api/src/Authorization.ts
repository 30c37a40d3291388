/**
 * Authentication of the /v1 routes: `Authorization: Bearer <key>` or `x-api-key: <key>`.
 */
import { type Brand, Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { ConversionTooManyRequests, ConversionUnauthorized, TooManyRequests, Unauthorized } from "./Errors.ts"

/** The user behind the request's API key. */
export class CurrentUser extends Context.Service<CurrentUser, { readonly id: string & Brand.Brand<"UserId"> }>()(
  "@formwright/api/CurrentUser"
) {}

/** Tried in this order: the bearer scheme, then the `x-api-key` header. */
const security = {
  bearer: HttpApiSecurity.bearer.pipe(
    HttpApiSecurity.annotate(OpenApi.Description, "`Authorization: Bearer <API key>`")
  ),
  apiKey: HttpApiSecurity.apiKey({ key: "x-api-key", in: "header" }).pipe(
    HttpApiSecurity.annotate(OpenApi.Description, "`x-api-key: <API key>`")
  )
}

/** Authentication of the routes that answer with the error object. */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentUser }>()(
  "@formwright/api/Authorization",
  { security, error: [Unauthorized, TooManyRequests] }
) {}

/** The same authentication on the conversion routes, whose 401 body is `{error_message}` alone. */
export class ConversionAuthorization extends HttpApiMiddleware.Service<ConversionAuthorization, { provides: CurrentUser }>()(
  "@formwright/api/ConversionAuthorization",
  { security, error: [ConversionUnauthorized, ConversionTooManyRequests] }
) {}
