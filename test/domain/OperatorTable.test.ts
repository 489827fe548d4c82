/**
 * The operator declaration drives the schema, validation, the compiler and the docs: these checks
 * fail when one of them lists a different set of operators or treats one differently.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import { docsTable, OPERATOR_NAMES, OPERATOR_TABLE } from "../../src/domain/conditions/OperatorTable.js"
import { Operator } from "../../src/domain/definitions/Targeting.js"
import { validateConditions } from "../../src/domain/definitions/ValidateConditions.js"
import { OPERATORS } from "../../src/domain/evaluation/Operators.js"

const docs = readFileSync(new URL("../../docs/guide/evaluation.md", import.meta.url), "utf8")

describe("operator table", () => {
  it("docs/guide/evaluation.md shows the declared table", () => {
    const block = /<!-- operator-table:start[^>]*-->\n([\s\S]*?)\n<!-- operator-table:end -->/.exec(docs)
    expect(block?.[1]).toBe(docsTable())
  })

  it("the schema accepts exactly the declared operators", () => {
    for (const name of OPERATOR_NAMES) expect(Schema.is(Operator)(name)).toBe(true)
    expect(Schema.is(Operator)("equals")).toBe(false)
  })

  it("the compiler implements every attribute operator and no other", () => {
    const attributeOperators = OPERATOR_NAMES.filter((name) => OPERATOR_TABLE[name].subject === "attribute")
    expect(Object.keys(OPERATORS).sort()).toEqual([...attributeOperators].sort())
  })

  it("validation follows the declared subject: an attribute for attribute operators, none for segment operators", () => {
    for (const name of OPERATOR_NAMES) {
      const { subject, values } = OPERATOR_TABLE[name]
      const sample = values === "none" ? [] : values === "segmentKey" ? ["beta"] : values === "semver" ? ["1.0.0"] : values === "number" || values === "date" ? [1] : ["a"]
      const withAttribute = validateConditions([{ attribute: "plan", operator: name, values: sample }], new Set(["beta"]))
      const withoutAttribute = validateConditions([{ operator: name, values: sample }], new Set(["beta"]))
      if (subject === "attribute") {
        expect(withAttribute).toEqual([])
        expect(withoutAttribute.map((p) => p.path)).toEqual(["conditions[0].attribute"])
      } else {
        expect(withoutAttribute).toEqual([])
        expect(withAttribute.map((p) => p.path)).toEqual(["conditions[0].attribute"])
      }
    }
  })
})
