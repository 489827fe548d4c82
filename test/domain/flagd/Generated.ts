/**
 * Random flagd flags over every construct the import supports, for the parity property: conditions
 * (`==` `===` `!=` `!==` with strings, numbers and booleans where each is supported, `in` as list
 * and as substring, `starts_with`, `ends_with`, `sem_ver` with every sign and lenient literals,
 * numeric comparisons including the between form, bare `var`, `!`, `!!`, `and`, `or`, literals),
 * nested `if` chains, `null` branches and `fractional` in its three bucketing forms. Rollouts serve
 * the variants f0..f2 only, and the other branches v0..v3 only, so a context that flagd buckets
 * cannot pass for one a fixed branch serves.
 */
import { FastCheck as fc } from "effect"
import { BOOLEAN_ATTRIBUTES, NUMBER_ATTRIBUTES, STRING_ATTRIBUTES, STRINGS } from "./Contexts.js"

const v = (name: string) => ({ var: name })
const pick = <T>(...values: ReadonlyArray<T>) => fc.constantFrom(...values)

const stringAttr = pick(...STRING_ATTRIBUTES, "targetingKey")
const numberAttr = pick(...NUMBER_ATTRIBUTES)
const anyAttr = pick(...STRING_ATTRIBUTES, ...NUMBER_ATTRIBUTES, ...BOOLEAN_ATTRIBUTES, "version", "targetingKey")
/** Strings loose `==` takes: not numbers, not empty. */
const wordLiteral = pick(...STRINGS.filter((s) => s !== "" && Number.isNaN(Number(s))), "user-1", "user-7")
const number = fc.oneof(fc.integer({ min: -3, max: 70 }), pick(17.5, 0, 18))
const versionLiteral = pick<unknown>("1.0.0", "2.0.0", "2.1.0", "3.0.0", "2.0.0-rc.1", "v2.0.0", "2", "2.1", 3, "1.0.0+build")
const semverSign = pick("=", "!=", "<", "<=", ">", ">=", "^", "~")

/** A literal on one side, the attribute on the other, in either order. */
const sides = (operator: string, attr: fc.Arbitrary<string>, literal: fc.Arbitrary<unknown>) =>
  fc.tuple(attr, literal, fc.boolean()).map(([a, l, flip]) => ({ [operator]: flip ? [l, v(a)] : [v(a), l] }))

const atom: fc.Arbitrary<unknown> = fc.oneof(
  sides("==", stringAttr, wordLiteral),
  sides("!=", stringAttr, wordLiteral),
  sides("===", stringAttr, pick(...STRINGS)),
  sides("===", numberAttr, number),
  sides("===", pick("beta"), fc.boolean()),
  sides("!==", anyAttr, fc.oneof(pick(...STRINGS), number, fc.boolean())),
  fc.tuple(stringAttr, fc.array(pick(...STRINGS, "user-3"), { minLength: 1, maxLength: 3 })).map(([a, list]) => ({ in: [v(a), list] })),
  fc.tuple(numberAttr, fc.array(number, { maxLength: 3 })).map(([a, list]) => ({ in: [v(a), list] })),
  fc.tuple(pick("@faas.com", "faas", "a", "xyz", "@"), stringAttr).map(([s, a]) => ({ in: [s, v(a)] })),
  fc.tuple(stringAttr, pick("a", "abc", "", "b@", "us")).map(([a, s]) => ({ starts_with: [v(a), s] })),
  fc.tuple(stringAttr, pick("xyz", ".com", "", "S", "m")).map(([a, s]) => ({ ends_with: [v(a), s] })),
  fc.tuple(semverSign, versionLiteral, fc.boolean()).map(([sign, l, flip]) => ({ sem_ver: flip ? [l, sign, v("version")] : [v("version"), sign, l] })),
  fc.tuple(pick("<", "<=", ">", ">="), numberAttr, number, fc.boolean()).map(([op, a, n, flip]) => ({ [op]: flip ? [n, v(a)] : [v(a), n] })),
  fc.tuple(pick("<", "<="), numberAttr, number, number).map(([op, a, low, high]) => ({ [op]: [low, v(a), high] })),
  anyAttr.map((a) => v(a)),
  fc.boolean()
)

const { condition } = fc.letrec<{ condition: unknown }>((tie) => ({
  condition: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    atom,
    fc.array(tie("condition"), { minLength: 1, maxLength: 2 }).map((list) => ({ and: list })),
    fc.array(tie("condition"), { minLength: 1, maxLength: 2 }).map((list) => ({ or: list })),
    tie("condition").map((c) => ({ "!": c })),
    tie("condition").map((c) => ({ "!": [c] })),
    tie("condition").map((c) => ({ "!!": [c] }))
  )
}))

const buckets = fc.array(fc.tuple(pick("f0", "f1", "f2"), fc.integer({ min: 0, max: 100 })), { minLength: 1, maxLength: 3 })
  .filter((list) => list.some(([, w]) => w > 0))

const fractional = fc.tuple(pick("key", "var", "cat"), pick("email", "country", "targetingKey"), buckets).map(([form, attr, list]) => ({
  fractional: form === "key" ? list : [form === "var" ? v(attr) : { cat: [v("$flagd.flagKey"), v(attr)] }, ...list]
}))

const { outcome } = fc.letrec<{ outcome: unknown }>((tie) => ({
  outcome: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: pick("v0", "v1", "v2", "v3", null) },
    { weight: 1, arbitrary: fractional },
    { weight: 2, arbitrary: fc.array(fc.tuple(condition, tie("outcome")), { minLength: 1, maxLength: 3 }).chain((pairs) =>
      fc.option(tie("outcome"), { nil: undefined }).map((otherwise) => ({ if: [...pairs.flat(), ...(otherwise === undefined ? [] : [otherwise])] }))) }
  )
}))

/** A one-flag flagd document named `generated`, whose targeting is an `if` chain. */
export const flagdDocument = fc.tuple(
  fc.array(fc.tuple(condition, outcome), { minLength: 1, maxLength: 3 }),
  fc.option(outcome, { nil: undefined }),
  pick("v0", "v1", "v2", "v3")
).map(([pairs, otherwise, defaultVariant]) => ({
  flags: {
    generated: {
      state: "ENABLED",
      variants: { v0: "V0", v1: "V1", v2: "V2", v3: "V3", f0: "F0", f1: "F1", f2: "F2" },
      defaultVariant,
      targeting: { if: [...pairs.flat(), ...(otherwise === undefined ? [] : [otherwise])] }
    }
  }
}))
