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
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { type ChangeRequestRequired, type Forbidden, InvalidRequest, type PreconditionFailed, type ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { type FlagTranslation, translateDocument } from "../../domain/flagd/FlagdDocument.js"
import { formatPath } from "../../domain/flagd/Refusal.js"
import { environmentNotFound } from "../../domain/NotFound.js"
import type { StorageError } from "../../ports/StorageError.js"
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

/** One flag of the file, as the summary shows it. */
export type FlagOutcome =
  | { readonly key: string; readonly result: "imported" | "would import"; readonly rules: number }
  | { readonly key: string; readonly result: "refused" | "skipped"; readonly path: string; readonly reason: string }

export interface ImportReport {
  readonly projectId: string
  readonly environment: string
  /** True when the flags marked imported were written (false for a dry run, or when a refusal stopped the import). */
  readonly written: boolean
  readonly flags: ReadonlyArray<FlagOutcome>
}

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

  const importFlags = Effect.fn("FlagdImport.importFlags")(function* (projectId: string, environment: string, document: unknown, options: ImportOptions) {
    yield* authorize("FlagdImport.importFlags", projectId)
    const envs = yield* environments.list(projectId)
    if (!envs.some((env) => env.key === environment)) return yield* environmentNotFound(projectId, environment)
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
    if (writing && toWrite.length > 0) {
      yield* writes.spanning(
        projectId,
        Effect.forEach(toWrite, (t) =>
          Effect.zipRight(
            flags.create(projectId, t.flag),
            flags.replaceTargeting(projectId, t.key, { environment, prerequisites: [], ...t.targeting })
          ), { discard: true })
      )
    }
    const outcomes = checked.map((t): FlagOutcome =>
      t._tag === "Translated"
        ? { key: t.key, result: writing ? "imported" : "would import", rules: t.targeting.rules.length }
        : { key: t.key, result: options.skipUnsupported ? "skipped" : "refused", path: t.refusal.path, reason: t.refusal.reason }
    )
    return { projectId, environment, written: writing && toWrite.length > 0, flags: outcomes }
  })

  return FlagdImport.of({ importFlags })
})

export const layer = Layer.effect(FlagdImport, make)
