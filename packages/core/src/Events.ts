/**
 * The Events port: what the core tells the outside world ("the downstream batch service" of
 * interface.md). Publishing never fails the operation that caused it: an adapter that cannot
 * deliver logs and retries on its own.
 */
import { Context, Effect, Layer, PubSub, Schema } from "effect"
import * as Clock from "./Clock.ts"
import * as Id from "./Id.ts"

export const EventType = Schema.Literals([
  "form.uploaded",
  "session.completed",
  "session.failed",
  "conversion.completed",
  "conversion.failed"
])
export type EventType = typeof EventType.Type

export interface Event {
  readonly id: string
  readonly type: EventType
  /** The user whose resource it is. */
  readonly owner: string
  readonly created: string
  readonly data: Record<string, unknown>
}

/**
 * The event a finished job ends with. Its id depends only on the job and the outcome, so the
 * event published again by a later run of the same job carries the id of the first.
 */
export const finalEvent = (jobId: string, owner: string, type: EventType, data: Record<string, unknown>): Event => ({
  id: Id.derive("event", jobId, type),
  type,
  owner,
  created: Clock.nowIso(),
  data
})

export interface EventsShape {
  readonly publish: (event: Event) => Effect.Effect<void>
}

export class Events extends Context.Service<Events, EventsShape>()("@formwright/core/Events") {}

/** In-process events: a PubSub that embedding code can subscribe to, and a log line each. */
export class EventBus extends Context.Service<EventBus, PubSub.PubSub<Event>>()("@formwright/core/EventBus") {}

/** Events published to an in-process PubSub (`EventBus`) and logged. */
export const layerInProcess: Layer.Layer<Events | EventBus> = Layer.effect(
  EventBus,
  PubSub.unbounded<Event>()
).pipe(
  Layer.flatMap((context) => {
    const bus = Context.get(context, EventBus)
    return Layer.succeedContext(
      context.pipe(
        Context.add(
          Events,
          Events.of({
            publish: (event) =>
              PubSub.publish(bus, event).pipe(
                Effect.andThen(Effect.logInfo("event", event.type).pipe(Effect.annotateLogs({ event_id: event.id, owner: event.owner })))
              )
          })
        )
      )
    )
  })
)
