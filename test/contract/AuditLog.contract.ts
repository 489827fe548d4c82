import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { type Actor, CurrentActor } from "../../src/domain/audit/Actor.js"
import type { AuditEntry } from "../../src/domain/audit/AuditEntry.js"
import { AuditLog, type AuditLogShape } from "../../src/ports/AuditLog.js"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { SegmentRepository } from "../../src/ports/SegmentRepository.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import * as ApiKeysService from "../../src/services/auth/ApiKeys.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Audit } from "../../src/services/audit/Audit.js"
import * as EnvironmentCopyService from "../../src/services/projects/EnvironmentCopy.js"
import { EnvironmentCopy } from "../../src/services/projects/EnvironmentCopy.js"
import * as EnvironmentsService from "../../src/services/projects/Environments.js"
import { Environments } from "../../src/services/projects/Environments.js"
import * as FlagsService from "../../src/services/flags/Flags.js"
import { Flags } from "../../src/services/flags/Flags.js"
import * as ProjectsService from "../../src/services/projects/Projects.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as SegmentsService from "../../src/services/segments/Segments.js"
import { Schedules } from "../../src/services/schedules/Schedules.js"
import { Segments } from "../../src/services/segments/Segments.js"
import * as WebhooksService from "../../src/services/webhooks/Webhooks.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import { nodeCrypto } from "../../adapters/crypto/NodeCrypto.js"
import { settledDelivery } from "../webhooks/fixtures/Deliveries.js"
import { booleanFlag, type Contract, freshProjectId, givenFlag, givenProject } from "./Backend.js"
import { stored } from "../fixtures/StoredFlag.js"

const boom = new StorageError({ message: "injected audit failure" })

/** Every entry of a project, newest first. */
const entriesOf = (projectId: string) =>
  Effect.flatMap(AuditLog, (log) => Effect.map(log.list(projectId, {}, 10_000), (rows) => rows.map((row) => row.entry)))

/** The same, oldest first, as (action, resource key) pairs. */
const actionsOf = (projectId: string) =>
  Effect.map(entriesOf(projectId), (entries) => entries.map((e) => [e.action, e.resource.type, e.resource.key] as const).reverse())

const entry = (projectId: string, id: string, at: string, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  projectId,
  at,
  actor: { type: "cli" },
  action: "flag.updated",
  resource: { type: "flag", key: "f" },
  before: { version: 1 },
  after: { version: 2 },
  ...overrides
})

const WEBHOOK_SECRET = "a-webhook-secret-that-must-never-be-logged"

/**
 * The audit log: every write use case appends one entry in its transaction (with the actor of
 * CurrentActor and the resource before and after as the API shows it), filters and pages newest
 * first, a write whose entry cannot be appended leaves no change, and retention deletes by age.
 */
