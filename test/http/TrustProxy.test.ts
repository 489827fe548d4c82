/**
 * FLAGPORT_TRUST_PROXY (adapters/http/shared/TrustProxy.ts): the forms it takes (Express's), the
 * client address it yields from the socket and X-Forwarded-For, and when forwarded headers are
 * believed. Table-driven, plus properties: whatever a client writes into X-Forwarded-For itself
 * never becomes its address behind proxies that append, and without the setting the header is
 * never read.
 */
import * as Either from "effect/Either"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  clientAddress,
  forwardedHeadersTrusted,
  normalizeAddress,
  parseTrustProxy,
  type TrustProxy,
  trustProxyOf
} from "../../adapters/http/shared/TrustProxy.js"

const trust = (text: string): TrustProxy => Either.getOrThrow(parseTrustProxy(text))

describe("parseTrustProxy", () => {
  it.each([
    ["", "Off"],
    ["false", "Off"],
    ["0", "Off"],
    ["off", "Off"],
    ["true", "Hops:1"],
    ["TRUE", "Hops:1"],
    ["1", "Hops:1"],
    ["2", "Hops:2"],
    [" 3 ", "Hops:3"],
    ["10.0.0.0/8", "Addresses"],
    ["10.0.0.0/8, fd00::/8 ,192.168.1.7", "Addresses"],
    ["loopback,uniquelocal", "Addresses"],
    ["LinkLocal", "Addresses"],
    ["::1", "Addresses"],
    ["0.0.0.0/1, 192.0.0.0/2", "Addresses"],
    ["8000::/1", "Addresses"]
  ])("%j is %s", (text, expected) => {
    const parsed = trust(text)
    expect(parsed._tag === "Hops" ? `Hops:${parsed.hops}` : parsed._tag).toBe(expected)
  })

  it.each(["maybe", "10.0.0.0/33", "fd00::/129", "10.0.0.0/8,", ",10.0.0.1", "300.1.1.1", "-1", "1.5", "101", "[::1]", "10.0.0.1:80", "10.0.0.0/8/8", "10.0.0.0/x", "10.0.0.0/", "localhost"])(
    "%j is refused, with what it takes",
    (text) => {
      const parsed = parseTrustProxy(text)
      expect(Either.isLeft(parsed)).toBe(true)
      expect(Either.isLeft(parsed) && parsed.left).toMatch(/^expected false, true, a number of proxies \(1, 2, \.\.\.\), or proxy addresses and CIDR ranges/)
    }
  )

  // Every address trusted: every sender is "a proxy", so any client would choose its own address.
  it.each(["0.0.0.0/0", "::/0", "10.0.0.0/8, 0.0.0.0/0", "1.2.3.4/0", "0.0.0.0/1, 128.0.0.0/1", "::ffff:0:0/96", "::/1, 8000::/1", "::/0, loopback"])(
    "%j is refused: it trusts every address",
    (text) => {
      const parsed = parseTrustProxy(text)
      expect(Either.isLeft(parsed) && parsed.left).toBe(`${JSON.stringify(text)} trusts every address, so any client could choose the address it is counted by: list your proxies' own addresses or ranges instead (such as 10.0.0.7, 10.0.0.0/24, loopback)`)
    }
  )

  it("a setting in code: booleans and numbers as the variable's text; a malformed text throws", () => {
    expect(trustProxyOf(false)._tag).toBe("Off")
    expect(trustProxyOf(true)).toEqual({ _tag: "Hops", hops: 1 })
    expect(trustProxyOf(2)).toEqual({ _tag: "Hops", hops: 2 })
    expect(trustProxyOf("loopback")._tag).toBe("Addresses")
    expect(() => trustProxyOf("10.0.0.0/99")).toThrow(/^trustProxy: expected false/)
  })
})

describe("normalizeAddress", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    [" 203.0.113.9 ", "203.0.113.9"],
    ["203.0.113.9:4711", "203.0.113.9"],
    ["2001:DB8::1", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["::FFFF:203.0.113.9", "203.0.113.9"],
    ["::ffff:cb00:7109", "203.0.113.9"],
    ["2001:db8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:0DB8::0001", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1%eth0"],
    ["::1", "::1"],
    ["", undefined],
    ["unknown", undefined],
    ["garbage", undefined],
    ["203.0.113", undefined],
    ["203.0.113.256", undefined],
    ["2001:db8::1:443", "2001:db8::1:443"],
    ["[2001:db8::1", undefined],
    ["1.2.3.4:99999999", undefined],
    ["_hidden", undefined],
    ["a".repeat(100), undefined]
  ])("%j is %j", (text, expected) => {
    expect(normalizeAddress(text)).toBe(expected)
  })
})

