/**
 * Everything the core offers, wired together: give it Storage, a Converter, a SourceFetcher and
 * a PdfEngine (`PdfEngine.layerWorkers()`: PDF work in worker processes) and get Forms, Profiles,
 * Sessions, Conversions and ApiKeys, with in-process jobs and events (`options.events` swaps the
 * events adapter, e.g. for `Webhooks.layer`).
 * Jobs recorded before a restart are resumed when the layer starts.
 */
import { Effect, Layer } from "effect"
import * as ApiKeys from "./ApiKeys.ts"
import * as Conversions from "./Conversions.ts"
import type * as Converter from "./Converter.ts"
import type * as PdfEngine from "./PdfEngine.ts"
import * as Events from "./Events.ts"
import * as Forms from "./Forms.ts"
import * as JobRunner from "./JobRunner.ts"
import * as Profiles from "./Profiles.ts"
import * as Sessions from "./Sessions.ts"
import type * as SourceFetcher from "./SourceFetcher.ts"
import type * as Storage from "./Storage.ts"

export interface Options<E = never> {
  /** Background jobs run at once (default 2). */
  readonly concurrency?: number | undefined
  /** Runs of one job at most, counting runs the process died in (default 3). */
  readonly maxAttempts?: number | undefined
  /** Where events go (default `Events.layerInProcess`; `Webhooks.layer` also POSTs them to a URL). */
  readonly events?: Layer.Layer<Events.Events | Events.EventBus, E> | undefined
  /**
   * Where background jobs run (default `JobRunner.layerInProcess` with `concurrency` and
   * `maxAttempts`); a deployment of many servers gives a distributed runner here.
   */
  readonly jobs?: Layer.Layer<JobRunner.JobRunner, E, Storage.Storage> | undefined
}

/** The services an application uses. */
export type Services =
  | Forms.Forms
  | Profiles.Profiles
  | Sessions.Sessions
  | Conversions.Conversions
  | ApiKeys.ApiKeys
  | Events.Events
  | Events.EventBus
  | JobRunner.JobRunner

/** The core on top of the given ports, resuming unfinished jobs once every service is ready. */
export const layer = <E = never>(
  options: Options<E> = {}
): Layer.Layer<Services, E, Storage.Storage | Converter.Converter | SourceFetcher.SourceFetcher | PdfEngine.PdfEngine> => {
  const base = Layer.mergeAll(
    options.jobs ?? JobRunner.layerInProcess({ concurrency: options.concurrency ?? 2, maxAttempts: options.maxAttempts }),
    options.events ?? Events.layerInProcess
  )
  const forms = Forms.layer.pipe(Layer.provideMerge(base))
  const profiles = Profiles.layer
  const services = Layer.mergeAll(Sessions.layer, Conversions.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(forms, profiles, ApiKeys.layer))
  )
  const resume = Layer.effectDiscard(
    Effect.gen(function*() {
      const runner = yield* JobRunner.JobRunner
      const resumed = yield* runner.resume.pipe(
        Effect.catchCause((cause) => Effect.logError("could not resume unfinished jobs", cause).pipe(Effect.as(0)))
      )
      if (resumed > 0) yield* Effect.logInfo(`resumed ${resumed} unfinished job(s)`)
    })
  )
  return Layer.provideMerge(resume, services)
}
