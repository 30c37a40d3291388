/**
 * The /v1 contract, which lives in `@formwright/api`; re-exported so that
 * `@formwright/http-node/Api` keeps working.
 */
export * from "@formwright/api"
