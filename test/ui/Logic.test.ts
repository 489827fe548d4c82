/**
 * The dashboard's pure helpers: the line diff of the change preview, problems placed by path,
 * percentages and weights, and the inputs chosen for every operator of the domain's table.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { OPERATOR_NAMES } from "../../src/domain/conditions/OperatorTable.js"
import { TOTAL_WEIGHT } from "../../src/domain/definitions/RolloutWeight.js"
import { AuditResourceType } from "../../src/domain/audit/AuditEntry.js"
import { actorLabel, ANY, auditQuery, RESOURCE_TYPES } from "../../ui/lib/audit.js"
import { layout } from "../../ui/lib/chart.js"
import { diffLines, folded } from "../../ui/lib/diff.js"
import { fromUtcInput, percentOf, toUtcInput, weightOf } from "../../ui/lib/format.js"
import { nextCheckIn, onEditorPaths, scheduleBody } from "../../ui/lib/schedules.js"
import type { Schedule } from "../../ui/lib/types.js"
import { inputFor, takesAttribute } from "../../ui/lib/operators.js"
import { ApiError } from "../../ui/lib/api.js"
import { at, fromError, isConflict, within } from "../../ui/lib/problems.js"
import { FlagEventType, WebhookEventType } from "../../src/domain/webhooks/Webhook.js"
import { FLAG_EVENTS, WEBHOOK_EVENTS } from "../../ui/lib/types.js"

describe("diffLines", () => {
  it("marks removed and added lines, the removed first, and keeps the common ones", () => {
    expect(diffLines("a\nb\nc", "a\nx\nc")).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "added", text: "x" },
      { kind: "same", text: "c" }
    ])
  })

  it("rebuilds both texts from its lines, for any texts", () => {
    const lines = fc.array(fc.constantFrom("a", "b", "c", "{", "}"), { maxLength: 30 }).map((l) => l.join("\n"))
    fc.assert(
      fc.property(lines, lines, (before, after) => {
        const diff = diffLines(before, after)
        expect(diff.filter((l) => l.kind !== "added").map((l) => l.text).join("\n")).toBe(before)
        expect(diff.filter((l) => l.kind !== "removed").map((l) => l.text).join("\n")).toBe(after)
        if (before === after) expect(diff.every((l) => l.kind === "same")).toBe(true)
      })
    )
  })
})

describe("folded diff", () => {
  const same = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ kind: "same" as const, text: `s${from + i}` }))
  it("keeps three unchanged lines around each change and folds longer runs", () => {
    const lines = [...same(10), { kind: "removed" as const, text: "a" }, { kind: "added" as const, text: "b" }, ...same(10, 10)]
    expect(folded(lines)).toEqual([
      { kind: "folded", count: 7 },
      ...same(3, 7),
      { kind: "removed", text: "a" },
      { kind: "added", text: "b" },
      ...same(3, 10),
      { kind: "folded", count: 7 }
    ])
  })
  it("never folds a single line, and leaves out nothing it does not count", () => {
    const lines = [...same(4), { kind: "added" as const, text: "x" }, ...same(7, 4), { kind: "added" as const, text: "y" }]
    const shown = folded(lines)
    expect(shown).toEqual([{ kind: "same", text: "s0" }, ...same(3, 1), { kind: "added", text: "x" }, ...same(3, 4), { kind: "same", text: "s7" }, ...same(3, 8), { kind: "added", text: "y" }])
    const counted = (l: ReadonlyArray<ReturnType<typeof folded>[number]>) => l.reduce((n, x) => n + (x.kind === "folded" ? x.count : 1), 0)
    expect(counted(shown)).toBe(lines.length)
  })
})

describe("problems by path", () => {
  const problems = {
    status: 400,
    message: "Invalid targeting",
    details: [
      { path: "rules[0].rollout.variations", message: "weights must sum to 100000 (got 90000)" },
      { path: "rules[0].conditions[1].values[2]", message: "must be a finite number" },
      { path: "rules[0].conditions[1].values", message: "must not be empty" },
      { path: "rules[10].name", message: "too long" }
    ]
  }
  it("gives a field the problems at exactly its path", () => {
    expect(at(problems, "rules[0].rollout.variations")).toEqual(["weights must sum to 100000 (got 90000)"])
    expect(at(problems, "rules[1].name")).toEqual([])
  })
  it("gives a group its own problems and those inside it, not a sibling's with a longer index", () => {
    expect(within(problems, "rules[0].conditions[1].values")).toEqual(["[2]: must be a finite number", "must not be empty"])
    expect(within(problems, "rules[1]")).toEqual([])
  })
  it("tells a 412 (the flag changed since it was loaded) from other refusals", () => {
    const stale = new ApiError(412, "precondition_failed", "Flag 'a' is at version 4, not the version named by If-Match", [])
    expect(isConflict(fromError(stale))).toBe(true)
    expect(isConflict(fromError(new ApiError(409, "conflict", "taken", [])))).toBe(false)
    expect(isConflict(fromError(new Error("boom")))).toBe(false)
    expect(isConflict(problems)).toBe(false)
  })
})

describe("rollout percentages", () => {
  it("turns typed percentages into weights and back", () => {
    expect(weightOf("30")).toBe(30_000)
    expect(weightOf("33.333")).toBe(33_333)
    expect(percentOf(TOTAL_WEIGHT)).toBe("100")
    expect(percentOf(12_345)).toBe("12.345")
    expect(weightOf("")).toBeNaN()
    expect(weightOf("abc")).toBeNaN()
  })
})

describe("date and time inputs (UTC)", () => {
  it("reads a value to the minute or to the second as UTC, and shows an instant back", () => {
    expect(fromUtcInput("2027-03-01T09:00")).toBe("2027-03-01T09:00:00Z")
    expect(fromUtcInput("2027-03-01T09:00:05")).toBe("2027-03-01T09:00:05Z")
    expect(fromUtcInput("")).toBe("")
    expect(toUtcInput("2027-03-01T10:00:05+01:00")).toBe("2027-03-01T09:00")
    expect(toUtcInput("2027-03-01T10:00:05+01:00", true)).toBe("2027-03-01T09:00:05")
    expect(toUtcInput("not a date")).toBe("")
  })
})

describe("scheduled changes", () => {
  const targeting = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
  const schedule = (status: Schedule["status"], at: string): Schedule =>
    ({ id: at, flagKey: "a", environment: "production", at, targeting, status, createdAt: at, actor: { type: "key" } })
  const now = Date.parse("2027-03-01T09:00:00Z")

  it("schedules the editor's PUT body: the environment beside the targeting, the time as UTC", () => {
    expect(scheduleBody("2027-03-01T09:00:05", { environment: "production", ...targeting })).toEqual({
      environment: "production",
      at: "2027-03-01T09:00:05Z",
      targeting
    })
  })

  it("moves the API's targeting problems onto the editor's paths and leaves the others", () => {
    const refused = fromError(new ApiError(400, "validation_error", "Invalid", [
      { path: "targeting.rules[0].variationKey", message: "unknown variation" },
      { path: "at", message: "must be an ISO 8601 date and time" }
    ]))
    expect(onEditorPaths(refused).details.map((d) => d.path)).toEqual(["rules[0].variationKey", "at"])
  })

  it("looks again just after the earliest pending schedule is due, often while it is late, never when none is pending", () => {
    expect(nextCheckIn([schedule("applied", "2027-03-01T09:00:00Z"), schedule("cancelled", "2027-03-01T10:00:00Z")], now)).toBeNull()
    expect(nextCheckIn([schedule("pending", "2027-03-01T09:00:04Z"), schedule("pending", "2027-03-01T09:00:09Z")], now)).toBe(5_000)
    expect(nextCheckIn([schedule("pending", "2027-03-02T09:00:00Z")], now)).toBe(30_000)
    expect(nextCheckIn([schedule("pending", "2027-03-01T08:59:58Z")], now)).toBe(1_000)
    expect(nextCheckIn([schedule("pending", "2027-03-01T08:00:00Z")], now)).toBe(10_000)
  })
})

describe("operator inputs", () => {
  it("has an input for every operator of the domain's table", () => {
    const inputs = Object.fromEntries(OPERATOR_NAMES.map((o) => [o, inputFor(o)]))
    expect(OPERATOR_NAMES).toHaveLength(18)
    expect(inputs).toMatchObject({ in: "json", contains: "text", matches: "regex", lt: "number", before: "date", semverEq: "semver", exists: "none", inSegment: "segments" })
    expect(OPERATOR_NAMES.filter((o) => !takesAttribute(o))).toEqual(["inSegment", "notInSegment"])
  })
})

describe("audit log queries and actors", () => {
  it("sends only the filters that are set, the page size and the cursor", () => {
    expect(auditQuery(ANY, null)).toBe("?limit=50")
    expect(auditQuery({ resourceType: "flag", resourceKey: " new checkout ", environment: "production" }, "YXVkaXQ6MTI", 20)).toBe(
      "?resourceType=flag&resourceKey=new+checkout&environment=production&limit=20&cursor=YXVkaXQ6MTI"
    )
  })

  it("names the key by its name, else its id; the command line and the scheduler by what they are", () => {
    expect(actorLabel({ type: "key", keyId: "k1", keyName: "Release manager" })).toBe('key "Release manager"')
    expect(actorLabel({ type: "key", keyId: "k1", keyName: "" })).toBe("key k1")
    expect(actorLabel({ type: "cli" })).toBe("command line")
    expect(actorLabel({ type: "schedule", keyId: "k2", keyName: "Launch" })).toBe('schedule (made with key "Launch")')
    expect(actorLabel({ type: "schedule", userId: "u1", email: "edna@example.com" })).toBe("schedule (made by edna@example.com)")
    expect(actorLabel({ type: "schedule", userId: "u1" })).toBe("schedule (made by person u1)")
  })

  it("names a release plan's entries by the plan and who started it", () => {
    expect(actorLabel({ type: "releasePlan", id: "rp-1", startedBy: { type: "key", keyId: "k1", keyName: "deploy" } })).toBe('release plan rp-1 (started by key "deploy")')
    expect(actorLabel({ type: "releasePlan", id: "rp-1", startedBy: { type: "user", userId: "u1", email: "edna@example.com" } })).toBe("release plan rp-1 (started by edna@example.com)")
    expect(actorLabel({ type: "releasePlan", id: "rp-1", startedBy: { type: "cli" } })).toBe("release plan rp-1 (started by command line)")
  })

  it("names a person by their email", () => {
    expect(actorLabel({ type: "user", userId: "u1", email: "edna@example.com" })).toBe("edna@example.com")
    expect(actorLabel({ type: "user", userId: "u1" })).toBe("person u1")
  })

  it("filters by every resource type the API knows", () => {
    expect([...RESOURCE_TYPES].sort()).toEqual([...AuditResourceType.literals].sort())
  })
})

describe("the evaluations chart", () => {
  const hours = Array.from({ length: 24 }, (_, i) => new Date(Date.UTC(2026, 10, 23, i)).toISOString())
  const series = (counts: Record<string, ReadonlyArray<number>>) => ({
    flagKey: "a",
    environment: "production",
    from: hours[0]!,
    to: hours[23]!,
    variations: Object.entries(counts).map(([variationKey, c]) => ({
      variationKey,
      total: c.reduce((x, y) => x + y, 0),
      points: hours.map((hour, i) => ({ hour, count: c[i] ?? 0 }))
    }))
  })

  it("stacks each hour's variations, the busiest hour reaching the top", () => {
    const chart = layout(series({ on: [5, 7], off: [3] }), 240, 100)
    expect(chart.max).toBe(8)
    expect(chart.bars).toHaveLength(24)
    const [first, second] = chart.bars
    expect(first!.total).toBe(8)
    expect(first!.slices.map((s) => [s.variationKey, s.count, s.y, s.height])).toEqual([["on", 5, 37.5, 62.5], ["off", 3, 0, 37.5]])
    expect(second!.slices.map((s) => s.height)).toEqual([87.5, 0])
    expect(chart.bars[2]!.slices.every((s) => s.height === 0 && s.y === 100)).toBe(true)
    expect(chart.bars.map((b) => b.x)).toEqual(hours.map((_, i) => i * 10))
  })

  it("labels about eight hours, by time of day over a day and with the date over longer periods", () => {
    const day = layout(series({ on: [] }), 240, 100)
    expect(day.max).toBe(1)
    expect(day.labels.map((l) => l.text)).toEqual(["00:00", "03:00", "06:00", "09:00", "12:00", "15:00", "18:00", "21:00"])
    const week = Array.from({ length: 168 }, (_, i) => new Date(Date.UTC(2026, 10, 17, i)).toISOString())
    const long = layout({ flagKey: "a", environment: "p", from: week[0]!, to: week[167]!, variations: [{ variationKey: "on", total: 0, points: week.map((hour) => ({ hour, count: 0 })) }] }, 168, 10)
    expect(long.labels).toHaveLength(8)
    expect(long.labels[1]).toEqual({ x: 21, text: "11-17 21:00" })
  })
})

describe("webhook events", () => {
  it("offers every event the API knows, the flags' ones by default", () => {
    expect([...WEBHOOK_EVENTS].sort()).toEqual([...WebhookEventType.literals].sort())
    expect([...FLAG_EVENTS].sort()).toEqual([...FlagEventType.literals].sort())
  })
})
