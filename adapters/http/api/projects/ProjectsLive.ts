/** The projects handlers: each a call to the `Projects` use case, which lists the projects the caller may see. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Projects } from "../../../../src/services/projects/Projects.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const ProjectsLive = HttpApiBuilder.group(FlagportApi, "projects", (handlers) =>
  handlers
    .handle("list", () => Effect.flatMap(Projects, (projects) => Effect.map(mapped(projects.list()), (data) => ({ data }))))
    .handle("create", ({ payload }) => Effect.flatMap(Projects, (projects) => mapped(projects.create(payload))))
)
