/**
 * What a caller bound to `production` sees of answers that hold several environments
 * (EnvironmentView.ts): flags narrowed, audit entries and events of another environment left out,
 * everything for a caller that sees every environment (null).
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import type { AuditEntry } from "../../src/domain/audit/AuditEntry.js"
import { managementEventOf } from "../../src/domain/audit/ManagementEvent.js"
import { auditEntrySeen, eventSeen, flagSeen, keySeen, recordSeen } from "../../src/domain/auth/EnvironmentView.js"

const config = (environmentKey: string, version: number) => ({ environmentKey, version, enabled: false, rules: [{ id: `${environmentKey}-rule` }] })
const flag = (versions: Record<string, number>, version = 3) => ({
  key: "f",
  version,
  variations: [{ key: "a", value: "A" }],
  configs: Object.entries(versions).map(([environment, v]) => config(environment, v))
})

/** A key's state as the audit log records it. */
const apiKey = (environment: string | null, revokedAt: string | null = null) => ({
  id: "k",
  type: "server",
  projectId: "p1",
  environment,
  name: "K",
  prefix: "srv_abcd",
  createdAt: "2026-11-27T16:00:00.000Z",
  lastUsedAt: null,
  revokedAt
})

const entry = (fields: Partial<AuditEntry>): AuditEntry => ({
  id: "1",
  projectId: "p1",
  at: "2026-11-27T16:00:00.000Z",
  actor: { type: "cli" },
  action: "flag.updated",
  resource: { type: "flag", key: "f" },
  before: null,
  after: null,
  ...fields
})

describe("flagSeen", () => {
  it("keeps the seen environment's configuration only, and every one for null", () => {
    const both = flag({ development: 2, production: 3 })
    expect(flagSeen("production", both).configs.map((c) => c.environmentKey)).toEqual(["production"])
    expect(flagSeen("production", both)).toMatchObject({ key: "f", version: 3, variations: both.variations })
    expect(flagSeen(null, both)).toBe(both)
    expect(flagSeen("staging", both).configs).toEqual([])
  })
})

describe("recordSeen", () => {
  it.each([
    [null, "development", true],
    ["production", "production", true],
    ["production", "development", false]
  ] as const)("seen %s, record of %s: %s", (seen, environment, expected) => {
    expect(recordSeen(seen, { environment })).toBe(expected)
  })
})

describe("keySeen", () => {
  // An unbound key reaches every environment, production's neighbours included: a bound caller does not see it.
  it.each([
    [null, null, true],
    [null, "development", true],
    ["production", "production", true],
    ["production", "development", false],
    ["production", null, false]
  ] as const)("seen %s, key bound to %s: %s", (seen, environment, expected) => {
    expect(keySeen(seen, { environment })).toBe(expected)
  })
})

describe("auditEntrySeen (seen: production)", () => {
  const cases: ReadonlyArray<readonly [string, AuditEntry, "shown" | "hidden"]> = [
    ["targeting of development", entry({ action: "targeting.updated", environment: "development", before: flag({ development: 1, production: 1 }), after: flag({ development: 2, production: 1 }, 2) }), "hidden"],
    ["targeting of production", entry({ action: "targeting.updated", environment: "production", before: flag({ development: 1, production: 1 }), after: flag({ development: 1, production: 2 }, 2) }), "shown"],
    ["a flag created (every environment)", entry({ action: "flag.created", after: flag({ development: 1, production: 1 }, 1) }), "shown"],
    ["a flag deleted", entry({ action: "flag.deleted", before: flag({ development: 1, production: 1 }) }), "shown"],
    ["a flag renamed (no configuration changed)", entry({ before: flag({ development: 2, production: 2 }, 2), after: flag({ development: 2, production: 2 }, 3) }), "shown"],
    ["a file's write that changed development only, named to no environment", entry({ before: flag({ development: 1, production: 1 }), after: flag({ development: 2, production: 1 }, 2) }), "hidden"],
    ["a schedule of development, named to none", entry({ action: "schedule.created", resource: { type: "schedule", key: "s" }, after: { id: "s", environment: "development" } }), "hidden"],
    ["a schedule of production", entry({ action: "schedule.created", resource: { type: "schedule", key: "s" }, environment: "production", after: { id: "s", environment: "production" } }), "shown"],
    ["a segment (no environment)", entry({ action: "segment.updated", resource: { type: "segment", key: "s" }, before: { key: "s" }, after: { key: "s", name: "S" } }), "shown"],
    ["a key of production made", entry({ action: "key.created", resource: { type: "key", key: "k" }, environment: "production", after: apiKey("production") }), "shown"],
    ["a key of production revoked", entry({ action: "key.revoked", resource: { type: "key", key: "k" }, environment: "production", before: apiKey("production"), after: apiKey("production", "2026-11-27T17:00:00.000Z") }), "shown"],
    ["a key of development made", entry({ action: "key.created", resource: { type: "key", key: "k" }, environment: "development", after: apiKey("development") }), "hidden"],
    ["an unbound key made (it reaches every environment)", entry({ action: "key.created", resource: { type: "key", key: "k" }, after: apiKey(null) }), "hidden"],
    ["an unbound key revoked", entry({ action: "key.revoked", resource: { type: "key", key: "k" }, before: apiKey(null), after: apiKey(null, "2026-11-27T17:00:00.000Z") }), "hidden"]
  ]
  it.each(cases)("%s: %s", (_name, audited, expected) => {
    const seen = auditEntrySeen("production", audited)
    expect(seen === undefined ? "hidden" : "shown").toBe(expected)
    if (seen === undefined) return
    // What is shown holds no other environment.
    expect(JSON.stringify(seen)).not.toContain("development")
  })

  it("shows every entry unchanged to a caller that sees every environment", () => {
    for (const [, audited] of cases) expect(auditEntrySeen(null, audited)).toBe(audited)
  })
})

describe("eventSeen (seen: production)", () => {
  it("leaves out the events of other environments only, and narrows the others to production", () => {
    const environments = fc.subarray(["development", "production", "staging"])
    fc.assert(
      fc.property(environments, fc.array(fc.nat(), { minLength: 3, maxLength: 3 }), (changed, versions) => {
        const event = managementEventOf(7, entry({}))
        const withChanges = { ...event, environments: changed, configVersions: Object.fromEntries(changed.map((e, i) => [e, versions[i]!])) }
        const seen = eventSeen("production", withChanges)
        if (changed.length > 0 && !changed.includes("production")) return seen === undefined
        return seen !== undefined &&
          seen.environments.every((e) => e === "production") &&
          Object.keys(seen.configVersions).every((e) => e === "production") &&
          seen.environments.length === (changed.includes("production") ? 1 : 0) &&
          eventSeen(null, withChanges) === withChanges
      })
    )
  })
})

describe("eventSeen of keys (seen: production)", () => {
  // A key's event names the key's environment when it has one (its audit entry's): none is an unbound key's.
  it.each([
    ["production", "shown"],
    ["development", "hidden"],
    [null, "hidden"]
  ] as const)("a key bound to %s: %s", (environment, expected) => {
    const made = managementEventOf(1, entry({ action: "key.created", resource: { type: "key", key: "k" }, ...(environment === null ? {} : { environment }), after: apiKey(environment) }))
    expect(eventSeen("production", made) === undefined ? "hidden" : "shown").toBe(expected)
    expect(eventSeen(null, made)).toBe(made)
  })
})
