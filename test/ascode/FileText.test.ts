import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { parseFile } from "../../src/domain/ascode/FileText.js"

/** Ten levels of anchors, each aliasing the one before ten times: 10^10 nodes if expanded. */
const aliasBomb = (): string => {
  const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
  for (let level = 1; level < 10; level++) {
    lines.push(`a${level}: &a${level} [${Array.from({ length: 10 }, () => `*a${level - 1}`).join(", ")}]`)
  }
  return `${lines.join("\n")}\n`
}

describe("parseFile", () => {
  it("reads YAML and JSON alike", () => {
    expect(parseFile("project:\n  id: shop\n")).toEqual(Either.right({ project: { id: "shop" } }))
    expect(parseFile('{"project": {"id": "shop"}}')).toEqual(Either.right({ project: { id: "shop" } }))
  })

  it("accepts a few aliases", () => {
    expect(parseFile("a: &v [1, 2]\nb: *v\n")).toEqual(Either.right({ a: [1, 2], b: [1, 2] }))
  })

  it("refuses an alias bomb as a problem of the file instead of throwing", () => {
    const parsed = parseFile(aliasBomb())
    expect(Either.isLeft(parsed)).toBe(true)
    expect(Either.getLeft(parsed).pipe((problems) => problems._tag === "Some" ? problems.value : [])).toEqual([
      { path: "", message: "too many aliases: a file may expand YAML aliases at most 100 times" }
    ])
  })

  it("gives syntax errors with their line and column", () => {
    const parsed = parseFile("project:\n  id: [shop\n")
    expect(Either.isLeft(parsed)).toBe(true)
  })

  it("refuses nesting past 64 levels at its path, block style included, and a parser's stack overflow alike", () => {
    const nested = (levels: number) => Array.from({ length: levels }, (_, i) => `${" ".repeat(i)}a:`).join("\n") + ` 1\n`
    expect(Either.isRight(parseFile(nested(64)))).toBe(true)
    expect(parseFile(nested(65))).toEqual(Either.left([{ path: `a${".a".repeat(63)}`, message: "arrays and objects nest deeper than 64 levels" }]))
    const overflowed = parseFile(nested(1000))
    expect(Either.isLeft(overflowed) && overflowed.left.every((p) => p.message.includes("nest deeper than 64 levels"))).toBe(true)
    expect(parseFile(`${"- ".repeat(2000)}x\n`)).toMatchObject({ _tag: "Left" })
  })
})
