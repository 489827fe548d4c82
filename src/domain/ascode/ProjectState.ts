/**
 * What a project holds, as the file sees it: the stored project, environments, segments, flags and
 * their release plans.
 * Export writes it as a file (`toFile`, in the file's stable order); a plan compares it with one.
 */
import type { Flag } from "../definitions/Flag.js"
import type { Environment, Project } from "../definitions/Project.js"
import { DEFAULT_KEY_ATTRIBUTE, type Segment } from "../definitions/Segment.js"
import type { Variation } from "../definitions/Flag.js"
import { type Condition, type ConditionOrGroup, isGroup } from "../definitions/Condition.js"
import type { EnvironmentConfig, Rollout, RuleInput } from "../definitions/Targeting.js"
import type { ReleasePlan } from "../releaseplans/ReleasePlan.js"
import { filePlansOf } from "./FileReleasePlans.js"
import type { FileEnvironment, FileFlag, FileSegment, FileTargeting, ProjectFile } from "./ProjectFile.js"

export interface ProjectState {
  /** Null when the project does not exist yet (apply creates it). */
  readonly project: Project | null
  /** In the project's order (creation). */
  readonly environments: ReadonlyArray<Environment>
  readonly segments: ReadonlyArray<Segment>
  readonly flags: ReadonlyArray<Flag>
  /** Every release plan of the project, in creation order (FileReleasePlans.ts picks the ones the file speaks of). */
  readonly releasePlans: ReadonlyArray<ReleasePlan>
}

const byKey = <T extends { readonly key: string }>(items: ReadonlyArray<T>): Array<T> =>
  [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))

// Fields in one fixed order whatever order the storage kept them in, so an export is byte-stable.
const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }

const plainFileCondition = (c: Condition): Condition => ({
  ...optional("attribute", c.attribute),
  operator: c.operator,
  values: c.values,
  ...optional("negate", c.negate)
})

/** A condition, or a group with each of its lists' conditions, fields in the fixed order. */
export const fileCondition = (c: ConditionOrGroup): ConditionOrGroup =>
  isGroup(c) ? { anyOf: c.anyOf.map((list) => list.map(plainFileCondition)) } : plainFileCondition(c)

const fileRollout = (r: Rollout): Rollout => ({
  ...optional("bucketBy", r.bucketBy),
  ...optional("seed", r.seed),
  variations: r.variations.map((v) => ({ variationKey: v.variationKey, weight: v.weight }))
})

export const fileRule = (rule: RuleInput): RuleInput => ({
  ...optional("id", rule.id),
  ...optional("name", rule.name),
  conditions: rule.conditions.map(fileCondition),
  ...optional("variationKey", rule.variationKey),
  ...(rule.rollout === undefined ? {} : { rollout: fileRollout(rule.rollout) })
})

export const fileVariation = (v: Variation): Variation => ({ key: v.key, ...optional("name", v.name), value: v.value })

export const fileEnvironment = (environment: Environment): FileEnvironment => ({
  key: environment.key,
  name: environment.name,
  clientConfig: environment.clientConfig,
  protected: environment.protected,
  requiredApprovals: environment.requiredApprovals
})

export const fileSegment = (segment: Segment): FileSegment => ({
  key: segment.key,
  name: segment.name,
  ...(segment.description === null ? {} : { description: segment.description }),
  conditions: segment.conditions.map(fileCondition),
  // Written only when it is not the context key, so files from before it existed stay as they were.
  ...(segment.keyAttribute === DEFAULT_KEY_ATTRIBUTE ? {} : { keyAttribute: segment.keyAttribute })
})

export const fileTargeting = (config: EnvironmentConfig): FileTargeting => ({
  key: config.environmentKey,
  enabled: config.enabled,
  defaultVariationKey: config.defaultVariationKey,
  offVariationKey: config.offVariationKey,
  prerequisites: (config.prerequisites ?? []).map((p) => ({ flagKey: p.flagKey, variationKey: p.variationKey })),
  rules: config.rules.map(fileRule)
})

/** A flag's definition without its targeting. */
export const fileDefinition = (flag: Flag): Omit<FileFlag, "environments"> => ({
  key: flag.key,
  name: flag.name,
  ...(flag.description === null ? {} : { description: flag.description }),
  type: flag.type,
  variations: flag.variations.map(fileVariation)
})

/**
 * The flag with its configurations in the project's environment order, then its live release
 * plans in that order (written only when it has some, so files of flags without plans stay as they were).
 */
export const fileFlag = (flag: Flag, environmentOrder: ReadonlyArray<string>, releasePlans: ReadonlyArray<ReleasePlan>): FileFlag => {
  const rank = (key: string) => {
    const at = environmentOrder.indexOf(key)
    return at === -1 ? environmentOrder.length : at
  }
  const configs = [...flag.configs].sort((a, b) => rank(a.environmentKey) - rank(b.environmentKey))
  const plans = filePlansOf(releasePlans, flag.key, [...new Set([...environmentOrder, ...configs.map((c) => c.environmentKey)])])
  return { ...fileDefinition(flag), environments: configs.map(fileTargeting), ...(plans.length === 0 ? {} : { releasePlans: plans }) }
}

/**
 * The state as a file, in the file's stable order: environments in the project's order
 * (creation), segments and flags sorted by key, each flag's environments and release plans in the
 * project's order, variations, rules and conditions as stored (their order is meaning).
 */
export const toFile = (state: ProjectState & { readonly project: NonNullable<ProjectState["project"]> }): ProjectFile => {
  const order = state.environments.map((e) => e.key)
  return {
    project: { id: state.project.id, name: state.project.name },
    environments: state.environments.map(fileEnvironment),
    segments: byKey(state.segments).map(fileSegment),
    flags: byKey(state.flags).map((flag) => fileFlag(flag, order, state.releasePlans))
  }
}
