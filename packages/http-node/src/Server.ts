/**
 * The server, wired in one place: storage, the core, the /v1 routes, docs, and Node's HTTP server.
 */
import { type Config, Effect, Layer, Option, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ApiKeys, EmbeddedConverter, type Events, Formwright, type JobRunner, PdfEngine, Storage, Webhooks } from "@formwright/core"
import { FsStorage } from "@formwright/storage-fs"
import * as NetAddress from "effect/net/NetAddress"
import * as NodeHttp from "node:http"
import { createServer } from "node:http"
import { Api } from "@formwright/api"
import * as Authorization from "./handlers/Authorization.ts"
import { ConversionsHandlers } from "./handlers/ConversionsHandlers.ts"
import * as ContentType from "./handlers/ContentType.ts"
import * as Edge from "./handlers/Edge.ts"
import * as FormOwner from "./handlers/FormOwner.ts"
import * as JsonBody from "./handlers/JsonBody.ts"
import * as RateLimit from "./handlers/RateLimit.ts"
import { FormsHandlers } from "./handlers/FormsHandlers.ts"
import { ProfilesHandlers } from "./handlers/ProfilesHandlers.ts"
import { SessionsHandlers } from "./handlers/SessionsHandlers.ts"
import { SystemHandlers } from "./handlers/SystemHandlers.ts"
import { UtilsHandlers } from "./handlers/UtilsHandlers.ts"
import * as FormsReadCache from "./FormsReadCache.ts"
import * as Logging from "./Logging.ts"
import * as RemoteConverter from "./converter/RemoteConverter.ts"
import { parseApiKeys, parseRemoteConverter, parseWebhook, type ServerConfig } from "./ServerConfig.ts"
import * as Settings from "./Settings.ts"
import * as UrlSourceFetcher from "./UrlSourceFetcher.ts"

export interface AppOptions {
  readonly config: ServerConfig
  /** Storage to serve from; by default the one `config.storage` names (see `storageLayer`). */
  readonly storage?: Layer.Layer<Storage.Storage, Storage.StorageError | Config.ConfigError> | undefined
  /** On a store with no API keys at all, issue one for user `dev` and log it (first start). */
  readonly issueFirstKey?: boolean | undefined
}

/**
 * The storage `config.storage` names: the directory `config.dataDir` (fs), or the bucket of the
 * FORMWRIGHT_S3_* variables (s3), which every server of a deployment can share. With
 * `config.databaseUrl`, records go to that PostgreSQL database and only blobs go there.
 */
export const storageLayer = (config: ServerConfig): Layer.Layer<Storage.Storage, Storage.StorageError | Config.ConfigError> => {
  const blobs = config.storage === "s3"
    // Loaded only when chosen: the AWS SDK is most of a server's modules otherwise.
    ? Layer.unwrap(Effect.promise(() => import("@formwright/storage-s3")).pipe(Effect.map(({ S3Storage }) => S3Storage.layerConfig)))
    : FsStorage.layer({ directory: config.dataDir })
  const databaseUrl = config.databaseUrl?.trim() || undefined
  if (databaseUrl === undefined) return blobs
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return Layer.unwrap(Effect.fail(new Storage.StorageError({ message: "FORMWRIGHT_DATABASE_URL: expected a postgres:// URL" })))
  }
  return Layer.unwrap(
    Effect.promise(() => import("@formwright/postgres")).pipe(
      Effect.map(({ PgStorage }) => PgStorage.layer({ url: Redacted.make(databaseUrl), schema: config.databaseSchema?.trim() || undefined, blobs }))
    )
  )
}

/** The database every server of a deployment shares (FORMWRIGHT_DATABASE_URL), if any. */
const database = (config: ServerConfig) => {
  const url = config.databaseUrl?.trim() || undefined
  if (url === undefined) return undefined
  const schema = config.databaseSchema?.trim() || "public"
  return { url: Redacted.make(url), schema }
}

/**
 * Where background jobs run: on pg-boss in the database when there is one, so every server takes
 * from the same queues and a dead server's job is taken over; in this process otherwise. The
 * queues live in the schema `formwright_jobs`, or `<schema>_jobs` beside a FORMWRIGHT_DATABASE_SCHEMA.
 */
export const jobsLayer = (config: ServerConfig): Layer.Layer<JobRunner.JobRunner, Storage.StorageError, Storage.Storage> | undefined => {
  const shared = database(config)
  if (shared === undefined) return undefined
  return Layer.unwrap(
    Effect.promise(() => import("@formwright/postgres")).pipe(
      Effect.map(({ PgBossJobRunner }) =>
        PgBossJobRunner.layer({
          url: shared.url,
          schema: shared.schema === "public" ? "formwright_jobs" : `${shared.schema}_jobs`,
          concurrency: config.concurrency,
          maxAttempts: config.maxAttempts
        })
      )
    )
  )
}

/**
 * Where events go besides this process: POSTed to the webhook from memory, or, on PostgreSQL,
 * through the outbox table, so a delivery survives a crash and any server sends it.
 */
const eventsLayer = (config: ServerConfig, webhook: Webhooks.Options): Layer.Layer<Events.Events | Events.EventBus, Storage.StorageError> => {
  const shared = database(config)
  if (shared === undefined) return Webhooks.layer(webhook)
  return Layer.unwrap(
    Effect.promise(() => import("@formwright/postgres")).pipe(
      Effect.map(({ PgWebhookOutbox }) => PgWebhookOutbox.layer({ url: shared.url, schema: shared.schema, webhook }))
    )
  )
}

/**
 * The settings of the routes. On PostgreSQL the rate limits' buckets are in the database, so a
 * client is counted once across every server; in this process otherwise.
 */
