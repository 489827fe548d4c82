/**
 * The first start (`serve --init`) when several processes start together on one empty database:
 * exactly one seeds, mints keys and makes the first global admin, the others only serve. On
 * memory, SQLite and PostgreSQL.
 *
 * The race is made deterministic: process A runs its whole first start; process B is given the
 * view it would have had if it had checked for emptiness just before A wrote anything (its first
 * `Projects.list` and `ApiKeys.list` answer empty), and then acts on the real database.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { firstStart } from "../../adapters/cli/FirstStart.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { Users } from "../../src/services/people/Users.js"
import { freshStorage } from "../fixtures/databases.js"

/** Runs `effect` with the emptiness check answered as it was before the other process wrote. */
const withStaleEmptinessCheck = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  let projectsSeen = false
  let keysSeen = false
  return effect.pipe(
    Effect.updateService(Projects, (projects) => ({
      ...projects,
      list: (...args: Parameters<typeof projects.list>) => (projectsSeen ? projects.list(...args) : ((projectsSeen = true), Effect.succeed([])))
    })),
    Effect.updateService(ApiKeys, (apiKeys) => ({
      ...apiKeys,
      list: (...args: Parameters<typeof apiKeys.list>) => (keysSeen ? apiKeys.list(...args) : ((keysSeen = true), Effect.succeed([])))
    }))
  )
}

for (const backend of ["memory", "sqlite", "postgres"] as const) {
  describe(backend, () => {
    layer(freshStorage(backend))("first start", (it) => {
      it.effect("a process that saw the database empty but lost the race to seed it mints no keys", () =>
        Effect.gen(function* () {
          const a = yield* firstStart // process A
          expect(a?.setupToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
          expect(yield* withStaleEmptinessCheck(firstStart)).toBeNull() // process B
          const keys = yield* (yield* ApiKeys).list()
          expect(keys.map((k) => k.type).sort()).toEqual(["client", "server"])
          expect((yield* (yield* Projects).list()).map((p) => p.id)).toEqual(["default"])
          expect((yield* (yield* Environments).list("default")).map((e) => e.key)).toEqual(["development", "staging", "production"])
          // One first global admin, admin@localhost, whose link (printed by serve) sets their password.
          const people = yield* (yield* Users).list()
          expect(people.map((u) => [u.email, u.admin])).toEqual([["admin@localhost", true]])
          expect((yield* (yield* Users).setup(a!.setupToken!, "a first admin password")).email).toBe("admin@localhost")
          // A later start finds the database set up and does nothing.
          expect(yield* firstStart).toBeNull()
          expect(yield* (yield* ApiKeys).list()).toHaveLength(2)
          expect(yield* (yield* Users).list()).toHaveLength(1)
        })
      )
    })
  })
}
