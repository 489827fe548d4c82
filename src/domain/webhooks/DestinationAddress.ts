/**
 * Which IP addresses a webhook may never be sent to, and which only when private destinations are
 * allowed (`FLAGPORT_WEBHOOK_BLOCK_PRIVATE`): one table, read at creation (an address written in
 * the URL), at delivery (the literal, and every address DNS answers, adapters/webhook-http) and by
 * the docs (docs/guide/webhooks.md lists the same rows).
 *
 * - `always`: link-local and cloud metadata addresses. Nothing legitimate listens there for a
 *   webhook, and what does (instance credentials) must never be reachable by whoever holds a
 *   project's key, whatever the setting. IPv6 forms that carry an IPv4 address inside (mapped,
 *   NAT64, 6to4, Teredo) are judged by that address too, so `::ffff:169.254.169.254` is refused.
 * - `private`: loopback, private networks and every other non-public range, refused only when
 *   blocking is on. Then the IPv6 forms that embed an IPv4 address are refused whole: whatever
 *   sits inside, a NAT64 or 6to4 relay may turn them into an internal IPv4 destination.
 */

export type Refused = "always" | "private"

export interface AddressRange {
  readonly cidr: string
  readonly what: string
  readonly refused: Refused
}

export const ADDRESS_RANGES: ReadonlyArray<AddressRange> = [
  { cidr: "169.254.0.0/16", what: "link-local (cloud metadata services)", refused: "always" },
  { cidr: "100.100.100.200/32", what: "a cloud metadata service (Alibaba Cloud)", refused: "always" },
  { cidr: "fe80::/10", what: "IPv6 link-local", refused: "always" },
  { cidr: "fd00:ec2::254/128", what: "a cloud metadata service (AWS, IPv6)", refused: "always" },
  { cidr: "0.0.0.0/8", what: "the 'this network' range", refused: "private" },
  { cidr: "10.0.0.0/8", what: "a private network (RFC 1918)", refused: "private" },
  { cidr: "100.64.0.0/10", what: "carrier-grade NAT", refused: "private" },
  { cidr: "127.0.0.0/8", what: "loopback", refused: "private" },
  { cidr: "172.16.0.0/12", what: "a private network (RFC 1918)", refused: "private" },
  { cidr: "192.0.0.0/24", what: "IETF protocol assignments", refused: "private" },
  { cidr: "192.168.0.0/16", what: "a private network (RFC 1918)", refused: "private" },
  { cidr: "198.18.0.0/15", what: "the benchmarking range", refused: "private" },
  { cidr: "224.0.0.0/3", what: "multicast, reserved or broadcast", refused: "private" },
  { cidr: "::/128", what: "the unspecified address", refused: "private" },
  { cidr: "::1/128", what: "loopback", refused: "private" },
  { cidr: "::/96", what: "an IPv4-compatible IPv6 address (deprecated)", refused: "private" },
  { cidr: "::ffff:0:0/96", what: "an IPv4-mapped IPv6 address", refused: "private" },
  { cidr: "64:ff9b::/96", what: "NAT64 (an IPv4 address inside)", refused: "private" },
  { cidr: "64:ff9b:1::/48", what: "local-use NAT64 (an IPv4 address inside)", refused: "private" },
  { cidr: "2002::/16", what: "6to4 (an IPv4 address inside)", refused: "private" },
  { cidr: "2001::/32", what: "Teredo (an IPv4 address inside)", refused: "private" },
  { cidr: "2001:db8::/32", what: "the documentation range", refused: "private" },
  { cidr: "fc00::/7", what: "a unique local IPv6 network", refused: "private" },
  { cidr: "fec0::/10", what: "site-local IPv6 (deprecated)", refused: "private" },
  { cidr: "ff00::/8", what: "IPv6 multicast", refused: "private" }
]

interface Address {
  readonly v6: boolean
  readonly value: bigint
}

const parseIPv4 = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n)
}

