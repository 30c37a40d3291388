/**
 * A real local HTTP receiver for webhook deliveries, and a poll-until helper, shared by the
 * PostgreSQL integration tests.
 */
import { Webhooks } from "@formwright/core"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

export interface Delivery {
  /** The delivery (event) id header. */
  readonly delivery: string
  readonly body: string
  readonly headers: Http.IncomingHttpHeaders
}

/**
 * Starts a receiver on loopback; `answer` picks each request's status (undefined: never answer,
 * as a receiver that hangs), given every delivery so far.
 */
export const start = async (answer: (received: ReadonlyArray<Delivery>) => number | undefined = () => 200) => {
  const received: Array<Delivery> = []
  const http = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ delivery: String(request.headers[Webhooks.headers.delivery]), body: Buffer.concat(chunks).toString("utf8"), headers: request.headers })
      const status = answer(received)
      if (status !== undefined) response.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`,
    received,
    close: () => {
      http.closeAllConnections()
      http.close()
    }
  }
}

/** Polls `check` until it holds, failing after `timeoutMs` with what was awaited. */
export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
