/**
 * An apply by a person proposes its targeting in a protected environment as change requests
 * (FlagsAsCode.ts). Applied again, the same file must not propose it again: each proposed change is
 * matched with the author's own pending request (open or approved) in that environment that
 * already names the flag, the newest when several do.
 *
 * - The same targeting, proposed on the flag's version now: nothing to do; the change leaves the
 *   plan and the request is named among the plan's `pending` (awaiting approval).
 * - Different (another targeting, or the flag has moved on since): the change updates that request
 *   (`changeRequestId`), which clears its approvals, as any update by its author does.
 * - No pending request of the author names the flag: a new request is opened, as before.
 */
import type { ChangeRequestRecord } from "../changes/ChangeRequest.js"
import type { FileTargeting } from "./ProjectFile.js"
import { fileRule } from "./ProjectState.js"
import type { PendingRequest, PlannedChange } from "./Plan.js"

/** A request's proposed targeting in the file's shape, as the plan's `after` is. */
const proposedAsFile = (environment: string, after: ChangeRequestRecord["changes"][number]["after"]): FileTargeting => ({
  key: environment,
  enabled: after.enabled,
  defaultVariationKey: after.defaultVariationKey,
  offVariationKey: after.offVariationKey,
  prerequisites: (after.prerequisites ?? []).map((p) => ({ flagKey: p.flagKey, variationKey: p.variationKey })),
  rules: after.rules.map(fileRule)
})

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * The plan's changes with those already proposed left out and those that update a request marked
 * (`changeRequestId`), and the requests that already propose some of the file (`pending`).
 * `requests`: the author's pending requests of the project, newest first.
 */
export const againstPending = (
  changes: ReadonlyArray<PlannedChange>,
  requests: ReadonlyArray<ChangeRequestRecord>
): { readonly changes: ReadonlyArray<PlannedChange>; readonly pending: ReadonlyArray<PendingRequest> } => {
  const pending = new Map<string, { readonly request: ChangeRequestRecord; readonly flagKeys: Array<string> }>()
  const kept = changes.flatMap((change): Array<PlannedChange> => {
    if (change.resource !== "targeting" || change.changeRequest !== true) return [change]
    const request = requests.find((r) => r.environment === change.environment && r.changes.some((c) => c.flagKey === change.key))
    if (request === undefined) return [change]
    const proposed = request.changes.find((c) => c.flagKey === change.key)!
    if (proposed.baseVersion === change.basedOn && same(proposedAsFile(request.environment, proposed.after), change.after)) {
      const entry = pending.get(request.id) ?? { request, flagKeys: [] }
      entry.flagKeys.push(change.key)
      pending.set(request.id, entry)
      return []
    }
    return [{ ...change, changeRequestId: request.id }]
  })
  return {
    changes: kept,
    pending: [...pending.values()].map(({ flagKeys, request }) => ({ id: request.id, environment: request.environment, flagKeys }))
  }
}
