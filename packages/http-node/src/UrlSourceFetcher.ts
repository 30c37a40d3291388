/**
 * SourceFetcher adapter for `file_urls`, with the safety rules of contract.md: https (http only
 * when configured), a size limit, a timeout, redirects only within the same host, and never a
 * loopback, link-local or private address unless the host is allow-listed. The address check
 * happens in the socket's own DNS lookup, so a name cannot resolve differently after the check.
 */
import { Effect, Layer } from "effect"
import { SourceFetcher } from "@formwright/core"
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { BlockList, isIP } from "node:net"

export interface Options {
  readonly allowHttp: boolean
  /** Host names or IP addresses that may be private (tests, internal document stores). */
  readonly allowList: ReadonlyArray<string>
  readonly maxBytes: number
  readonly timeoutMs: number
}

const blocked = new BlockList()
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 3]
] as const) blocked.addSubnet(net, prefix, "ipv4")
for (const [net, prefix] of [["::", 127], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) blocked.addSubnet(net, prefix, "ipv6")

/** Whether an address is loopback, link-local, private or otherwise not on the public internet. */
export const isPrivateAddress = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return blocked.check(mapped[1]!, "ipv4")
  const family = isIP(address)
  if (family === 0) return true
  return blocked.check(address, family === 4 ? "ipv4" : "ipv6")
}

class FetchProblem extends Error {}

const get = (url: URL, options: Options): Promise<{ status: number; location?: string; type: string; bytes: Uint8Array }> =>
  new Promise((resolve, reject) => {
    const allowed = options.allowList.includes(url.hostname)
    const lookup = (hostname: string, opts: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) =>
      dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
        if (err) return callback(err, "")
        const list = addresses as Array<LookupAddress>
        const bad = list.find((a) => isPrivateAddress(a.address))
        if (bad && !allowed) return callback(new FetchProblem(`${hostname} resolves to a private address`), "")
        callback(null, list)
      })
    const client = url.protocol === "https:" ? https : http
    const request = client.get(url, { lookup: lookup as never, signal: AbortSignal.timeout(options.timeoutMs), headers: { accept: "*/*" } }, (response) => {
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400) {
        response.resume()
        return resolve({ status, location: response.headers.location ?? "", type: "", bytes: new Uint8Array() })
      }
      const declared = Number(response.headers["content-length"] ?? Number.NaN)
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        response.destroy()
        return reject(new FetchProblem(`the document is larger than ${options.maxBytes} bytes`))
      }
      const chunks: Array<Buffer> = []
      let size = 0
      response.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size > options.maxBytes) {
          response.destroy()
          reject(new FetchProblem(`the document is larger than ${options.maxBytes} bytes`))
        } else chunks.push(chunk)
      })
      response.on("end", () => resolve({ status, type: String(response.headers["content-type"] ?? "application/octet-stream"), bytes: new Uint8Array(Buffer.concat(chunks)) }))
      response.on("error", reject)
    })
    request.on("error", reject)
  })

const fetchUrl = (raw: string, options: Options) =>
  Effect.tryPromise({
    try: async () => {
      let url = new URL(raw)
      for (let hop = 0; hop <= 5; hop++) {
        if (url.protocol !== "https:" && !(options.allowHttp && url.protocol === "http:")) {
          throw new FetchProblem(options.allowHttp ? "only http and https URLs are fetched" : "only https URLs are fetched")
        }
        if (url.username || url.password) throw new FetchProblem("URLs with credentials are not fetched")
        if (isIP(url.hostname.replace(/^\[|\]$/g, "")) && isPrivateAddress(url.hostname.replace(/^\[|\]$/g, "")) && !options.allowList.includes(url.hostname)) {
          throw new FetchProblem("private addresses are not fetched")
        }
        const result = await get(url, options)
        if (result.location !== undefined) {
          const next = new URL(result.location, url)
          if (next.host !== url.host) throw new FetchProblem("it redirects to another host")
          url = next
          continue
        }
        if (result.status < 200 || result.status >= 300) throw new FetchProblem(`the server answered ${result.status}`)
        return { bytes: result.bytes, contentType: result.type }
      }
      throw new FetchProblem("too many redirects")
    },
    catch: (error) => {
      const reason = error instanceof FetchProblem ? error.message
        : (error as { name?: string }).name === "TimeoutError" || (error as { name?: string }).name === "AbortError" ? `no answer within ${options.timeoutMs} ms`
        : "it could not be reached"
      return new SourceFetcher.SourceFetchError({ url: raw, message: `Could not fetch ${raw}: ${reason}.` })
    }
  })

/** The fetcher with the given limits. */
export const layer = (options: Options): Layer.Layer<SourceFetcher.SourceFetcher> =>
  Layer.succeed(SourceFetcher.SourceFetcher, { fetch: (url) => fetchUrl(url, options) })
