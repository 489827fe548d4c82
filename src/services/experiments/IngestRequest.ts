/**
 * What `POST /v1/exposures` and `POST /v1/track` do alike around their items, in one place: the
 * key's scope checked as an evaluation's; every item's problems found before anything is looked
 * up; the key's hourly budget (429 past it; charged only for a request written, not for a resent
 * batch or a failed request); the project and environment looked up (404); the rules measured
 * there read (running experiments and release plans). Then the items kept are committed through the group commit, and /metrics
 * counts them once (or as a duplicate batch). Each route says only which items it keeps.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type { Principal } from "../../domain/auth/ApiKey.js"
import * as Policy from "../../domain/auth/Policy.js"
import { InvalidRequest, type Problem, RateLimited } from "../../domain/Errors.js"
import type { IngestReceipt } from "../../domain/experiments/Exposure.js"
import type { MeasuredRule } from "../../domain/experiments/MeasuredRule.js"
import { environmentNotFound } from "../../domain/NotFound.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import type { IngestRoute } from "../../ports/ExperimentUnitRepository.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { IngestMetrics } from "../operations/IngestMetrics.js"
import { requireProject } from "../shared/RequireProject.js"
import { IngestBudget } from "./IngestBudget.js"
import { Ingestion, type IngestWrite } from "./Ingestion.js"
import { makeRunningMeasures } from "./RunningMeasures.js"

const HOUR_MS = 3_600_000

/** A request's scope and size, as both routes' bodies carry them. */
export interface IngestScope {
  readonly projectId?: string | undefined
  readonly environment?: string | undefined
  readonly batchId?: string | undefined
}

/** The request handling of `route`, counted in `metrics`. */
/** What a route keeps of a request's items, once they are admitted, and the receipt it answers. */
export interface Kept {
  readonly items: Omit<IngestWrite, "batch">
  readonly receipt: Omit<IngestReceipt, "duplicate">
}

/** The request handling of `route`, counted in `metrics`. */
export const makeIngestRequest = (route: IngestRoute, metrics: IngestMetrics) =>
  Effect.gen(function* () {
    const measured = yield* makeRunningMeasures
    const projects = yield* ProjectRepository
    const environments = yield* EnvironmentRepository
    const budget = yield* IngestBudget
    const ingestion = yield* Ingestion

    /**
     * The request's `count` items past its checks, or the refusal (counted as refused): its
     * project and environment, the time it is handled, and the rules measured there. The
     * key's budget is taken here, before anything is looked up, so concurrent requests cannot
     * overdraw it; `handle` gives it back when the request keeps nothing.
     */
    const admit = (principal: Principal, scope: IngestScope, count: number, problemsAt: (now: number) => ReadonlyArray<Problem>) =>
      Effect.gen(function* () {
        const allowed = Policy.authorizeEvaluation(principal, scope.projectId, scope.environment)
        if (Either.isLeft(allowed)) return yield* allowed.left
        const { projectId, environment } = allowed.right
        const now = yield* Clock.currentTimeMillis
        const refused = Metric.incrementBy(metrics.refused, count)
        const problems = problemsAt(now)
        if (problems.length > 0) {
          yield* refused
          return yield* new InvalidRequest({ message: "The request is invalid.", details: [...problems] })
        }
        if (!budget.take(principal.keyId, count, now)) {
          yield* refused
          return yield* new RateLimited({
            // The budget this server applies (the limit's value unless configured otherwise), not a constant.
            message: `This key sent more than ${budget.cap.toLocaleString("en-US")} items this hour; send again after the hour`,
            retryAfterSeconds: Math.ceil((HOUR_MS - (now % HOUR_MS)) / 1000)
          })
        }
        const looked = Effect.gen(function* () {
          yield* requireProject(projects, projectId)
          if (Option.isNone(yield* environments.get(projectId, environment))) return yield* environmentNotFound(projectId, environment)
          return yield* measured(projectId, environment)
        })
        const running = yield* Effect.tapError(looked, () => Effect.sync(() => budget.giveBack(principal.keyId, count, now)))
        return { now, running }
      })

    /** Commits what a request keeps (its batch id recorded with it, apart from the other route's) and counts it: the request's receipt. */
    const commit = (principal: Principal, scope: IngestScope, now: number, count: number, kept: Kept) =>
      Effect.gen(function* () {
        const fresh = yield* ingestion.commit({
          ...kept.items,
          batch: scope.batchId === undefined ? undefined : { keyId: principal.keyId, route, batchId: scope.batchId, receivedAt: new Date(now).toISOString() }
        })
        if (fresh) {
          yield* Metric.incrementBy(metrics.accepted.sdk, kept.receipt.accepted)
          yield* Metric.incrementBy(metrics.dropped.not_measured, kept.receipt.dropped)
        } else yield* Metric.incrementBy(metrics.duplicate, count)
        return { ...kept.receipt, duplicate: !fresh }
      })

    /**
     * A request of `count` items, its items' problems at a time found by `problemsAt`: admitted,
     * then what `keep` keeps committed. The key's hourly budget is charged only for a request that
     * was written: a resent batch (a duplicate) and a request that failed give back what they took.
     * A request cut off while its round commits stays charged: its items may have been written.
     */
    const handle = (
      principal: Principal,
      scope: IngestScope,
      count: number,
      problemsAt: (now: number) => ReadonlyArray<Problem>,
      keep: (now: number, running: ReadonlyArray<MeasuredRule>) => Kept
    ) =>
      Effect.gen(function* () {
        const { now, running } = yield* admit(principal, scope, count, problemsAt)
        const giveBack = Effect.sync(() => budget.giveBack(principal.keyId, count, now))
        const receipt = yield* Effect.tapError(commit(principal, scope, now, count, keep(now, running)), () => giveBack)
        if (receipt.duplicate) yield* giveBack
        return receipt
      })

    return { handle }
  })
