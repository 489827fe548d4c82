/** The cells a scheduled change shows wherever it is listed (the flag page, the project's Schedules page). */
import { actorLabel } from "../lib/audit.js"
import { allows } from "../lib/roles.js"
import { pretty } from "../lib/diff.js"
import { when } from "../lib/format.js"
import { summary } from "../lib/schedules.js"
import type { Schedule } from "../lib/types.js"

/** The change in a few words, the whole targeting one click away. */
export const ScheduleChangeCell = ({ s }: { s: Schedule }) => (
  <td>
    <details>
      <summary>{summary(s.targeting)}</summary>
      <pre tabIndex={0}>{pretty(s.targeting)}</pre>
    </details>
  </td>
)

export const ScheduleAuthorCell = ({ s }: { s: Schedule }) => <td>{actorLabel(s.actor)}, {when(s.createdAt)}</td>

/** Cancel, for a pending schedule only and a role that may write; `label` names it for assistive technology. */
export const ScheduleCancelCell = ({ s, label, onCancel }: { s: Schedule; label: string; onCancel: () => void }) => (
  <td>
    {s.status !== "pending" || !allows("write") ? null : (
      <button type="button" class="danger small" aria-label={label} onClick={onCancel}>
        Cancel
      </button>
    )}
  </td>
)
