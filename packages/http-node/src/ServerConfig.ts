/**
 * Server configuration from the environment (documented in the README).
 */
import { Config, Effect, Schema } from "effect"
import { PdfEngine } from "@formwright/core"
import { parseOrigin } from "./handlers/Client.ts"

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
  /**
   * A PostgreSQL database (FORMWRIGHT_DATABASE_URL, `postgres://...`) that every server of a
   * deployment shares: records go there, blobs stay where `storage` says.
   */
  readonly databaseUrl?: string | undefined
  /** The PostgreSQL schema of the tables (FORMWRIGHT_DATABASE_SCHEMA, default `public`). */
  readonly databaseSchema?: string | undefined
  /** Development seeding, `user:key,user2:key2`: keys accepted without being issued by the CLI. */
  readonly apiKeys: string
  readonly maxUploadBytes: number
  /** Origin used in `filled_form_url` (an http(s) origin); by default the request's own Host. */
  readonly publicUrl: string | undefined
  /**
   * A reverse proxy sets `X-Forwarded-For`, `-Host` and `-Proto` (FORMWRIGHT_TRUST_PROXY), so
   * they name the client's address and the origin it used; ignored otherwise (the default).
   */
  readonly trustProxy?: boolean | undefined
  /** Background jobs run at once. */
  readonly concurrency: number
  /** Runs of one job at most, counting runs the process died in (FORMWRIGHT_JOB_MAX_ATTEMPTS). */
  readonly maxAttempts?: number | undefined
  /** The PDF worker pool and the limits PDF work runs under (FORMWRIGHT_PDF_*); defaults when absent. */
  readonly pdf?: PdfEngine.WorkersOptions | undefined
  /** `file_urls` may use plain http (https only otherwise). */
  readonly allowHttpUrls: boolean
  /** Hosts (or IPs) that `file_urls` may reach even when they resolve to private addresses. */
  readonly urlAllowList: ReadonlyArray<string>
  /** Requests a minute per user (whichever of their keys is used) before 429; none when absent. */
  readonly rateLimit?: number | undefined
  /**
   * Failed authentications a minute per client address before 429 on every keyed route
   * (FORMWRIGHT_AUTH_FAILURE_LIMIT); 20 when absent, 0 turns the limit off.
   */
  readonly authFailureLimit?: number | undefined
  /** Where events are POSTed (FORMWRIGHT_WEBHOOK_URL); needs `webhookSecret`. */
  readonly webhookUrl?: string | undefined
  /** The HMAC-SHA256 key that signs each webhook (FORMWRIGHT_WEBHOOK_SECRET), 16+ characters. */
  readonly webhookSecret?: string | undefined
  /** A converter service conversions are handed to (FORMWRIGHT_CONVERTER_URL); run in-process when absent. */
  readonly converterUrl?: string | undefined
  /** The key the converter service requires (FORMWRIGHT_CONVERTER_KEY), 16+ characters. */
  readonly converterKey?: string | undefined
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

export interface Webhook {
  readonly url: string
  readonly secret: string
}

/**
 * The webhook FORMWRIGHT_WEBHOOK_URL and FORMWRIGHT_WEBHOOK_SECRET describe, if any. Either one
 * without the other, a URL that is not http(s) or holds credentials, or a secret under 16
 * characters stops the server.
 */
export const parseWebhook = (config: ServerConfig): Effect.Effect<Webhook | undefined, InvalidConfig> => {
  const url = config.webhookUrl?.trim() || undefined
  const secret = config.webhookSecret || undefined
  if (url === undefined && secret === undefined) return Effect.succeed(undefined)
  const invalid = (message: string) => Effect.fail(new InvalidConfig({ message }))
  if (url === undefined) return invalid("FORMWRIGHT_WEBHOOK_SECRET is set but FORMWRIGHT_WEBHOOK_URL is not: set both, or neither")
  if (secret === undefined) return invalid("FORMWRIGHT_WEBHOOK_URL needs FORMWRIGHT_WEBHOOK_SECRET, the key that signs each webhook (16+ characters)")
  const parsed = URL.parse(url)
  if (parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    return invalid("FORMWRIGHT_WEBHOOK_URL: expected an http:// or https:// URL")
  }
  if (parsed.username !== "" || parsed.password !== "") return invalid("FORMWRIGHT_WEBHOOK_URL: credentials in the URL are not supported")
  if (secret.length < 16) return invalid(`FORMWRIGHT_WEBHOOK_SECRET: expected 16+ characters, got ${secret.length}`)
  return Effect.succeed({ url, secret })
}

