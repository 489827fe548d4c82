/**
 * The author's edit of a live change request's title, description and apply time, on the change
 * requests page. It sends a `PUT` without `changes`, so the changes stay exactly as they were (base
 * versions included); like every update it clears the approvals, and the form says so when there
 * are some. An empty time means applied by hand.
 */
import { useState } from "preact/hooks"
import { editRequest } from "../lib/changes.js"
import { toUtcInput } from "../lib/format.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import type { ChangeRequest } from "../lib/types.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field } from "./Field.js"

const timeInput = (iso: string | null): string => (iso === null ? "" : toUtcInput(iso, true))

export const ChangeRequestEdit = (props: {
  projectId: string
  request: ChangeRequest
  onSaved: (r: ChangeRequest, message: string) => void
  onClose: () => void
  onStale: () => void
}) => {
  const r = props.request
  const [title, setTitle] = useState(r.title)
  const [description, setDescription] = useState(r.description ?? "")
  const [applyAt, setApplyAt] = useState(timeInput(r.applyAt))
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const changed = title !== r.title || description !== (r.description ?? "") || applyAt !== timeInput(r.applyAt)
  const approvals = r.approvals.length

  const save = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    try {
      const saved = await editRequest(props.projectId, r.id, { title, description, applyAt })
      props.onSaved(saved, approvals === 0 ? `“${saved.title}” is saved.` : `“${saved.title}” is saved; it needs its approvals again.`)
    } catch (error) {
      const refused = fromError(error)
      setProblems(refused)
      // Closed or changed meanwhile: read the requests again.
      if (refused.status === 409) props.onStale()
    } finally {
      setBusy(false)
    }
  }

  return (
    <form class="cr-edit" onSubmit={save} aria-label={`Edit “${r.title}”`} noValidate>
      <ErrorSummary problems={problems} />
      <div class="row">
        <Field label="Title" problems={at(problems, "title")}>
          {(ctl) => <input {...ctl} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />}
        </Field>
        <Field label="Apply at (UTC, optional)" hint="Empty: applied by hand once approved." problems={at(problems, "applyAt")}>
          {(ctl) => <input {...ctl} type="datetime-local" step="1" value={applyAt} onInput={(e) => setApplyAt(e.currentTarget.value)} />}
        </Field>
      </div>
      <Field label="Description" problems={at(problems, "description")}>
        {(ctl) => <textarea {...ctl} rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
      </Field>
      {approvals === 0 ? null : (
        <p class="muted">
          Saving clears its {approvals === 1 ? "approval" : `${approvals} approvals`}: an approval is of the request as it was seen. The changes stay as they are.
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy || !changed || title.trim() === ""}>{busy ? "Saving…" : "Save"}</button>
        <button type="button" class="secondary" disabled={busy} onClick={props.onClose}>Cancel edit</button>
      </div>
    </form>
  )
}
