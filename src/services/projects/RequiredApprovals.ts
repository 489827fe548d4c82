/**
 * The environment's `requiredApprovals` changed (Environments.update): its live change requests
 * take the new number in the same transaction (domain/changes/ChangeRequestRules.ts,
 * `underRequiredApprovals`), each audited as `change_request.updated` by whoever changed the
 * environment. Raising the number is meant for the requests waiting now too: an auditor reading
 * "two approvals" must not find a production change applied on one.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { recordOf, type StoredChangeRequest } from "../../domain/changes/ChangeRequest.js"
import { underRequiredApprovals } from "../../domain/changes/ChangeRequestRules.js"
import { ResourceConflict } from "../../domain/Errors.js"
import { ChangeRequestRepository } from "../../ports/ChangeRequestRepository.js"
import type { AuditDraft } from "../shared/Writes.js"

/** How often a request that changed meanwhile (an approval landing on PostgreSQL) is read again. */
const ATTEMPTS = 5

/** Recounts the live requests of `environment`; answers their audit entries. Inside the caller's transaction. */
export const recount = (projectId: string, environment: string, requiredApprovals: number, now: string) =>
  Effect.gen(function* () {
    const repo = yield* ChangeRequestRepository
    const audit: Array<AuditDraft> = []
    const live = (yield* repo.list(projectId)).filter((r) => r.environment === environment && (r.status === "open" || r.status === "approved"))
    for (const { id } of live) {
      for (let attempt = 1; ; attempt++) {
        const found = yield* repo.get(projectId, id)
        if (Option.isNone(found)) break
        const before = found.value
        const counted = underRequiredApprovals(before, requiredApprovals)
        if (counted === before || before.requiredApprovals === requiredApprovals) break
        const after: StoredChangeRequest = { ...counted, updatedAt: now, version: before.version + 1 }
        if (yield* repo.replace(after, before.version)) {
          audit.push({ action: "change_request.updated", resource: { type: "change_request", key: id }, environment, before: recordOf(before), after: recordOf(after) })
          break
        }
        if (attempt === ATTEMPTS) return yield* new ResourceConflict({ message: `Change request '${id}' kept changing meanwhile; try again` })
      }
    }
    return audit
  })
