/**
 * `GET /v1/forms/{id}` answered from memory for a second: the same form is typically read many
 * times in a row (a client polling it, rendering it, filling it), and reading and decoding its
 * record was most of the route's cost.
 *
 * The Forms service the routes use, wrapping the core's: `get` is remembered for `ttlMs` per
 * owner and form; `update` and `delete` through it forget the form at once (and a read in
 * flight meanwhile is not kept), so this server always answers its own writes. Another server
 * sharing the storage may change or delete the form: this server shows that within `ttlMs`
 * (docs/storage-s3.md, "What each server remembers"). Only successful reads are kept: a
 * missing form is looked up every time. Everything else (PDF downloads, sessions, listings)
 * reads storage as before.
 */
import { Cache, Duration, Effect, Equal, Exit, Hash, Layer } from "effect"
import { Forms, type Id } from "@formwright/core"

/** How long a form read may be served again; the bound on showing another server's change. */
export const ttlMs = 1_000

/** Forms kept at most; least recently read go first. A form's record can run to megabytes. */
const capacity = 64

/** A cache key: equal by owner and form id, which the lookup needs. */
class FormKey implements Equal.Equal {
  readonly owner: Id.UserId
  readonly id: string
  constructor(owner: Id.UserId, id: string) {
    this.owner = owner
    this.id = id
  }
  [Equal.symbol](that: Equal.Equal): boolean {
    return that instanceof FormKey && that.owner === this.owner && that.id === this.id
  }
  [Hash.symbol](): number {
    return Hash.string(`${this.owner}/${this.id}`)
  }
}

export const layer: Layer.Layer<Forms.Forms, never, Forms.Forms> = Layer.effect(
  Forms.Forms,
  Effect.gen(function*() {
    const forms = yield* Forms.Forms
    const cache = yield* Cache.makeWith((key: FormKey) => forms.get(key.owner, key.id), {
      capacity,
      timeToLive: (exit) => (Exit.isSuccess(exit) ? Duration.millis(ttlMs) : Duration.zero)
    })
    const forget = (owner: Id.UserId, id: string) => Cache.invalidate(cache, new FormKey(owner, id))
    return Forms.Forms.of({
      ...forms,
      get: (owner, id) => Cache.get(cache, new FormKey(owner, id)),
      update: (owner, id, patch) => Effect.ensuring(forms.update(owner, id, patch), forget(owner, id)),
      delete: (owner, id) => Effect.ensuring(forms.delete(owner, id), forget(owner, id))
    })
  })
)
