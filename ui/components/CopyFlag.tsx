/**
 * Copies one flag's saved targeting from the environment shown to another one (production-like
 * targets ask first). The copy names the version of the flag the page shows (`If-Match`), so it
 * never copies over a change this page has not seen. Into a protected environment a person's copy
 * proposes instead: a change request with the flag's targeting in the environment shown.
 */
import { useState } from "preact/hooks"
import { proposes } from "../lib/changes.js"
import { copyChanges, copyTargeting, proposeCopy } from "../lib/copy.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { isProductionLike } from "../lib/settings.js"
import type { Environment, Flag } from "../lib/types.js"
import { ask } from "./Confirm.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field } from "./Field.js"

export const CopyFlag = (props: {
  projectId: string
  flag: Flag
  from: string
  environments: ReadonlyArray<Environment>
  onCopied: (message: string) => void
  onReload: () => void
}) => {
  const targets = props.environments.filter((e) => e.key !== props.from)
  const [to, setTo] = useState(targets[0]?.key ?? "")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const proposing = proposes(targets.find((t) => t.key === to))
  const copy = async (e: Event) => {
    e.preventDefault()
    const { flag, from } = props
    if (proposing) {
      const changes = copyChanges([flag], from, to)
      if (changes.length === 0) return props.onCopied(`${to} already has the targeting of ${from}: nothing to propose.`)
      setBusy(true)
      try {
        const opened = await proposeCopy(props.projectId, from, to, changes)
        setProblems(NO_PROBLEMS)
        props.onCopied(`Change request “${opened.title}” opened: ${to} changes once it is approved and applied.`)
      } catch (error) {
        setProblems(fromError(error))
      } finally {
        setBusy(false)
      }
      return
    }
    if (isProductionLike(to) && !(await ask(`Replace the targeting of ${flag.key} in ${to} with its targeting in ${from}?`))) return
    setBusy(true)
    try {
      const changed = await copyTargeting(props.projectId, from, to, flag)
      setProblems(NO_PROBLEMS)
      props.onCopied(changed.includes(flag.key) ? `Targeting in ${from} copied to ${to}.` : `${to} already had the targeting of ${from}: nothing changed.`)
    } catch (error) {
      setProblems(fromError(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form class="card" onSubmit={copy} aria-label="Copy to another environment" noValidate>
      <h3>Copy to another environment</h3>
      <p class="muted">
        Replaces the targeting of <code>{props.flag.key}</code> in the chosen environment with what is saved in {props.from} (unsaved edits above are not copied).
      </p>
      <ErrorSummary problems={problems} onReload={props.onReload} />
      <div class="row">
        <Field label={`Copy ${props.from} to`}>
          {(ctl) => (
            <select {...ctl} value={to} onChange={(e) => setTo(e.currentTarget.value)}>
              {targets.map((t) => <option key={t.key} value={t.key}>{t.name} ({t.key})</option>)}
            </select>
          )}
        </Field>
      </div>
      {proposing ? <p class="muted">{to} is protected: the copy proposes a change request rather than changing the flag.</p> : null}
      <div class="actions">
        <button type="submit" disabled={busy || to === ""}>{proposing ? `Propose copying ${props.from} to ${to}` : `Copy ${props.from} to ${to}`}</button>
      </div>
    </form>
  )
}
