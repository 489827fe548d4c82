/**
 * The API key cache under hostile input: over-long tokens are unknown without a lookup and leave
 * no entry, a flood of made-up tokens never pushes out a real key, and a revoked key is dropped at
 * once (also when its lookup was still in flight).
 */
import { describe, expect, it } from "@effect/vitest"
import { KeyCache, MAX_TOKEN_LENGTH } from "../../adapters/http/shared/KeyCache.js"
import type { ApiKey } from "../../src/domain/auth/ApiKey.js"

describe("KeyCache: over-long tokens", () => {
  it("are unknown without a lookup and leave no entry; short unknown tokens are cached", async () => {
    let loads = 0
    const cache = new KeyCache(() => {
      loads++
      return Promise.resolve(null)
    })
    for (let i = 0; i < 1_000; i++) expect(cache.lookup(`srv_${i}${"x".repeat(MAX_TOKEN_LENGTH)}`)).toBeNull()
    expect(loads).toBe(0)
    expect(cache.size).toBe(0)
    expect(await cache.lookup(`srv_${"x".repeat(MAX_TOKEN_LENGTH - 4)}`)).toBeNull() // exactly the maximum: looked up
    expect(loads).toBe(1)
    expect(cache.size).toBe(1)
    expect(cache.lookup(`srv_${"x".repeat(MAX_TOKEN_LENGTH - 4)}`)).toBeNull() // cached, synchronous
    expect(loads).toBe(1)
  })
})

describe("KeyCache: a flood of made-up tokens", () => {
  it("keeps unknown tokens within their own bound and never pushes out a real key", async () => {
    const realKey = { id: "k1" } as unknown as ApiKey
    const loads = new Map<string, number>()
    const cache = new KeyCache(
      (token) => {
        loads.set(token, (loads.get(token) ?? 0) + 1)
        return Promise.resolve(token === "srv_real" ? realKey : null)
      },
      { ttlMs: 60_000, maxEntries: 500, maxUnknown: 100 }
    )
    expect(await cache.lookup("srv_real")).toBe(realKey)
    for (let i = 0; i < 20_000; i++) {
      await cache.lookup(`srv_madeup_${i}`)
      // The real client keeps being answered from the cache, synchronously.
      if (i % 1_000 === 0) expect(cache.lookup("srv_real")).toBe(realKey)
    }
    expect(loads.get("srv_real")).toBe(1)
    expect(cache.unknownSize).toBeLessThanOrEqual(100)
    expect(cache.size).toBeLessThanOrEqual(101)
    // The newest unknown token is still cached (no second lookup); the oldest were dropped.
    expect(cache.lookup("srv_madeup_19999")).toBeNull()
    expect(loads.get("srv_madeup_19999")).toBe(1)
    await cache.lookup("srv_madeup_0")
    expect(loads.get("srv_madeup_0")).toBe(2)
  })

  it("a concurrent burst (lookups still in flight) does not push out a real key either", async () => {
    const realKey = { id: "k1" } as unknown as ApiKey
    const unresolved: Array<() => void> = []
    let realLoads = 0
    const cache = new KeyCache(
      (token) => {
        if (token === "srv_real") {
          realLoads++
          return Promise.resolve(realKey)
        }
        // Made-up tokens: the database answers only after the whole burst has arrived.
        return new Promise((resolve) => unresolved.push(() => resolve(null)))
      },
      { ttlMs: 60_000, maxEntries: 5, maxUnknown: 3 }
    )
    expect(await cache.lookup("srv_real")).toBe(realKey)
    const burst = Array.from({ length: 50 }, (_, i) => cache.lookup(`srv_madeup_${i}`))
    expect(cache.lookup("srv_real")).toBe(realKey) // still a synchronous hit mid-burst
    expect(cache.unknownSize).toBeLessThanOrEqual(3)
    expect(cache.size).toBeLessThanOrEqual(4)
    unresolved.forEach((resolve) => resolve())
    expect(await Promise.all(burst)).toEqual(Array.from({ length: 50 }, () => null)) // every request still answered
    expect(cache.lookup("srv_real")).toBe(realKey)
    expect(realLoads).toBe(1)
  })

  it("when real keys alone fill the cache, the oldest one goes (and is looked up again when used)", async () => {
    let loads = 0
    const cache = new KeyCache(
      (token) => {
        loads++
        return Promise.resolve({ id: token } as unknown as ApiKey)
      },
      { ttlMs: 60_000, maxEntries: 3 }
    )
    for (const token of ["srv_a", "srv_b", "srv_c", "srv_d"]) await cache.lookup(token)
    expect(cache.size).toBe(3)
    expect(loads).toBe(4)
    await cache.lookup("srv_d") // still cached
    expect(loads).toBe(4)
    await cache.lookup("srv_a") // dropped as the oldest
    expect(loads).toBe(5)
  })
})

describe("KeyCache: a revoked key", () => {
  const key = (id: string): ApiKey => ({
    id,
    type: "client",
    projectId: "p1",
    environment: null,
    name: id,
    prefix: "cli_xxxx",
    createdAt: "2026-01-01T00:00:00.000Z",
    createdBy: null,
    lastUsedAt: null,
    revokedAt: null
  })

  it("is dropped at once (the TTL is an hour), other keys stay cached", async () => {
    const revokedIds = new Set<string>()
    let lookups = 0
    const cache = new KeyCache(
      (token) => {
        lookups++
        return Promise.resolve(revokedIds.has(token) ? null : key(token))
      },
      { ttlMs: 3_600_000 }
    )
    expect(await cache.lookup("a")).toEqual(key("a"))
    expect(await cache.lookup("b")).toEqual(key("b"))
    revokedIds.add("a")
    cache.revoked("a")
    expect(await cache.lookup("a")).toBeNull()
    expect(cache.lookup("b")).toEqual(key("b")) // still cached: answered synchronously
    expect(lookups).toBe(3)
  })

  it("a lookup in flight when the key is revoked answers its request but is not kept", async () => {
    let answer: ApiKey | null = key("a")
    let lookups = 0
    const cache = new KeyCache(
      () => {
        lookups++
        const found = answer
        return new Promise<ApiKey | null>((resolve) => setTimeout(() => resolve(found), 10))
      },
      { ttlMs: 3_600_000 }
    )
    const inFlight = cache.lookup("a")
    answer = null
    cache.revoked("a")
    expect(await inFlight).toEqual(key("a"))
    expect(await cache.lookup("a")).toBeNull()
    expect(lookups).toBe(2)
  })
})
