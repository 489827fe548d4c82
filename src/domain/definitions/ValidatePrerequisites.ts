/**
 * Write-time validation of prerequisites (PUT targeting, environment copy): each names a flag of
 * the project and one of its variations, at most once, and the project's graph in the environment
 * written stays evaluable (PrerequisiteGraph.ts: no cycle, not too deep, bounded work). The graph
 * check counts every configuration's prerequisites, enabled or not, so enabling a flag later can
 * never make a cycle appear.
 */
import type { Problem } from "../Errors.js"
import type { Flag } from "./Flag.js"
import * as PrerequisiteGraph from "./PrerequisiteGraph.js"
import type { Prerequisite } from "./Targeting.js"
import { countProblem } from "./ValidateConditions.js"

/** The project's flags as prerequisite validation sees them, in one environment. */
export interface ProjectGraph {
  /** The variation keys of each flag of the project. */
  readonly variations: ReadonlyMap<string, ReadonlySet<string>>
  /** The flag keys each flag's configuration in the environment requires. */
  readonly requires: ReadonlyMap<string, ReadonlyArray<string>>
}

/** The graph of `flags` in `environment`. */
export const projectGraph = (flags: ReadonlyArray<Flag>, environment: string): ProjectGraph => ({
  variations: new Map(flags.map((flag) => [flag.key, new Set(flag.variations.map((v) => v.key))])),
  requires: new Map(
    flags.map((flag) => [flag.key, (flag.configs.find((c) => c.environmentKey === environment)?.prerequisites ?? []).map((p) => p.flagKey)])
  )
})

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The first graph problem with `changes` applied (flag key -> its new prerequisite keys), naming
 * the flag it concerns; undefined when every flag stays evaluable.
 */
export const graphProblem = (graph: ProjectGraph, changes: ReadonlyMap<string, ReadonlyArray<string>>): string | undefined => {
  const verdict = PrerequisiteGraph.checker((key) => changes.get(key) ?? graph.requires.get(key))
  // The changed flags first, so the message speaks of the flag written when it is the culprit.
  const keys = [...changes.keys(), ...graph.requires.keys()]
  for (const key of keys) {
    const { problem } = verdict(key)
    if (problem !== null) return `flag ${JSON.stringify(key)}: ${problem}`
  }
  return undefined
}

/** Problems of the prerequisites sent for `flagKey` (path `prerequisites...`); empty when acceptable. */
export const validatePrerequisites = (flagKey: string, prerequisites: unknown, graph: ProjectGraph): ReadonlyArray<Problem> => {
  const path = "prerequisites"
  if (prerequisites === undefined) return []
  if (!Array.isArray(prerequisites)) return [{ path, message: "must be an array" }]
  const tooMany = countProblem(prerequisites, path, "prerequisitesPerConfiguration")
  if (tooMany.length > 0) return tooMany
  const problems: Array<Problem> = []
  const seen = new Set<string>()
  prerequisites.forEach((p: unknown, i) => {
    const at = `${path}[${i}]`
    if (!isRecord(p)) {
      problems.push({ path: at, message: "must be an object with flagKey and variationKey" })
      return
    }
    const variations = typeof p.flagKey === "string" ? graph.variations.get(p.flagKey) : undefined
    if (typeof p.flagKey !== "string" || variations === undefined) {
      problems.push({ path: `${at}.flagKey`, message: `unknown flag ${JSON.stringify(p.flagKey)}` })
      return
    }
    if (p.flagKey === flagKey) problems.push({ path: `${at}.flagKey`, message: "a flag cannot require itself" })
    else if (seen.has(p.flagKey)) problems.push({ path: `${at}.flagKey`, message: `duplicate prerequisite ${JSON.stringify(p.flagKey)}` })
    seen.add(p.flagKey)
    if (typeof p.variationKey !== "string" || !variations.has(p.variationKey)) {
      problems.push({ path: `${at}.variationKey`, message: `unknown variation ${JSON.stringify(p.variationKey)} of flag ${JSON.stringify(p.flagKey)}` })
    }
  })
  if (problems.length > 0) return problems
  const problem = graphProblem(graph, new Map([[flagKey, (prerequisites as ReadonlyArray<Prerequisite>).map((p) => p.flagKey)]]))
  return problem === undefined ? [] : [{ path, message: problem }]
}