export const auditLogContract: Contract = (it) => {
  it.effect("each management write appends one entry with its action, resource, environment, before and after", () =>
    Effect.gen(function* () {
      const projectId = freshProjectId()
      const project = yield* (yield* Projects).create({ id: projectId, name: "Audited" })
      const production = yield* (yield* Environments).create(projectId, { key: "production", name: "Production" })
      yield* (yield* Environments).create(projectId, { key: "staging", name: "Staging" })
      const flags = yield* Flags
      const created = stored(yield* flags.create(projectId, booleanFlag("f")))
      const patched = stored(yield* flags.patch(projectId, "f", { name: "Renamed" }))
      const targeted = stored(
        yield* flags.replaceTargeting(projectId, "f", {
          environment: "staging",
          enabled: true,
          defaultVariationKey: "on",
          offVariationKey: "off",
          rules: []
        })
      )
      yield* (yield* EnvironmentCopy).copy(projectId, "production", { from: "staging" })
      const copied = stored(yield* flags.get(projectId, "f"))
      const segments = yield* Segments
      const segment = yield* segments.create(projectId, { key: "s", name: "S", conditions: [] })
      const segmentPatched = yield* segments.patch(projectId, "s", { name: "S2" })
      yield* segments.remove(projectId, "s")
      const webhooks = yield* Webhooks
      const hook = yield* webhooks.create(projectId, { url: "http://127.0.0.1:9/hook", events: ["flag.created"], secret: WEBHOOK_SECRET })
      const hookPatched = yield* webhooks.patch(projectId, hook.id, { enabled: false })
      yield* webhooks.remove(projectId, hook.id)
      const keys = yield* ApiKeys
      const key = yield* keys.create({ type: "client", projectId, environment: "production", name: "SDK" })
      const revoked = yield* keys.revoke(key.apiKey.id)
      yield* flags.remove(projectId, "f")

      expect(yield* actionsOf(projectId)).toEqual([
        ["project.created", "project", projectId],
        ["environment.created", "environment", "production"],
        ["environment.created", "environment", "staging"],
        ["flag.created", "flag", "f"],
        ["flag.updated", "flag", "f"],
        ["targeting.updated", "flag", "f"],
        ["targeting.updated", "flag", "f"],
        ["segment.created", "segment", "s"],
        ["segment.updated", "segment", "s"],
        ["segment.deleted", "segment", "s"],
        ["webhook.created", "webhook", hook.id],
        ["webhook.updated", "webhook", hook.id],
        ["webhook.deleted", "webhook", hook.id],
        ["key.created", "key", key.apiKey.id],
        ["key.revoked", "key", key.apiKey.id],
        ["flag.deleted", "flag", "f"]
      ])
      const all = [...(yield* entriesOf(projectId))].reverse()
      const at = (i: number) => all[i]!
      expect(new Set(all.map((e) => e.id)).size).toBe(all.length)
      expect(all.every((e) => e.projectId === projectId && e.actor.type === "cli")).toBe(true)
      expect(at(0)).toMatchObject({ before: null, after: project, at: project.createdAt })
      expect(at(1)).toMatchObject({ environment: "production", before: null, after: production })
      expect(at(3)).toMatchObject({ before: null, after: created, at: created.createdAt })
      expect(at(3).environment).toBeUndefined()
      expect(at(4)).toMatchObject({ before: created, after: patched })
      expect(at(5)).toMatchObject({ environment: "staging", before: patched, after: targeted })
      expect(at(6)).toMatchObject({ environment: "production", before: targeted, after: copied })
      expect(at(7)).toMatchObject({ before: null, after: segment })
      expect(at(8)).toMatchObject({ before: segment, after: segmentPatched })
      expect(at(9)).toMatchObject({ before: segmentPatched, after: null })
      expect(at(10)).toMatchObject({ before: null, after: hook })
      expect(at(11)).toMatchObject({ before: hook, after: hookPatched })
      expect(at(12)).toMatchObject({ before: hookPatched, after: null })
      expect(at(13)).toMatchObject({ environment: "production", before: null, after: key.apiKey })
      expect(at(14)).toMatchObject({ before: key.apiKey, after: revoked })
      expect(at(15)).toMatchObject({ before: copied, after: null })
      // Secrets never reach the log: not the webhook's, not the key, not its hash.
      const text = JSON.stringify(all)
      expect(text).not.toContain(WEBHOOK_SECRET)
      expect(text).not.toContain(key.secret)
      expect(text).not.toContain(ApiKeysService.hashSecret(nodeCrypto, key.secret))
    }))

  it.effect("a redelivery is recorded on its webhook with the delivery it made", () =>
    Effect.gen(function* () {
      const projectId = yield* givenProject("development")
      const webhooks = yield* Webhooks
      const hook = yield* webhooks.create(projectId, { url: "http://127.0.0.1:9/redeliver", events: ["flag.created"] })
      const original = yield* settledDelivery(projectId, hook.id, new Date(Date.now() - 60_000).toISOString(), "failed")
      const again = yield* webhooks.redeliver(projectId, hook.id, original)
      const [latest] = yield* entriesOf(projectId)
      expect(latest).toMatchObject({ action: "webhook.redelivered", resource: { type: "webhook", key: hook.id }, before: null, after: again })
    }))

  it.effect("a schedule's creation and cancellation are recorded on the schedule", () =>
    Effect.gen(function* () {
      const { projectId } = yield* givenFlag("production")
      const schedules = yield* Schedules
      const targeting = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
      const made = yield* schedules.create(projectId, "flag", { environment: "production", at: "2999-01-01T09:00:00Z", targeting })
      yield* schedules.cancel(projectId, "flag", made.id)
      const [cancelled, created] = yield* entriesOf(projectId)
      expect(created).toMatchObject({ action: "schedule.created", resource: { type: "schedule", key: made.id }, environment: "production", before: null, after: made })
      expect(cancelled).toMatchObject({ action: "schedule.cancelled", resource: { type: "schedule", key: made.id }, before: made, after: { id: made.id, status: "cancelled" } })
    }))

  it.effect("the entry's actor is the running use case's CurrentActor", () =>
    Effect.gen(function* () {
      const { projectId } = yield* givenFlag("development")
      const actor: Actor = { type: "key", keyId: "k-1", keyName: "Release manager" }
      yield* (yield* Flags).patch(projectId, "flag", { name: "By key" }).pipe(Effect.provideService(CurrentActor, actor))
      yield* (yield* Flags).patch(projectId, "flag", { name: "By the scheduler" }).pipe(
        Effect.provideService(CurrentActor, { type: "schedule", keyId: "k-2", keyName: "Launch" })
      )
      const [scheduled, byKey] = yield* entriesOf(projectId)
      expect(byKey!.actor).toEqual(actor)
      expect(scheduled!.actor).toEqual({ type: "schedule", keyId: "k-2", keyName: "Launch" })
    }))

  it.effect("global keys belong to no project's log", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const appended: Array<AuditEntry> = []
      const watched = yield* ApiKeysService.make.pipe(
        Effect.provideService(AuditLog, { ...log, append: (e) => Effect.zipRight(Effect.sync(() => appended.push(e)), log.append(e)) })
      )
      const global = yield* watched.create({ type: "server", projectId: null })
      yield* watched.revoke(global.apiKey.id)
      expect(appended).toEqual([])
      expect(Option.map(yield* (yield* ApiKeyRepository).get(global.apiKey.id), (k) => k.revokedAt !== null)).toEqual(Option.some(true))
    }))

  it.effect("a write whose entry cannot be appended changes nothing, for every write use case", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const failing: AuditLogShape = { ...log, append: () => Effect.fail(boom) }
      const broken = <A, E, R>(make: Effect.Effect<A, E, R>) => make.pipe(Effect.provideService(AuditLog, failing))
      const { projectId } = yield* givenFlag("development", "production")
      // Development differs from production, so that the copy below has a change to make.
      yield* (yield* Flags).replaceTargeting(projectId, "flag", { environment: "development", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      yield* (yield* Segments).create(projectId, { key: "kept", name: "Kept", conditions: [] })
      const hook = yield* (yield* Webhooks).create(projectId, { url: "http://127.0.0.1:9/h", events: ["flag.created"] })
      const key = yield* (yield* ApiKeys).create({ type: "server", projectId, name: "kept" })
      const entries = yield* entriesOf(projectId)
      const flagBefore = yield* (yield* Flags).get(projectId, "flag")
      const revision = yield* (yield* ProjectRepository).revision(projectId)

      const flags = yield* broken(FlagsService.make)
      const segments = yield* broken(SegmentsService.make)
      const environments = yield* broken(EnvironmentsService.make)
      const projects = yield* broken(ProjectsService.make)
      const webhooks = yield* broken(WebhooksService.make)
      const apiKeys = yield* broken(ApiKeysService.make)
      const copies = yield* broken(EnvironmentCopyService.make)
      const attempts: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        flags.create(projectId, booleanFlag("ghost")),
        flags.patch(projectId, "flag", { name: "never" }),
        flags.replaceTargeting(projectId, "flag", { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }),
        flags.remove(projectId, "flag"),
        copies.copy(projectId, "production", { from: "development", flags: ["flag"] }),
        segments.create(projectId, { key: "ghost", name: "G", conditions: [] }),
        segments.patch(projectId, "kept", { name: "never" }),
        segments.remove(projectId, "kept"),
        environments.create(projectId, { key: "ghost", name: "G" }),
        projects.create({ id: `${projectId}-ghost`, name: "G" }),
        webhooks.create(projectId, { url: "http://127.0.0.1:9/ghost", events: ["flag.created"] }),
        webhooks.patch(projectId, hook.id, { enabled: false }),
        webhooks.remove(projectId, hook.id),
        apiKeys.create({ type: "client", projectId, name: "ghost" }),
        apiKeys.revoke(key.apiKey.id)
      ]
      for (const attempt of attempts) expect(yield* Effect.flip(attempt)).toEqual(boom)

      expect(yield* (yield* Flags).get(projectId, "flag")).toEqual(flagBefore)
      expect(yield* (yield* ProjectRepository).revision(projectId)).toEqual(revision)
      expect(yield* (yield* FlagRepository).get(projectId, "ghost")).toEqual(Option.none())
      expect((yield* (yield* SegmentRepository).list(projectId)).map((s) => [s.key, s.name])).toEqual([["kept", "Kept"]])
      expect((yield* (yield* EnvironmentRepository).list(projectId)).map((e) => e.key)).toEqual(["development", "production"])
      expect(yield* (yield* ProjectRepository).get(`${projectId}-ghost`)).toEqual(Option.none())
      expect((yield* (yield* WebhookRepository).list(projectId)).map((w) => [w.id, w.enabled])).toEqual([[hook.id, true]])
      const projectKeys = (yield* (yield* ApiKeyRepository).list()).filter((k) => k.projectId === projectId)
      expect(projectKeys.map((k) => [k.name, k.revokedAt])).toEqual([["kept", null]])
      expect(yield* entriesOf(projectId)).toEqual(entries)
    }))

  it.effect("a failure after the entry was appended removes the entry with the change", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const { projectId } = yield* givenFlag("development")
      const entries = yield* entriesOf(projectId)
      const flags = yield* FlagsService.make.pipe(
        Effect.provideService(AuditLog, { ...log, append: (e) => Effect.zipRight(log.append(e), Effect.fail(boom)) })
      )
      expect(yield* Effect.flip(flags.patch(projectId, "flag", { name: "never" }))).toEqual(boom)
      expect(yield* entriesOf(projectId)).toEqual(entries)
      expect((yield* (yield* Flags).get(projectId, "flag")).name).toBe("Flag flag")
    }))

  it.effect("list filters by resource type, resource key and environment, newest first, after a position", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const projectId = freshProjectId()
      const other = freshProjectId()
      const rows: ReadonlyArray<AuditEntry> = [
        entry(projectId, `${projectId}-1`, "2026-01-01T00:00:01.000Z", { resource: { type: "flag", key: "a" }, environment: "production" }),
        entry(projectId, `${projectId}-2`, "2026-01-01T00:00:02.000Z", { resource: { type: "flag", key: "b" } }),
        entry(other, `${other}-1`, "2026-01-01T00:00:03.000Z", { resource: { type: "flag", key: "a" }, environment: "production" }),
        entry(projectId, `${projectId}-3`, "2026-01-01T00:00:04.000Z", { resource: { type: "segment", key: "a" }, before: null }),
        entry(projectId, `${projectId}-4`, "2026-01-01T00:00:05.000Z", { resource: { type: "flag", key: "a" }, environment: "staging", after: null })
      ]
      for (const row of rows) yield* log.append(row)
      const ids = (filter: Parameters<AuditLogShape["list"]>[1], limit = 100, before?: number) =>
        Effect.map(log.list(projectId, filter, limit, before), (found) => found.map((r) => r.entry.id.slice(projectId.length + 1)))
      expect(yield* ids({})).toEqual(["4", "3", "2", "1"])
      expect(yield* ids({ resourceType: "flag" })).toEqual(["4", "2", "1"])
      expect(yield* ids({ resourceKey: "a" })).toEqual(["4", "3", "1"])
      expect(yield* ids({ resourceType: "flag", resourceKey: "a" })).toEqual(["4", "1"])
      expect(yield* ids({ environment: "production" })).toEqual(["1"])
      expect(yield* ids({}, 2)).toEqual(["4", "3"])
      const found = yield* log.list(projectId, {}, 100)
      expect(found.map((r) => r.position)).toEqual([...found.map((r) => r.position)].sort((a, b) => b - a))
      expect(yield* ids({}, 100, found[1]!.position)).toEqual(["2", "1"])
      // Entries read back as they were appended, nulls and absent environment included.
      expect(found.map((r) => r.entry)).toEqual([...rows].filter((r) => r.projectId === projectId).reverse())
    }))

  it.effect("the Audit service pages with opaque cursors until nextCursor is null", () =>
    Effect.gen(function* () {
      const audit = yield* Audit
      const projectId = yield* givenProject("development")
      const flags = yield* Flags
      for (const key of ["a", "b", "c", "d", "e"]) yield* flags.create(projectId, booleanFlag(key))
      const everything = yield* audit.list(projectId, {})
      expect(everything.nextCursor).toBeNull()
      expect(everything.data.map((e) => e.action)).toEqual([...Array(5).fill("flag.created"), "environment.created", "project.created"])
      const seen: Array<string> = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = yield* audit.list(projectId, { limit: 2, ...(cursor === undefined ? {} : { cursor }) })
        seen.push(...page.data.map((e) => e.id))
        cursor = page.nextCursor ?? undefined
        pages++
      } while (cursor !== undefined)
      expect(pages).toBe(4)
      expect(seen).toEqual(everything.data.map((e) => e.id))
      const flagsOnly = yield* audit.list(projectId, { resourceType: "flag", resourceKey: "c" })
      expect(flagsOnly.data.map((e) => e.resource.key)).toEqual(["c"])
      expect((yield* Effect.flip(audit.list(projectId, { cursor: "not-a-cursor" })))._tag).toBe("InvalidRequest")
      expect((yield* Effect.flip(audit.list(projectId, { limit: 0 })))._tag).toBe("InvalidRequest")
      expect((yield* Effect.flip(audit.list(projectId, { limit: 201 })))._tag).toBe("InvalidRequest")
      expect((yield* Effect.flip(audit.list(freshProjectId(), {})))._tag).toBe("ResourceNotFound")
    }))

  it.effect("prune deletes at most `limit` entries recorded before the cut-off, oldest first, in any project", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const a = freshProjectId()
      const b = freshProjectId()
      // Dated in 2001, long before anything the other tests record.
      yield* log.append(entry(a, `${a}-old1`, "2001-01-01T00:00:00.000Z"))
      yield* log.append(entry(b, `${b}-old2`, "2001-01-02T00:00:00.000Z"))
      yield* log.append(entry(a, `${a}-old3`, "2001-01-03T00:00:00.000Z"))
      yield* log.append(entry(a, `${a}-new`, "2001-02-01T00:00:00.000Z"))
      const cutOff = "2001-01-15T00:00:00.000Z"
      expect(yield* log.prune(cutOff, 2)).toBe(2)
      expect((yield* entriesOf(a)).map((e) => e.id)).toEqual([`${a}-new`, `${a}-old3`])
      expect(yield* entriesOf(b)).toEqual([])
      expect(yield* log.prune(cutOff, 2)).toBe(1)
      expect(yield* log.prune(cutOff, 2)).toBe(0)
      expect((yield* entriesOf(a)).map((e) => e.id)).toEqual([`${a}-new`])
    }))

  it.effect("after(position) reads a project's later entries oldest first, bounded; the events summarize them", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const audit = yield* Audit
      const projectId = yield* givenProject("development", "production")
      const other = yield* givenProject("development")
      const start = (yield* audit.follow(projectId)).from
      const flags = yield* Flags
      yield* flags.create(projectId, booleanFlag("a"))
      yield* flags.create(other, booleanFlag("elsewhere"))
      yield* flags.replaceTargeting(projectId, "a", { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      yield* flags.create(projectId, booleanFlag("b"))
      const later = yield* log.after(projectId, start, 100)
      expect(later.map((row) => [row.entry.action, row.entry.resource.key])).toEqual([
        ["flag.created", "a"],
        ["targeting.updated", "a"],
        ["flag.created", "b"]
      ])
      expect(later.map((row) => row.position)).toEqual([...later.map((row) => row.position)].sort((x, y) => x - y))
      expect(later[0]!.position).toBeGreaterThan(start)
      expect((yield* log.after(projectId, start, 2)).length).toBe(2)
      expect((yield* log.after(projectId, later[2]!.position, 100)).length).toBe(0)
      expect((yield* audit.follow(projectId)).from).toBe(later[2]!.position)

      const events = yield* audit.eventsAfter(projectId, later[0]!.position, 100)
      expect(events.map((e) => e.event)).toMatchObject([
        { id: String(later[1]!.position), kind: "targeting.updated", flagKeys: ["a"], environments: ["production"], version: 2, configVersions: { production: 2 } },
        { kind: "flag.created", flagKeys: ["b"], environments: ["development", "production"], version: 1, configVersions: { development: 1, production: 1 } }
      ])
    }))
}
