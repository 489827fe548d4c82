/**
 * Which reverse proxies in front of this server are believed (FLAGPORT_TRUST_PROXY), and what
 * follows from it: the client's address (the per-address stream bounds count by it) and whether
 * `X-Forwarded-Proto` / `X-Forwarded-Host` give the origin of links handed out.
 *
 * The setting takes the forms Express's and Fastify's `trust proxy` take, so an operator used to
 * them knows it:
 * - `false` (default) or `0`: no proxy; the socket's address is the client, forwarded headers are ignored.
 * - a whole number N (`true` is 1): N proxies of yours stand in front; the client is the N-th
 *   address of `X-Forwarded-For` counted from the right (each proxy appends the address it was
 *   reached from, so the addresses a client writes itself are further left and never chosen).
 *   Unlike Express's `true` (every proxy trusted, the leftmost address taken, which a client
 *   chooses), Flagport's `true` is one proxy.
 * - addresses and CIDR ranges, comma-separated (`10.0.0.0/8, fd00::/8, 192.168.1.7`), and the
 *   names `loopback`, `linklocal`, `uniquelocal`: forwarded headers count only when the socket's
 *   peer is one of them, and the client is the rightmost `X-Forwarded-For` address that is not.
 *
 * A list that holds every address (`0.0.0.0/0`, `::/0`, or ranges that add up to them) is refused:
 * every request's sender would be "a proxy", so any client would choose its own address.
 *
 * Never on by default: without a proxy that overwrites or appends these headers, a client writes
 * whatever address it likes into them. An entry that is not an IP address (garbage, `unknown`,
 * an empty item) where an address is needed falls back to the socket's address.
 */
import { BlockList, isIP } from "node:net"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import { type AddressRange, coversEveryAddress, rangeOf } from "./AddressSpace.js"

export type TrustProxy =
  | { readonly _tag: "Off" }
  | { readonly _tag: "Hops"; readonly hops: number }
  | { readonly _tag: "Addresses"; readonly proxies: BlockList }

/** What code may pass instead of the variable: a boolean, a number of proxies, or the variable's text. */
export type TrustProxySetting = boolean | number | string | TrustProxy

export const TRUST_NONE: TrustProxy = { _tag: "Off" }

/** The ranges behind Express's (proxy-addr's) names. */
const PRESETS: Readonly<Record<string, ReadonlyArray<string>>> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]
}

const EXPECTED =
  "expected false, true, a number of proxies (1, 2, ...), or proxy addresses and CIDR ranges separated by commas (10.0.0.0/8, ::1, loopback, linklocal, uniquelocal)"

/** Why a list that holds every address (`0.0.0.0/0`, `::/0`, ...) is refused. */
const EVERY_ADDRESS = (text: string) =>
  `${JSON.stringify(text)} trusts every address, so any client could choose the address it is counted by: list your proxies' own addresses or ranges instead (such as 10.0.0.7, 10.0.0.0/24, loopback)`

/** Adds an entry to the list and its addresses to `ranges`; false when it is no address, range or name. */
const addRange = (list: BlockList, ranges: Array<AddressRange>, entry: string): boolean => {
  const preset = PRESETS[entry.toLowerCase()]
  if (preset !== undefined) return preset.every((range) => addRange(list, ranges, range))
  const [base, prefix, ...rest] = entry.split("/")
  if (rest.length > 0 || base === undefined) return false
  // Written as addresses only (no brackets, no port); BlockList matches IPv4-mapped IPv6 forms itself.
  const version = isIP(base)
  if (version === 0) return false
  const type = version === 4 ? "ipv4" : "ipv6"
  const bits = prefix === undefined ? (type === "ipv4" ? 32 : 128) : Number(prefix)
  if (prefix !== undefined && (!/^(0|[1-9][0-9]{0,2})$/.test(prefix) || bits > (type === "ipv4" ? 32 : 128))) return false
  if (prefix === undefined) list.addAddress(base, type)
  else list.addSubnet(base, bits, type)
  ranges.push(rangeOf(base, bits))
  return true
}

