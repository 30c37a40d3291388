/**
 * The FormOwner middleware (declared in `@formwright/api`): the form named by the route's `{id}`
 * is the caller's, checked before the body is read, so another user's form is a 403 and a
 * missing one a 404 whatever the body holds.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { CurrentUser, FormOwner } from "@formwright/api"
import { Forms } from "@formwright/core"
import * as WireErrors from "./WireErrors.ts"

export const layer: Layer.Layer<FormOwner, never, Forms.Forms> = Layer.effect(
  FormOwner,
  Effect.gen(function*() {
    const forms = yield* Forms.Forms
    return FormOwner.of((httpEffect) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        const route = yield* HttpRouter.RouteContext
        yield* WireErrors.standard(forms.get(user.id, route.params["id"] ?? ""))
        return yield* httpEffect
      })
    )
  })
)
