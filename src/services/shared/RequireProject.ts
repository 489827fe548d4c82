import * as Effect from "effect/Effect"
import { projectNotFound } from "../../domain/NotFound.js"
import type { ProjectRepositoryShape } from "../../ports/ProjectRepository.js"

/** The project, or the 404 every use case answers for an unknown one. */
export const requireProject = (projects: ProjectRepositoryShape, projectId: string) =>
  projects.get(projectId).pipe(
    Effect.flatMap((found) => (found._tag === "Some" ? Effect.succeed(found.value) : Effect.fail(projectNotFound(projectId))))
  )
