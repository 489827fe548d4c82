/**
 * Copies the targeting of every flag from one environment to another in one step (one
 * transaction on the server: all flags or none), for promoting a tested configuration, say from
 * staging to production. Production-like targets ask first. Into a protected environment a
 * person's copy proposes instead: one change request with every flag whose targeting would change
 * (the API takes at most 50 flags in one request, and says so past that).
 */
import { useState } from "preact/hooks"
import { projectPath, request } from "../lib/api.js"
import { proposes } from "../lib/changes.js"
import { copyChanges, copyTargeting, proposeCopy } from "../lib/copy.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { isProductionLike } from "../lib/settings.js"
import type { Environment, Flag, List } from "../lib/types.js"
import { ask } from "./Confirm.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field } from "./Field.js"

const describeCopy = (from: string, to: string, changed: ReadonlyArray<string>): string =>
  changed.length === 0
    ? `Every flag already had the same targeting in ${to} as in ${from}: nothing changed.`
    : `Copied ${from} to ${to}: ${changed.length} ${changed.length === 1 ? "flag" : "flags"} changed (${changed.join(", ")}).`

export const CopyAllFlags = ({ projectId, environments }: { projectId: string; environments: ReadonlyArray<Environment> }) => {
  const [from, setFrom] = useState(environments[0]?.key ?? "")
  const [to, setTo] = useState(environments[1]?.key ?? "")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [status, setStatus] = useState("")
  const [busy, setBusy] = useState(false)
  const proposing = proposes(environments.find((env) => env.key === to))
  const propose = async () => {
    setBusy(true)
    setStatus("")
    try {
      // Every flag, whole: the change request names each one that differs.
      const flags = await request<List<Flag>>("GET", projectPath(projectId, "/flags"))
      const changes = copyChanges(flags.data, from, to)
      setProblems(NO_PROBLEMS)
      if (changes.length === 0) return setStatus(`Every flag already has the same targeting in ${to} as in ${from}: nothing to propose.`)
      const opened = await proposeCopy(projectId, from, to, changes)
      setStatus(`Change request “${opened.title}” opened: ${to} changes once it is approved and applied.`)
    } catch (error) {
      setProblems(fromError(error))
    } finally {
      setBusy(false)
    }
  }
  const copy = async (e: Event) => {
    e.preventDefault()
    if (proposing) return propose()
    if (isProductionLike(to) && !(await ask(`Replace the targeting of every flag in ${to} with its targeting in ${from}?`))) return
    setBusy(true)
    setStatus("")
    try {
      const changed = await copyTargeting(projectId, from, to)
      setProblems(NO_PROBLEMS)
      setStatus(describeCopy(from, to, changed))
    } catch (error) {
      setProblems(fromError(error))
    } finally {
      setBusy(false)
    }
  }
  const options = environments.map((env) => <option key={env.key} value={env.key}>{env.name} ({env.key})</option>)
  return (
    <form class="card" onSubmit={copy} aria-label="Copy all flags" noValidate>
      <h2>Copy all flags</h2>
      <p class="muted">
        Replaces the targeting (on/off, default and off variations, rules) of every flag in one environment with its targeting in another.
        All flags are copied or none.
      </p>
      <ErrorSummary problems={problems} />
      <div class="row">
        <Field label="From environment" problems={at(problems, "from")}>
          {(ctl) => <select {...ctl} value={from} onChange={(e) => setFrom(e.currentTarget.value)}>{options}</select>}
        </Field>
        <Field label="To environment">
          {(ctl) => <select {...ctl} value={to} onChange={(e) => setTo(e.currentTarget.value)}>{options}</select>}
        </Field>
      </div>
      {proposing ? <p class="muted">{to} is protected: the copy proposes a change request rather than changing the flags.</p> : null}
      <div class="actions">
        <button type="submit" disabled={busy || from === "" || to === ""}>{proposing ? "Propose copying all flags" : "Copy all flags"}</button>
      </div>
      <p role="status" class="status">{status}</p>
    </form>
  )
}
