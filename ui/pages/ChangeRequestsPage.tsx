/**
 * A project's change requests (contract-people.md, "Protected environments and change requests"):
 * the live ones (open, or approved and waiting to be applied) first, then the closed ones, newest
 * first within each. Each shows its changes per flag as people read them (the same view as the
 * targeting editor's, the JSON one click away), who approved it out of how many are required
 * (an approval that no longer counts marked, with why, and an approved request short of counting
 * approvals shown as not ready, its apply not offered), and the actions the rules allow the signed-in person: approve or reject with a comment, cancel,
 * apply. A flag that moved on since the request was made is named (the API refuses to apply it, and
 * says so); the author can bring the request up to date: the same proposed targeting, on top of
 * the flags as they are now (which clears the approvals). Beside the changes, the conditions of the
 * segments their rules name, as pinned with the request: what an approver approves. A release plan
 * the request starts (or resumes) is shown as pinned: its variation, steps, guardrails and what it
 * does on harm; a plan edited since is named like a flag that moved on.
 */
import { useState } from "preact/hooks"
import { ChangeRequestEdit } from "../components/ChangeRequestEdit.js"
import { ask } from "../components/Confirm.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { PinnedSegments } from "../components/PinnedSegments.js"
import { TargetingChange } from "../components/TargetingChange.js"
import { projectPath, request, seg } from "../lib/api.js"
import { actorLabel } from "../lib/audit.js"
import { actionsOn, approvalsShort, countLive, isLive, NOT_COUNTING_WORDS, notReadyWords, requestPath } from "../lib/changes.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { planChangeView, planFlags, plansMovedOn, upToDateBody } from "../lib/planChanges.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { href } from "../lib/router.js"
import type { ChangeRequest, Flag, List } from "../lib/types.js"

interface PlanVersion {
  readonly id: string
  readonly version: number
}

const loadRequests = async (projectId: string) => {
  const [requests, flags] = await Promise.all([
    request<List<ChangeRequest>>("GET", projectPath(projectId, "/change-requests")),
    request<List<Flag>>("GET", projectPath(projectId, "/flags"))
  ])
  // The plans live requests start or resume, as they are now: one that moved on is named.
  const plans = await Promise.all(
    planFlags(requests.data.filter(isLive)).map((flagKey) =>
      request<List<PlanVersion>>("GET", projectPath(projectId, `/flags/${seg(flagKey)}/release-plans`)).then((list) => list.data, () => []))
  )
  return {
    requests: requests.data,
    versions: new Map(flags.data.map((f) => [f.key, f.version])),
    planVersions: new Map(plans.flat().map((p) => [p.id, p.version]))
  }
}

/** Live ones first; the API's order (newest first) within each. */
const ordered = (requests: ReadonlyArray<ChangeRequest>): ReadonlyArray<ChangeRequest> => [...requests.filter(isLive), ...requests.filter((r) => !isLive(r))]

const STATUS_WORDS: { readonly [S in ChangeRequest["status"]]: string } = {
  open: "open: waiting for approval",
  approved: "approved: ready to apply",
  rejected: "rejected",
  cancelled: "cancelled",
  applied: "applied"
}

/** The flags of `r` whose version is no longer the one the change was based on, then its plans edited since. */
const movedOn = (r: ChangeRequest, versions: ReadonlyMap<string, number>, planVersions: ReadonlyMap<string, number>): ReadonlyArray<string> =>
  isLive(r)
    ? [...r.changes.filter((c) => versions.get(c.flagKey) !== c.baseVersion).map((c) => c.flagKey), ...plansMovedOn(r.releasePlans, planVersions).map((id) => `release plan ${id}`)]
    : []