/** 128 bits of an IPv6 address (zone id dropped, IPv4 tail allowed). */
const parseIPv6 = (text: string): bigint | undefined => {
  let rest = text.split("%")[0] ?? ""
  const lastColon = rest.lastIndexOf(":")
  if (lastColon >= 0 && rest.slice(lastColon + 1).includes(".")) {
    const v4 = parseIPv4(rest.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    rest = `${rest.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const halves = rest.split("::")
  if (halves.length > 2) return undefined
  const groups = (s: string) => (s === "" ? [] : s.split(":"))
  const head = groups(halves[0]!)
  const back = halves.length === 2 ? groups(halves[1]!) : []
  const gap = halves.length === 2 ? 8 - head.length - back.length : 0
  if (halves.length === 2 && gap < 1) return undefined
  const words = [...head, ...Array<string>(gap).fill("0"), ...back]
  if (words.length !== 8 || !words.every((w) => /^[0-9a-fA-F]{1,4}$/.test(w))) return undefined
  return words.reduce((acc, w) => (acc << 16n) | BigInt(parseInt(w, 16)), 0n)
}

const parseAddress = (text: string): Address | undefined => {
  const v4 = parseIPv4(text)
  if (v4 !== undefined) return { v6: false, value: v4 }
  const v6 = parseIPv6(text)
  return v6 === undefined ? undefined : { v6: true, value: v6 }
}

interface Compiled extends AddressRange {
  readonly v6: boolean
  readonly base: bigint
  readonly mask: bigint
}

const COMPILED: ReadonlyArray<Compiled> = ADDRESS_RANGES.map((range) => {
  const [text, bitsText] = range.cidr.split("/") as [string, string]
  const address = parseAddress(text)!
  const width = address.v6 ? 128n : 32n
  const hostBits = width - BigInt(bitsText)
  const mask = ((1n << width) - 1n) ^ ((1n << hostBits) - 1n)
  return { ...range, v6: address.v6, base: address.value & mask, mask }
})

const matching = (address: Address): ReadonlyArray<Compiled> =>
  COMPILED.filter((range) => range.v6 === address.v6 && (address.value & range.mask) === range.base)

const bits = (value: bigint, from: number, count: number): bigint =>
  (value >> BigInt(128 - from - count)) & ((1n << BigInt(count)) - 1n)

/** The IPv4 addresses an IPv6 address carries, by the form its prefix says it has. */
const embeddedIPv4 = (v6: bigint): ReadonlyArray<bigint> => {
  const top96 = v6 >> 32n
  const low32 = v6 & 0xffffffffn
  if (top96 === 0xffffn || top96 === 0n || top96 === 0x0064ff9b0000000000000000n) return [low32] // mapped, compatible, NAT64 /96
  if (bits(v6, 0, 48) === 0x0064ff9b0001n) return [(bits(v6, 48, 16) << 16n) | bits(v6, 72, 16)] // RFC 6052 /48 layout
  if (bits(v6, 0, 16) === 0x2002n) return [bits(v6, 16, 32)] // 6to4
  if (bits(v6, 0, 32) === 0x20010000n) return [bits(v6, 32, 32), low32 ^ 0xffffffffn] // Teredo: server, client (obfuscated)
  return []
}

/** True when `text` is an IPv4 or IPv6 address (not a name). */
export const isIpAddress = (text: string): boolean => parseAddress(text) !== undefined

/** Why a destination address is refused, or undefined when it may be used. */
export interface Refusal {
  readonly address: string
  readonly what: string
  readonly refused: Refused
}

/**
 * The refusal of an IP address (v4 or v6 text) as a webhook destination, with private
 * destinations blocked or not; undefined when allowed. Text that is not an IP address is refused
 * (what cannot be classified is not sent to).
 */
export const refusalOf = (text: string, blockPrivate: boolean): Refusal | undefined => {
  const address = parseAddress(text)
  if (address === undefined) return { address: text, what: "not an IP address", refused: "always" }
  const candidates = [address, ...(address.v6 ? embeddedIPv4(address.value).map((value) => ({ v6: false, value })) : [])]
  for (const candidate of candidates) {
    const always = matching(candidate).find((range) => range.refused === "always")
    if (always !== undefined) return { address: text, what: always.what, refused: "always" }
  }
  if (!blockPrivate) return undefined
  const own = matching(address)[0]
  return own === undefined ? undefined : { address: text, what: own.what, refused: "private" }
}

/** The refusal as the delivery log and the creation error say it. */
export const describeRefusal = (refusal: Refusal): string =>
  refusal.refused === "always"
    ? `${refusal.address} is ${refusal.what}, never a webhook destination`
    : `${refusal.address} is ${refusal.what}, refused by FLAGPORT_WEBHOOK_BLOCK_PRIVATE`
