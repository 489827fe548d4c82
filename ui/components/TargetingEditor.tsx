/**
 * The targeting of one flag in one environment: on or off, the default and off variations, and
 * the ordered rules. The change is previewed as people read it (the JSON one click away) before it is saved, and a
 * refusal is shown field by field. The save names the version of this environment's configuration
 * it was made on (`If-Match`), so a change someone else saved here meanwhile is not overwritten
 * (the 412 is explained and `onReload` offered) while changes to other environments never block
 * it. The parent remounts it after a save or a reload (keyed by the configuration's version), so
 * it always starts from what is stored. Instead of saving now, the same targeting can be scheduled
 * for a date and time (`onScheduled`).
 *
 * In a protected environment a person does not save: `proposing`, the save becomes "Propose
 * change" with a title and a description, and opens a change request for this flag with the
 * targeting shown (`onProposed`); the API's refusal of a change is shown at the same fields as the
 * PUT's (its paths under `changes[0].targeting` are read as the PUT's). Scheduling is not offered
 * there (a person's schedule into a protected environment is refused).
 */
import { useEffect, useState } from "preact/hooks"
import { ifMatchConfig, projectPath, request, seg } from "../lib/api.js"
import { changeTargeting, propose } from "../lib/changes.js"
import { isProductionLike } from "../lib/settings.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { href } from "../lib/router.js"
import type { ChangeRequest, EnvironmentConfig, Flag, Prerequisite, Rule, Schedule, Segment } from "../lib/types.js"
import { ask } from "./Confirm.js"
import { TargetingChange } from "./TargetingChange.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field } from "./Field.js"
import { RuleEditor } from "./RuleEditor.js"
import { ScheduleChange } from "./ScheduleChange.js"

/** A rule with a key that stays with it while rules move (new rules have no id yet). */
interface Keyed {
  readonly uid: number
  readonly rule: Rule
}

let nextUid = 0
const keyed = (rule: Rule): Keyed => ({ uid: nextUid++, rule })

/**
 * The targeting PUT that keeps `config` as it is. The PUT replaces the whole configuration and
 * reads absent prerequisites as none, so the ones the configuration has are always sent back
 * (the editor does not change them; without this, every save would drop them).
 */
export const targetingBody = (config: EnvironmentConfig) => ({
  environment: config.environmentKey,
  enabled: config.enabled,
  defaultVariationKey: config.defaultVariationKey,
  offVariationKey: config.offVariationKey,
  ...(config.prerequisites === undefined ? {} : { prerequisites: config.prerequisites }),
  rules: config.rules
})

/**
 * The configuration's prerequisites, read only: they are set through the API, and every save from
 * here sends them back unchanged (`targetingBody`).
 */
const Prerequisites = ({ prerequisites }: { prerequisites: ReadonlyArray<Prerequisite> }) =>
  prerequisites.length === 0 ? null : (
    <div class="prerequisites">
      <h3>Prerequisites</h3>
      <p class="muted">Evaluated only when each of these flags serves the variation named (otherwise the off variation is served). Set through the API; saving here keeps them.</p>
      <ul>
        {prerequisites.map((p) => (
          <li key={p.flagKey}>
            <a href={href({ page: "flag", key: p.flagKey })}><code>{p.flagKey}</code></a> serves <code>{p.variationKey}</code>
          </li>
        ))}
      </ul>
    </div>
  )

