import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
/** What a change was about (`experiment`: an experiment, or a release plan, started or stopped running, which changes the rules `GET /v1/config` names as measured). */
export type ChangeKind = "project" | "environment" | "flag" | "targeting" | "segment" | "experiment"

/**
 * A committed write that can change what a project serves: its snapshot revision is now
 * `revision` (or newer), and the configuration of `environments` may differ ("all": every
 * environment of the project, e.g. a flag definition or a segment, which every environment's
 * snapshot carries).
 *
 * `flagKeys` and `segmentKeys` name what changed, so a consumer can describe or filter the change
 * without reading storage; an empty list means the change named none of that kind. A feed may
 * widen a change (more environments, `"all"`) but never narrows it.
 */
export interface ConfigChanged {
  readonly _tag: "ConfigChanged"
  readonly projectId: string
  readonly revision: number
  readonly environments: ReadonlyArray<string> | "all"
  readonly kind: ChangeKind
  readonly flagKeys: ReadonlyArray<string>
  readonly segmentKeys: ReadonlyArray<string>
}

/** A configuration change of a project at `revision`; unnamed lists are empty, environments "all". */
export const configChanged = (
  projectId: string,
  revision: number,
  kind: ChangeKind,
  named: {
    readonly environments?: ReadonlyArray<string> | "all"
    readonly flagKeys?: ReadonlyArray<string>
    readonly segmentKeys?: ReadonlyArray<string>
  } = {}
): ConfigChanged => ({
  _tag: "ConfigChanged",
  projectId,
  revision,
  environments: named.environments ?? "all",
  kind,
  flagKeys: named.flagKeys ?? [],
  segmentKeys: named.segmentKeys ?? []
})

/** An API key was revoked (its project is `null` for a key valid in every project). */
export interface ApiKeyRevoked {
  readonly _tag: "ApiKeyRevoked"
  readonly keyId: string
  readonly projectId: string | null
}

export type Change = ConfigChanged | ApiKeyRevoked

/** Called once per change, synchronously, in publication order within one process. */
export type ChangeListener = (change: Change) => void

export interface ChangeFeedShape {
  /**
   * Announces a committed change. The use cases call it after their transaction commits, never
   * for one rolled back. Every listener of this process has been called when it returns (so a
   * response sent afterwards never races the announcement); other processes on the same database
   * hear of it shortly after, when the backend carries changes between processes. Never fails:
   * the write is already committed, and a lost announcement is covered by consumers that also
   * re-read storage now and then.
   */
  readonly publish: (change: Change) => Effect.Effect<void>
  /**
   * Calls `listener` with every change published from now on (by this process, and by others
   * when the backend carries them) until the scope closes. One fan-out per change whatever the
   * number of listeners: a listener must be quick and must not throw (hand heavy work to a fiber
   * or a queue of its own); one that throws is logged and the others still run.
   */
  readonly subscribe: (listener: ChangeListener) => Effect.Effect<void, never, Scope.Scope>
}

/**
 * The change feed: how the use cases announce committed writes to whoever serves them (the
 * evaluation caches, live streams, dashboards, the webhook dispatcher), in this process and,
 * on a shared database, in the others.
 */
export class ChangeFeed extends Context.Tag("@flagport/ports/ChangeFeed")<ChangeFeed, ChangeFeedShape>() {}
