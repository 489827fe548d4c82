/**
 * How both halves of the `Flags` use case (FlagDefinitions.ts, FlagTargeting.ts) read a flag: as
 * stored (404 for an unknown project or flag), inside a write with its preconditions, and as the
 * API shows it (`FlagWithUsage`, FlagUsage.ts), whoever calls.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { InvalidRequest, type Problem } from "../../domain/Errors.js"
import type { Flag } from "../../domain/definitions/Flag.js"
import type { FlagWithUsage } from "../../domain/insights/Usage.js"
import { flagNotFound } from "../../domain/NotFound.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { requireProject } from "../shared/RequireProject.js"
import type * as Writes from "../shared/Writes.js"
import * as FlagUsage from "./FlagUsage.js"
import { checkPreconditions, type WriteOptions } from "./FlagVersions.js"

/** The 400 of a flag write, with every problem found. */
export const invalid = (message: string, details: ReadonlyArray<Problem>) => new InvalidRequest({ message, details: [...details] })

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const flags = yield* FlagRepository
  /** Flags as the API shows them (FlagUsage.ts). */
  const view = yield* FlagUsage.viewer

  /** One flag as the API shows it; the flags requiring others are read only when the usage needs them. */
  const viewOne = (projectId: string, flag: Flag) => Effect.map(view(projectId, [flag], flags.listRequiring(projectId)), (shown) => shown[0]!)

  /**
   * What a write answers: the flag it wrote as the API shows it, read inside the write's
   * transaction, where a statement is cheapest (it runs on the connection the write already holds)
   * and the usage is read at the same moment as the flag.
   */
  const answer = (projectId: string, written: Writes.Written<Flag>) =>
    Effect.map(viewOne(projectId, written.value), (value): Writes.Written<FlagWithUsage> => ({ ...written, value }))

  /**
   * Inside a write: the flag, or 404 (the project was already checked by the revision bump),
   * and the write's preconditions on it.
   */
  const load = (projectId: string, flagKey: string, options?: WriteOptions) =>
    flags.get(projectId, flagKey).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(flagNotFound(projectId, flagKey)), onSome: Effect.succeed })),
      Effect.tap((flag) => checkPreconditions(flag, options))
    )

  /** The stored flag, or 404 for an unknown project or flag. */
  const stored = (projectId: string, flagKey: string) =>
    Effect.gen(function* () {
      const found = yield* flags.get(projectId, flagKey)
      if (Option.isSome(found)) return found.value
      yield* requireProject(projects, projectId)
      // Only on the way to a 404: the project's keys, for the near match the answer offers.
      return yield* flagNotFound(projectId, flagKey, (yield* flags.list(projectId)).map((f) => f.key))
    })

  return { view, viewOne, answer, load, stored } as const
})

/** The readings both halves of `Flags` share, built once for the two. */
export type FlagReads = Effect.Effect.Success<typeof make>
