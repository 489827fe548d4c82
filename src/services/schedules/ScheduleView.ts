/** A schedule as the API and the audit log show it, shared by the use cases that write schedules. */
import type { Schedule } from "../../domain/schedules/Schedule.js"
import type { StoredSchedule } from "../../ports/ScheduleRepository.js"
import type * as Writes from "../shared/Writes.js"

/** A stored schedule as the API shows it (`reason` only on a failed one). */
export const toSchedule = (s: StoredSchedule): Schedule => ({
  id: s.id,
  flagKey: s.flagKey,
  environment: s.environment,
  at: s.at,
  targeting: s.targeting,
  status: s.status,
  ...(s.reason === null ? {} : { reason: s.reason }),
  createdAt: s.createdAt,
  actor: s.actor
})

/** The audit entry of a cancelled schedule, the same for a cancel by hand and by revocation. */
export const cancelledEntry = (before: StoredSchedule, settledAt: string): Writes.AuditDraft => ({
  action: "schedule.cancelled",
  resource: { type: "schedule", key: before.id },
  environment: before.environment,
  before: toSchedule(before),
  after: toSchedule({ ...before, status: "cancelled", settledAt })
})
