/**
 * The conversions between the backends' ways of storing a value (adapters/sql/transfer/ColumnKinds.ts),
 * and the plan that pairs the two schemas: every disagreement named, nothing copied by guess.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { commonKind, convert, kindOfDeclared } from "../../adapters/sql/transfer/ColumnKinds.js"
import { planCopy } from "../../adapters/sql/transfer/TransferChecks.js"
import type { Table } from "../../adapters/sql/transfer/TransferSchema.js"

describe("column kinds", () => {
  it.each([
    ["pg", "text", "text"],
    ["pg", "bigint", "integer"],
    ["pg", "integer", "integer"],
    ["pg", "boolean", "boolean"],
    ["pg", "double precision", "real"],
    ["pg", "real", undefined],
    ["pg", "jsonb", undefined],
    ["pg", "timestamp with time zone", undefined],
    ["sqlite", "TEXT", "text"],
    ["sqlite", "integer", "integer"],
    ["sqlite", "BIGINT", "integer"],
    ["sqlite", "REAL", "real"],
    ["sqlite", "DOUBLE PRECISION", "real"],
    ["sqlite", "NUMERIC", undefined]
  ] as const)("%s %s is %s", (dialect, declared, kind) => {
    expect(kindOfDeclared(dialect, declared)).toBe(kind)
  })

  it("a boolean on one side may be SQLite's integer on the other; text never becomes a number", () => {
    expect(commonKind("boolean", "integer")).toBe("boolean")
    expect(commonKind("integer", "boolean")).toBe("boolean")
    expect(commonKind("integer", "integer")).toBe("integer")
    expect(commonKind("text", "integer")).toBeUndefined()
    expect(commonKind("boolean", "text")).toBeUndefined()
  })

  it.each([
    ["boolean", 1, "pg", true],
    ["boolean", 0, "pg", false],
    ["boolean", true, "sqlite", 1],
    ["boolean", false, "sqlite", 0],
    ["boolean", true, "pg", true],
    ["integer", "42", "sqlite", 42],
    ["integer", "9007199254740993", "sqlite", 9007199254740993n],
    ["integer", "9007199254740993", "pg", "9007199254740993"],
    ["integer", 7, "pg", 7],
    ["integer", 9007199254740993n, "pg", "9007199254740993"],
    ["text", "{\"a\":[1,2]}", "pg", "{\"a\":[1,2]}"],
    ["text", null, "sqlite", null],
    ["real", 12.75, "pg", 12.75],
    ["real", -1e12, "sqlite", -1e12]
  ] as const)("%s %s to %s", (kind, value, target, expected) => {
    expect(convert(kind, value, target)).toEqual(expected)
  })

  it.each([
    ["boolean", 2],
    ["boolean", "true"],
    ["integer", 1.5],
    ["integer", "12abc"],
    ["text", 12],
    ["real", "12.5"],
    ["real", Number.NaN]
  ] as const)("%s %j is refused, not guessed", (kind, value) => {
    expect(() => convert(kind, value, "pg")).toThrow(/expected/)
  })
})

const table = (name: string, columns: ReadonlyArray<readonly [string, string, "pg" | "sqlite"]>): Table => ({
  name,
  columns: columns.map(([column, declared, dialect]) => ({ name: column, declared, kind: kindOfDeclared(dialect, declared) })),
  primaryKey: [columns[0]![0]],
  references: [],
  counter: undefined
})

describe("planCopy", () => {
  it("pairs each target column with the source's kind", () => {
    const plans = Effect.runSync(
      planCopy([table("flagport_a", [["id", "INTEGER", "sqlite"], ["on", "INTEGER", "sqlite"], ["v", "TEXT", "sqlite"]])], [
        table("flagport_a", [["id", "bigint", "pg"], ["on", "boolean", "pg"], ["v", "text", "pg"]])
      ])
    )
    expect(plans.map((plan) => plan.kinds)).toEqual([["integer", "boolean", "text"]])
  })

  it("lists every disagreement between the schemas in one refusal", () => {
    const outcome = Effect.runSync(
      Effect.either(
        planCopy(
          [table("flagport_a", [["id", "INTEGER", "sqlite"], ["gone", "TEXT", "sqlite"]]), table("flagport_old", [["id", "INTEGER", "sqlite"]])],
          [table("flagport_a", [["id", "text", "pg"], ["added", "jsonb", "pg"]]), table("flagport_new", [["id", "bigint", "pg"]])]
        )
      )
    )
    expect(Either.isLeft(outcome) ? outcome.left.message : "").toBe(
      "The source's and the target's schemas differ: table flagport_old exists only on the source; " +
        "column flagport_a.id: no conversion from INTEGER to text; column flagport_a.added exists only on the target; " +
        "column flagport_a.gone exists only on the source; table flagport_new exists only on the target"
    )
  })
})
