import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { Flags } from "../../src/services/flags/Flags.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { type Contract, failureTag, freshProjectId, givenFlag, givenProject } from "./Backend.js"

const beta = {
  key: "beta",
  name: "Beta users",
  description: "people who asked",
  conditions: [{ attribute: "plan", operator: "in" as const, values: ["beta", 7, null] }]
}

/** Segments: CRUD, not-found, duplicates, no segments inside segments, no delete while used. */
export const segmentContract: Contract = (it) => {
  it.effect("create, get, list, patch, remove", () =>
    Effect.gen(function* () {
      const segments = yield* Segments
      const projectId = yield* givenProject("development")
      const created = yield* segments.create(projectId, beta)
      expect(created).toMatchObject({ ...beta, projectId })
      expect(yield* segments.get(projectId, "beta")).toEqual(created)
      yield* segments.create(projectId, { key: "staff", name: "Staff", conditions: [] })
      expect((yield* segments.list(projectId)).map((s) => s.key)).toEqual(["beta", "staff"])
      const patched = yield* segments.patch(projectId, "beta", {
        name: "Beta",
        conditions: [{ attribute: "key", operator: "startsWith", values: ["b-"], negate: true }]
      })
      expect(patched).toMatchObject({ name: "Beta", description: "people who asked", id: created.id, createdAt: created.createdAt })
      expect(patched.conditions).toEqual([{ attribute: "key", operator: "startsWith", values: ["b-"], negate: true }])
      expect(yield* segments.get(projectId, "beta")).toEqual(patched)
      yield* segments.remove(projectId, "beta")
      expect((yield* segments.list(projectId)).map((s) => s.key)).toEqual(["staff"])
      expect(created.description).toBe("people who asked")
      const noDescription = yield* segments.create(projectId, { key: "plain", name: "Plain", conditions: [] })
      expect(noDescription.description).toBeNull()
      expect(noDescription.keyAttribute).toBe("key")
    }))

  it.effect("keyAttribute: stored as given (the context key when not), kept by a patch that does not name it, changed by one that does", () =>
    Effect.gen(function* () {
      const segments = yield* Segments
      const projectId = yield* givenProject("development")
      const accounts = yield* segments.create(projectId, { key: "accounts", name: "Accounts", conditions: [], keyAttribute: "accountId" })
      expect(accounts.keyAttribute).toBe("accountId")
      expect((yield* segments.get(projectId, "accounts")).keyAttribute).toBe("accountId")
      expect((yield* segments.patch(projectId, "accounts", { name: "Customer accounts" })).keyAttribute).toBe("accountId")
      expect((yield* segments.get(projectId, "accounts")).keyAttribute).toBe("accountId")
      yield* segments.patch(projectId, "accounts", { keyAttribute: "device.id" })
      expect((yield* segments.list(projectId)).find((s) => s.key === "accounts")?.keyAttribute).toBe("device.id")
      const refused = yield* Effect.flip(segments.patch(projectId, "accounts", { keyAttribute: "x".repeat(257) }))
      expect(refused).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "keyAttribute", message: "must be at most 256 characters" }] })
      expect((yield* segments.get(projectId, "accounts")).keyAttribute).toBe("device.id")
    }))

  it.effect("not found, duplicates, and invalid conditions", () =>
    Effect.gen(function* () {
      const segments = yield* Segments
      const projectId = yield* givenProject()
      const unknown = freshProjectId()
      for (const effect of [
        failureTag(segments.get(projectId, "nope")),
        failureTag(segments.patch(projectId, "nope", { name: "x" })),
        failureTag(segments.remove(projectId, "nope")),
        failureTag(segments.list(unknown)),
        failureTag(segments.create(unknown, beta)),
      ]) {
        expect(yield* effect).toBe("ResourceNotFound")
      }
      yield* segments.create(projectId, beta)
      expect((yield* Effect.flip(segments.create(projectId, { ...beta, name: "other" })))._tag).toBe("ResourceConflict")
      const nested = yield* Effect.flip(
        segments.create(projectId, { key: "nested", name: "Nested", conditions: [{ operator: "inSegment", values: ["beta"] }] })
      )
      expect(nested._tag).toBe("InvalidRequest")
      expect((yield* segments.list(projectId)).length).toBe(1)
    }))

  it.effect("a segment used by a rule cannot be deleted until no rule uses it", () =>
    Effect.gen(function* () {
      const segments = yield* Segments
      const flags = yield* Flags
      const { projectId } = yield* givenFlag("development")
      yield* segments.create(projectId, beta)
      const target = (rules: ReadonlyArray<{ conditions: ReadonlyArray<never> | ReadonlyArray<{ operator: "notInSegment"; values: ReadonlyArray<string> }>; variationKey: string }>) =>
        flags.replaceTargeting(projectId, "flag", {
          environment: "development",
          enabled: true,
          defaultVariationKey: "on",
          offVariationKey: "off",
          rules
        })
      yield* target([{ conditions: [{ operator: "notInSegment", values: ["beta"] }], variationKey: "off" }])
      const blocked = yield* Effect.flip(segments.remove(projectId, "beta"))
      expect(blocked._tag).toBe("ResourceConflict")
      expect(blocked.message).toContain("flag")
      expect((yield* segments.list(projectId)).length).toBe(1)
      yield* target([])
      yield* segments.remove(projectId, "beta")
      expect(yield* segments.list(projectId)).toEqual([])
    }))
}
