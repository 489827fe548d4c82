/**
 * The plan, pure: what differs becomes a change, in the order it is written; rules without ids
 * keep the ids at their place; prerequisites come before the flags requiring them; prune deletes
 * dependents first; the line diff shows removals before additions.
 */
import { describe, expect, it } from "@effect/vitest"
import { diffLines } from "../../src/domain/ascode/LineDiff.js"
import { environmentsNamed, plan, prerequisitesFirst } from "../../src/domain/ascode/Plan.js"
import type { ProjectFile } from "../../src/domain/ascode/ProjectFile.js"
import type { ProjectState } from "../../src/domain/ascode/ProjectState.js"
import type { Flag } from "../../src/domain/definitions/Flag.js"

const at = "2026-01-01T00:00:00.000Z"
const environment = { id: "e1", projectId: "p", key: "prod", name: "Prod", clientConfig: "full" as const, protected: false, requiredApprovals: 1, createdAt: at }
const flag = (key: string, requires: ReadonlyArray<string> = [], rules: Flag["configs"][number]["rules"] = []): Flag => ({
  id: `id-${key}`,
  key,
  name: key,
  description: null,
  type: "boolean",
  variations: [{ key: "on", value: true }, { key: "off", value: false }],
  configs: [{ environmentKey: "prod", enabled: false, defaultVariationKey: "on", offVariationKey: "off", prerequisites: requires.map((k) => ({ flagKey: k, variationKey: "on" })), rules }],
  createdAt: at,
  updatedAt: at,
  version: 3
})
const state = (flags: ReadonlyArray<Flag>): ProjectState => ({ project: { id: "p", name: "P", createdAt: at, updatedAt: at }, environments: [environment], segments: [], flags, releasePlans: [] })
const fileFlag = (key: string, requires: ReadonlyArray<string> = [], rules: ReadonlyArray<Record<string, unknown>> = []) => ({
  key,
  type: "boolean" as const,
  variations: [{ key: "on", value: true }, { key: "off", value: false }],
  environments: [{ key: "prod", enabled: true, defaultVariationKey: "on", offVariationKey: "off", prerequisites: requires.map((k) => ({ flagKey: k, variationKey: "on" })), rules: rules as never }]
})
const file = (flags: ReadonlyArray<ReturnType<typeof fileFlag>>): ProjectFile => ({ project: { id: "p" }, environments: [{ key: "prod", name: "Prod" }], flags })
const steps = (p: ReturnType<typeof plan>) => p.changes.map((c) => `${c.action} ${c.resource} ${c.key}${c.resource === "targeting" ? `@${c.environment}` : ""}`)

