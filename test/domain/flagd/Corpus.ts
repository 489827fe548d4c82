/**
 * Hand-written flagd definitions, modelled on the flagd project's sample file
 * (samples/example_flags.flagd.json) and its test bed (open-feature/flagd-testbed: custom-ops,
 * evaluator-refs, edge-case flags), restricted to the constructs the import carries over. The
 * refused constructs of those files have their own cases in Translate.test.ts.
 */
const onOff = { on: true, off: false }

export const SAMPLE = {
  $schema: "https://flagd.dev/schema/v0/flags.json",
  flags: {
    myBoolFlag: { state: "ENABLED", variants: onOff, defaultVariant: "on" },
    myStringFlag: { state: "ENABLED", variants: { key1: "val1", key2: "val2" }, defaultVariant: "key1" },
    myFloatFlag: { state: "ENABLED", variants: { one: 1.23, two: 2.34 }, defaultVariant: "one" },
    myObjectFlag: { state: "ENABLED", variants: { object1: { key: "val" }, object2: { key: true } }, defaultVariant: "object1" },
    isColorYellow: {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ "==": [{ var: ["color"] }, "yellow"] }, "on", "off"] }
    },
    fibAlgo: {
      state: "ENABLED",
      variants: { recursive: "recursive", memo: "memo", loop: "loop", binet: "binet" },
      defaultVariant: "recursive",
      targeting: { if: [{ $ref: "emailWithFaas" }, "binet", null] }
    },
    headerColor: {
      state: "ENABLED",
      variants: { red: "#FF0000", blue: "#0000FF", green: "#00FF00", yellow: "#FFFF00" },
      defaultVariant: "red",
      targeting: {
        if: [
          { $ref: "emailWithFaas" },
          { fractional: [{ cat: [{ var: "$flagd.flagKey" }, { var: "email" }] }, ["red", 25], ["blue", 25], ["green", 25], ["yellow", 25]] },
          null
        ]
      }
    }
  },
  $evaluators: { emailWithFaas: { in: ["@faas.com", { var: ["email"] }] } }
}

const cards = { clubs: "clubs", diamonds: "diamonds", hearts: "hearts", spades: "spades", wild: "wild" }
const versions = { equal: "equal", greater: "greater", lesser: "lesser", none: "none" }

export const TESTBED = {
  flags: {
    "fractional-by-key": {
      state: "ENABLED",
      variants: { heads: "heads", tails: "tails", draw: "draw" },
      defaultVariant: "draw",
      targeting: { fractional: [["heads"], ["tails", 1]] }
    },
    "fractional-single": {
      state: "ENABLED",
      variants: { single: "single", fallback: "fallback" },
      defaultVariant: "fallback",
      targeting: { fractional: [["single", 1]] }
    },
    "fractional-by-attribute": {
      state: "ENABLED",
      variants: cards,
      defaultVariant: "wild",
      targeting: { fractional: [{ var: "email" }, ["clubs", 25], ["diamonds", 25], ["hearts", 25], ["spades", 25]] }
    },
    "fractional-by-targeting-key-var": {
      state: "ENABLED",
      variants: { lower: "lower", upper: "upper" },
      defaultVariant: "lower",
      targeting: { fractional: [{ var: "targetingKey" }, ["lower", 50], ["upper", 50]] }
    },
    "fractional-negative-weight": {
      state: "ENABLED",
      variants: { one: "one", two: "two", fallback: "fallback" },
      defaultVariant: "fallback",
      targeting: { fractional: [{ var: "targetingKey" }, ["one", -50], ["two", 100]] }
    },
    "starts-ends": {
      state: "ENABLED",
      variants: { prefix: "prefix", postfix: "postfix", none: "none" },
      defaultVariant: "none",
      targeting: {
        if: [{ starts_with: [{ var: "id" }, "abc"] }, "prefix", { if: [{ ends_with: [{ var: "id" }, "xyz"] }, "postfix", "none"] }]
      }
    },
    "equal-greater-lesser-version": {
      state: "ENABLED",
      variants: versions,
      defaultVariant: "none",
      targeting: {
        if: [
          { sem_ver: [{ var: "version" }, "=", "2.0.0"] }, "equal",
          { sem_ver: [{ var: "version" }, ">", "2.0.0"] }, "greater",
          { sem_ver: [{ var: "version" }, "<", "2.0.0"] }, "lesser",
          "none"
        ]
      }
    },
    "major-minor-version": {
      state: "ENABLED",
      variants: { minor: "minor", major: "major", none: "none" },
      defaultVariant: "none",
      targeting: { if: [{ sem_ver: [{ var: "version" }, "~", "3.0.0"] }, "minor", { if: [{ sem_ver: [{ var: "version" }, "^", "3.0.0"] }, "major", "none"] }] }
    },
    "semver-v-prefix": {
      state: "ENABLED",
      variants: { match: "match", "no-match": "no-match" },
      defaultVariant: "no-match",
      targeting: { if: [{ sem_ver: [{ var: "version" }, "=", "v1.0.0"] }, "match", "no-match"] }
    },
    "semver-partial": {
      state: "ENABLED",
      variants: { match: "match", "no-match": "no-match" },
      defaultVariant: "no-match",
      targeting: { if: [{ sem_ver: [{ var: "version" }, "^", "1"] }, "match", "no-match"] }
    },
    "semver-partial-minor": {
      state: "ENABLED",
      variants: { match: "match", "no-match": "no-match" },
      defaultVariant: "no-match",
      targeting: { if: [{ sem_ver: [{ var: "version" }, ">", "1.1"] }, "match", "no-match"] }
    },
    "semver-build-metadata": {
      state: "ENABLED",
      variants: { match: "match", "no-match": "no-match" },
      defaultVariant: "no-match",
      targeting: { if: [{ sem_ver: [{ var: "version" }, "=", "1.0.0+build"] }, "match", "no-match"] }
    },
    "email-targeted": {
      state: "ENABLED",
      variants: { hi: "hi", bye: "bye", none: "none" },
      defaultVariant: "none",
      targeting: { if: [{ $ref: "is_ballmer" }, "hi", "bye"] }
    },
    "nested-ref": {
      state: "ENABLED",
      variants: { privileged: "privileged", standard: "standard", none: "none" },
      defaultVariant: "none",
      targeting: { if: [{ $ref: "is_privileged" }, "privileged", "standard"] }
    },
    "targeting-null-variant": { state: "ENABLED", variants: { one: 1, two: 2 }, defaultVariant: "two", targeting: { if: [true, null, "one"] } },
    "non-string-variant": { state: "ENABLED", variants: { false: 1, true: 2 }, defaultVariant: "false", targeting: { if: [true, true, false] } },
    "empty-targeting": { state: "ENABLED", variants: { false: 1, true: 2 }, defaultVariant: "false", targeting: {} },
    "starts-with-non-string": {
      state: "ENABLED",
      variants: { true: "true", false: "false", fallback: "fallback" },
      defaultVariant: "fallback",
      targeting: { if: [{ starts_with: [{ var: "age" }, "abc"] }, "true", "false"] }
    },
    "semver-on-a-string-attribute": {
      state: "ENABLED",
      variants: { true: "true", false: "false", fallback: "fallback" },
      defaultVariant: "fallback",
      targeting: { if: [{ sem_ver: [{ var: "email" }, "=", "1.0.0"] }, "true", "false"] }
    }
  },
  // is_privileged comes first: flagd-core substitutes the evaluators one after the other in file
  // order, so a reference to an evaluator defined earlier stays unresolved there (every evaluation
  // of the flag fails). The import resolves references in any order (Translate.test.ts).
  $evaluators: {
    is_privileged: { or: [{ $ref: "is_ballmer" }, { "==": ["admin", { var: ["role"] }] }] },
    is_ballmer: { "==": ["ballmer@macrosoft.com", { var: ["email"] }] }
  }
}

