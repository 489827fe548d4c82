/**
 * Scheduled changes as a table, wherever they are listed: a flag's on its page (every status) and
 * the project's pending ones on the Schedules page (every flag). A row says when, which flag
 * (linking to its page) where the table spans flags, where, what (the targeting, readable on
 * demand), the status where settled schedules are listed too (a failed one says why), who made it,
 * and Cancel for a pending one and a role that may write. Cancel asks first in a production-like
 * environment, wherever the table is (a cancelled schedule cannot be brought back, only made again).
 */
import type { ComponentChildren } from "preact"
import { actorLabel } from "../lib/audit.js"
import { pretty } from "../lib/diff.js"
import { when } from "../lib/format.js"
import { allows } from "../lib/roles.js"
import { href } from "../lib/router.js"
import { summary } from "../lib/schedules.js"
import { isProductionLike } from "../lib/settings.js"
import type { Schedule } from "../lib/types.js"
import { ask } from "./Confirm.js"
import { Table } from "./Table.js"

/** Calls `onCancel` once the person confirmed, when the schedule's environment is production-like. */
const cancelAsked = async (s: Schedule, onCancel: (s: Schedule) => void) => {
  if (isProductionLike(s.environment) && !(await ask(`Cancel the change to ${s.flagKey} in ${s.environment} scheduled for ${when(s.at)}?`))) return
  onCancel(s)
}

export const SchedulesTable = (props: {
  caption: ComponentChildren
  schedules: ReadonlyArray<Schedule>
  /** The schedules of several flags: a Flag column, and each Cancel names its flag. */
  flags?: boolean
  /** Settled schedules among them: a Status column. */
  statuses?: boolean
  onCancel: (s: Schedule) => void
}) => (
  <Table caption={props.caption}>
    <thead>
      <tr>
        <th scope="col">At</th>
        {props.flags === true ? <th scope="col">Flag</th> : null}
        <th scope="col">Environment</th>
        <th scope="col">Change</th>
        {props.statuses === true ? <th scope="col">Status</th> : null}
        <th scope="col">Made by</th>
        <th scope="col"><span class="visually-hidden">Actions</span></th>
      </tr>
    </thead>
    <tbody>
      {props.schedules.map((s) => (
        <tr key={s.id}>
          <th scope="row">{when(s.at)}</th>
          {props.flags === true ? (
            <td>
              <a href={href({ page: "flag", key: s.flagKey })}><code>{s.flagKey}</code></a>
            </td>
          ) : null}
          <td>{s.environment}</td>
          <td>
            <details>
              <summary>{summary(s.targeting)}</summary>
              <pre tabIndex={0}>{pretty(s.targeting)}</pre>
            </details>
          </td>
          {props.statuses === true ? (
            <td class={`schedule-${s.status}`}>
              {s.status}
              {s.reason === undefined ? null : <>: {s.reason}</>}
            </td>
          ) : null}
          <td>{actorLabel(s.actor)}, {when(s.createdAt)}</td>
          <td>
            {s.status !== "pending" || !allows("write") ? null : (
              <button
                type="button"
                class="danger small"
                aria-label={props.flags === true ? `Cancel the change to ${s.flagKey} in ${s.environment} at ${when(s.at)}` : `Cancel the change to ${s.environment} at ${when(s.at)}`}
                onClick={() => void cancelAsked(s, props.onCancel)}
              >
                Cancel
              </button>
            )}
          </td>
        </tr>
      ))}
    </tbody>
  </Table>
)
