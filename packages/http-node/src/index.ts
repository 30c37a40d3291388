/**
 * @formwright/http-node: the /v1 HTTP API of Formwright on Node.
 */
export { Api } from "./Api.ts"
export * as Server from "./Server.ts"
export * as ServerConfig from "./ServerConfig.ts"
export * as UrlSourceFetcher from "./UrlSourceFetcher.ts"
