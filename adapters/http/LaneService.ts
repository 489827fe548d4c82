/**
 * The evaluation lane as an Effect service: it wires `Lane` to the storage services (through a
 * runtime captured at construction) so the plain-function hot path can call them when a cache
 * entry must be (re)loaded. Built once per app; the caches live as long as the app.
 */
import { Cause, Context, Effect, Exit, Layer, Option, Runtime } from "effect"
import { ApiKeys } from "../../src/services/ApiKeys.js"
import { Snapshots } from "../../src/services/Snapshots.js"
import { Lane } from "./EvaluationLane.js"
import { KeyCache } from "./KeyCache.js"
import { SnapshotCache } from "./SnapshotCache.js"

export class EvaluationLane extends Context.Tag("@flagport/http/EvaluationLane")<EvaluationLane, Lane>() {}

export interface LaneConfig {
  /** Revocation lag bound: how long an authenticated key is trusted without a lookup (1000 ms). */
  readonly keyTtlMs?: number
  /** Freshness bound: how often a cached project's revision is re-read (250 ms). */
  readonly checkIntervalMs?: number
}

/** A defect (not a domain failure) from a storage call, kept whole for the log. */
export class Defect extends Error {
  constructor(override readonly cause: Cause.Cause<unknown>) {
    super(Cause.pretty(cause))
  }
}

export const make = (config: LaneConfig = {}) =>
  Effect.gen(function* () {
    const apiKeys = yield* ApiKeys
    const snapshots = yield* Snapshots
    const runtime = yield* Effect.runtime<never>()
    const runExit = Runtime.runPromiseExit(runtime)
    const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> =>
      runExit(effect).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        const failure = Cause.failureOption(exit.cause)
        throw Option.isSome(failure) ? failure.value : new Defect(exit.cause)
      })
    const logInternal = (cause: unknown) => {
      Runtime.runFork(runtime)(
        Effect.logError("Internal error while answering an evaluation request", cause instanceof Defect ? cause.cause : Cause.die(cause))
      )
    }
    const keys = new KeyCache((token) => run(Effect.map(apiKeys.authenticate(token), Option.getOrNull)), {
      ...(config.keyTtlMs === undefined ? {} : { ttlMs: config.keyTtlMs })
    })
    const cache = new SnapshotCache(
      {
        revision: (projectId) => run(snapshots.revision(projectId)),
        snapshot: (projectId, environment) => run(snapshots.snapshot(projectId, environment))
      },
      config.checkIntervalMs === undefined ? {} : { checkIntervalMs: config.checkIntervalMs }
    )
    return new Lane({ keys, snapshots: cache, logInternal })
  })

export const layer = (config: LaneConfig = {}) => Layer.effect(EvaluationLane, make(config))
