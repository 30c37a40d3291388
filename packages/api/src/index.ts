/**
 * @formwright/api: the /v1 HTTP contract of Formwright alone (groups, endpoints, wire schemas,
 * errors with their status). Importing it loads no server code: clients derive a typed client
 * from it, and `@formwright/http-node` implements it.
 */
export { Api } from "./Api.ts"
export { Authorization, ConversionAuthorization, CurrentUser } from "./Authorization.ts"
export * as Client from "./Client.ts"
export * as Errors from "./Errors.ts"
export { ContentType, ConversionContentType, UnsupportedMessage } from "./ContentType.ts"
export { FormOwner } from "./FormOwner.ts"
export { InvalidRequest } from "./InvalidRequest.ts"
export { JsonBody } from "./JsonBody.ts"
export * as Params from "./Params.ts"
export * as Wire from "./Wire.ts"
