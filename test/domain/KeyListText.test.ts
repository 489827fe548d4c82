/** The upload reader: lines and CSV fed in arbitrary pieces give the same keys as fed whole; every refusal says where. */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { KeyListReader, KeyListTextError, type KeyListFormat } from "../../src/domain/definitions/KeyListText.js"

const read = (format: KeyListFormat, pieces: ReadonlyArray<string>) => {
  const reader = new KeyListReader(format)
  const keys: Array<string> = []
  for (const piece of pieces) keys.push(...reader.push(piece))
  keys.push(...reader.end())
  return keys
}

const problemOf = (format: KeyListFormat, text: string) => {
  try {
    read(format, [text])
  } catch (e) {
    if (e instanceof KeyListTextError) return e.problem
    throw e
  }
  throw new Error("accepted")
}

/** Cuts a text at the given places. */
const cut = (text: string, at: ReadonlyArray<number>) => {
  const points = [...new Set(at.map((n) => n % (text.length + 1)))].sort((a, b) => a - b)
  return [0, ...points].map((from, i) => text.slice(from, points[i] ?? text.length))
}

const key = fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !/[\r\n]/.test(k))
const csvField = (k: string) => (/[",]/.test(k) || k.trim() !== k ? `"${k.replaceAll("\"", "\"\"")}"` : k)

describe("KeyListReader", () => {
  it("lines: one key a line, CRLF and LF, blank lines skipped, the last line without its newline", () => {
    expect(read("lines", ["a\r\nb\n\n", "c"])).toEqual(["a", "b", "c"])
  })

  it("lines and CSV read the same keys however the text is cut", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), (keys, at) => {
        const plain = keys
        const lines = plain.map((k) => `${k}\n`).join("")
        expect(read("lines", cut(lines, at))).toEqual(plain)
        const csv = `id,key\r\n${plain.map((k, i) => `${i},${csvField(k)}\r\n`).join("")}`
        expect(read("csv", cut(csv, at))).toEqual(plain)
      }),
      { numRuns: 200 }
    )
  })

  it("refuses with the line: a key too long, an unclosed quote, text after a closing quote, a row short of the key column, no header", () => {
    expect(problemOf("lines", `a\nb\n${"x".repeat(257)}\n`)).toEqual({ path: "line 3", message: "the key must be at most 256 characters" })
    expect(problemOf("csv", "key\nok\n\"open\nstill")).toEqual({ path: "line 3", message: "a quoted field is not closed" })
    expect(problemOf("csv", "key\n\"a\"b\n")).toEqual({ path: "line 2", message: "a quoted field must end at a comma or the end of the line" })
    expect(problemOf("csv", "name,key\nAda\n")).toEqual({ path: "line 2", message: "the row has no column 2 (the header's key column)" })
    expect(problemOf("csv", "")).toEqual({ path: "line 1", message: "a CSV upload starts with a header row (for example `key`)" })
  })

  it("refuses the 1,000,001st key sent, duplicates counted", () => {
    const reader = new KeyListReader("lines")
    const thousand = "same\n".repeat(1000)
    for (let i = 0; i < 1000; i++) reader.push(thousand)
    expect(reader.count).toBe(1_000_000)
    expect(() => reader.push("one-more\n")).toThrow("line 1000001: a list must have at most 1,000,000 keys")
  })

  it("CSV: an unclosed quote or a row of endless commas is refused at its line, not read into memory", () => {
    expect(problemOf("csv", `key\n"${"a".repeat(2_000)}`)).toEqual({ path: "line 2", message: "a field is far longer than any key" })
    expect(problemOf("csv", `key\n${",".repeat(5_000)}`)).toEqual({ path: "line 2", message: "a row may have at most 1,000 columns" })
  })
})
