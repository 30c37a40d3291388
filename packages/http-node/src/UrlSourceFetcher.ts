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

// IPv4 ranges that are not on the public internet: "this network", private (RFC 1918), shared
// (CGNAT), loopback, link-local, IETF protocol assignments, the documentation networks, the
// deprecated 6to4 relay, benchmarking, and multicast plus reserved (224/3, up to broadcast).
const blocked4 = new BlockList()
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16],
  ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 3]
] as const) blocked4.addSubnet(net, prefix, "ipv4")

// IPv6 ranges refused whatever follows the prefix. `::/96` holds the unspecified address,
// loopback and the deprecated IPv4-compatible form (`::127.0.0.1`), which nothing routes.
// Teredo (2001::/32) and local-use NAT64 (64:ff9b:1::/48) hide or translate the IPv4 address in
// ways this side cannot check, so they are refused outright.
const blocked6 = new BlockList()
for (const [net, prefix] of [
  ["::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 32], ["2001:db8::", 32],
  ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8]
] as const) blocked6.addSubnet(net, prefix, "ipv6")

/**
 * IPv6 forms that carry an IPv4 address, which reach that address: the word where it starts
 * after a fixed prefix of words. IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, and 6to4 `2002:AABB:CCDD::` (bits 16-48).
 */
const embeddings: ReadonlyArray<{ readonly prefix: ReadonlyArray<number>; readonly at: number }> = [
  { prefix: [0, 0, 0, 0, 0, 0xffff], at: 6 },
  { prefix: [0, 0, 0, 0, 0xffff, 0], at: 6 },
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], at: 6 },
  { prefix: [0x2002], at: 1 }
]

/** The eight 16-bit words of an IPv6 address (zone id ignored), or undefined if it is not one. */
export const ipv6Words = (address: string): ReadonlyArray<number> | undefined => {
  const text = address.replace(/%.*$/, "")
  if (isIP(text) !== 6) return undefined
  const parts = (half: string): Array<number> =>
    half === "" ? [] : half.split(":").flatMap((part) => {
      if (!part.includes(".")) return [parseInt(part, 16)]
      const [a, b, c, d] = part.split(".").map(Number) as [number, number, number, number]
      return [(a << 8) | b, (c << 8) | d]
    })
  const gap = text.indexOf("::")
  if (gap < 0) return parts(text)
  const head = parts(text.slice(0, gap))
  const tail = parts(text.slice(gap + 2))
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail]
}

/** Whether an address is loopback, link-local, private or otherwise not on the public internet. */
export const isPrivateAddress = (address: string): boolean => {
  const family = isIP(address.replace(/%.*$/, ""))
  if (family === 4) return blocked4.check(address, "ipv4")
  const words = family === 6 ? ipv6Words(address) : undefined
  // Not an IP address at all: nothing to connect to, so nothing is allowed.
  if (words === undefined) return true
  const text = words.map((w) => w.toString(16)).join(":")
  if (blocked6.check(text, "ipv6")) return true
  for (const { prefix, at } of embeddings) {
    if (prefix.every((word, i) => words[i] === word)) {
      const high = words[at]!
      const low = words[at + 1]!
      if (blocked4.check(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`, "ipv4")) return true
    }
  }
  return false
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
