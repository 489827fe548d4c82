/**
 * `flagport_evaluations_total` by project, environment and reason: counted where the lane already
 * counts evaluations for insights (the same calls, `MeteredCounter`), one number added in place per
 * result. Project and environment ids are bounded by the data (the projects and environments that
 * exist, and the lane only counts a scope whose snapshot it loaded); the reason is one of five kinds.
 * No per-flag series: insights (docs/guide/insights.md) already holds counts per flag and variation.
 */
import type { EvaluationResult } from "../../src/domain/evaluation/EvaluationResult.js"
import type { EvaluationCounter } from "../../src/domain/insights/EvaluationCounter.js"
import { promMetric, type PromMetric, type PromValues } from "./Cells.js"

/** Counts of one (project, environment) by reason kind. */
class ReasonCells {
  OFF = 0
  FALLTHROUGH = 0
  RULE_MATCH = 0
  PREREQUISITE_FAILED = 0
  ERROR = 0
}

const KINDS = ["OFF", "FALLTHROUGH", "RULE_MATCH", "PREREQUISITE_FAILED", "ERROR"] as const

export class EvaluationMetrics {
  /** project -> environment -> cells: two lookups on strings the request already has. */
  private readonly scopes = new Map<string, Map<string, ReasonCells>>()

  cells(projectId: string, environment: string): ReasonCells {
    let byEnv = this.scopes.get(projectId)
    if (byEnv === undefined) {
      byEnv = new Map()
      this.scopes.set(projectId, byEnv)
    }
    let cells = byEnv.get(environment)
    if (cells === undefined) {
      cells = new ReasonCells()
      byEnv.set(environment, cells)
    }
    return cells
  }

  metrics(): ReadonlyArray<PromMetric> {
    return [
      promMetric("flagport_evaluations_total", "counter", "Flag evaluations answered by the server, by project id, environment and reason.", () => {
        const out: Array<PromValues["values"][number]> = []
        for (const [project, byEnv] of this.scopes) {
          for (const [environment, cells] of byEnv) {
            for (const reason of KINDS) out.push({ labels: { project, environment, reason }, value: cells[reason] })
          }
        }
        return out
      })
    ]
  }
}

/** What the lane asks of a counter (insights' `EvaluationCounter` has these two). */
export type LaneCounter = Pick<EvaluationCounter, "countsIn" | "countResult">

const bump = (cells: ReasonCells, result: EvaluationResult): void => {
  cells[result.reason.kind]++
}

/**
 * The lane's counter when metrics are on: each result counted by reason here, then handed to
 * insights' counter (if insights count). With metrics off the lane holds insights' counter itself,
 * so metrics cost nothing then.
 */
export class MeteredCounter implements LaneCounter {
  constructor(
    private readonly metrics: EvaluationMetrics,
    private readonly insights: LaneCounter | undefined
  ) {}

  countsIn(projectId: string, environment: string): (result: EvaluationResult) => void {
    const cells = this.metrics.cells(projectId, environment)
    const insights = this.insights?.countsIn(projectId, environment)
    return insights === undefined
      ? (result) => bump(cells, result)
      : (result) => {
        bump(cells, result)
        insights(result)
      }
  }

  countResult(projectId: string, environment: string, result: EvaluationResult): void {
    bump(this.metrics.cells(projectId, environment), result)
    this.insights?.countResult(projectId, environment, result)
  }
}
