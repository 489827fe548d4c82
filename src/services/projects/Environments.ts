import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type Forbidden, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import {
  type CreateEnvironmentInput,
  DEFAULT_CLIENT_CONFIG,
  DEFAULT_REQUIRED_APPROVALS,
  type Environment,
  type UpdateEnvironmentInput
} from "../../domain/definitions/Project.js"
import { environmentNotFound } from "../../domain/NotFound.js"
import { disabledConfig } from "../../domain/definitions/Flag.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { ChangeRequestRepository } from "../../ports/ChangeRequestRepository.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import * as RequiredApprovals from "./RequiredApprovals.js"
import { authorize } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"

/**
 * Each operation is the caller's to ask for (`CurrentCaller`, domain/auth/Permissions.ts): listing
 * needs `read` in the project, the others `manage`; a key bound to one environment changes only
 * that one and creates none (one it could neither read nor write).
 */
export interface EnvironmentsShape {
  /**
   * Creates an environment and, in the same transaction, a disabled configuration for every
   * existing flag of the project (each such flag's version grows by one). 404 for an unknown
   * project, 409 for a duplicate key.
   */
  readonly create: (
    projectId: string,
    input: CreateEnvironmentInput
  ) => Effect.Effect<Environment, ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /**
   * Changes the settings given (`name`, `clientConfig`, `protected`, `requiredApprovals`), keeps
   * the others; audited as
   * `environment.updated` and announced for that environment, so every process's caches see it.
   * A new `requiredApprovals` holds for the environment's live change requests at once
   * (RequiredApprovals.ts). 404 for an unknown project or environment.
   */
  readonly update: (
    projectId: string,
    key: string,
    input: UpdateEnvironmentInput
  ) => Effect.Effect<Environment, ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /** The project's environments in creation order; 404 for an unknown project. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Environment>, ResourceNotFound | Forbidden | StorageError>
}

export class Environments extends Context.Tag("@flagport/services/Environments")<Environments, EnvironmentsShape>() {}

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const environments = yield* EnvironmentRepository
  const flags = yield* FlagRepository
  const changeRequests = yield* ChangeRequestRepository
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer

  const create = Effect.fn("Environments.create")(function* (projectId: string, input: CreateEnvironmentInput) {
    yield* authorize("Environments.create", projectId)
    const id = yield* ids.next
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const environment: Environment = {
          id,
          projectId,
          key: input.key,
          name: input.name,
          clientConfig: DEFAULT_CLIENT_CONFIG,
          protected: false,
          requiredApprovals: DEFAULT_REQUIRED_APPROVALS,
          createdAt: now
        }
        yield* environments.insert(environment).pipe(
          Effect.catchTag("DuplicateKey", () =>
            Effect.fail(new ResourceConflict({ message: `Environment '${input.key}' already exists in project '${projectId}'` }))
          )
        )
        const existing = yield* flags.list(projectId)
        // One bulk write, not one per flag: a project may hold thousands of flags.
        yield* flags.addEnvironmentConfigs(
          projectId,
          input.key,
          existing.map((flag) => ({ flagKey: flag.key, config: disabledConfig(input.key, flag.variations) })),
          now
        )
        return {
          value: environment,
          audit: [
            { action: "environment.created", resource: { type: "environment", key: input.key }, environment: input.key, before: null, after: environment }
          ],
          // The other environments serve what they served: only the new one is named.
          change: configChanged(projectId, revision, "environment", { environments: [input.key] })
        } satisfies Writes.Written<Environment>
      })
    )
  })

  const update = Effect.fn("Environments.update")(function* (projectId: string, key: string, input: UpdateEnvironmentInput) {
    yield* authorize("Environments.update", projectId, [key])
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const found = yield* environments.get(projectId, key)
        if (Option.isNone(found)) return yield* environmentNotFound(projectId, key)
        const before = found.value
        const after: Environment = {
          ...before,
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.clientConfig === undefined ? {} : { clientConfig: input.clientConfig }),
          ...(input.protected === undefined ? {} : { protected: input.protected }),
          ...(input.requiredApprovals === undefined ? {} : { requiredApprovals: input.requiredApprovals })
        }
        yield* environments.update(after).pipe(Effect.catchTag("NotFound", () => environmentNotFound(projectId, key)))
        const recounted = after.requiredApprovals === before.requiredApprovals
          ? []
          : yield* RequiredApprovals.recount(projectId, key, after.requiredApprovals, now).pipe(Effect.provideService(ChangeRequestRepository, changeRequests))
        return {
          value: after,
          audit: [{ action: "environment.updated", resource: { type: "environment", key }, environment: key, before, after }, ...recounted],
          // Only this environment's answers may differ (who may read its configuration).
          change: configChanged(projectId, revision, "environment", { environments: [key] })
        } satisfies Writes.Written<Environment>
      })
    )
  })

  const list = Effect.fn("Environments.list")(function* (projectId: string) {
    yield* authorize("Environments.list", projectId)
    yield* requireProject(projects, projectId)
    return yield* environments.list(projectId)
  })

  return Environments.of({ create, update, list })
})

export const layer = Layer.effect(Environments, make)
