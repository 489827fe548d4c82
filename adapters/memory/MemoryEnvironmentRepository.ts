import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Environment } from "../../src/domain/definitions/Project.js"
import { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"
import { insertNew, scoped } from "./MemoryTables.js"

/** The reference EnvironmentRepository: environments by project and key, in creation order. */

export const layer = Layer.effect(
  EnvironmentRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, Environment>>("environments", new Map())
    return EnvironmentRepository.of({
      insert: (env) => insertNew(table, scoped(env.projectId, env.key), () => jsonCopy(env), "environment", env.key),
      list: (projectId) => Effect.map(table.get, (map) => Array.from(map.values()).filter((e) => e.projectId === projectId)),
      update: (env) =>
        table.modify((map) => {
          const id = scoped(env.projectId, env.key)
          const existing = map.get(id)
          if (existing === undefined) return [false, map]
          return [true, new Map(map).set(id, {
            ...existing,
            name: env.name,
            clientConfig: env.clientConfig,
            protected: env.protected,
            requiredApprovals: env.requiredApprovals
          })]
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity: "environment", key: env.key }))))),
      get: (projectId, key) => Effect.map(table.get, (map) => Option.fromNullable(map.get(scoped(projectId, key))))
    })
  })
)
