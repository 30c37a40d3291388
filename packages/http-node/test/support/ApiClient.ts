/**
 * The typed client of `@formwright/api` aimed at a test server: tests call routes as methods,
 * with answers decoded by the contract's schemas and documented errors as their wire classes.
 */
import { Cause, Effect, Exit } from "effect"
import { FetchHttpClient } from "effect/http"
import { Client } from "@formwright/api"
import * as TestServer from "./TestServer.ts"

export interface ApiClient {
  /** Runs a call; its value, or a thrown error for any failure. */
  readonly ok: <A, E>(call: (client: Client.Client) => Effect.Effect<A, E>) => Promise<A>
  /** Runs a call that must fail; its error (a wire error class for a documented answer). */
  readonly fails: <A, E>(call: (client: Client.Client) => Effect.Effect<A, E>) => Promise<E>
}

export const of = (server: TestServer.TestServer, key: string = TestServer.keys.alice): ApiClient => {
  const client = Effect.runSync(Client.make({ baseUrl: server.url, apiKey: key }).pipe(Effect.provide(FetchHttpClient.layer)))
  return {
    ok: (call) => Effect.runPromise(call(client)),
    fails: async (call) => {
      const exit = await Effect.runPromiseExit(call(client))
      if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value)}`)
      const failure = Cause.findErrorOption(exit.cause)
      if (failure._tag === "None") throw new Error(`expected a failure, got ${Cause.pretty(exit.cause)}`)
      return failure.value
    }
  }
}