export interface RemoteConverterSetting {
  readonly url: string
  readonly key: string
}

/** A converter key is a shared secret between servers: long enough that guessing it is hopeless. */
export const parseConverterKey = (key: string | undefined): Effect.Effect<string, InvalidConfig> =>
  key === undefined || key.length < 16
    ? Effect.fail(new InvalidConfig({ message: `FORMWRIGHT_CONVERTER_KEY: expected 16+ characters, got ${key?.length ?? "none"}` }))
    : Effect.succeed(key)

/**
 * The converter service FORMWRIGHT_CONVERTER_URL names, with FORMWRIGHT_CONVERTER_KEY; none when
 * the URL is unset (conversions run in-process). A URL that is not http(s) or lacks a key stops the server.
 */
export const parseRemoteConverter = (config: ServerConfig): Effect.Effect<RemoteConverterSetting | undefined, InvalidConfig> => {
  const url = config.converterUrl?.trim() || undefined
  if (url === undefined) return Effect.succeed(undefined)
  const parsed = URL.parse(url)
  if (parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.username !== "" || parsed.password !== "") {
    return Effect.fail(new InvalidConfig({ message: "FORMWRIGHT_CONVERTER_URL: expected an http:// or https:// URL without credentials" }))
  }
  return Effect.map(parseConverterKey(config.converterKey), (key) => ({ url, key }))
}

/**
 * The origin FORMWRIGHT_PUBLIC_URL names (`https://forms.example.com`), or a failure that stops
 * the server: anything but an http(s) origin could end up in `filled_form_url` otherwise.
 */
export const parsePublicUrl = (raw: string | undefined): Effect.Effect<string | undefined, InvalidConfig> => {
  if (raw === undefined || raw.trim() === "") return Effect.succeed(undefined)
  const origin = parseOrigin(raw)
  return origin === undefined
    ? Effect.fail(new InvalidConfig({ message: `FORMWRIGHT_PUBLIC_URL: expected an http:// or https:// origin such as https://forms.example.com (no path, query or credentials), got '${raw.slice(0, 200)}'` }))
    : Effect.succeed(origin)
}

const optional = (name: string) =>
  Config.String(name).pipe(Config.option, Config.map((o) => (o._tag === "Some" ? o.value : undefined)))

const list = (name: string) =>
  Config.String(name).pipe(
    Config.withDefault(""),
    Config.map((s) => s.split(",").map((p) => p.trim()).filter((p) => p !== ""))
  )

const positiveInt = (name: string) => Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), name)

const optionalPositiveInt = (name: string) =>
  positiveInt(name).pipe(Config.option, Config.map((o) => (o._tag === "Some" ? o.value : undefined)))

const MiB = 1024 * 1024

/** FORMWRIGHT_PDF_*: the worker pool and the limits of PDF work (README, "Limits"). */
const pdf: Config.Config<PdfEngine.WorkersOptions> = Config.all({
  workers: optionalPositiveInt("FORMWRIGHT_PDF_WORKERS"),
  memoryMb: optionalPositiveInt("FORMWRIGHT_PDF_MEMORY_MB"),
  requestTimeoutMs: optionalPositiveInt("FORMWRIGHT_PDF_TIMEOUT_MS"),
  backgroundTimeoutMs: optionalPositiveInt("FORMWRIGHT_PDF_JOB_TIMEOUT_MS"),
  maxPages: optionalPositiveInt("FORMWRIGHT_PDF_MAX_PAGES"),
  maxStreamMb: optionalPositiveInt("FORMWRIGHT_PDF_MAX_STREAM_MB"),
  maxContentStreamMb: optionalPositiveInt("FORMWRIGHT_PDF_MAX_CONTENT_STREAM_MB"),
  maxDecodedMb: optionalPositiveInt("FORMWRIGHT_PDF_MAX_DECODED_MB"),
  maxFields: optionalPositiveInt("FORMWRIGHT_PDF_MAX_FIELDS")
}).pipe(Config.map(({ maxContentStreamMb, maxDecodedMb, maxFields, maxPages, maxStreamMb, ...pool }) => ({
  ...pool,
  limits: {
    ...(maxPages !== undefined ? { maxPages } : {}),
    ...(maxFields !== undefined ? { maxFields } : {}),
    ...(maxStreamMb !== undefined ? { maxStreamBytes: maxStreamMb * MiB } : {}),
    ...(maxContentStreamMb !== undefined ? { maxContentStreamBytes: maxContentStreamMb * MiB } : {}),
    ...(maxDecodedMb !== undefined ? { maxDecodedBytes: maxDecodedMb * MiB } : {})
  }
})))