const Request = (props: {
  projectId: string
  request: ChangeRequest
  moved: ReadonlyArray<string>
  onChanged: (r: ChangeRequest, message: string) => void
  onStale: () => void
}) => {
  const r = props.request
  const [comment, setComment] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const [editing, setEditing] = useState(false)
  const can = actionsOn(r)
  const titleId = `cr-${r.id}`
  const act = async (what: string, path: string, done: string, body?: unknown, confirm?: string) => {
    if (confirm !== undefined && !(await ask(confirm))) return
    setBusy(true)
    try {
      const updated = await request<ChangeRequest>(what, requestPath(props.projectId, r.id, path), body)
      setProblems(NO_PROBLEMS)
      setComment("")
      props.onChanged(updated, done)
    } catch (error) {
      const refused = fromError(error)
      setProblems(refused)
      // A conflict: a flag moved on (or the request changed meanwhile): read the flags and the request again.
      if (refused.status === 409) props.onStale()
    } finally {
      setBusy(false)
    }
  }
  const bringUpToDate = () =>
    act("PUT", "", `“${r.title}” is up to date with the flags as they are now; it needs its approvals again.`, upToDateBody(r))
  const live = isLive(r)
  const short = approvalsShort(r)
  const lost = r.approvals.length - r.countingApprovals
  return (
    <article class={`card change-request ${r.status}`} aria-labelledby={titleId}>
      <div class="page-head">
        <h2 id={titleId}>{r.title}</h2>
        {short > 0 ? (
          <span class="cr-status cr-not-ready">{notReadyWords(r)}</span>
        ) : (
          <span class={`cr-status cr-${r.status}`}>{STATUS_WORDS[r.status]}</span>
        )}
      </div>
      <p class="muted">
        {r.environment} · proposed by {actorLabel(r.author)} · {when(r.createdAt)}
        {r.updatedAt !== r.createdAt ? ` · updated ${when(r.updatedAt)}` : ""}
      </p>
      {r.description === null || r.description === "" ? null : <p>{r.description}</p>}
      {editing && can.update ? (
        <ChangeRequestEdit
          projectId={props.projectId}
          request={r}
          onSaved={(saved, message) => {
            setEditing(false)
            props.onChanged(saved, message)
          }}
          onClose={() => setEditing(false)}
          onStale={props.onStale}
        />
      ) : null}
      <p>
        Approvals: {r.countingApprovals} of {r.requiredApprovals} required
        {lost > 0 ? `, and ${lost} that no longer ${lost === 1 ? "counts" : "count"}` : ""}
        {r.approvals.length === 0 ? "." : ":"}
      </p>
      {r.approvals.length === 0 ? null : (
        <ul class="approvals">
          {r.approvals.map((a, i) => (
            <li key={i} class={a.counts ? undefined : "not-counting"}>
              {actorLabel(a.by)}, {when(a.at)}
              {a.comment === null || a.comment === "" ? null : <>: “{a.comment}”</>}
              {a.counts ? null : (
                <>
                  {" "}
                  <strong>no longer counts</strong> ({a.notCountingReason === null ? "no longer allowed to approve" : NOT_COUNTING_WORDS[a.notCountingReason]})
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {short > 0 ? (
        <p class="problems">
          Not ready to apply: it needs {short} more {short === 1 ? "approval" : "approvals"} from a project admin. An approval counts only while
          its approver may still approve here.
        </p>
      ) : null}
      {r.rejection === null ? null : (
        <p>
          Rejected by {actorLabel(r.rejection.by)}, {when(r.rejection.at)}
          {r.rejection.comment === null || r.rejection.comment === "" ? "." : <>: “{r.rejection.comment}”</>}
        </p>
      )}
      {r.appliedAt === null ? null : (
        <p>
          Applied by {r.appliedBy === null ? "the scheduler" : actorLabel(r.appliedBy)}, {when(r.appliedAt)}.
        </p>
      )}
      {r.applyAt === null || !live ? null : <p>Applied by the scheduler at {when(r.applyAt)} once approved.</p>}
      {r.failure === null || !live ? null : <p class="problems">Not applied when due: {r.failure}</p>}
      {props.moved.length === 0 ? null : (
        <div class="error-summary conflict" role="alert">
          <p>
            Changed since this request was made: {props.moved.map((k, i) => <span key={k}>{i === 0 ? "" : ", "}<code>{k}</code></span>)}.
          </p>
          <p class="detail">
            It cannot be applied as it is: applying it would undo those changes.{" "}
            {can.update ? "Bring it up to date to propose the same targeting on top of them (its approvals are cleared)." : "Its author can bring it up to date."}
          </p>
          {can.update ? (
            <div class="actions">
              <button type="button" disabled={busy} onClick={bringUpToDate}>Bring up to date</button>
            </div>
          ) : null}
        </div>
      )}
      {r.changes.map((c) => (
        <section key={c.flagKey} class="change" aria-label={`Change to ${c.flagKey}`}>
          <h3>
            <a href={href({ page: "flag", key: c.flagKey })}><code>{c.flagKey}</code></a>{" "}
            <span class="muted">in {r.environment}, from version {c.baseVersion}</span>
          </h3>
          <TargetingChange before={c.before} after={c.after} label={`${c.flagKey} in ${r.environment}: before and after`} />
        </section>
      ))}
      {r.releasePlans.map((c) => {
        const view = planChangeView(c)
        return (
          <section key={c.planId} class="change plan-change" aria-label={`${view.heading} of ${c.flagKey}`}>
            <h3>
              {view.heading} of <a href={href({ page: "flag", key: c.flagKey })}><code>{c.flagKey}</code></a>{" "}
              <span class="muted">in {r.environment}</span>
            </h3>
            <p>{view.ramp}. Once applied, its steps apply by themselves, without further approvals:</p>
            <ol>
              {view.steps.map((step) => <li key={step}>{step}</li>)}
            </ol>
            <p>
              {view.guardrails} {view.onHarm}
            </p>
            {view.harm === null ? null : <p class="problems">{view.harm}</p>}
          </section>
        )
      })}
      <PinnedSegments id={r.id} segments={r.segments} />
      <ErrorSummary problems={problems} />
      {!live || !(can.approve || can.reject || can.cancel || can.apply || can.update) ? null : (
        <div class="review">
          {can.approve || can.reject ? (
            <Field label="Comment" hint={can.reject ? "Optional for an approval, required for a rejection." : "Optional."}>
              {(ctl) => <textarea {...ctl} rows={2} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />}
            </Field>
          ) : null}
          <div class="actions">
            {can.approve ? (
              <button type="button" disabled={busy} onClick={() => act("POST", "/approve", `You approved “${r.title}”.`, comment.trim() === "" ? {} : { comment })}>
                Approve<span class="visually-hidden"> “{r.title}”</span>
              </button>
            ) : null}
            {can.apply ? (
              <button
                type="button"
                disabled={busy}
                onClick={() => act("POST", "/apply", `“${r.title}” is applied to ${r.environment}.`, undefined, `Apply “${r.title}” to ${r.environment} now?`)}
              >
                Apply<span class="visually-hidden"> “{r.title}”</span> to {r.environment}
              </button>
            ) : null}
            {can.reject ? (
              <button
                type="button"
                class="danger"
                disabled={busy || comment.trim() === ""}
                onClick={() => act("POST", "/reject", `You rejected “${r.title}”.`, { comment })}
              >
                Reject<span class="visually-hidden"> “{r.title}”</span>
              </button>
            ) : null}
            {can.update && !editing ? (
              <button type="button" class="secondary" disabled={busy} onClick={() => setEditing(true)}>
                Edit<span class="visually-hidden"> “{r.title}”</span>
              </button>
            ) : null}
            {can.cancel ? (
              <button
                type="button"
                class="secondary"
                disabled={busy}
                onClick={() => act("POST", "/cancel", `“${r.title}” is cancelled.`, undefined, `Cancel the change request “${r.title}”?`)}
              >
                Cancel request<span class="visually-hidden"> “{r.title}”</span>
              </button>
            ) : null}
          </div>
        </div>
      )}
    </article>
  )
}

export const ChangeRequestsPage = ({ projectId }: { projectId: string }) => {
  const { loaded, update, reload } = useLoad(() => loadRequests(projectId), [projectId])
  const [status, setStatus] = useState("")
  const changed = (r: ChangeRequest, message: string) => {
    update((d) => ({ ...d, requests: d.requests.map((old) => (old.id === r.id ? r : old)) }))
    setStatus(message)
    void countLive(projectId)
    // An apply moved the flags on: read their versions again.
    if (r.status === "applied") reload()
  }
  return (
    <section aria-labelledby="change-requests-title">
      <h1 id="change-requests-title">Change requests</h1>
      <p class="muted">
        Proposed changes to protected environments: someone other than the author approves them, then the author or an approver applies them.
      </p>
      <p role="status" class="status">{status}</p>
      {loaded.state !== "ready" ? (
        <Waiting loaded={loaded} />
      ) : loaded.data.requests.length === 0 ? (
        <p>No change requests yet. In a protected environment, a change to a flag's targeting is proposed here.</p>
      ) : (
        ordered(loaded.data.requests).map((r) => (
          <Request key={r.id} projectId={projectId} request={r} moved={movedOn(r, loaded.data.versions, loaded.data.planVersions)} onChanged={changed} onStale={reload} />
        ))
      )}
    </section>
  )
}