describe("clientAddress", () => {
  const PROXY = "10.0.0.1"
  it.each<[setting: string, socket: string | undefined, forwardedFor: string | undefined, expected: string | undefined]>([
    // Off: the header is never read.
    ["false", PROXY, "203.0.113.9", PROXY],
    ["false", "::ffff:127.0.0.1", "203.0.113.9", "127.0.0.1"],
    ["false", undefined, "203.0.113.9", undefined],
    // One proxy (true, 1): the last address, the one the proxy appended.
    ["true", PROXY, "203.0.113.9", "203.0.113.9"],
    ["1", PROXY, "6.6.6.6, 203.0.113.9", "203.0.113.9"],
    ["1", PROXY, " 6.6.6.6 ,   203.0.113.9  ", "203.0.113.9"],
    ["1", PROXY, "6.6.6.6,203.0.113.9", "203.0.113.9"],
    ["1", PROXY, undefined, PROXY],
    ["1", PROXY, "", PROXY],
    ["1", PROXY, "garbage", PROXY],
    ["1", PROXY, "unknown", PROXY],
    ["1", PROXY, "203.0.113.9, ", PROXY],
    ["1", PROXY, "203.0.113.9:4711", "203.0.113.9"],
    ["1", PROXY, "[2001:db8::9]:443", "2001:db8::9"],
    ["1", PROXY, "2001:DB8::9", "2001:db8::9"],
    ["1", PROXY, "::ffff:203.0.113.9", "203.0.113.9"],
    ["1", undefined, "203.0.113.9", undefined],
    // Two proxies: the second address from the right; fewer addresses: the furthest known.
    ["2", PROXY, "6.6.6.6, 203.0.113.9, 10.0.0.2", "203.0.113.9"],
    ["2", PROXY, "203.0.113.9", "203.0.113.9"],
    ["2", PROXY, "garbage, 10.0.0.2", PROXY],
    // Addresses: only from a listed proxy, through every listed proxy, to the first other address.
    ["10.0.0.0/8", PROXY, "6.6.6.6, 203.0.113.9", "203.0.113.9"],
    ["10.0.0.0/8", PROXY, "6.6.6.6, 203.0.113.9, 10.0.0.7, 10.3.0.1", "203.0.113.9"],
    ["10.0.0.0/8", "::ffff:10.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["10.0.0.0/8", "192.0.2.1", "203.0.113.9", "192.0.2.1"],
    ["10.0.0.0/8", PROXY, "10.0.0.5, 10.0.0.7", "10.0.0.5"],
    ["10.0.0.0/8", PROXY, "203.0.113.9, garbage", PROXY],
    ["loopback", "::1", "2001:db8::9", "2001:db8::9"],
    ["loopback", "127.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["uniquelocal", "fd12::1", "203.0.113.9", "203.0.113.9"],
    ["192.168.1.7", "192.168.1.8", "203.0.113.9", "192.168.1.8"]
  ])("%s, socket %j, X-Forwarded-For %j: %j", (setting, socket, forwardedFor, expected) => {
    expect(clientAddress(trust(setting), socket, forwardedFor)).toBe(expected)
  })

  const ip = fc.oneof(fc.ipV4(), fc.ipV6())
  const forged = fc.array(fc.oneof(fc.string(), ip), { maxLength: 5 })

  it("behind N proxies that append, the client is the address the outermost one wrote, whatever the client wrote before", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), ip, forged, fc.array(fc.ipV4(), { minLength: 4, maxLength: 4 }), (hops, client, written, proxies) => {
        // The outermost proxy appends the client's address, each next one the previous proxy's.
        const chain = [...written, client, ...proxies.slice(0, hops - 1)]
        const socket = proxies[hops - 1]!
        expect(clientAddress({ _tag: "Hops", hops }, socket, chain.join(", "))).toBe(normalizeAddress(client))
      })
    )
  })

  it("behind listed proxies, the client is the first address from the right that is not one of them", () => {
    const inside = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })).map(([a, b, c]) => `10.${a}.${b}.${c}`)
    const outside = fc.ipV4().filter((address) => !address.startsWith("10."))
    fc.assert(
      fc.property(outside, forged, fc.array(inside, { maxLength: 3 }), inside, (client, written, between, socket) => {
        const header = [...written, client, ...between].join(",")
        expect(clientAddress(trust("10.0.0.0/8"), socket, header)).toBe(client)
        // The same header from an address that is no proxy of ours is not believed.
        expect(clientAddress(trust("10.0.0.0/8"), client, header)).toBe(client)
      })
    )
  })

  it("without the setting, any header gives the socket's address", () => {
    fc.assert(fc.property(ip, fc.string(), (socket, header) => {
      expect(clientAddress(trust("false"), socket, header)).toBe(normalizeAddress(socket))
    }))
  })
})

describe("forwardedHeadersTrusted", () => {
  it.each<[string, string | undefined, boolean]>([
    ["false", "10.0.0.1", false],
    ["true", "10.0.0.1", true],
    ["2", undefined, true],
    ["10.0.0.0/8", "10.0.0.1", true],
    ["10.0.0.0/8", "::ffff:10.0.0.1", true],
    ["10.0.0.0/8", "192.0.2.1", false],
    ["10.0.0.0/8", undefined, false]
  ])("%s, socket %j: %s", (setting, socket, expected) => {
    expect(forwardedHeadersTrusted(trust(setting), socket)).toBe(expected)
  })
})
