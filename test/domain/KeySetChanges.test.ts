/**
 * A list changed by hashes (what an SDK does with a delta) answers exactly as the list built from
 * the changed keys, and the list it was made from is left as it was.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { decodeKeyList, encodeKeyList } from "../../src/domain/evaluation/KeyListWire.js"
import { KeySet } from "../../src/domain/evaluation/KeySet.js"

const SALT = "seg-1/included"
// A small pool, so additions and removals hit present and absent keys and tables stay crowded.
const key = fc.integer({ min: 0, max: 200 }).map((n) => `user-${n}`)
const keys = fc.array(key, { maxLength: 150 })

describe("KeySet.withChanges", () => {
  it.prop("equals the list built from (base ∪ added) \\ removed; the base unchanged", [keys, keys, keys], ([base, added, removed]) => {
    const before = KeySet.fromKeys(SALT, base)
    const after = before.withChanges(KeySet.hashKeys(SALT, added), KeySet.hashKeys(SALT, removed))
    const expected = new Set(base)
    for (const k of added) expected.add(k)
    for (const k of removed) expected.delete(k)
    expect(after.size).toBe(expected.size)
    for (let n = 0; n <= 200; n++) {
      expect(after.has(`user-${n}`)).toBe(expected.has(`user-${n}`))
      expect(before.has(`user-${n}`)).toBe(base.includes(`user-${n}`))
    }
    expect(before.size).toBe(new Set(base).size)
  })

  it("removes from long probe runs that wrap around the table's end", () => {
    // 7 keys in a 16-slot table, removed one by one in every order's worst case: all of them.
    const all = Array.from({ length: 7 }, (_, i) => `k${i}`)
    let set = KeySet.fromKeys(SALT, all)
    for (const k of all) {
      set = set.withChanges(new Uint32Array(0), KeySet.hashKeys(SALT, [k]))
      expect(set.has(k)).toBe(false)
      for (const other of all.slice(all.indexOf(k) + 1)) expect(set.has(other)).toBe(true)
    }
    expect(set.size).toBe(0)
  })

  it("grows past half full", () => {
    const set = KeySet.fromKeys(SALT, ["a"]).withChanges(KeySet.hashKeys(SALT, Array.from({ length: 1000 }, (_, i) => `n${i}`)), new Uint32Array(0))
    expect(set.size).toBe(1001)
    expect(set.has("a") && set.has("n999") && !set.has("n1000")).toBe(true)
  })
})

describe("KeyListWire", () => {
  it.prop("a whole list and a change read back as written", [keys, keys], ([a, b]) => {
    const full = { kind: "full" as const, salt: "ü/excluded", version: 7, hashes: KeySet.hashKeys(SALT, a) }
    expect(decodeKeyList(encodeKeyList(full))).toEqual(full)
    const delta = { kind: "delta" as const, salt: SALT, version: 9, since: 7, added: KeySet.hashKeys(SALT, a), removed: KeySet.hashKeys(SALT, b) }
    expect(decodeKeyList(encodeKeyList(delta))).toEqual(delta)
  })

  it("a one-key change is a few dozen bytes; a truncated or foreign body is refused", () => {
    const bytes = encodeKeyList({ kind: "delta", salt: SALT, version: 2, since: 1, added: KeySet.hashKeys(SALT, ["x"]), removed: new Uint32Array(0) })
    expect(bytes.length).toBeLessThan(64)
    expect(decodeKeyList(bytes.subarray(0, bytes.length - 1))).toBe("the key list is truncated")
    const foreign = bytes.slice()
    foreign[5] = 99
    expect(decodeKeyList(foreign)).toMatch(/scheme 99/)
    expect(decodeKeyList(new TextEncoder().encode("<html>not a list at all, long enough</html>"))).toMatch(/layout/)
  })
})
