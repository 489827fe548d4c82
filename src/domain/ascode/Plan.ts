/**
 * The plan of an apply: what must change for the project to be as the file says, in the order it
 * is applied. Pure: the current state and a valid file in, the changes out. Each change carries
 * the item before and after in the file's own shape (for the diff), and what it was based on (a
 * flag's version, a segment's `updatedAt`), which the apply checks again inside its transaction.
 *
 * Order: the project, environments (file order), segments (file order), flag definitions (file
 * order), then targeting per environment with each flag's prerequisites before it (so no step
 * makes a cycle the file does not have), then release plans (their rules exist by then), then,
 * with `prune` only, deletions: release plan drafts, flags (those that require others first),
 * then segments. Environments are never deleted (Flagport has no environment deletion).
 */
import { DEFAULT_KEY_ATTRIBUTE } from "../definitions/Segment.js"
import type { PlannedChangeSchema } from "./ApplyResult.js"
import { disabledConfig, type Flag } from "../definitions/Flag.js"
import type { Environment } from "../definitions/Project.js"
import type { RuleInput } from "../definitions/Targeting.js"
import { type DefinedPlan, filePlan, planFor, prunedDrafts, servingKeptForPlans } from "./FileReleasePlans.js"
import type { FileEnvironment, FileFlag, FileSegment, FileTargeting, ProjectFile } from "./ProjectFile.js"
import {
  fileCondition,
  fileDefinition,
  fileEnvironment,
  fileRule,
  fileSegment,
  fileTargeting,
  fileVariation,
  type ProjectState
} from "./ProjectState.js"


/** A change as an apply shows it, whatever its resource (its schema, with the meaning of each field: ApplyResult.ts). */
export type ShownChange = typeof PlannedChangeSchema.Type

/** A flag's definition in the file's shape: the file's flag without its targeting. */
export type FileDefinition = Omit<FileFlag, "environments">

/**
 * One change of a plan, typed by its resource, so each step of the apply reads the item it writes
 * as what it is (FlagsAsCodeSteps.ts). Every one is a `ShownChange`.
 */
export type PlannedChange =
  | { readonly resource: "project"; readonly action: "create"; readonly key: string; readonly before: null; readonly after: { readonly id: string; readonly name: string } }
  | { readonly resource: "environment"; readonly action: "create" | "update"; readonly key: string; readonly before: FileEnvironment | null; readonly after: Required<FileEnvironment> }
  | { readonly resource: "segment"; readonly action: "create" | "update"; readonly key: string; readonly before: FileSegment | null; readonly after: FileSegment; readonly basedOn?: string }
  | { readonly resource: "segment"; readonly action: "delete"; readonly key: string; readonly before: FileSegment; readonly after: null; readonly basedOn: string }
  | { readonly resource: "flag"; readonly action: "create" | "update"; readonly key: string; readonly before: FileDefinition | null; readonly after: FileDefinition; readonly basedOn?: number }
  | { readonly resource: "flag"; readonly action: "delete"; readonly key: string; readonly before: FileDefinition; readonly after: null; readonly basedOn: number }
  | {
    readonly resource: "targeting"
    readonly action: "update"
    readonly key: string
    readonly environment: string
    readonly before: FileTargeting
    readonly after: FileTargeting
    readonly basedOn?: number
    readonly changeRequest?: boolean
    readonly changeRequestId?: string
  }
  | { readonly resource: "release_plan"; readonly action: "create"; readonly key: string; readonly environment: string; readonly before: null; readonly after: DefinedPlan }
  | {
    readonly resource: "release_plan"
    readonly action: "update"
    readonly key: string
    readonly environment: string
    readonly before: DefinedPlan
    readonly after: DefinedPlan
    readonly basedOn: number
    readonly releasePlanId: string
  }
  | {
    readonly resource: "release_plan"
    readonly action: "delete"
    readonly key: string
    readonly environment: string
    readonly before: DefinedPlan
    readonly after: null
    readonly basedOn: number
    readonly releasePlanId: string
  }

