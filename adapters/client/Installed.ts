/**
 * A configuration ready to serve: the checked body, its compiled form, and one entry per flag
 * with what an evaluation needs beside the evaluator (the declared type, the version, the readers
 * of the attributes the flag can look at), so a typed getter looks a flag up once. Built once per
 * configuration, never per evaluation.
 */
import { compile, type KeyListSource, type CompiledCondition, type CompiledFlag, type CompiledRollout, type CompiledSnapshot, type ConfigSnapshot, type RegexEngine } from "./Core.js"
import { type PlainCheck, plainCheck } from "./JsonContext.js"
import type { Tally } from "./Insights.js"
import type { FlagType } from "./Types.js"

export interface FlagEntry {
  readonly compiled: CompiledFlag
  readonly type: FlagType
  readonly version: number | undefined
  /** Checks the attributes the flag's rules, segments and rollouts can read (JsonContext.ts). */
  readonly plain: PlainCheck
  /** Where its evaluations are counted for insights (null: the client does not send them). */
  readonly tally: Tally | null
  /**
   * By rule index, the rollout of each rule a running experiment measures (else null): what the
   * client sends exposures for. Null when none is measured or exposures are not sent.
   */
  readonly measured: ReadonlyArray<CompiledRollout | null> | null
}

export interface Installed {
  readonly snapshot: ConfigSnapshot
  readonly compiled: CompiledSnapshot
  /** The ETag the server sent with it (none for a bootstrap configuration). */
  readonly etag: string | undefined
  readonly flags: ReadonlyMap<string, FlagEntry>
}

/** The attributes the flag can read: its rules' and rollouts', and those of the flags it requires (their prerequisites are evaluated with it). */
const attributesRead = (root: CompiledFlag): ReadonlyArray<string> => {
  const names = new Set<string>()
  const visit = (conditions: ReadonlyArray<CompiledCondition>) => {
    for (const c of conditions) {
      if (c.segments.length > 0) {
        for (const segment of c.segments) {
          visit(segment.conditions)
          // A segment's key lists read the key, or the segment's key attribute.
          if (segment.lists !== null && !segment.lists.isKey) names.add(segment.lists.attribute)
        }
      }
      else if (c.lists.length > 0) c.lists.forEach(visit)
      else if (!c.isKey && c.attribute !== "") names.add(c.attribute)
    }
  }
  // Compile keeps prerequisite links acyclic; `seen` also spares flags required along several paths.
  const seen = new Set<CompiledFlag>()
  const visitFlag = (flag: CompiledFlag) => {
    if (seen.has(flag)) return
    seen.add(flag)
    for (const rule of flag.rules) {
      visit(rule.conditions)
      if (rule.rollout !== null && !rule.rollout.isKey) names.add(rule.rollout.bucketBy)
    }
    for (const prerequisite of flag.prerequisites) if (prerequisite.flag !== null) visitFlag(prerequisite.flag)
  }
  visitFlag(root)
  return [...names]
}

/** The measured rules' rollouts by rule index (a rule without a rollout measures nothing), or null when there are none. */
const measuredRollouts = (flag: CompiledFlag, ruleIds: ReadonlySet<string> | undefined): ReadonlyArray<CompiledRollout | null> | null => {
  if (ruleIds === undefined) return null
  const rollouts = flag.rules.map((rule) => (ruleIds.has(rule.id) ? rule.rollout : null))
  return rollouts.some((rollout) => rollout !== null) ? rollouts : null
}

/** The measured rule ids of each flag, from the configuration's `experiments`. */
const measuredRuleIds = (snapshot: ConfigSnapshot): ReadonlyMap<string, ReadonlySet<string>> => {
  const byFlag = new Map<string, Set<string>>()
  for (const { flagKey, ruleId } of snapshot.experiments ?? []) {
    const ids = byFlag.get(flagKey) ?? new Set<string>()
    ids.add(ruleId)
    byFlag.set(flagKey, ids)
  }
  return byFlag
}

/**
 * `regex` compiles the `matches` conditions: RegexLoading.regexEngineFor(snapshot), awaited before;
 * `keyLists` are the segments' key lists (KeyLists.ts), a list it lacks answering
 * `SEGMENT_LIST_NOT_LOADED` in the flags that use it.
 * `tallyFor` gives each flag the tally its evaluations are counted in (null: none); `exposures`
 * says whether the client sends exposures (then each flag knows its measured rules).
 */
export const install = (
  snapshot: ConfigSnapshot,
  etag: string | undefined,
  regex: RegexEngine,
  tallyFor: ((flagKey: string) => Tally) | null = null,
  exposures = false,
  keyLists?: KeyListSource
): Installed => {
  const compiled = compile(snapshot, regex, keyLists)
  const measured = exposures ? measuredRuleIds(snapshot) : new Map<string, ReadonlySet<string>>()
  const flags = new Map<string, FlagEntry>()
  for (const flag of snapshot.flags) {
    const compiledFlag = compiled.flags.get(flag.key)
    if (flags.has(flag.key) || compiledFlag === undefined) continue // the evaluator serves the first of duplicate keys
    const version = (flag as { readonly version?: unknown }).version
    flags.set(flag.key, {
      compiled: compiledFlag,
      type: flag.type,
      version: typeof version === "number" ? version : undefined,
      plain: plainCheck(attributesRead(compiledFlag)),
      tally: tallyFor === null ? null : tallyFor(flag.key),
      measured: measuredRollouts(compiledFlag, measured.get(flag.key))
    })
  }
  return { snapshot, compiled, etag, flags }
}