describe("the plan", () => {
  it.each([
    ["nothing differs", [flag("a")], [{ ...fileFlag("a"), environments: [{ key: "prod", enabled: false, defaultVariationKey: "on", offVariationKey: "off" }] }], []],
    ["a new flag: created, then its targeting", [], [fileFlag("a")], ["create flag a", "update targeting a@prod"]],
    ["a flag's prerequisite is written before it, whatever the file's order", [flag("a"), flag("b")], [fileFlag("a", ["b"]), fileFlag("b")], ["update targeting b@prod", "update targeting a@prod"]],
    ["a changed name is a flag update based on its version", [flag("a")], [{ ...fileFlag("a"), name: "Alpha", environments: [] }], ["update flag a"]]
  ] as const)("%s", (_name, current, wanted, expected) => {
    expect(steps(plan("p", state(current), file(wanted as never), { prune: false }))).toEqual(expected)
  })

  it("a segment's keyAttribute: absent in the file is the context key; another attribute is a change, written back by export", () => {
    const segment = { id: "s1", projectId: "p", key: "accounts", name: "Accounts", description: null, conditions: [], keyAttribute: "key", createdAt: at, updatedAt: at }
    const withSegments = (segments: ReadonlyArray<Record<string, unknown>>): ProjectFile => ({ ...file([]), segments: segments as never })
    const current: ProjectState = { ...state([]), segments: [segment] }
    expect(plan("p", current, withSegments([{ key: "accounts", name: "Accounts", conditions: [] }]), { prune: false }).changes).toEqual([])
    expect(plan("p", current, withSegments([{ key: "accounts", name: "Accounts", conditions: [], keyAttribute: "key" }]), { prune: false }).changes).toEqual([])
    const changed = plan("p", current, withSegments([{ key: "accounts", name: "Accounts", conditions: [], keyAttribute: "accountId" }]), { prune: false }).changes
    expect(changed).toMatchObject([{ resource: "segment", action: "update", before: { key: "accounts" }, after: { keyAttribute: "accountId" } }])
    expect(changed[0]!.before).not.toHaveProperty("keyAttribute")
    const stored: ProjectState = { ...state([]), segments: [{ ...segment, keyAttribute: "accountId" }] }
    expect(plan("p", stored, withSegments([{ key: "accounts", name: "Accounts", conditions: [], keyAttribute: "accountId" }]), { prune: false }).changes).toEqual([])
  })

  it("a rule without an id keeps the id of the rule at its place (nothing to do)", () => {
    const rules = [{ id: "r1", conditions: [{ attribute: "plan", operator: "in" as const, values: ["pro"] }], variationKey: "on" }]
    const current = [{ ...flag("a", [], rules), configs: [{ ...flag("a", [], rules).configs[0]!, enabled: true }] }]
    const { id: _id, ...withoutId } = rules[0]!
    expect(plan("p", state(current), file([fileFlag("a", [], [withoutId])]), { prune: false }).changes).toEqual([])
  })

  it("prune deletes what the file leaves out, a flag before the flags it requires; without prune nothing", () => {
    const current = [flag("keep"), flag("base"), flag("top", ["base"])]
    const wanted = file([{ ...fileFlag("keep"), environments: [] }])
    expect(steps(plan("p", state(current), wanted, { prune: true }))).toEqual(["delete flag top", "delete flag base"])
    expect(steps(plan("p", state(current), wanted, { prune: false }))).toEqual([])
    expect(plan("p", state(current), wanted, { prune: true }).changes[0]).toMatchObject({ basedOn: 3 })
  })

  it("orders flags after their prerequisites", () => {
    const requires: Record<string, ReadonlyArray<string>> = { a: ["b", "c"], b: ["c"], c: [], d: [] }
    expect(prerequisitesFirst(["a", "b", "c", "d"], (k) => requires[k] ?? [])).toEqual(["c", "b", "a", "d"])
  })

  it("the line diff: unchanged lines kept, a changed line as its removal then its addition", () => {
    expect(diffLines(["a", "b", "c"], ["a", "x", "c", "d"])).toEqual([
      { op: " ", text: "a" },
      { op: "-", text: "b" },
      { op: "+", text: "x" },
      { op: " ", text: "c" },
      { op: "+", text: "d" }
    ])
  })
})

// Who may apply a file depends on every environment it names (a key bound to another may name none), changed or not.
describe("the environments a file names", () => {
  const targeting = (key: string) => ({ key, enabled: false, defaultVariationKey: "on", offVariationKey: "off" })
  it.each<[string, ProjectFile, ReadonlyArray<string>]>([
    ["none", { project: { id: "p" } }, []],
    ["its list", { project: { id: "p" }, environments: [{ key: "prod", name: "Prod" }, { key: "dev", name: "Dev" }] }, ["prod", "dev"]],
    ["a flag's targeting, each once", { project: { id: "p" }, flags: [{ ...fileFlag("a"), environments: [targeting("qa"), targeting("prod")] }, { ...fileFlag("b"), environments: [targeting("qa")] }] }, ["qa", "prod"]],
    ["both, the list first", { ...file([fileFlag("a")]), environments: [{ key: "dev", name: "Dev" }] }, ["dev", "prod"]]
  ])("%s", (_name, given, expected) => {
    expect(environmentsNamed(given)).toEqual(expected)
  })
})