export const TargetingEditor = (props: {
  projectId: string
  flag: Flag
  config: EnvironmentConfig
  segments: ReadonlyArray<Segment>
  onSaved: (flag: Flag) => void
  onScheduled: (schedule: Schedule) => void
  onReload: () => void
  /** The environment is protected and a person edits: propose instead of saving. */
  proposing?: boolean
  onProposed?: (request: ChangeRequest) => void
  /** Told whether the editor holds a change not saved yet (the page then holds back live changes to this configuration). */
  onEdited?: (edited: boolean) => void
}) => {
  const { flag, config } = props
  const [enabled, setEnabled] = useState(config.enabled)
  const [defaultKey, setDefaultKey] = useState(config.defaultVariationKey)
  const [offKey, setOffKey] = useState(config.offVariationKey)
  const [rules, setRules] = useState<ReadonlyArray<Keyed>>(() => config.rules.map(keyed))
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [saving, setSaving] = useState(false)
  const [title, setTitle] = useState("")
  const [description, setDescription] = useState("")
  const [applyAt, setApplyAt] = useState("")
  const proposing = props.proposing === true

  const before = targetingBody(config)
  const after = { ...before, enabled, defaultVariationKey: defaultKey, offVariationKey: offKey, rules: rules.map((k) => k.rule) }
  const changed = JSON.stringify(before) !== JSON.stringify(after)
  const onEdited = props.onEdited
  useEffect(() => onEdited?.(changed), [changed, onEdited])
  useEffect(() => () => onEdited?.(false), [onEdited])

  const update = (next: ReadonlyArray<Keyed>) => setRules(next)
  const move = (i: number, by: -1 | 1) => {
    const next = [...rules]
    const [taken] = next.splice(i, 1)
    next.splice(i + by, 0, taken!)
    update(next)
  }

  /** The change request's refusal, its paths read as the PUT's (`changes[0].targeting.rules` is `rules`). */
  const asTargeting = (problems: Problems): Problems => ({
    ...problems,
    details: problems.details.map((d) => ({ ...d, path: d.path.replace(/^changes\[0\]\.targeting\.?/, "") }))
  })

  const proposeChange = async () => {
    setSaving(true)
    try {
      const created = await propose(props.projectId, { title, description, applyAt, environment: config.environmentKey, flagKey: flag.key, targeting: changeTargeting(after) })
      setProblems(NO_PROBLEMS)
      props.onProposed?.(created)
    } catch (error) {
      setProblems(asTargeting(fromError(error)))
    } finally {
      setSaving(false)
    }
  }

  const save = async (e: Event) => {
    e.preventDefault()
    if (proposing) return proposeChange()
    if (isProductionLike(config.environmentKey) && !(await ask(`Save the targeting of ${flag.key} in ${config.environmentKey}?`))) return
    setSaving(true)
    try {
      const updated = await request<Flag>("PUT", projectPath(props.projectId, `/flags/${seg(flag.key)}/targeting`), after, ifMatchConfig(flag, config))
      setProblems(NO_PROBLEMS)
      props.onSaved(updated)
    } catch (error) {
      setProblems(fromError(error))
    } finally {
      setSaving(false)
    }
  }

  const variationOptions = flag.variations.map((v) => <option key={v.key} value={v.key}>{v.key}</option>)
  return (
    <form class="targeting" onSubmit={save} aria-label={`Targeting in ${config.environmentKey}`} noValidate>
      <ErrorSummary problems={problems} onReload={props.onReload} />
      <label class="check">
        <input type="checkbox" role="switch" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        Enabled in {config.environmentKey}
      </label>
      <Prerequisites prerequisites={config.prerequisites ?? []} />
      <div class="row">
        <Field label="Default variation (no rule matches)" problems={at(problems, "defaultVariationKey")}>
          {(ctl) => <select {...ctl} value={defaultKey} onChange={(e) => setDefaultKey(e.currentTarget.value)}>{variationOptions}</select>}
        </Field>
        <Field label="Off variation (flag disabled)" problems={at(problems, "offVariationKey")}>
          {(ctl) => <select {...ctl} value={offKey} onChange={(e) => setOffKey(e.currentTarget.value)}>{variationOptions}</select>}
        </Field>
      </div>
      <h3>Rules</h3>
      <p class="muted">Rules are tried in order; the first whose conditions all hold decides.</p>
      <ol class="rules">
        {rules.map((k, i) => (
          <RuleEditor
            key={k.uid}
            rule={k.rule}
            index={i}
            count={rules.length}
            variations={flag.variations}
            segments={props.segments}
            problems={problems}
            onChange={(rule) => update(rules.map((old) => (old.uid === k.uid ? { uid: k.uid, rule } : old)))}
            onMove={(by) => move(i, by)}
            onRemove={() => update(rules.filter((old) => old.uid !== k.uid))}
          />
        ))}
      </ol>
      <button type="button" class="secondary" onClick={() => update([...rules, keyed({ conditions: [], variationKey: flag.variations[0]?.key ?? "" })])}>
        Add rule
      </button>
      <TargetingChange before={before} after={after} label={`Change to ${config.environmentKey}`} />
      {proposing ? (
        <div class="proposal">
          <p class="muted">{config.environmentKey} is protected: your change is proposed as a change request, and applied once someone else approves it.</p>
          <div class="row">
            <Field label="Title" problems={at(problems, "title")}>
              {(ctl) => <input {...ctl} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />}
            </Field>
            <Field label="Description" problems={at(problems, "description")} class="grow">
              {(ctl) => <input {...ctl} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
            </Field>
          </div>
          <div class="row">
            <Field
              label="Apply at (UTC, optional)"
              hint="Empty: applied by hand once approved. With a time: the server applies it then, once approved (a time already past: as soon as it is approved)."
              problems={at(problems, "applyAt")}
            >
              {(ctl) => <input {...ctl} type="datetime-local" step="1" value={applyAt} onInput={(e) => setApplyAt(e.currentTarget.value)} />}
            </Field>
          </div>
        </div>
      ) : null}
      <div class="actions">
        <button type="submit" disabled={!changed || saving || (proposing && title.trim() === "")}>
          {saving ? (proposing ? "Proposing…" : "Saving…") : proposing ? "Propose change" : `Save targeting in ${config.environmentKey}`}
        </button>
      </div>
      {proposing ? null : <ScheduleChange
        projectId={props.projectId}
        flagKey={flag.key}
        targeting={after}
        problems={problems}
        onScheduled={props.onScheduled}
        onRefused={setProblems}
      />}
    </form>
  )
}
