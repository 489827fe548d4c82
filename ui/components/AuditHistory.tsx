/**
 * A project's audit log as a table, newest first, narrowed by `filter`: when, who, what, where,
 * and for each entry the change as a diff of the resource before and after (a write that applied a
 * change request names it). Older entries come page by page ("Show older").
 */
import { useState } from "preact/hooks"
import { actorLabel, auditQuery, type AuditFilter } from "../lib/audit.js"
import { projectPath, request } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { href } from "../lib/router.js"
import type { AuditEntry, AuditPage } from "../lib/types.js"
import { Diff } from "./Diff.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Waiting } from "./Status.js"
import { Table } from "./Table.js"

/**
 * One entry, and under it, when opened, the resource before and after as a diff across the whole
 * table's width (a diff squeezed into one cell would wrap every line).
 */
const Entry = ({ entry }: { entry: AuditEntry }) => {
  const [open, setOpen] = useState(false)
  const id = `change-${entry.id}`
  return (
    <>
      <tr>
        <td>{when(entry.at)}</td>
        <td>{actorLabel(entry.actor)}</td>
        <td>
          <code>{entry.action}</code>
          {entry.changeRequestId === undefined ? null : (
            <span class="muted">
              {" "}through <a href={href({ page: "change-requests" })}>change request {entry.changeRequestId}</a>
            </span>
          )}
        </td>
        <td>
          {entry.resource.type} <code>{entry.resource.key}</code>
        </td>
        <td>{entry.environment ?? ""}</td>
        <td>
          <button type="button" class="secondary small" aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen(!open)}>
            Change<span class="visually-hidden">: {entry.action} of {entry.resource.key}, {when(entry.at)}</span>
          </button>
        </td>
      </tr>
      {open ? (
        <tr id={id} class="change-row">
          <td colSpan={6}>
            <Diff before={entry.before} after={entry.after} label={`${entry.action} of ${entry.resource.key}`} />
          </td>
        </tr>
      ) : null}
    </>
  )
}

export const AuditHistory = ({ projectId, filter, label }: { projectId: string; filter: AuditFilter; label: string }) => {
  const path = (cursor: string | null) => projectPath(projectId, `/audit${auditQuery(filter, cursor)}`)
  const { loaded, update } = useLoad(() => request<AuditPage>("GET", path(null)), [projectId, filter.resourceType, filter.resourceKey, filter.environment])
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { data, nextCursor } = loaded.data
  const older = async () => {
    try {
      const next = await request<AuditPage>("GET", path(nextCursor))
      update((page) => ({ data: [...page.data, ...next.data], nextCursor: next.nextCursor }))
      setProblems(NO_PROBLEMS)
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  if (data.length === 0) return <p>No changes recorded.</p>
  return (
    <>
      <Table caption={<>{label}</>}>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Resource</th>
            <th scope="col">Environment</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {data.map((entry) => <Entry key={entry.id} entry={entry} />)}
        </tbody>
      </Table>
      <ErrorSummary problems={problems} />
      {nextCursor === null ? null : (
        <div class="actions">
          <button type="button" class="secondary" onClick={older}>Show older</button>
        </div>
      )}
    </>
  )
}
