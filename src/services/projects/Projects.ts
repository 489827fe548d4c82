import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type Forbidden, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import type { CreateProjectInput, Project } from "../../domain/definitions/Project.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize, authorizeGlobal } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"

export interface ProjectsShape {
  /** Creates a project (a global administrator's, a global server key's); 409 when the id is taken. */
  readonly create: (input: CreateProjectInput) => Effect.Effect<Project, ResourceConflict | Forbidden | StorageError>
  /**
   * The projects the caller may see, in creation order: every one, a project-scoped key's own (when
   * it exists), a member's (domain/auth/Access.ts).
   */
  readonly list: () => Effect.Effect<ReadonlyArray<Project>, Forbidden | StorageError>
  /** One project (`read` in it); 404 when unknown. */
  readonly get: (projectId: string) => Effect.Effect<Project, ResourceNotFound | Forbidden | StorageError>
}

export class Projects extends Context.Tag("@flagport/services/Projects")<Projects, ProjectsShape>() {}

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const writes = yield* Writes.writer

  const create = Effect.fn("Projects.create")(function* (input: CreateProjectInput) {
    yield* authorizeGlobal("Projects.create")
    // Not a write to what a project serves (there is no project yet to bump), but announced, so
    // that a process which remembered the id as unknown serves the project at once.
    return yield* writes
      .record(input.id, ({ now }) =>
        Effect.gen(function* () {
          const project: Project = { id: input.id, name: input.name, createdAt: now, updatedAt: now }
          yield* projects.insert(project)
          const revision = yield* projects.revision(project.id)
          return {
            value: project,
            audit: [{ action: "project.created", resource: { type: "project", key: project.id }, before: null, after: project }],
            change: configChanged(project.id, Option.getOrElse(revision, () => 0), "project")
          } satisfies Writes.Recorded<Project>
        })
      )
      .pipe(Effect.catchTag("DuplicateKey", () => Effect.fail(new ResourceConflict({ message: `Project '${input.id}' already exists` }))))
  })

  const list = Effect.fn("Projects.list")(function* () {
    const { visible } = yield* authorizeGlobal("Projects.list")
    const all = yield* projects.list()
    return visible === null ? all : all.filter((p) => visible.includes(p.id))
  })

  const get = Effect.fn("Projects.get")(function* (projectId: string) {
    yield* authorize("Projects.get", projectId)
    return yield* requireProject(projects, projectId)
  })

  return Projects.of({ create, list, get })
})

export const layer = Layer.effect(Projects, make)
