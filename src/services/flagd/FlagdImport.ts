/**
 * `flagport import flagd`: brings a flagd flag definition file into a project. The translation is
 * pure (domain/flagd/FlagdDocument.ts); this use case adds what needs the database: the project
 * and environment must exist, a flag key the project already has is refused (an import creates
 * flags, it never changes or replaces one), and the writes go through the ordinary use cases
 * (`Flags.create`, then `Flags.replaceTargeting` for the chosen environment), so they are
 * validated, versioned, audited and announced like any other write.
 *
 * All or nothing: every flag is written as one write of several use cases (Writes.spanning: one
 * transaction, under the project's write lock), and nothing is written while any flag is refused,
 * unless the caller asks to skip the refused ones (`skipUnsupported`).
 *
 * A person importing into a protected environment may create the flags but not write their
 * targeting there (docs/guide/change-requests.md): in the same transaction, the targeting is
 * proposed as change requests of that environment (50 flags each), which the report names.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { MAX_CHANGES } from "../../domain/changes/ChangeRequest.js"
import { isPersonsHand } from "../../domain/changes/Protection.js"
import { type ChangeRequestRequired, type Forbidden, InvalidRequest, type PreconditionFailed, type ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { type FlagTranslation, translateDocument } from "../../domain/flagd/FlagdDocument.js"
import type { FlagOutcome as ReportedFlag, ImportReport as Report, ProposedChange } from "../../domain/flagd/ImportReport.js"
import { formatPath } from "../../domain/flagd/Refusal.js"
import { environmentNotFound } from "../../domain/NotFound.js"
import type { StorageError } from "../../ports/StorageError.js"
import { ChangeRequests } from "../changes/ChangeRequests.js"
import { Environments } from "../projects/Environments.js"
import { Flags } from "../flags/Flags.js"
import { authorize } from "../shared/Authorize.js"
import * as Writes from "../shared/Writes.js"

export interface ImportOptions {
  /** Import the flags that translate and leave out the refused ones (else a refusal writes nothing). */
  readonly skipUnsupported: boolean
  /** Translate and check only; write nothing. */
  readonly dryRun: boolean
}

/** One flag of the file, as the report shows it (domain/flagd/ImportReport.ts). */
export type FlagOutcome = ReportedFlag
export type ImportReport = Report

type ImportError = InvalidRequest | ResourceNotFound | ResourceConflict | PreconditionFailed | ChangeRequestRequired | Forbidden | StorageError

export interface FlagdImportShape {
  /**
   * Translates `document` (a parsed flagd file) for `projectId` and its environment `environment`
   * and, unless `dryRun` or a refusal without `skipUnsupported`, writes the flags in one
   * transaction. 404 for an unknown project or environment; 400 for a file that is no flagd
   * definition. The report says, per flag, imported or refused and why. It creates flags: `write`
   * in the project, and no key bound to one environment (403).
   */
  readonly importFlags: (projectId: string, environment: string, document: unknown, options: ImportOptions) => Effect.Effect<ImportReport, ImportError>
}

export class FlagdImport extends Context.Tag("@flagport/services/FlagdImport")<FlagdImport, FlagdImportShape>() {}

type Translated = Extract<FlagTranslation, { _tag: "Translated" }>

export const make = Effect.gen(function* () {
  const flags = yield* Flags
  const environments = yield* Environments
  const writes = yield* Writes.writer
  const changeRequests = yield* ChangeRequests

  /** The targeting a person may not write directly, proposed as change requests of `environment` (50 flags each). */
  const propose = (projectId: string, environment: string, translated: ReadonlyArray<Translated>) =>
    Effect.forEach(Array.from({ length: Math.ceil(translated.length / MAX_CHANGES) }, (_, i) => translated.slice(i * MAX_CHANGES, (i + 1) * MAX_CHANGES)), (chunk) =>
      Effect.map(
        changeRequests.open(projectId, {
          title: `Import from flagd: ${chunk.length} flag${chunk.length === 1 ? "" : "s"} in ${environment}`,
          environment,
          changes: chunk.map((t) => ({ flagKey: t.key, targeting: { prerequisites: [], ...t.targeting } }))
        }),
        (request): ProposedChange => ({ id: request.id, flagKeys: chunk.map((t) => t.key) })
      ))

  const importFlags = Effect.fn("FlagdImport.importFlags")(function* (projectId: string, environment: string, document: unknown, options: ImportOptions) {
    yield* authorize("FlagdImport.importFlags", projectId)
    const envs = yield* environments.list(projectId)
    const target = envs.find((env) => env.key === environment)
    if (target === undefined) return yield* environmentNotFound(projectId, environment)
    // Through change requests: a person's targeting in a protected environment (ProtectionRule.ts).
    const proposing = target.protected && isPersonsHand(yield* CurrentActor)
    const translated = translateDocument(document)
    if (Either.isLeft(translated)) {
      return yield* new InvalidRequest({ message: "Not a flagd flag definition file", details: [{ path: "", message: translated.left.message }] })
    }
    const existing = new Set((yield* flags.list(projectId)).map((flag) => flag.key))
    const checked: ReadonlyArray<FlagTranslation> = translated.right.map((t) =>
      t._tag === "Translated" && existing.has(t.key)
        ? {
          _tag: "Refused",
          key: t.key,
          refusal: { path: formatPath(["flags", t.key]), reason: `project ${JSON.stringify(projectId)} already has a flag ${JSON.stringify(t.key)}; an import only creates flags (delete it first, or leave it out of the file)` }
        }
        : t
    )
    const refused = checked.some((t) => t._tag === "Refused")
    const writing = !options.dryRun && (!refused || options.skipUnsupported)
    const toWrite = checked.filter((t): t is Translated => t._tag === "Translated")
    const written = writing && toWrite.length > 0
    const proposed: ReadonlyArray<ProposedChange> = written
      ? yield* writes.spanning(
        projectId,
        Effect.zipRight(
          Effect.forEach(toWrite, (t) =>
            proposing
              ? flags.create(projectId, t.flag)
              : Effect.zipRight(flags.create(projectId, t.flag), flags.replaceTargeting(projectId, t.key, { environment, prerequisites: [], ...t.targeting })), { discard: true }),
          proposing ? propose(projectId, environment, toWrite) : Effect.succeed([])
        )
      )
      : []
    const outcomes = checked.map((t): FlagOutcome =>
      t._tag === "Translated"
        ? { key: t.key, result: proposing ? (writing ? "proposed" : "would propose") : writing ? "imported" : "would import", rules: t.targeting.rules.length }
        : { key: t.key, result: options.skipUnsupported ? "skipped" : "refused", path: t.refusal.path, reason: t.refusal.reason }
    )
    return { projectId, environment, written, flags: outcomes, changeRequests: proposed } satisfies ImportReport
  })

  return FlagdImport.of({ importFlags })
})

export const layer = Layer.effect(FlagdImport, make)
