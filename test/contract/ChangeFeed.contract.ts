import { expect } from "@effect/vitest"
import { Effect, Logger, LogLevel } from "effect"
import { type Change, ChangeFeed, type ConfigChanged } from "../../src/ports/ChangeFeed.js"
import { Transactor } from "../../src/ports/Transactor.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { Snapshots } from "../../src/services/evaluation/Snapshots.js"
import { booleanFlag, type Contract, freshProjectId, givenFlag, givenProject } from "./Backend.js"

/** What a listener subscribed for the rest of the test's scope has received. */
const listen = Effect.gen(function* () {
  const received: Array<Change> = []
  yield* (yield* ChangeFeed).subscribe((change) => void received.push(change))
  return received
})

const aboutProject = (received: ReadonlyArray<Change>, projectId: string): ReadonlyArray<ConfigChanged> =>
  received.filter((change): change is ConfigChanged => change._tag === "ConfigChanged" && change.projectId === projectId)

/** Long enough for a backend that echoes its own notifications (PostgreSQL) to have done so. */
const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 150)))

/**
 * The change feed as the use cases drive it: every committed write is announced once, after its
 * commit, to every subscriber, naming what changed; a rolled back one is never announced.
 */
export const changeFeedContract: Contract = (it) => {
  it.scoped("a committed write reaches every subscriber exactly once, with the revision it made", () =>
    Effect.gen(function* () {
      const projectId = yield* givenProject("development", "production")
      const first = yield* listen
      const second = yield* listen
      yield* (yield* Flags).create(projectId, booleanFlag("checkout"))
      const revision = yield* (yield* Snapshots).revision(projectId)
      yield* settle
      const expected: ConfigChanged = {
        _tag: "ConfigChanged",
        projectId,
        revision,
        environments: "all",
        kind: "flag",
        flagKeys: ["checkout"],
        segmentKeys: []
      }
      expect(aboutProject(first, projectId)).toEqual([expected])
      expect(aboutProject(second, projectId)).toEqual([expected])
    })
  )

  it.scoped("each kind of write names what changed and the environments it concerns", () =>
    Effect.gen(function* () {
      const received = yield* listen
      const projectId = freshProjectId()
      yield* (yield* Projects).create({ id: projectId, name: "Named" })
      yield* (yield* Environments).create(projectId, { key: "development", name: "Development" })
      const flags = yield* Flags
      yield* flags.create(projectId, booleanFlag("checkout"))
      yield* flags.patch(projectId, "checkout", { name: "Checkout" })
      yield* flags.replaceTargeting(projectId, "checkout", {
        environment: "development",
        enabled: true,
        defaultVariationKey: "on",
        offVariationKey: "off",
        rules: []
      })
      const segments = yield* Segments
      yield* segments.create(projectId, { key: "beta", name: "Beta", conditions: [] })
      yield* segments.patch(projectId, "beta", { name: "Beta testers" })
      yield* segments.remove(projectId, "beta")
      yield* flags.remove(projectId, "checkout")
      yield* settle
      const seen = aboutProject(received, projectId).map(({ environments, flagKeys, kind, segmentKeys }) => ({
        kind,
        environments,
        flagKeys,
        segmentKeys
      }))
      expect(seen).toEqual([
        { kind: "project", environments: "all", flagKeys: [], segmentKeys: [] },
        { kind: "environment", environments: ["development"], flagKeys: [], segmentKeys: [] },
        { kind: "flag", environments: "all", flagKeys: ["checkout"], segmentKeys: [] },
        // A rename changes nothing an environment serves.
        { kind: "flag", environments: [], flagKeys: ["checkout"], segmentKeys: [] },
        { kind: "targeting", environments: ["development"], flagKeys: ["checkout"], segmentKeys: [] },
        { kind: "segment", environments: "all", flagKeys: [], segmentKeys: ["beta"] },
        { kind: "segment", environments: "all", flagKeys: [], segmentKeys: ["beta"] },
        { kind: "segment", environments: "all", flagKeys: [], segmentKeys: ["beta"] },
        { kind: "flag", environments: "all", flagKeys: ["checkout"], segmentKeys: [] }
      ])
      // Revisions only grow, one write after the other.
      const revisions = aboutProject(received, projectId).map((change) => change.revision)
      expect(revisions).toEqual([...revisions].sort((a, b) => a - b))
      expect(new Set(revisions).size).toBe(revisions.length)
    })
  )

  it.scoped("revoking an API key is announced with the key's id and project", () =>
    Effect.gen(function* () {
      const projectId = yield* givenProject("development")
      const received = yield* listen
      const apiKeys = yield* ApiKeys
      const { apiKey } = yield* apiKeys.create({ type: "server", projectId })
      yield* apiKeys.revoke(apiKey.id)
      yield* settle
      expect(received.filter((change) => change._tag === "ApiKeyRevoked" && change.keyId === apiKey.id)).toEqual([
        { _tag: "ApiKeyRevoked", keyId: apiKey.id, projectId }
      ])
    })
  )

  it.scoped("a write that fails announces nothing", () =>
    Effect.gen(function* () {
      const { projectId } = yield* givenFlag("development")
      const received = yield* listen
      const flags = yield* Flags
      yield* Effect.flip(flags.create(projectId, booleanFlag("flag"))) // 409: the key is taken
      yield* Effect.flip(flags.patch(projectId, "flag", { variations: [{ key: "on", value: true }] })) // 409: "off" in use
      yield* Effect.flip((yield* Segments).remove(projectId, "missing")) // 404
      yield* settle
      expect(aboutProject(received, projectId)).toEqual([])
    })
  )

  it.scoped("inside a host's transaction: nothing before the commit, nothing at all after a rollback", () =>
    Effect.gen(function* () {
      const projectId = yield* givenProject("development")
      const received = yield* listen
      const tx = yield* Transactor
      const flags = yield* Flags
      yield* Effect.flip(
        tx.withTransaction(Effect.zipRight(flags.create(projectId, booleanFlag("doomed")), Effect.fail("abort" as const)))
      )
      yield* settle
      expect(aboutProject(received, projectId)).toEqual([])

      const beforeCommit = yield* tx.withTransaction(
        Effect.gen(function* () {
          yield* flags.create(projectId, booleanFlag("kept"))
          // A failed inner write (a savepoint) is dropped with it; the outer one still commits.
          yield* Effect.ignore(tx.withTransaction(Effect.zipRight(flags.create(projectId, booleanFlag("inner")), Effect.fail("undo"))))
          return aboutProject(received, projectId).length
        })
      )
      yield* settle
      expect(beforeCommit).toBe(0)
      expect(aboutProject(received, projectId).map((change) => change.flagKeys)).toEqual([["kept"]])
    })
  )

  it.scoped("a listener whose scope has closed hears nothing more; a throwing listener does not stop the others", () =>
    Effect.gen(function* () {
      const projectId = yield* givenProject("development")
      const feed = yield* ChangeFeed
      const early: Array<Change> = []
      yield* Effect.scoped(feed.subscribe((change) => void early.push(change)))
      yield* feed.subscribe(() => {
        throw new Error("listener failure")
      })
      const received = yield* listen
      // The failure is logged; kept out of the test output.
      yield* (yield* Flags).create(projectId, booleanFlag("after")).pipe(Logger.withMinimumLogLevel(LogLevel.None))
      yield* settle
      expect(aboutProject(early, projectId)).toEqual([])
      expect(aboutProject(received, projectId).map((change) => change.flagKeys)).toEqual([["after"]])
    })
  )
}