/** Everyday shapes: negations, absent attributes, numeric ranges, lists, combinations. */
export const EVERYDAY = {
  flags: {
    "not-in-country": {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ "!": { in: [{ var: "country" }, ["FR", "US"]] } }, "on", "off"] }
    },
    "adults-only": {
      state: "ENABLED",
      variants: { minor: "minor", adult: "adult", unknown: "unknown" },
      defaultVariant: "unknown",
      targeting: { if: [{ ">=": [{ var: "age" }, 18] }, "adult", { "<": [{ var: "age" }, 18] }, "minor", null] }
    },
    "working-age": {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ "<=": [18, { var: "age" }, 65] }, "on", "off"] }
    },
    "below-zero": {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ "<": [{ var: "score" }, 0] }, "on", { ">": [1, { var: "score" }] }, "off", "on"] }
    },
    "not-equal-plan": {
      state: "ENABLED",
      variants: { a: "a", b: "b", c: "c" },
      defaultVariant: "c",
      targeting: { if: [{ and: [{ "!=": [{ var: "plan" }, "free"] }, { "!==": [{ var: "beta" }, false] }] }, "a", { or: [{ var: "beta" }, { "===": [{ var: "age" }, 18] }] }, "b"] }
    },
    "truthy-attribute": {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ "!!": [{ var: "email" }] }, "on", "off"] }
    },
    "numeric-key": {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ "==": [{ var: "targetingKey" }, "7"] }, "on", { "!=": ["user-7", { var: "targetingKey" }] }, "off", "on"] }
    },
    "key-list": {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ in: [{ var: "targetingKey" }, ["user-1", "user-2", "user-3"]] }, "on", "off"] }
    },
    "nested-negations": {
      state: "ENABLED",
      variants: { x: 1, y: 2, z: 3 },
      defaultVariant: "z",
      targeting: {
        if: [
          { "!": { or: [{ "!": { starts_with: [{ var: "email" }, "a"] } }, { "<": [{ var: "age" }, 30] }] } }, "x",
          { "!": [{ sem_ver: [{ var: "version" }, ">=", "2.1"] }] }, "y"
        ]
      }
    },
    "rollout-for-pros": {
      state: "ENABLED",
      variants: { control: "control", treatment: "treatment", off: "off" },
      defaultVariant: "off",
      targeting: { if: [{ "===": [{ var: "plan" }, "pro"] }, { fractional: [["control", 50], ["treatment", 50]] }, "off"] }
    },
    "semver-not-equal": {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ sem_ver: ["2.0.0", "!=", { var: "version" }] }, "on", "off"] }
    },
    "semver-flipped": {
      state: "ENABLED",
      variants: onOff,
      defaultVariant: "off",
      targeting: { if: [{ sem_ver: ["2.0.0", "<=", { var: "version" }] }, "on", "off"] }
    }
  }
}

export const CORPUS = [SAMPLE, TESTBED, EVERYDAY] as const
