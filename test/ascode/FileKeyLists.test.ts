/**
 * The project file's key list references (FileKeyLists.ts) and the digest that decides whether a
 * stored list is what a file holds (KeyListDigest.ts): which lists a segment's `keys` describes
 * (both, the one it leaves out to be empty), what is refused with its path, and a digest that
 * ignores order and duplicates but not a changed key.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { exportedKeyLists, listReferences, withoutKeyLists } from "../../src/domain/ascode/FileKeyLists.js"
import { EMPTY_DIGEST, KeyListDigest } from "../../src/domain/evaluation/KeyListDigest.js"

const digestOf = (...parts: ReadonlyArray<ReadonlyArray<string>>) => {
  const digest = new KeyListDigest()
  for (const part of parts) digest.add(part)
  return digest.result()
}

describe("key list references in the project file", () => {
  it("a path is the included list's; an object names either; the list left out is to be empty; no keys, no lists", () => {
    const file = {
      project: { id: "p" },
      segments: [
        { key: "a", name: "A", conditions: [], keys: "./a.txt" },
        { key: "b", name: "B", conditions: [], keys: { excluded: "./b-out.csv" } },
        { key: "c", name: "C", conditions: [] }
      ]
    }
    expect(listReferences(file)).toEqual(Either.right([
      { segmentIndex: 0, segmentKey: "a", list: "included", path: "./a.txt" },
      { segmentIndex: 0, segmentKey: "a", list: "excluded", path: "" },
      { segmentIndex: 1, segmentKey: "b", list: "included", path: "" },
      { segmentIndex: 1, segmentKey: "b", list: "excluded", path: "./b-out.csv" }
    ]))
    expect(withoutKeyLists(file)).toEqual({ ...file, segments: file.segments.map(({ keys: _keys, ...rest }: { keys?: unknown }) => rest) })
  })

  it.each([
    ["an empty path", ""],
    ["a number", 3],
    ["an unknown list", { include: "./a.txt" }],
    ["a list's path not a string", { included: ["./a.txt"] }]
  ])("refuses %s with the segment's path", (_, keys) => {
    expect(listReferences({ segments: [{ key: "ok", name: "OK", conditions: [] }, { key: "x", name: "X", conditions: [], keys }] })).toEqual(
      Either.left([{ path: "segments[1].keys", message: "must be a file's path (the included list), or { included, excluded } with a path each" }])
    )
  })

  it("export names the non-empty lists: the short form for the included list alone", () => {
    expect(exportedKeyLists("beta", [])).toBeUndefined()
    expect(exportedKeyLists("beta", ["included"])).toBe("./beta.included.txt")
    expect(exportedKeyLists("beta", ["excluded"])).toEqual({ excluded: "./beta.excluded.txt" })
    expect(exportedKeyLists("beta", ["included", "excluded"])).toEqual({ included: "./beta.included.txt", excluded: "./beta.excluded.txt" })
  })
})

describe("the digest of a list", () => {
  const keys = Array.from({ length: 5_000 }, (_, i) => `user-${i}`)

  it("counts distinct keys and ignores their order, their duplicates and how they were fed", () => {
    const whole = digestOf(keys)
    expect(whole.count).toBe(5_000)
    expect(digestOf([...keys].reverse())).toEqual(whole)
    expect(digestOf(keys.slice(0, 1_234), keys.slice(1_000), ["user-7", "user-7"])).toEqual(whole)
    expect(digestOf([])).toEqual(EMPTY_DIGEST)
  })

  it("changes with one key changed, added or removed", () => {
    const whole = digestOf(keys)
    const changed = digestOf([...keys.slice(1), "user-x"])
    expect(changed.count).toBe(whole.count)
    expect(changed.digest).not.toBe(whole.digest)
    expect(digestOf(keys.slice(1))).not.toEqual(whole)
    expect(digestOf([...keys, "one-more"])).not.toEqual(whole)
  })
})
