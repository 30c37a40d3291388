/**
 * What the server may believe about the client: its address (rate limits) and the origin it
 * reached the server at (`filled_form_url`). Headers a proxy sets (`X-Forwarded-For`,
 * `-Host`, `-Proto`) are believed only with FORMWRIGHT_TRUST_PROXY=true, since without a proxy
 * that overwrites them, any client can send them.
 */
import { Context } from "effect"
import type { HttpServerRequest } from "effect/http"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { isIP } from "node:net"

/** Whether a reverse proxy in front of the server sets the `X-Forwarded-*` headers (FORMWRIGHT_TRUST_PROXY). */
export class TrustProxy extends Context.Reference<boolean>("@formwright/http-node/TrustProxy", {
  defaultValue: () => false
}) {}

const lastListEntry = (value: string | undefined) => value?.split(",").map((s) => s.trim()).filter((s) => s !== "").pop()

/**
 * The client's address: the peer of the connection, or, behind a trusted proxy, the last entry
 * of `X-Forwarded-For` (the one that proxy appended; earlier entries are the client's to forge).
 */
export const address = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  if (trustProxy) {
    const forwarded = lastListEntry(request.headers["x-forwarded-for"])
    if (forwarded !== undefined && isIP(forwarded.replace(/^\[|\]$/g, "")) !== 0) return forwarded
  }
  return request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown"
}

const hostLabel = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i

/** A syntactically valid `host[:port]`: a DNS name, an IPv4 address or a bracketed IPv6 one. */
export const isValidHost = (value: string): boolean => {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value)
  if (!match) return false
  const [, host, port] = match
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false
  if (host!.startsWith("[")) return isIP(host!.slice(1, -1)) === 6
  if (host!.length > 253) return false
  return isIP(host!) === 4 || host!.replace(/\.$/, "").split(".").every((label) => hostLabel.test(label))
}

/**
 * An origin (`http(s)://host[:port]`) from a setting: http or https, a host, and no path,
 * query, fragment or credentials. A trailing slash is allowed. Undefined when it is not one.
 */
export const parseOrigin = (value: string): string | undefined => {
  const url = URL.parse(value.trim())
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined
  if (url.host === "" || url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") return undefined
  if (url.pathname !== "/" && url.pathname !== "") return undefined
  return url.origin
}

/**
 * The origin the client reached the server at: the configured public URL when there is one;
 * else, behind a trusted proxy, `X-Forwarded-Proto` and `X-Forwarded-Host`; else `Host`. A
 * header that is not a plain host (or scheme) is ignored for the address the connection came in
 * on, so no request can make the server print a URL of another shape, such as `javascript:`.
 */
export const origin = (request: HttpServerRequest.HttpServerRequest, publicOrigin: string | undefined, trustProxy: boolean): string => {
  if (publicOrigin !== undefined) return publicOrigin
  const forwardedHost = trustProxy ? request.headers["x-forwarded-host"]?.split(",")[0]?.trim() : undefined
  const forwardedProto = trustProxy ? request.headers["x-forwarded-proto"]?.split(",")[0]?.trim().toLowerCase() : undefined
  const scheme = forwardedProto === "https" ? "https" : "http"
  const host = [forwardedHost, request.headers.host?.trim()].find((h) => h !== undefined && isValidHost(h))
  if (host !== undefined) return `${scheme}://${host.toLowerCase()}`
  const socket = NodeHttpServerRequest.toIncomingMessage(request).socket
  const local = socket.localAddress ?? "127.0.0.1"
  return `${scheme}://${isIP(local) === 6 ? `[${local}]` : local}:${socket.localPort ?? 80}`
}
