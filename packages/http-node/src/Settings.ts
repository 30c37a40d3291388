/**
 * A ServerConfig's settings as the services the edge, the middlewares and the handlers read.
 */
import { Effect, Layer } from "effect"
import { PdfLimits } from "@formwright/core"
import { MaxUploadBytes } from "./handlers/Body.ts"
import { TrustProxy } from "./handlers/Client.ts"
import * as RateLimit from "./handlers/RateLimit.ts"
import { PublicUrl } from "./handlers/SessionsHandlers.ts"
import type { ServerConfig } from "./ServerConfig.ts"

/** The settings layer of `config`; a server provides it to its routes. */
export const layer = (config: ServerConfig) =>
  Layer.mergeAll(
    Layer.succeed(MaxUploadBytes, config.maxUploadBytes),
    Layer.succeed(PublicUrl, config.publicUrl),
    Layer.effect(
      RateLimit.CurrentRateLimiter,
      Effect.map(RateLimit.Limiters.useSync((limiter) => limiter), (limiter) => config.rateLimit === undefined ? undefined : limiter("requests", config.rateLimit))
    ),
    Layer.succeed(RateLimit.AuthFailureLimit, config.authFailureLimit ?? RateLimit.defaultAuthFailuresPerMinute),
    Layer.succeed(TrustProxy, config.trustProxy ?? false),
    // The edge bounds a conversion's `pages` by the same page limit the PDF work applies.
    Layer.succeed(PdfLimits.PdfLimits, { ...PdfLimits.defaults, ...config.pdf?.limits })
  )
