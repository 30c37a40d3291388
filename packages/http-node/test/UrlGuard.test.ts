/**
 * The address guard of `file_urls` (contract.md "Sessions": never loopback, link-local or private
 * addresses): every IPv6 spelling that reaches an IPv4 loopback, private or link-local address
 * is private too, and so are the IPv6 ranges that are not on the public internet.
 */
import { Effect } from "effect"
import { SourceFetcher } from "@formwright/core"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { isPrivateAddress, ipv6Words, layer } from "../src/UrlSourceFetcher.ts"

const privateAddresses: ReadonlyArray<[string, string]> = [
  ["127.0.0.1", "IPv4 loopback"],
  ["10.1.2.3", "RFC 1918"],
  ["172.31.255.255", "RFC 1918"],
  ["192.168.0.1", "RFC 1918"],
  ["169.254.169.254", "link-local (cloud metadata)"],
  ["100.64.0.1", "shared address space"],
  ["0.0.0.0", "this network"],
  ["224.0.0.1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["192.0.2.1", "documentation"],
  ["::1", "IPv6 loopback"],
  ["::", "unspecified"],
  ["::ffff:127.0.0.1", "IPv4-mapped, dotted"],
  ["::ffff:7f00:1", "IPv4-mapped, hex"],
  ["::ffff:a9fe:a9fe", "IPv4-mapped link-local"],
  ["::ffff:0:7f00:1", "IPv4-translated"],
  ["::7f00:1", "IPv4-compatible, hex"],
  ["::127.0.0.1", "IPv4-compatible, dotted"],
  ["::8.8.8.8", "IPv4-compatible (deprecated, never routed)"],
  ["64:ff9b::7f00:1", "NAT64 of loopback"],
  ["64:ff9b::10.0.0.1", "NAT64 of RFC 1918, dotted"],
  ["64:ff9b:1::1", "local-use NAT64"],
  ["2002:7f00:1::", "6to4 of loopback"],
  ["2002:c0a8:101::1", "6to4 of 192.168.1.1"],
  ["2001::1", "Teredo"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo, full form"],
  ["2001:db8::1", "documentation"],
  ["fec0::1", "site-local"],
  ["fc00::1", "unique-local"],
  ["fd12:3456:789a::1", "unique-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local with a zone"],
  ["febf::1", "link-local, top of the range"],
  ["ff02::1", "multicast"],
  ["100::1", "discard-only"],
  ["not-an-address", "not an IP address"],
  ["", "empty"]
]

const publicAddresses: ReadonlyArray<[string, string]> = [
  ["8.8.8.8", "public IPv4"],
  ["1.1.1.1", "public IPv4"],
  ["2606:4700:4700::1111", "public IPv6"],
  ["2a00:1450:4001::200e", "public IPv6"],
  ["::ffff:8.8.8.8", "IPv4-mapped public"],
  ["64:ff9b::808:808", "NAT64 of a public address (DNS64 networks)"],
  ["2002:808:808::1", "6to4 of a public address"]
]

describe("isPrivateAddress", () => {
  it.each(privateAddresses)("%s (%s) is private", (address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })

  it.each(publicAddresses)("%s (%s) is public", (address) => {
    expect(isPrivateAddress(address)).toBe(false)
  })

  it("expands IPv6 spellings to their eight words", () => {
    expect(ipv6Words("::7f00:1")).toEqual([0, 0, 0, 0, 0, 0, 0x7f00, 1])
    expect(ipv6Words("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1])
    expect(ipv6Words("2002:7f00:1::")).toEqual([0x2002, 0x7f00, 1, 0, 0, 0, 0, 0])
    expect(ipv6Words("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(ipv6Words("127.0.0.1")).toBeUndefined()
  })
})

describe("the fetcher refuses IPv6 literals that reach loopback", () => {
  it.each(["[::ffff:7f00:1]", "[::ffff:127.0.0.1]", "[::7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]"])("http://%s/", async (host) => {
    // A server on loopback that would answer, so only the guard stands in the way.
    const server = createServer((_, res) => res.end("name: x\n"))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const fetcher = layer({ allowHttp: true, allowList: [], maxBytes: 1024, timeoutMs: 2_000 })
      const result = await Effect.runPromise(
        Effect.flip(Effect.flatMap(Effect.service(SourceFetcher.SourceFetcher), (f) => f.fetch(`http://${host}:${port}/`))).pipe(
          Effect.provide(fetcher)
        )
      )
      expect(result.message).toMatch(/private addresses are not fetched/)
    } finally {
      server.close()
    }
  })
})
