/**
 * @formwright/postgres: PostgreSQL as the shared state of a many-server deployment.
 */
export * as PgStorage from "./PgStorage.ts"
export * as PgBossJobRunner from "./PgBossJobRunner.ts"
export * as PgWebhookOutbox from "./PgWebhookOutbox.ts"
export * as PgRateLimiter from "./PgRateLimiter.ts"
