import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "fast-check"
import { rememberedReads } from "../../adapters/sql/decoding/RememberedReads.js"
import { StorageError } from "../../src/ports/StorageError.js"

/**
 * Rows equal to last time's get last time's value; any other row is decoded (and may fail);
 * what is kept stays within its bound. The SQL side of it: test/adapters/MalformedRows.test.ts.
 */

type Row = { readonly key: string; readonly text: string }

const setup = (maxChars = 1_000) => {
  const decoded: Array<string> = []
  const reads = rememberedReads<{ readonly key: string; readonly parsed: unknown }>({
    columns: ["key", "text"],
    identity: (row) => row["key"],
    decode: (rows) =>
      Effect.try({
        try: () =>
          rows.map((row) => {
            decoded.push(String(row["key"]))
            return { key: String(row["key"]), parsed: JSON.parse(String(row["text"])) as unknown }
          }),
        catch: () => new StorageError({ message: "malformed" })
      }),
    maxChars
  })
  return { decoded, read: (scope: string, rows: ReadonlyArray<Row>) => Effect.runSync(Effect.either(reads(scope, rows))) }
}

const row = (key: string, value: unknown): Row => ({ key, text: JSON.stringify(value) })
const valueOf = <A>(either: { _tag: "Right"; right: A } | { _tag: "Left" }) => {
  if (either._tag !== "Right") throw new Error("expected a value")
  return either.right
}

describe("RememberedReads", () => {
  it("decodes only the rows that changed; the others keep their value, in the order read", () => {
    const { decoded, read } = setup()
    const first = valueOf(read("s", [row("a", 1), row("b", 2), row("c", 3)]))
    expect(decoded).toEqual(["a", "b", "c"])
    decoded.length = 0
    // New string objects with the same text are equal rows.
    const second = valueOf(read("s", [row("c", 3), row("a", 1), row("b", 20), row("d", 4)]))
    expect(decoded).toEqual(["b", "d"])
    expect(second.map((v) => v.parsed)).toEqual([3, 1, 20, 4])
    expect(second[0]).toBe(first[2])
    expect(second[1]).toBe(first[0])
    expect(second[2]).not.toBe(first[1])
  })

  it("rows in last time's places: the changed one is decoded, the others are last time's values", () => {
    const { decoded, read } = setup()
    const first = valueOf(read("s", [row("a", 1), row("b", 2), row("c", 3)]))
    decoded.length = 0
    const second = valueOf(read("s", [row("a", 1), row("b", 20), row("c", 3)]))
    expect(decoded).toEqual(["b"])
    expect(second.map((v) => v.parsed)).toEqual([1, 20, 3])
    expect(second[0]).toBe(first[0])
    expect(second[2]).toBe(first[2])
    decoded.length = 0
    // One row fewer at the front: every other row is found in its new place.
    const third = valueOf(read("s", [row("b", 20), row("c", 3)]))
    expect(decoded).toEqual([])
    expect(third).toEqual([second[1], second[2]])
    expect(third[0]).toBe(second[1])
  })

  it("a changed row that no longer decodes fails the read, and nothing of it is remembered", () => {
    const { decoded, read } = setup()
    read("s", [row("a", 1)])
    expect(read("s", [{ key: "a", text: "{broken" }])._tag).toBe("Left")
    expect(read("s", [{ key: "a", text: "{broken" }])._tag).toBe("Left")
    decoded.length = 0
    expect(valueOf(read("s", [row("a", 1)]))[0]?.parsed).toBe(1)
    expect(decoded).toEqual([])
  })

  it("scopes are apart: the same key in another scope is its own row", () => {
    const { decoded, read } = setup()
    read("p/production", [row("a", 1)])
    expect(valueOf(read("p/staging", [row("a", 2)]))[0]?.parsed).toBe(2)
    expect(decoded).toEqual(["a", "a"])
  })

  it("past its bound the least recently read scope is forgotten; a scope over the bound is never kept", () => {
    // Each row below is 1 + 40 characters: two scopes fit in 100, not three.
    const { decoded, read } = setup(100)
    const big = (key: string) => ({ key, text: JSON.stringify("x".repeat(38)) })
    const rows = (scope: string) => read(scope, [big("k")])
    expect(rows("one")._tag).toBe("Right")
    rows("two")
    rows("one") // "one" is now the most recent
    rows("three") // forgets "two"
    decoded.length = 0
    rows("one")
    rows("three")
    expect(decoded).toEqual([])
    rows("two")
    expect(decoded).toEqual(["k"])
    decoded.length = 0
    const huge = [{ key: "h", text: JSON.stringify("y".repeat(198)) }]
    expect(read("huge", huge)._tag).toBe("Right")
    expect(read("huge", huge)._tag).toBe("Right")
    expect(decoded).toEqual(["h", "h"])
  })

  it("answers every read as decoding all its rows would (the plain version), whatever was read before", () => {
    // A few keys and texts, some not JSON, read in any order into a few scopes, under a bound that
    // forgets: each answer (value or failure) is the one a decode of every row gives.
    const text = fc.constantFrom("1", "2", "[1,2]", "\"a\"", "{broken", "null", JSON.stringify("z".repeat(30)))
    const rowArb = fc.record({ key: fc.constantFrom("a", "b", "c", "d"), text })
    const readArb = fc.record({ scope: fc.constantFrom("p/production", "p/staging", "q/production"), rows: fc.uniqueArray(rowArb, { selector: (r) => r.key, maxLength: 4 }) })
    fc.assert(
      fc.property(fc.array(readArb, { maxLength: 30 }), fc.integer({ min: 0, max: 200 }), (reads, maxChars) => {
        const { read } = setup(maxChars)
        for (const { rows, scope } of reads) {
          const plainDecode = Either.try(() => rows.map((r) => ({ key: r.key, parsed: JSON.parse(r.text) as unknown })))
          const remembered = read(scope, rows.map((r) => ({ ...r })))
          expect(Either.isRight(remembered)).toBe(Either.isRight(plainDecode))
          if (Either.isRight(remembered) && Either.isRight(plainDecode)) expect(remembered.right).toEqual(plainDecode.right)
        }
      }),
      { numRuns: 300 }
    )
  })
})
