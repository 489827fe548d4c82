/**
 * A project file using every condition operator, segments (used by rules with inSegment and
 * notInSegment), rollouts (with bucketBy and seed), prerequisites, a protected environment and
 * every flag type: the round trip's subject.
 */
import { OPERATOR_NAMES } from "../../src/domain/conditions/OperatorTable.js"

/** A value of the right kind for each operator (segment operators name the file's segments). */
export const CONDITION_OF: Record<(typeof OPERATOR_NAMES)[number], Record<string, unknown>> = {
  in: { attribute: "country", operator: "in", values: ["FR", "DE"] },
  notIn: { attribute: "country", operator: "notIn", values: ["US"] },
  contains: { attribute: "email", operator: "contains", values: ["@example"] },
  startsWith: { attribute: "email", operator: "startsWith", values: ["a", "b"] },
  endsWith: { attribute: "email", operator: "endsWith", values: [".com"] },
  matches: { attribute: "email", operator: "matches", values: ["^[a-m]"] },
  lt: { attribute: "age", operator: "lt", values: [30] },
  lte: { attribute: "age", operator: "lte", values: [40] },
  gt: { attribute: "age", operator: "gt", values: [20] },
  gte: { attribute: "age", operator: "gte", values: [50] },
  before: { attribute: "signup", operator: "before", values: ["2025-01-01T00:00:00Z"] },
  after: { attribute: "signup", operator: "after", values: ["2024-01-01T00:00:00Z"] },
  semverEq: { attribute: "version", operator: "semverEq", values: ["1.2.3"] },
  semverLt: { attribute: "version", operator: "semverLt", values: ["2.0.0"] },
  semverGt: { attribute: "version", operator: "semverGt", values: ["1.0.0"], negate: true },
  exists: { attribute: "plan", operator: "exists", values: [] },
  inSegment: { operator: "inSegment", values: ["beta"] },
  notInSegment: { operator: "notInSegment", values: ["staff"] }
}

export const richFile = (projectId = "rich") => ({
  project: { id: projectId, name: "Rich project" },
  environments: [
    { key: "development", name: "Development" },
    { key: "production", name: "Production", clientConfig: "evaluated", protected: true, requiredApprovals: 2 }
  ],
  segments: [
    { key: "staff", name: "Staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@staff.example"] }] },
    { key: "beta", name: "Beta testers", description: "People who asked", conditions: [{ attribute: "country", operator: "in", values: ["FR", "NL"] }, { attribute: "age", operator: "gte", values: [18] }] },
    // an "any of these" group: Germany, or an adult in France
    { key: "europe", name: "Europe", conditions: [{ anyOf: [[{ attribute: "country", operator: "in", values: ["DE"] }], [{ attribute: "country", operator: "in", values: ["FR"] }, { attribute: "age", operator: "gte", values: [18], negate: false }]] }] }
  ],
  flags: [
    {
      key: "checkout",
      name: "New checkout",
      description: "The one-page checkout",
      type: "boolean",
      variations: [{ key: "on", value: true }, { key: "off", value: false }],
      environments: [
        {
          key: "development",
          enabled: true,
          defaultVariationKey: "off",
          offVariationKey: "off",
          rules: OPERATOR_NAMES.map((operator, i) => ({
            id: `r-${operator}`,
            name: `by ${operator}`,
            conditions: [CONDITION_OF[operator]],
            ...(i % 3 === 0
              ? { rollout: { variations: [{ variationKey: "on", weight: 30000 }, { variationKey: "off", weight: 70000 }], ...(i % 2 === 0 ? { bucketBy: "company", seed: "s1" } : {}) } }
              : { variationKey: i % 2 === 0 ? "on" : "off" })
          }))
        },
        {
          key: "production",
          enabled: true,
          defaultVariationKey: "off",
          offVariationKey: "off",
          prerequisites: [{ flagKey: "kill-switch", variationKey: "live" }],
          rules: [
            { id: "beta", conditions: [CONDITION_OF.inSegment, CONDITION_OF.gt], rollout: { variations: [{ variationKey: "on", weight: 50000 }, { variationKey: "off", weight: 50000 }] } },
            // a group beside a plain condition: (in segment europe, or pro with an example.com address) and not JP
            {
              id: "europe-or-pro",
              name: "Europe or pro",
              conditions: [
                { anyOf: [[{ operator: "inSegment", values: ["europe"] }], [{ attribute: "plan", operator: "in", values: ["pro"] }, { attribute: "email", operator: "endsWith", values: ["@example.com"] }]] },
                { attribute: "country", operator: "in", values: ["JP"], negate: true }
              ],
              variationKey: "on"
            }
          ]
        }
      ]
    },
    {
      key: "kill-switch",
      type: "string",
      variations: [{ key: "live", value: "live" }, { key: "down", name: "Maintenance", value: "down" }],
      environments: [
        { key: "development", enabled: true, defaultVariationKey: "live", offVariationKey: "down" },
        { key: "production", enabled: true, defaultVariationKey: "live", offVariationKey: "down", rules: [{ id: "maint", conditions: [CONDITION_OF.matches], variationKey: "down" }] }
      ]
    },
    {
      key: "limits",
      type: "number",
      variations: [{ key: "small", value: 10 }, { key: "large", value: 1000.5 }],
      environments: [
        { key: "development", enabled: true, defaultVariationKey: "small", offVariationKey: "small", prerequisites: [{ flagKey: "checkout", variationKey: "on" }], rules: [{ id: "big", conditions: [CONDITION_OF.notInSegment, CONDITION_OF.lte], variationKey: "large" }] }
      ]
    },
    {
      key: "theme",
      type: "json",
      variations: [{ key: "light", value: { dark: false, colors: ["white"] } }, { key: "dark", value: { dark: true, colors: ["black", "grey"] } }],
      environments: [
        { key: "production", enabled: false, defaultVariationKey: "dark", offVariationKey: "light" }
      ]
    }
  ]
})