const settingsLayer = (config: ServerConfig) => {
  const shared = database(config)
  if (shared === undefined) return Settings.layer(config)
  const limiters = Layer.effect(
    RateLimit.Limiters,
    Effect.promise(() => import("@formwright/postgres")).pipe(
      Effect.flatMap(({ PgRateLimiter }) => PgRateLimiter.makeWithPool({ url: shared.url, schema: shared.schema }))
    )
  )
  return Settings.layer(config).pipe(Layer.provideMerge(limiters))
}

/** Keys from FORMWRIGHT_API_KEYS, and a first key for an empty store when asked. */
const seedKeys = (options: AppOptions) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      const storage = yield* Storage.Storage
      const seeds = yield* parseApiKeys(options.config.apiKeys)
      for (const seed of seeds) yield* keys.seed(seed.user, seed.key)
      if (seeds.length > 0) yield* Effect.logInfo(`seeded ${seeds.length} API key(s) from FORMWRIGHT_API_KEYS`)
      if (options.issueFirstKey && seeds.length === 0) {
        const existing = yield* storage.listDocuments("apikeys/", { limit: 1 })
        if (existing.items.length === 0) {
          const issued = yield* keys.create("dev")
          yield* Effect.logWarning(
            `No API keys existed, so one was issued for user 'dev' (shown once, stored only as a hash): ${issued.key}`
          )
        }
      }
    })
  )

/** The routes of the server and everything they need, short of an HTTP server. */
export const layerApp = (options: AppOptions) => {
  const { config } = options
  // One pool of PDF workers serves the services and the embedded converter alike.
  const pdf = PdfEngine.layerWorkers(config.pdf)
  // Conversions run in-process, or at the converter service FORMWRIGHT_CONVERTER_URL names.
  const converter = Layer.unwrap(
    Effect.map(parseRemoteConverter(config), (remote) =>
      remote === undefined ? EmbeddedConverter.layer.pipe(Layer.provide(pdf)) : RemoteConverter.layer(remote))
  )
  const ports = Layer.mergeAll(
    options.storage ?? storageLayer(config),
    converter,
    pdf,
    UrlSourceFetcher.layer({
      allowHttp: config.allowHttpUrls,
      allowList: config.urlAllowList,
      maxBytes: config.maxUploadBytes,
      timeoutMs: 15_000
    })
  )
  // With FORMWRIGHT_WEBHOOK_URL, events are also POSTed there; a bad webhook setting stops the start.
  const core = Layer.unwrap(
    Effect.map(parseWebhook(config), (webhook) =>
      Formwright.layer({
        concurrency: config.concurrency,
        maxAttempts: config.maxAttempts,
        events: webhook && eventsLayer(config, webhook),
        jobs: jobsLayer(config)
      }))
  ).pipe(Layer.provideMerge(ports))
  const handlers = Layer.mergeAll(FormsHandlers, SessionsHandlers, ConversionsHandlers, ProfilesHandlers, UtilsHandlers, SystemHandlers).pipe(
    Layer.provide([Authorization.layer, ContentType.layer, JsonBody.layer, FormOwner.layer]),
    // The routes read forms through a short-lived cache; the core's services read storage.
    Layer.provide(FormsReadCache.layer)
  )
  const routes = Layer.mergeAll(
    HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(Layer.provide(handlers)),
    // The docs page loads nothing from the internet, fonts included.
    HttpApiScalar.layer(Api, { path: "/docs", scalar: { withDefaultFonts: false } }),
    Edge.layer
  )
  return routes.pipe(
    Layer.provide(settingsLayer(config)),
    Layer.provide(seedKeys(options)),
    Layer.provideMerge(core)
  )
}

/**
 * The app on Node's HTTP server at `config.host:config.port` (port 0 picks a free one).
 *
 * The app (storage, core, resumed jobs, routes, docs) is built before the socket listens:
 * `HttpRouter.serve` would listen first, and a request arriving while the app is still being
 * built finds no request handler and is never answered. Built first, such a request is refused
 * at once and the client can retry.
 *
 * Log lines in logfmt on stdout (how the CLI runs it) are written without blocking the event
 * loop, and flushed after the server has stopped (Logging.ts).
 */
export const layer = (options: AppOptions) => {
  const server = createServer()
  const serving = Layer.unwrap(
    Effect.map(HttpRouter.toHttpEffect(layerApp(options)), (handler) =>
      HttpServer.serve(handler).pipe(
        HttpServer.withLogAddress,
        Layer.provideMerge(NodeHttpServer.layerServer(() => server, { port: options.config.port, host: options.config.host }))
      ))
  ).pipe(Layer.provideMerge(NodeHttpServer.layerHttpServices))
  return closeIdleConnectionsOnShutdown(server).pipe(Layer.provideMerge(serving), Layer.provide(Logging.layer))
}

/**
 * On shutdown, keep-alive connections are closed as soon as they are idle. Closing the server
 * waits for every open connection, and a client's idle keep-alive socket would otherwise hold
 * the process for its whole timeout after the in-flight requests have finished.
 * Built after the server, so this runs first when the server is released.
 */
const closeIdleConnectionsOnShutdown = (server: NodeHttp.Server) =>
  Layer.effectDiscard(
    Effect.addFinalizer(() =>
      Effect.sync(() => {
        server.closeIdleConnections()
        const timer = setInterval(() => server.closeIdleConnections(), 50)
        timer.unref()
        server.once("close", () => clearInterval(timer))
      })
    )
  )

/** The base URL the server listens on. */
export const baseUrl = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  if (address._tag === "UnixPathAddress") return Option.none<string>()
  const host = NetAddress.formatHost(address)
  const reachable = host === "0.0.0.0" || host === "::" || host === "[::]" ? "127.0.0.1" : host
  return Option.some(`http://${reachable}:${address.port}`)
})