/** A planned change of one resource. */
export type ChangeOf<R extends PlannedChange["resource"]> = Extract<PlannedChange, { readonly resource: R }>

/** A pending request of the author that already proposes what the file says for these flags. */
export interface PendingRequest {
  readonly id: string
  readonly environment: string
  readonly flagKeys: ReadonlyArray<string>
}

export interface Plan {
  readonly projectId: string
  readonly changes: ReadonlyArray<PlannedChange>
  /** The author's pending change requests that already propose the rest of the file (PendingProposals.ts). */
  readonly pendingChangeRequests?: ReadonlyArray<PendingRequest>
}

/** A plan as an apply shows it (ApplyResult.ts): what `flagport apply` prints, from the server's answer too. */
export interface ShownPlan {
  readonly projectId: string
  readonly changes: ReadonlyArray<ShownChange>
  readonly pendingChangeRequests?: ReadonlyArray<PendingRequest>
  /** The plan's fingerprint (ApplyResult.ts), when known: `apply --plan` applies exactly this plan. */
  readonly fingerprint?: string
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** The file's environment with its settings' defaults, as export writes it. */
export const desiredEnvironment = (e: FileEnvironment): Required<FileEnvironment> => ({
  key: e.key,
  name: e.name,
  clientConfig: e.clientConfig ?? "full",
  protected: e.protected ?? false,
  requiredApprovals: e.requiredApprovals ?? 1
})

export const desiredSegment = (s: FileSegment): FileSegment => ({
  key: s.key,
  name: s.name,
  ...(s.description === undefined || s.description === null ? {} : { description: s.description }),
  conditions: s.conditions.map(fileCondition),
  ...(s.keyAttribute === undefined || s.keyAttribute === DEFAULT_KEY_ATTRIBUTE ? {} : { keyAttribute: s.keyAttribute })
})

export const desiredDefinition = (f: FileFlag): FileDefinition => ({
  key: f.key,
  name: f.name ?? f.key,
  ...(f.description === undefined || f.description === null ? {} : { description: f.description }),
  type: f.type,
  variations: f.variations.map(fileVariation)
})

/** A rule sent without an id keeps the id of the rule at its place (so a file without ids is stable). */
export const adoptIds = (rules: ReadonlyArray<RuleInput>, current: ReadonlyArray<{ readonly id?: string | undefined }>): ReadonlyArray<RuleInput> =>
  rules.map((rule, i) => (rule.id === undefined && current[i]?.id !== undefined ? { ...rule, id: current[i]!.id } : rule))

export const desiredTargeting = (t: FileTargeting, current: FileTargeting | undefined): FileTargeting => ({
  key: t.key,
  enabled: t.enabled,
  defaultVariationKey: t.defaultVariationKey,
  offVariationKey: t.offVariationKey,
  prerequisites: (t.prerequisites ?? []).map((p) => ({ flagKey: p.flagKey, variationKey: p.variationKey })),
  rules: adoptIds(t.rules ?? [], current?.rules ?? []).map(fileRule)
})

/** Flag keys in an order where every flag comes after the flags it requires (`requires` has no cycle: validated). */
export const prerequisitesFirst = (keys: ReadonlyArray<string>, requires: (key: string) => ReadonlyArray<string>): Array<string> => {
  const wanted = new Set(keys)
  const done = new Set<string>()
  const out: Array<string> = []
  const visit = (key: string, depth: number) => {
    if (done.has(key) || depth > keys.length) return
    done.add(key)
    for (const required of requires(key)) if (wanted.has(required)) visit(required, depth + 1)
    out.push(key)
  }
  for (const key of keys) visit(key, 0)
  return out
}

const environmentChanges = (file: ProjectFile, current: ReadonlyMap<string, Environment>): Array<PlannedChange> =>
  (file.environments ?? []).flatMap((e): Array<PlannedChange> => {
    const after = desiredEnvironment(e)
    const stored = current.get(e.key)
    if (stored === undefined) return [{ resource: "environment", action: "create", key: e.key, before: null, after }]
    const before = fileEnvironment(stored)
    return same(before, after) ? [] : [{ resource: "environment", action: "update", key: e.key, before, after }]
  })

const segmentChanges = (file: ProjectFile, state: ProjectState): Array<PlannedChange> => {
  const current = new Map(state.segments.map((s) => [s.key, s]))
  return (file.segments ?? []).flatMap((s): Array<PlannedChange> => {
    const after = desiredSegment(s)
    const stored = current.get(s.key)
    if (stored === undefined) return [{ resource: "segment", action: "create", key: s.key, before: null, after }]
    const before = fileSegment(stored)
    return same(before, after) ? [] : [{ resource: "segment", action: "update", key: s.key, before, after, basedOn: stored.updatedAt }]
  })
}

const definitionChanges = (file: ProjectFile, current: ReadonlyMap<string, Flag>): Array<PlannedChange> =>
  (file.flags ?? []).flatMap((f): Array<PlannedChange> => {
    const after = desiredDefinition(f)
    const stored = current.get(f.key)
    if (stored === undefined) return [{ resource: "flag", action: "create", key: f.key, before: null, after }]
    const before = fileDefinition(stored)
    return same(before, after) ? [] : [{ resource: "flag", action: "update", key: f.key, before, after, basedOn: stored.version }]
  })

/**
 * Each listed environment's targeting that differs from what the flag has there (a new flag:
 * disabled, as create makes it); what a plan's rule serves while the plan holds it stays the plan's
 * (FileReleasePlans.ts).
 */
const targetingChanges = (file: ProjectFile, state: ProjectState, current: ReadonlyMap<string, Flag>): Array<PlannedChange> => {
  const environmentOrder = [...state.environments.map((e) => e.key), ...(file.environments ?? []).map((e) => e.key)]
  const inFile = new Map((file.flags ?? []).map((f) => [f.key, f]))
  const changes: Array<PlannedChange> = []
  for (const environment of [...new Set(environmentOrder)]) {
    const requiresHere = (key: string): ReadonlyArray<string> => {
      const listed = inFile.get(key)?.environments?.find((t) => t.key === environment)
      if (listed !== undefined) return (listed.prerequisites ?? []).map((p) => p.flagKey)
      return (current.get(key)?.configs.find((c) => c.environmentKey === environment)?.prerequisites ?? []).map((p) => p.flagKey)
    }
    for (const key of prerequisitesFirst([...inFile.keys()], requiresHere)) {
      const flag = inFile.get(key)!
      const listed = flag.environments?.find((t) => t.key === environment)
      if (listed === undefined) continue
      const stored = current.get(key)
      const config = stored?.configs.find((c) => c.environmentKey === environment) ??
        disabledConfig(environment, stored?.variations ?? flag.variations)
      const before = fileTargeting(config)
      const after = servingKeptForPlans(desiredTargeting(listed, before), before, key, state.releasePlans)
      if (!same(before, after)) {
        changes.push({ resource: "targeting", action: "update", key, environment, before, after, ...(stored === undefined ? {} : { basedOn: stored.version }) })
      }
    }
  }
  return changes
}

/**
 * The release plans of the file's flags (FileReleasePlans.ts): a new draft, or the draft changed,
 * based on its version. A started plan the file redefines is refused before any plan is made
 * (ValidateFile.ts), so it plans nothing here.
 */
const releasePlanChanges = (file: ProjectFile, state: ProjectState): Array<PlannedChange> =>
  (file.flags ?? []).flatMap((flag) =>
    (flag.releasePlans ?? []).flatMap((item): Array<PlannedChange> => {
      const wanted = planFor(item, flag.key, state.releasePlans)
      const at = { key: flag.key, environment: item.environment }
      if (wanted.kind === "create") return [{ resource: "release_plan", action: "create", ...at, before: null, after: wanted.after }]
      if (wanted.kind === "update") {
        return [{ resource: "release_plan", action: "update", ...at, before: wanted.before, after: wanted.after, basedOn: wanted.stored.version, releasePlanId: wanted.stored.id }]
      }
      return []
    }))

/** With prune: the drafts of the file's flags in the environments their `releasePlans` leave out. */
const releasePlanDeletions = (file: ProjectFile, state: ProjectState): Array<PlannedChange> =>
  (file.flags ?? []).flatMap((flag) =>
    prunedDrafts(state.releasePlans, flag.key, new Set((flag.releasePlans ?? []).map((p) => p.environment))).map((draft): PlannedChange => ({
      resource: "release_plan",
      action: "delete",
      key: flag.key,
      environment: draft.environment,
      before: filePlan(draft),
      after: null,
      basedOn: draft.version,
      releasePlanId: draft.id
    })))

/** With prune: the flags and segments the file leaves out; flags that require others go before them. */
const deletions = (file: ProjectFile, state: ProjectState): Array<PlannedChange> => {
  const flagKeys = new Set((file.flags ?? []).map((f) => f.key))
  const gone = state.flags.filter((f) => !flagKeys.has(f.key))
  const byKey = new Map(gone.map((f) => [f.key, f]))
  const requires = (key: string) => (byKey.get(key)?.configs ?? []).flatMap((c) => (c.prerequisites ?? []).map((p) => p.flagKey))
  // Prerequisites first, reversed: a flag is deleted before the flags it requires.
  const order = prerequisitesFirst(gone.map((f) => f.key).sort(), requires).reverse()
  const segmentKeys = new Set((file.segments ?? []).map((s) => s.key))
  return [
    ...order.map((key): PlannedChange => {
      const flag = byKey.get(key)!
      return { resource: "flag", action: "delete", key, before: fileDefinition(flag), after: null, basedOn: flag.version }
    }),
    ...state.segments
      .filter((s) => !segmentKeys.has(s.key))
      .map((s): PlannedChange => ({ resource: "segment", action: "delete", key: s.key, before: fileSegment(s), after: null, basedOn: s.updatedAt }))
  ]
}

/** The plan that makes `state` (of project `projectId`) what `file` says. */
export const plan = (projectId: string, state: ProjectState, file: ProjectFile, options: { readonly prune: boolean }): Plan => {
  const flags = new Map(state.flags.map((f) => [f.key, f]))
  const project: Array<PlannedChange> = state.project === null
    ? [{ resource: "project", action: "create", key: projectId, before: null, after: { id: projectId, name: file.project.name ?? projectId } }]
    : []
  return {
    projectId,
    changes: [
      ...project,
      ...environmentChanges(file, new Map(state.environments.map((e) => [e.key, e]))),
      ...segmentChanges(file, state),
      ...definitionChanges(file, flags),
      ...targetingChanges(file, state, flags),
      ...releasePlanChanges(file, state),
      ...(options.prune ? [...releasePlanDeletions(file, state), ...deletions(file, state)] : [])
    ]
  }
}

/**
 * The environments a file names: its own list, each flag's targeting and release plans. A key bound to another
 * environment may not name them, even unchanged: an unchanged targeting plans nothing, so the plan
 * would tell it that its guess of another environment's targeting was right.
 */
export const environmentsNamed = (file: ProjectFile): ReadonlyArray<string> => [
  ...new Set([
    ...(file.environments ?? []).map((e) => e.key),
    ...(file.flags ?? []).flatMap((f) => [...(f.environments ?? []).map((t) => t.key), ...(f.releasePlans ?? []).map((p) => p.environment)])
  ])
]

/** A plan with the environments its file names (`environmentsNamed`), for deciding who may apply it. */
export interface FilePlan extends Plan {
  readonly environmentsNamed: ReadonlyArray<string>
}

/**
 * What a plan would do and on which versions, as one text: two plans are the same when their texts
 * are (the apply's check, in its transaction), and the plan's fingerprint is its hash (FlagsAsCode.ts).
 * Whether a targeting change is proposed depends on who asks, not on the project, so it is left out.
 */
export const planIdentity = (plan: ShownPlan): string =>
  JSON.stringify(plan.changes.map(({ changeRequest: _c, ...change }) => change))

/** Whether two plans would do the same, based on the same versions. */
export const samePlan = (a: ShownPlan, b: ShownPlan): boolean => planIdentity(a) === planIdentity(b)
