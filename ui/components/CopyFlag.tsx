/**
 * Copies one flag's saved targeting from the environment shown to another one (production-like
 * targets ask first). The copy names the version of the flag the page shows (`If-Match`), so it
 * never copies over a change this page has not seen.
 */
import { useState } from "preact/hooks"
import { copyTargeting } from "../lib/copy.js"
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
  const copy = async (e: Event) => {
    e.preventDefault()
    const { flag, from } = props
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
      <div class="actions">
        <button type="submit" disabled={busy || to === ""}>{`Copy ${props.from} to ${to}`}</button>
      </div>
    </form>
  )
}
