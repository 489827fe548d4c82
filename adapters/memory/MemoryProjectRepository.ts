import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Project } from "../../src/domain/definitions/Project.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"
import { insertNew } from "./MemoryTables.js"

/** The reference ProjectRepository: projects by id, each with its revision counter. */

export const layer = Layer.effect(
  ProjectRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, { project: Project; revision: number }>>("projects", new Map())
    return ProjectRepository.of({
      insert: (project) => insertNew(table, project.id, () => ({ project: jsonCopy(project), revision: 1 }), "project", project.id),
      list: () => Effect.map(table.get, (map) => Array.from(map.values(), (row) => row.project)),
      get: (id) => Effect.map(table.get, (map) => Option.map(Option.fromNullable(map.get(id)), (row) => row.project)),
      bumpRevision: (id) =>
        table.modify((map) => {
          const row = map.get(id)
          if (row === undefined) return [null, map] as const
          return [row.revision + 1, new Map(map).set(id, { ...row, revision: row.revision + 1 })] as const
        }).pipe(Effect.flatMap((r) => (r === null ? Effect.fail(new NotFound({ entity: "project", key: id })) : Effect.succeed(r)))),
      revision: (id) => Effect.map(table.get, (map) => Option.map(Option.fromNullable(map.get(id)), (row) => row.revision))
    })
  })
)
