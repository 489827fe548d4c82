/**
 * The one rule for which prerequisite graphs can be evaluated, shared by write-time validation
 * (Validation.ts: a write that breaks it is a 400) and by `compile` (evaluation/Compile.ts: a flag
 * that breaks it, whatever the stored data, answers ERROR instead of looping). A flag's graph is
 * evaluable when
 *
 * - it reaches no cycle (a flag requiring itself, directly or through others),
 * - its longest chain of prerequisites is at most `prerequisiteDepth` levels (a flag whose
 *   prerequisites have none is 1 level deep),
 * - evaluating it needs at most `prerequisiteEvaluations` flag evaluations (a flag required along
 *   two paths counts twice: the evaluator does not memoize, so this bounds its work).
 *
 * Iterative depth-first search with memoized verdicts: linear in the graph, no recursion, so a
 * chain of any length written straight into the database cannot overflow the stack here either.
 */
import { limit } from "../Limits.js"

export interface Verdict {
  /** Levels of prerequisites below the flag (0: it requires nothing). */
  readonly depth: number
  /** Flag evaluations one evaluation of it needs (itself included), saturated above the limit. */
  readonly evaluations: number
  /** Why the flag's prerequisites cannot be evaluated, or null when they can. */
  readonly problem: string | null
}

/** The keys a flag requires; undefined or empty for a flag that requires nothing or does not exist. */
export type Edges = (flagKey: string) => ReadonlyArray<string> | undefined

interface Frame {
  readonly key: string
  readonly requires: ReadonlyArray<string>
  next: number
  depth: number
  evaluations: number
  problem: string | null
}

const NONE: Verdict = { depth: 0, evaluations: 1, problem: null }

/**
 * A checker over one graph: `verdict(key)` for any flag key, memoized across calls (build a new
 * checker when the graph changes).
 */
export const checker = (edges: Edges): ((flagKey: string) => Verdict) => {
  const maxDepth = limit("prerequisiteDepth")
  const maxEvaluations = limit("prerequisiteEvaluations")
  const done = new Map<string, Verdict>()
  const onPath = new Set<string>()

  const finish = (frame: Frame): Verdict => {
    let problem = frame.problem
    if (problem === null && frame.depth > maxDepth) problem = `prerequisites nest ${frame.depth} levels deep, more than ${maxDepth}`
    if (problem === null && frame.evaluations > maxEvaluations) {
      problem = `prerequisites need more than ${maxEvaluations} flag evaluations`
    }
    return { depth: frame.depth, evaluations: Math.min(frame.evaluations, maxEvaluations + 1), problem }
  }

  return (root) => {
    const known = done.get(root)
    if (known !== undefined) return known
    const open = (key: string): Frame => {
      onPath.add(key)
      return { key, requires: edges(key) ?? [], next: 0, depth: 0, evaluations: 1, problem: null }
    }
    const stack: Array<Frame> = [open(root)]
    let verdict: Verdict = NONE
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      if (frame.next < frame.requires.length && frame.problem === null) {
        const child = frame.requires[frame.next++]!
        const childVerdict = done.get(child)
        if (childVerdict !== undefined) {
          absorb(frame, child, childVerdict)
        } else if (onPath.has(child)) {
          const path = stack.map((f) => f.key)
          frame.problem = `prerequisites form a cycle: ${[...path.slice(path.indexOf(child)), child].join(" -> ")}`
        } else {
          stack.push(open(child))
        }
        continue
      }
      stack.pop()
      onPath.delete(frame.key)
      verdict = finish(frame)
      done.set(frame.key, verdict)
      const parent = stack[stack.length - 1]
      if (parent !== undefined) absorb(parent, frame.key, verdict)
    }
    return verdict
  }
}

const absorb = (frame: Frame, child: string, verdict: Verdict): void => {
  if (verdict.problem !== null) {
    frame.problem ??= verdict.problem.startsWith("prerequisites form a cycle") ? verdict.problem : `prerequisite ${JSON.stringify(child)}: ${verdict.problem}`
    return
  }
  frame.depth = Math.max(frame.depth, verdict.depth + 1)
  frame.evaluations += verdict.evaluations
}
