/**
 * Exposures the server records for its own evaluation routes (docs/guide/experiments.md): when a
 * flag has a measured rule in the environment (a running experiment's, or a running release plan's
 * guardrails: `MeasuredRule.ts`) and that rule served,
 * the unit (the rule's `bucketBy` value) is handed to the ingestion queue (`Ingestion.offer`:
 * no waiting, dropped and counted when full), so recording never slows or fails the answer.
 *
 * Which flags and rules are measured is an in-memory index, per project and environment, read
 * from storage when the lane starts and again for a project whenever the change feed announces a
 * change of it (starting and stopping an experiment are announced like a targeting change, and
 * other processes' reach this one through the feed), or when the snapshot cache's revision check
 * finds one no announcement brought. An evaluation asks the index two map lookups: `in` answers
 * undefined for an environment nothing measures, and the route then does exactly what it did
 * before experiments existed.
 *
 * A unit evaluated again and served the same variation changes nothing stored (its first exposure
 * is earlier, the variation already seen), so an exposure this process already queued is not
 * queued again (`Recent`): a returning unit costs a set lookup, not a row write.
 */
import { type UnitExposure, unitExposureOf } from "../../../src/domain/experiments/Exposure.js"
import type { MeasuredRule } from "../../../src/domain/experiments/MeasuredRule.js"
import type { EvaluationResult } from "../../../src/domain/evaluation/EvaluationResult.js"
import * as Evaluate from "../../../src/domain/evaluation/Evaluate.js"
import { isIngestibleUnit } from "../../../src/domain/definitions/IngestUnit.js"

/** Sees one evaluation of an environment some experiment measures. */
export type ExposureTap = (flag: Evaluate.CompiledFlag, result: EvaluationResult, context: Evaluate.LocalContext) => void

interface Measured {
  readonly rule: MeasuredRule
  /** The units this process queued, per variation served. */
  readonly recent: Map<string, Recent>
}

export interface ServerExposuresOptions {
  /** The project's measured rules (running experiments and release plans), from storage. */
  readonly running: (projectId: string) => Promise<ReadonlyArray<MeasuredRule>>
  /** Where a recorded exposure goes (Ingestion.offer). */
  readonly offer: (exposure: UnitExposure) => boolean
  readonly logError: (message: string, error: unknown) => void
  /** The clock (epoch ms); `Date.now` unless a test says otherwise. */
  readonly now?: () => number
}

/** Recent units of one experiment and variation, at most about `capacity`: two generations, the older dropped when the newer fills. */
export class Recent {
  private current = new Set<string>()
  private previous = new Set<string>()

  constructor(private readonly capacity = 100_000) {}

  /** True when `key` was added recently; otherwise adds it and answers false. */
  seen(key: string): boolean {
    if (this.current.has(key) || this.previous.has(key)) return true
    if (this.current.size >= this.capacity / 2) {
      this.previous = this.current
      this.current = new Set()
    }
    this.current.add(key)
    return false
  }

  /** Forgets `key` (its exposure was not queued after all). */
  forget(key: string): void {
    this.current.delete(key)
    this.previous.delete(key)
  }
}

export class ServerExposures {
  /** project -> measured rule's id -> its recent units per variation (a stopped one's go at the project's next read). */
  private readonly known = new Map<string, ReadonlyMap<string, Map<string, Recent>>>()
  /** project -> environment -> the tap of that environment's measured flags. */
  private readonly taps = new Map<string, ReadonlyMap<string, ExposureTap>>()
  /** The latest read asked per project: an older read answering late is ignored. */
  private readonly reads = new Map<string, number>()
  private readonly now: () => number

  constructor(private readonly options: ServerExposuresOptions) {
    this.now = options.now ?? Date.now
  }

  /** The tap of an environment, or undefined when no running experiment measures any of its flags. */
  in(projectId: string, environment: string): ExposureTap | undefined {
    return this.taps.get(projectId)?.get(environment)
  }

  /** Replaces what the index knows of a project with its measured rules. */
  set(projectId: string, running: ReadonlyArray<MeasuredRule>): void {
    const byEnvironment = new Map<string, Map<string, Array<Measured>>>()
    const before = this.known.get(projectId)
    const known = new Map<string, Map<string, Recent>>()
    for (const rule of running) {
      if (rule.startedAt === null) continue
      const measures = byEnvironment.get(rule.environment) ?? new Map<string, Array<Measured>>()
      // The units already queued survive a refresh (the same experiment or plan read again).
      const recent = before?.get(rule.id) ?? new Map<string, Recent>()
      known.set(rule.id, recent)
      // A flag may be measured twice (an experiment and a release plan): each records its own units.
      measures.set(rule.flagKey, [...(measures.get(rule.flagKey) ?? []), { rule, recent }])
      byEnvironment.set(rule.environment, measures)
    }
    this.known.set(projectId, known)
    if (byEnvironment.size === 0) this.taps.delete(projectId)
    else this.taps.set(projectId, new Map([...byEnvironment].map(([environment, measures]) => [environment, this.tapOf(measures)])))
  }

  /** Reads the project's measured rules again (a change of it was announced or found). */
  refresh(projectId: string): void {
    const read = (this.reads.get(projectId) ?? 0) + 1
    this.reads.set(projectId, read)
    this.options.running(projectId).then(
      (running) => {
        if (this.reads.get(projectId) === read) this.set(projectId, running)
      },
      (error: unknown) => this.options.logError(`Reading the measured rules (running experiments and release plans) of project '${projectId}' failed; the next change of it reads them again`, error)
    )
  }

  private tapOf(measures: ReadonlyMap<string, ReadonlyArray<Measured>>): ExposureTap {
    const { offer } = this.options
    const now = this.now
    return (flag, result, context) => {
      const measuring = measures.get(flag.key)
      if (measuring === undefined) return
      const reason = result.reason
      const variationKey = result.variationKey
      if (reason.kind !== "RULE_MATCH" || variationKey === null) return
      for (const measured of measuring) {
        const ruleId = measured.rule.ruleId
        if (reason.ruleId !== ruleId) continue
        const unit = Evaluate.rolloutUnit(flag, ruleId, context, reason.ruleIndex)
        // A context key may be longer than a unit may be (and a client key's holder picks it): such a
        // unit is not recorded, as POST /v1/exposures would refuse it.
        if (!isIngestibleUnit(unit)) return
        let recent = measured.recent.get(variationKey)
        if (recent === undefined) {
          recent = new Recent()
          measured.recent.set(variationKey, recent)
        }
        if (recent.seen(unit)) continue
        const exposure = unitExposureOf(measured.rule, unit, variationKey, now())
        if (exposure === null || !offer(exposure)) recent.forget(unit)
      }
    }
  }
}
