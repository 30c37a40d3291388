/**
 * Server configuration from the environment (documented in the README).
 */
import { Config, Effect, Schema } from "effect"

export interface SeedKey {
  readonly user: string
  readonly key: string
}

export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  /** Where records and PDFs live: `fs` (the directory `dataDir`, the default) or `s3` (FORMWRIGHT_S3_* settings). */
  readonly storage?: "fs" | "s3" | undefined
  /** Development seeding, `user:key,user2:key2`: keys accepted without being issued by the CLI. */
  readonly apiKeys: string
  readonly maxUploadBytes: number
  /** Origin used in `filled_form_url`; by default the request's own Host. */
  readonly publicUrl: string | undefined
  /** Background jobs run at once. */
  readonly concurrency: number
  /** `file_urls` may use plain http (https only otherwise). */
  readonly allowHttpUrls: boolean
  /** Hosts (or IPs) that `file_urls` may reach even when they resolve to private addresses. */
  readonly urlAllowList: ReadonlyArray<string>
}

/** A setting that cannot be used; the server does not start. */
export class InvalidConfig extends Schema.TaggedError<InvalidConfig>()("InvalidConfig", { message: Schema.String }) {}

/** `user:key,user2:key2`; a malformed entry stops the server with a clear message. */
export const parseApiKeys = (raw: string): Effect.Effect<ReadonlyArray<SeedKey>, InvalidConfig> => {
  const entries = raw.split(",").map((s) => s.trim()).filter((s) => s !== "")
  const out: Array<SeedKey> = []
  for (const entry of entries) {
    const colon = entry.indexOf(":")
    const user = entry.slice(0, colon).trim()
    const key = entry.slice(colon + 1).trim()
    if (colon <= 0 || user === "" || key.length < 8) {
      const shown = colon > 0 ? `${user}:…` : "(no colon)"
      return Effect.fail(new InvalidConfig({ message: `FORMWRIGHT_API_KEYS: expected 'user:key' pairs with keys of 8+ characters, got '${shown}'` }))
    }
    out.push({ user, key })
  }
  return Effect.succeed(out)
}

const list = (name: string) =>
  Config.String(name).pipe(
    Config.withDefault(""),
    Config.map((s) => s.split(",").map((p) => p.trim()).filter((p) => p !== ""))
  )

export const config: Config.Config<ServerConfig> = Config.all({
  port: Config.Port("FORMWRIGHT_PORT").pipe(Config.withDefault(3000)),
  host: Config.String("FORMWRIGHT_HOST").pipe(Config.withDefault("0.0.0.0")),
  dataDir: Config.String("FORMWRIGHT_DATA_DIR").pipe(Config.withDefault("./data")),
  storage: Config.Literals(["fs", "s3"], "FORMWRIGHT_STORAGE").pipe(Config.withDefault("fs" as const)),
  apiKeys: Config.String("FORMWRIGHT_API_KEYS").pipe(Config.withDefault("")),
  maxUploadBytes: Config.Int("FORMWRIGHT_MAX_UPLOAD_BYTES").pipe(Config.withDefault(50 * 1024 * 1024)),
  publicUrl: Config.String("FORMWRIGHT_PUBLIC_URL").pipe(Config.option, Config.map((o) => (o._tag === "Some" ? o.value : undefined))),
  concurrency: Config.Int("FORMWRIGHT_JOB_CONCURRENCY").pipe(Config.withDefault(2)),
  allowHttpUrls: Config.Boolean("FORMWRIGHT_ALLOW_HTTP_URLS").pipe(Config.withDefault(false)),
  urlAllowList: list("FORMWRIGHT_URL_ALLOWLIST")
})
