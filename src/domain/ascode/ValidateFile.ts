/**
 * Everything wrong with a project file, each problem with its path in the file
 * (`flags[2].environments[0].rules[1].conditions[0].operator`), before anything is applied.
 *
 * Two passes over the same input, merged: the schema's (shapes, types, unknown fields) and the
 * API's own validation of each item, exactly as its POST or PUT would run it (Validation.ts,
 * ValidatePrerequisites.ts), with the item's path in front. The second pass reads the raw input
 * defensively, so a file with a type error in one flag still has its other flags checked. Where
 * both passes speak of the same path, the API's message (in its words) is kept.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Problem } from "../Errors.js"
import type { Flag, FlagType, Variation } from "../definitions/Flag.js"
import type { Prerequisite, Rule, RuleInput, TargetingInput } from "../definitions/Targeting.js"
import * as Validation from "../definitions/Validation.js"
import { validatePrerequisites, type ProjectGraph } from "../definitions/ValidatePrerequisites.js"
import { draftOf } from "../releaseplans/Drafts.js"
import { type PlanFlag, planProblems } from "../releaseplans/PlanRules.js"
import { planFor } from "./FileReleasePlans.js"
import { adoptIds } from "./Plan.js"
import { FileReleasePlan, ProjectFile } from "./ProjectFile.js"
import type { ProjectState } from "./ProjectState.js"

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const arrayOf = (u: unknown): ReadonlyArray<unknown> => (Array.isArray(u) ? u : [])
const records = (u: unknown): ReadonlyArray<readonly [Record<string, unknown>, number]> =>
  arrayOf(u).flatMap((item, i) => (isRecord(item) ? [[item, i] as const] : []))

/** `["flags", 2, "key"]` -> `flags[2].key`. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((out, segment) => (typeof segment === "number" ? `${out}[${segment}]` : out === "" ? String(segment) : `${out}.${String(segment)}`), "")

const under = (prefix: string, problems: ReadonlyArray<Problem>): Array<Problem> =>
  problems.map((p) => ({ path: p.path === "" ? prefix : `${prefix}.${p.path}`, message: p.message }))

const decodeFile = Schema.decodeUnknownEither(ProjectFile, { errors: "all", onExcessProperty: "error" })

/** The schema's problems, one per path (a union's alternatives say "Expected a | b", not one line each). */
const shapeProblems = (input: unknown): Array<Problem> => {
  const decoded = decodeFile(input)
  if (Either.isRight(decoded)) return []
  const issues = ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((i) => ({ path: formatPath(i.path), message: i.message }))
  // An optional field's other alternative ("Expected undefined") says nothing once a problem inside it is reported.
  const inside = (path: string) => issues.some((i) => i.path.length > path.length && i.path.startsWith(path) && /^[.[]/.test(i.path.slice(path.length)))
  const byPath = new Map<string, Array<string>>()
  for (const issue of issues) {
    if (issue.message.startsWith("Expected undefined,") && (issue.path === "" || inside(issue.path))) continue
    byPath.set(issue.path, [...(byPath.get(issue.path) ?? []), issue.message])
  }
  return [...byPath].map(([path, messages]) => {
    const expected = messages.map((m) => /^Expected (.+), actual (.+)$/s.exec(m))
    if (messages.length > 1 && expected.every((m) => m !== null)) {
      const alternatives = expected.map((m) => m![1]).filter((e) => e !== "undefined")
      return { path, message: `Expected ${alternatives.join(" | ")}, actual ${expected[0]![2]}` }
    }
    return { path, message: messages.filter((m) => !m.startsWith("Expected undefined")).join("; ") || messages[0]! }
  })
}

/** Duplicate `key`s (or another identifying field) in one list. */
const duplicates = (list: unknown, path: string, field = "key", why = ""): Array<Problem> => {
  const seen = new Set<unknown>()
  return records(list).flatMap(([item, i]) => {
    const value = item[field]
    if (typeof value !== "string") return []
    if (seen.has(value)) return [{ path: `${path}[${i}].${field}`, message: `duplicate ${field} ${JSON.stringify(value)}${why}` }]
    seen.add(value)
    return []
  })
}

const isFilePlan = Schema.is(FileReleasePlan)

/**
 * The flag as the file leaves it, as a release plan's rules read it (PlanRules.ts): the file's
 * variations, and in each environment the file's rules (ids as the plan will adopt them) or the
 * stored ones; a rule without an id cannot be named by a plan, so it is not among them.
 */
const flagAfterApply = (flag: Record<string, unknown>, stored: Flag | undefined, environments: ReadonlySet<string>): PlanFlag => ({
  variations: records(flag.variations).flatMap(([v]) => (typeof v.key === "string" ? [{ key: v.key }] : [])),
  configs: [...environments].map((environment) => {
    const kept = stored?.configs.find((c) => c.environmentKey === environment)?.rules ?? []
    const entry = records(flag.environments).find(([e]) => e.key === environment)?.[0]
    const rules = entry === undefined ? kept : adoptIds(records(entry.rules).map(([rule]) => rule as RuleInput), kept)
    return { environmentKey: environment, rules: rules.filter((rule): rule is Rule => typeof rule.id === "string") }
  })
})

/**
 * The flag's release plans: one per environment; a started plan the file redefines is refused
 * (FileReleasePlans.ts); a plan the apply creates or changes, or a draft it leaves as it is, is
 * checked by the plans' own rules against the flag the file makes (only once the flag itself has
 * no problem: its problems come first).
 */
const releasePlanProblems = (flag: Record<string, unknown>, at: string, current: ProjectState, afterApply: PlanFlag | undefined): Array<Problem> => {
  const problems = duplicates(flag.releasePlans, `${at}.releasePlans`, "environment", ": a flag has at most one release plan per environment")
  const flagKey = flag.key as string
  for (const [item, j] of records(flag.releasePlans)) {
    if (!isFilePlan(item)) continue
    const wanted = planFor(item, flagKey, current.releasePlans)
    if (wanted.kind === "refused") {
      problems.push({ path: `${at}.releasePlans[${j}]`, message: wanted.message })
      continue
    }
    const checked = wanted.kind !== "unchanged" || wanted.stored.status === "draft"
    if (checked && afterApply !== undefined) problems.push(...under(`${at}.releasePlans[${j}]`, planProblems(draftOf(item, flagKey, "", ""), afterApply)))
  }
  return problems
}

const keysOf = (list: unknown): Set<string> => new Set(records(list).flatMap(([item]) => (typeof item.key === "string" ? [item.key] : [])))

/** A targeting entry of the file as the body of PUT .../targeting in `environment`. */
export const targetingInput = (entry: Record<string, unknown>): TargetingInput => ({
  environment: entry.key as string,
  enabled: entry.enabled as boolean,
  defaultVariationKey: entry.defaultVariationKey as string,
  offVariationKey: entry.offVariationKey as string,
  prerequisites: (entry.prerequisites ?? []) as ReadonlyArray<Prerequisite>,
  rules: (entry.rules ?? []) as ReadonlyArray<RuleInput>
})

/** The prerequisite graph of the project once the file is applied, in one environment. */
const finalGraph = (input: Record<string, unknown>, current: ProjectState, prune: boolean, environment: string): ProjectGraph => {
  const variations = new Map<string, ReadonlySet<string>>()
  const requires = new Map<string, ReadonlyArray<string>>()
  const inFile = keysOf(input.flags)
  if (!prune) {
    for (const flag of current.flags.filter((f) => !inFile.has(f.key))) {
      variations.set(flag.key, new Set(flag.variations.map((v) => v.key)))
      requires.set(flag.key, (flag.configs.find((c) => c.environmentKey === environment)?.prerequisites ?? []).map((p) => p.flagKey))
    }
  }
  const stored = new Map(current.flags.map((f) => [f.key, f]))
  for (const [flag] of records(input.flags)) {
    if (typeof flag.key !== "string") continue
    variations.set(flag.key, new Set(records(flag.variations).map(([v]) => v.key as string)))
    const entry = records(flag.environments).find(([e]) => e.key === environment)?.[0]
    const prerequisites = entry !== undefined
      ? records(entry.prerequisites).map(([p]) => p.flagKey as string)
      : (stored.get(flag.key)?.configs.find((c) => c.environmentKey === environment)?.prerequisites ?? []).map((p) => p.flagKey)
    requires.set(flag.key, prerequisites)
  }
  return { variations, requires }
}

/** A flag already stored: its type cannot change, and a variation still used where the file does not reach cannot go. */
const againstStored = (flag: Record<string, unknown>, stored: Flag, state: { readonly listed: ReadonlySet<string> }): Array<Problem> => {
  if (flag.type !== stored.type) {
    return [{ path: "type", message: `the flag is a ${stored.type} flag: its type cannot change (delete the flag and create it again)` }]
  }
  const kept = new Set(records(flag.variations).map(([v]) => v.key))
  const untouched = stored.configs.filter((c) => !state.listed.has(c.environmentKey))
  const stillUsed = [...Validation.variationKeysInUse(untouched)].filter((key) => !kept.has(key))
  return stillUsed.length === 0
    ? []
    : [{ path: "variations", message: `variation(s) ${stillUsed.map((k) => JSON.stringify(k)).join(", ")} are used by its configuration in an environment the file does not list` }]
}

/** The API's validation of every item, with the item's path in front. */
const itemProblems = (input: Record<string, unknown>, current: ProjectState, prune: boolean): Array<Problem> => {
  const problems: Array<Problem> = [...duplicates(input.environments, "environments"), ...duplicates(input.segments, "segments"), ...duplicates(input.flags, "flags")]
  const environments = new Set([...keysOf(input.environments), ...current.environments.map((e) => e.key)])
  const segments = new Set([...keysOf(input.segments), ...(prune ? [] : current.segments.map((s) => s.key))])
  const stored = new Map(current.flags.map((f) => [f.key, f]))
  for (const [segment, i] of records(input.segments)) {
    problems.push(...under(`segments[${i}]`, Validation.validateCreateSegment(segment as never)))
    // The lists' files are beside the file, where only the command line can read them (FileKeyLists.ts).
    if (isRecord(segment) && segment.keys !== undefined) problems.push({ path: `segments[${i}].keys`, message: KEY_FILES_UNREADABLE })
  }
  const graphs = new Map<string, ProjectGraph>()
  const graphOf = (environment: string) => {
    const known = graphs.get(environment)
    if (known !== undefined) return known
    const graph = finalGraph(input, current, prune, environment)
    graphs.set(environment, graph)
    return graph
  }
  for (const [flag, i] of records(input.flags)) {
    const at = `flags[${i}]`
    const { environments: _targeting, ...definition } = flag
    const definitionProblems = Validation.validateCreateFlag(definition as never)
    problems.push(...under(at, definitionProblems))
    problems.push(...duplicates(flag.environments, `${at}.environments`))
    const listed = keysOf(flag.environments)
    const existing = typeof flag.key === "string" ? stored.get(flag.key) : undefined
    if (existing !== undefined) problems.push(...under(at, againstStored(flag, existing, { listed })))
    if (definitionProblems.some((p) => p.path === "type" || p.path.startsWith("variations"))) continue
    const target = { key: flag.key as string, type: flag.type as FlagType, variations: flag.variations as ReadonlyArray<Variation> }
    const before = problems.length
    for (const [entry, j] of records(flag.environments)) {
      const entryAt = `${at}.environments[${j}]`
      if (typeof entry.key === "string" && !environments.has(entry.key)) {
        problems.push({ path: `${entryAt}.key`, message: `unknown environment ${JSON.stringify(entry.key)}: list it under environments` })
        continue
      }
      const targeting = Validation.validateTargeting(target, targetingInput(entry), segments)
      problems.push(...under(entryAt, targeting.map((p) => (p.path === "environment" ? { ...p, path: "key" } : p))))
      if (typeof entry.key === "string" && Array.isArray(entry.prerequisites) && entry.prerequisites.length > 0) {
        problems.push(...under(entryAt, validatePrerequisites(target.key, entry.prerequisites, graphOf(entry.key))))
      }
    }
    const clean = problems.length === before && !definitionProblems.some((p) => p.path === "key")
    problems.push(...releasePlanProblems(flag, at, current, clean ? flagAfterApply(flag, existing, environments) : undefined))
  }
  return problems
}

/** Why a file naming key list files is refused where they cannot be read (over HTTP). */
export const KEY_FILES_UNREADABLE =
  "names key list files, which only `flagport apply` reads (beside the project file): the server cannot; " +
  "send the file without `keys` and upload each list with PUT /v1/projects/{projectId}/segments/{segmentKey}/keys/{list}"

/**
 * The decoded file, or every problem of it. `current` is the project as it is (its other flags,
 * segments and environments may be named by the file); with `prune`, what the file leaves out is
 * about to go and may not be named.
 */
export const validateFile = (
  input: unknown,
  current: ProjectState,
  options: { readonly prune: boolean }
): Either.Either<ProjectFile, ReadonlyArray<Problem>> => {
  if (!isRecord(input)) return Either.left([{ path: "", message: "must be an object with project, environments, segments and flags" }])
  const items = itemProblems(input, current, options.prune)
  const covered = new Set(items.map((p) => p.path))
  const problems = [...shapeProblems(input).filter((p) => !covered.has(p.path)), ...items]
  if (problems.length > 0) return Either.left(sortProblems(problems))
  return Either.right(Either.getOrThrow(decodeFile(input)))
}

/** Problems in the order of the file: by path, indexes compared as numbers. */
const sortProblems = (problems: ReadonlyArray<Problem>): Array<Problem> => {
  const parts = (path: string) => path.split(/[.[\]]+/).filter((s) => s !== "")
  const compare = (a: string, b: string) => {
    const pa = parts(a)
    const pb = parts(b)
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
      const x = pa[i]!
      const y = pb[i]!
      if (x === y) continue
      const nx = Number(x)
      const ny = Number(y)
      return Number.isInteger(nx) && Number.isInteger(ny) ? nx - ny : x < y ? -1 : 1
    }
    return pa.length - pb.length
  }
  return [...problems].sort((a, b) => compare(a.path, b.path))
}

/** The project a file names, when it names one (to choose the project before validating against it). */
export const projectIdOf = (input: unknown): string | undefined =>
  isRecord(input) && isRecord(input.project) && typeof input.project.id === "string" ? input.project.id : undefined
