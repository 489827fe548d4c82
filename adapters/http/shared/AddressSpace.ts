/**
 * Address ranges as intervals of the one 128-bit IPv6 space (an IPv4 address as its IPv4-mapped
 * form `::ffff:a.b.c.d`, as `net.BlockList` matches it), so that a list of trusted proxy ranges can
 * be asked whether together they hold every address: then any client is "a proxy" and chooses its
 * own address (TrustProxy.ts refuses such a setting). `net.BlockList` answers only one address at
 * a time; written by hand (docs/internals/decisions.md, "Trusted proxies without `proxy-addr`").
 */
import { isIP } from "node:net"

export interface AddressRange {
  readonly start: bigint
  readonly end: bigint
}

const MAPPED_IPV4 = 0xffffn << 32n
const LAST = (1n << 128n) - 1n
const IPV4_BLOCK: AddressRange = { start: MAPPED_IPV4, end: MAPPED_IPV4 + 0xffffffffn }

const ipv4Number = (address: string): bigint => address.split(".").reduce((n, part) => (n << 8n) + BigInt(part), 0n)

/** An IPv6 address's number: the URL parser writes it in one form (hexadecimal groups, one `::`). */
const ipv6Number = (address: string): bigint => {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  const [head, tail] = canonical.split("::") as [string, string | undefined]
  const groups = (text: string | undefined) => (text === undefined || text === "" ? [] : text.split(":"))
  const left = groups(head)
  const right = groups(tail)
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
  return all.reduce((n, group) => (n << 16n) + BigInt(parseInt(group, 16)), 0n)
}

/** The addresses of `base/prefix` (a valid address and prefix of its version). */
export const rangeOf = (base: string, prefix: number): AddressRange => {
  const v4 = isIP(base) === 4
  const number = v4 ? MAPPED_IPV4 + ipv4Number(base) : ipv6Number(base)
  const size = 1n << BigInt(128 - (v4 ? 96 + prefix : prefix))
  const start = number - (number % size)
  return { start, end: start + size - 1n }
}

/** Whether the ranges together hold every address from `from` to `to`. */
const cover = (ranges: ReadonlyArray<AddressRange>, from: bigint, to: bigint): boolean => {
  let next = from
  for (const range of [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    if (range.start > next) return false
    if (range.end >= next) next = range.end + 1n
    if (next > to) return true
  }
  return next > to
}

/** Whether the ranges hold every IPv4 address, or every IPv6 address that is not an IPv4 one. */
export const coversEveryAddress = (ranges: ReadonlyArray<AddressRange>): boolean =>
  cover(ranges, IPV4_BLOCK.start, IPV4_BLOCK.end) ||
  (cover(ranges, 0n, IPV4_BLOCK.start - 1n) && cover(ranges, IPV4_BLOCK.end + 1n, LAST))
