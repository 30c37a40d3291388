/**
 * `formwright converter`: the converter as a service (converter/ConverterService.ts), for API
 * servers that hand their conversions over (FORMWRIGHT_CONVERTER_URL). Configured from
 * FORMWRIGHT_CONVERTER_KEY (required), FORMWRIGHT_CONVERTER_QUEUE, FORMWRIGHT_MAX_UPLOAD_BYTES,
 * FORMWRIGHT_PORT (3001), FORMWRIGHT_HOST and the FORMWRIGHT_PDF_* limits. Loaded when it runs.
 */
import { Effect, Layer } from "effect"
import { Command } from "effect/cli"
import { UsageError } from "./Failures.ts"

export const converter = Effect.gen(function*() {
  const [{ converterConfig, parseConverterKey }, ConverterService] = yield* Effect.promise(() =>
    Promise.all([import("../ServerConfig.ts"), import("../converter/ConverterService.ts")])
  )
  const settings = yield* converterConfig
  const key = yield* parseConverterKey(settings.key).pipe(Effect.mapError((e) => new UsageError({ message: e.message })))
  return yield* Layer.launch(ConverterService.layer({ ...settings, key }))
})

export const command = Command.make("converter", {}, () => converter).pipe(
  Command.withDescription(
    "Run the converter as a service for API servers (FORMWRIGHT_CONVERTER_URL), configured from FORMWRIGHT_CONVERTER_KEY, FORMWRIGHT_CONVERTER_QUEUE and FORMWRIGHT_MAX_UPLOAD_BYTES."
  )
)