export const config: Config.Config<ServerConfig> = Config.all({
  port: Config.Port("FORMWRIGHT_PORT").pipe(Config.withDefault(3000)),
  host: Config.String("FORMWRIGHT_HOST").pipe(Config.withDefault("0.0.0.0")),
  dataDir: Config.String("FORMWRIGHT_DATA_DIR").pipe(Config.withDefault("./data")),
  storage: Config.Literals(["fs", "s3"], "FORMWRIGHT_STORAGE").pipe(Config.withDefault("fs" as const)),
  databaseUrl: optional("FORMWRIGHT_DATABASE_URL"),
  databaseSchema: optional("FORMWRIGHT_DATABASE_SCHEMA"),
  apiKeys: Config.String("FORMWRIGHT_API_KEYS").pipe(Config.withDefault("")),
  maxUploadBytes: Config.Int("FORMWRIGHT_MAX_UPLOAD_BYTES").pipe(Config.withDefault(50 * 1024 * 1024)),
  publicUrl: Config.String("FORMWRIGHT_PUBLIC_URL").pipe(Config.option, Config.map((o) => (o._tag === "Some" ? o.value : undefined))),
  trustProxy: Config.Boolean("FORMWRIGHT_TRUST_PROXY").pipe(Config.withDefault(false)),
  concurrency: Config.Int("FORMWRIGHT_JOB_CONCURRENCY").pipe(Config.withDefault(2)),
  maxAttempts: optionalPositiveInt("FORMWRIGHT_JOB_MAX_ATTEMPTS"),
  pdf,
  rateLimit: Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), "FORMWRIGHT_RATE_LIMIT").pipe(
    Config.option,
    Config.map((o) => (o._tag === "Some" ? o.value : undefined))
  ),
  authFailureLimit: Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)), "FORMWRIGHT_AUTH_FAILURE_LIMIT").pipe(
    Config.option,
    Config.map((o) => (o._tag === "Some" ? o.value : undefined))
  ),
  allowHttpUrls: Config.Boolean("FORMWRIGHT_ALLOW_HTTP_URLS").pipe(Config.withDefault(false)),
  urlAllowList: list("FORMWRIGHT_URL_ALLOWLIST"),
  webhookUrl: optional("FORMWRIGHT_WEBHOOK_URL"),
  webhookSecret: optional("FORMWRIGHT_WEBHOOK_SECRET"),
  converterUrl: optional("FORMWRIGHT_CONVERTER_URL"),
  converterKey: optional("FORMWRIGHT_CONVERTER_KEY")
})

/** `formwright converter`'s settings (README, "The converter as a service"). */
export const converterConfig = Config.all({
  port: Config.Port("FORMWRIGHT_PORT").pipe(Config.withDefault(3001)),
  host: Config.String("FORMWRIGHT_HOST").pipe(Config.withDefault("0.0.0.0")),
  key: optional("FORMWRIGHT_CONVERTER_KEY"),
  queue: Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)), "FORMWRIGHT_CONVERTER_QUEUE").pipe(Config.withDefault(16)),
  maxUploadBytes: Config.Int("FORMWRIGHT_MAX_UPLOAD_BYTES").pipe(Config.withDefault(50 * 1024 * 1024)),
  pdf
})
