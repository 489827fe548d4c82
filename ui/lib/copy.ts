/**
 * Copying targeting between environments (`POST .../environments/{to}/copy`): one flag or every
 * flag of the project, in one transaction on the server. The answer lists the flags whose
 * configuration in `to` changed; flags already equal are left alone. A person's copy into a
 * protected environment is a change request instead (`proposeCopy`).
 */
import { ifMatch, projectPath, request, seg } from "./api.js"
import { changeTargeting, proposeChanges, type ProposedChange } from "./changes.js"
import type { ChangeRequest, EnvironmentConfig, Flag, List } from "./types.js"

export const copyTargeting = async (
  projectId: string,
  from: string,
  to: string,
  /** One flag, at the version the page loaded (a 412 if it changed since); absent: every flag. */
  flag?: { readonly key: string; readonly version: number }
): Promise<ReadonlyArray<string>> => {
  const path = projectPath(projectId, `/environments/${seg(to)}/copy`)
  const reply = flag === undefined
    ? await request<List<string>>("POST", path, { from })
    : await request<List<string>>("POST", path, { from, flags: [flag.key] }, ifMatch(flag.version))
  return reply.data
}

/** A configuration as a copy compares it: what the copy changes, without the rules' ids (each environment's own). */
const copied = (config: EnvironmentConfig | undefined): string =>
  config === undefined ? "" : JSON.stringify({ ...changeTargeting(config), rules: config.rules.map(({ id: _id, ...rule }) => rule) })

/**
 * The copy into a protected environment, where a person's direct copy is refused: the change
 * request that would make it, one change per flag of `flags` whose targeting in `to` differs from
 * that in `from` (none: nothing to propose). The API judges it as any proposal (at most 50 flags).
 */
export const copyChanges = (flags: ReadonlyArray<Flag>, from: string, to: string): ReadonlyArray<ProposedChange> =>
  flags.flatMap((flag) => {
    const source = flag.configs.find((c) => c.environmentKey === from)
    if (source === undefined || copied(source) === copied(flag.configs.find((c) => c.environmentKey === to))) return []
    return [{ flagKey: flag.key, targeting: changeTargeting(source) }]
  })

/** Opens the change request copying `changes` (copyChanges) from `from` into `to`. */
export const proposeCopy = (projectId: string, from: string, to: string, changes: ReadonlyArray<ProposedChange>): Promise<ChangeRequest> =>
  proposeChanges(projectId, {
    title: changes.length === 1 ? `Copy ${changes[0]!.flagKey} from ${from} to ${to}` : `Copy ${changes.length} flags from ${from} to ${to}`,
    description: `The targeting in ${from} of ${changes.map((c) => c.flagKey).join(", ")}, copied to ${to}.`,
    environment: to,
    changes
  })