/** The variable's text as a setting, or why it is none. */
export const parseTrustProxy = (text: string): Either.Either<TrustProxy, string> => {
  const value = text.trim().toLowerCase()
  if (["", "false", "no", "off", "0"].includes(value)) return Either.right(TRUST_NONE)
  if (["true", "yes", "on"].includes(value)) return Either.right({ _tag: "Hops", hops: 1 })
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value)
    return hops <= 100 ? Either.right({ _tag: "Hops", hops }) : Either.left(`${EXPECTED}; ${hops} proxies is more than any chain has`)
  }
  const proxies = new BlockList()
  const ranges: Array<AddressRange> = []
  for (const entry of text.split(",").map((item) => item.trim())) {
    if (entry === "" || !addRange(proxies, ranges, entry)) return Either.left(`${EXPECTED}; ${JSON.stringify(entry)} is none of these`)
  }
  // Every address trusted: every request's sender is "a proxy", so any client writes its own address.
  if (coversEveryAddress(ranges)) return Either.left(EVERY_ADDRESS(text.trim()))
  return Either.right({ _tag: "Addresses", proxies })
}

/** A setting given in code, as the variable's would be; a malformed text throws (a start must not go on half-configured). */
export const trustProxyOf = (setting: TrustProxySetting): TrustProxy => {
  if (typeof setting === "object") return setting
  if (typeof setting === "boolean") return setting ? { _tag: "Hops", hops: 1 } : TRUST_NONE
  const parsed = parseTrustProxy(String(setting))
  if (Either.isLeft(parsed)) throw new Error(`trustProxy: ${parsed.left}`)
  return parsed.right
}

/** FLAGPORT_TRUST_PROXY (default false); a malformed value stops the start with the reason. */
export const trustProxyConfig: Config.Config<TrustProxy> = Config.string("FLAGPORT_TRUST_PROXY").pipe(
  Config.withDefault("false"),
  Config.mapOrFail((text) => Either.mapLeft(parseTrustProxy(text), (why) => ConfigError.InvalidData(["FLAGPORT_TRUST_PROXY"], why)))
)

/**
 * One address of a socket or of `X-Forwarded-For`, in one form (so the same client counts once),
 * or undefined when it is not an IP address. Takes what proxies write: `[v6]`, `[v6]:port`,
 * `v4:port`; IPv6 in its canonical form, and an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as
 * its IPv4 address.
 */
export const normalizeAddress = (text: string): string | undefined => {
  let address = text.trim()
  if (address.length > 64) return undefined
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address)
  if (bracketed !== null) address = bracketed[1]!
  else {
    const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(address)
    if (withPort !== null) address = withPort[1]!
  }
  const version = isIP(address)
  if (version === 4) return address
  if (version !== 6) return undefined
  // The URL parser writes an IPv6 address in its one canonical form (RFC 5952: lower case, the
  // longest run of zeros compressed); a zone (`%eth0`) it does not take is kept as written.
  const url = `http://[${address}]/`
  const canonical = URL.canParse(url) ? new URL(url).hostname.slice(1, -1) : address.toLowerCase()
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical)
  if (mapped === null) return canonical
  const high = parseInt(mapped[1]!, 16)
  const low = parseInt(mapped[2]!, 16)
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
}

const isProxy = (trust: TrustProxy, address: string | undefined): boolean => {
  if (trust._tag !== "Addresses" || address === undefined) return false
  return trust.proxies.check(address, isIP(address) === 4 ? "ipv4" : "ipv6")
}

/** Whether `X-Forwarded-Proto` / `X-Forwarded-Host` of a request from `socketAddress` are believed. */
export const forwardedHeadersTrusted = (trust: TrustProxy, socketAddress: string | undefined): boolean => {
  switch (trust._tag) {
    case "Off":
      return false
    case "Hops":
      return trust.hops > 0
    case "Addresses":
      return isProxy(trust, socketAddress === undefined ? undefined : normalizeAddress(socketAddress))
  }
}

/**
 * The client's address: the socket's, or behind trusted proxies the address the outermost of them
 * reports in `X-Forwarded-For` (several headers arrive joined by commas). Walks from the socket
 * leftwards through the header while the address at hand is a trusted proxy; an entry that is not
 * an address there gives the socket's address back. Undefined only when the socket's is unknown
 * (a web Request mounted without `remoteAddress`).
 */
export const clientAddress = (trust: TrustProxy, socketAddress: string | undefined, forwardedFor: string | undefined): string | undefined => {
  const socket = socketAddress === undefined ? undefined : normalizeAddress(socketAddress) ?? socketAddress
  if (trust._tag === "Off" || socket === undefined || forwardedFor === undefined) return socket
  const entries = forwardedFor.split(",")
  let current = socket
  for (let passed = 0; ; passed++) {
    const believed = trust._tag === "Hops" ? passed < trust.hops : isProxy(trust, current)
    if (!believed) return current
    const next = entries[entries.length - 1 - passed]
    // Out of addresses: the furthest one known is the client (as Express answers).
    if (next === undefined) return current
    const address = normalizeAddress(next)
    if (address === undefined) return socket
    current = address
  }
}
