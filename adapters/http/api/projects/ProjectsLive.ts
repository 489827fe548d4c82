/** The projects handlers: a project-scoped key or a member lists only the projects it may see (`visible`). */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Projects } from "../../../../src/services/projects/Projects.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"
import { ManagementAccess } from "../Security.js"

export const ProjectsLive = HttpApiBuilder.group(FlagportApi, "projects", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function* () {
        const access = yield* ManagementAccess
        const projects = yield* Projects
        const all = yield* mapped(projects.list(null))
        const visible = access.visible
        return { data: visible === null ? all : all.filter((project) => visible.includes(project.id)) }
      })
    )
    .handle("create", ({ payload }) => Effect.flatMap(Projects, (projects) => mapped(projects.create(payload))))
)
