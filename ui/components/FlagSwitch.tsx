/**
 * A flag's on/off switch in one environment, on the flags list (its table rows and its phone
 * cards): one click, production-like environments ask first. It sends the configuration it shows
 * with that configuration's version (`If-Match`), so it never undoes a change made there since the
 * list loaded: that is a 412, explained by the page. In a protected environment a person's switch
 * proposes instead: it opens a change request turning the flag on or off there, and stays as it is
 * until that is applied. A viewer sees the state, not a switch.
 */
import { useState } from "preact/hooks"
import { ifMatchConfig, projectPath, request, seg } from "../lib/api.js"
import { changeTargeting, propose } from "../lib/changes.js"
import { fromError, type Problems } from "../lib/problems.js"
import { allows } from "../lib/roles.js"
import { isProductionLike } from "../lib/settings.js"
import type { Flag } from "../lib/types.js"
import { ask } from "./Confirm.js"
import { targetingBody } from "./TargetingEditor.js"

/** A change request the switch opened, for the page to say so. */
export interface Proposed {
  readonly title: string
  readonly environment: string
}

/** What the page does with a switch's outcome. */
export interface SwitchOutcomes {
  readonly onChanged: (f: Flag) => void
  readonly onProposed: (p: Proposed) => void
  readonly onRefused: (p: Problems) => void
}

/** The id of the page's note on protected environments, which each proposing switch points to. */
export const PROTECTED_HINT = "protected-hint"

export const FlagSwitch = (props: SwitchOutcomes & { projectId: string; flag: Flag; environment: string; proposing: boolean }) => {
  const config = props.flag.configs.find((c) => c.environmentKey === props.environment)
  const [busy, setBusy] = useState(false)
  if (config === undefined) return <span class="muted">n/a</span>
  if (!allows("write")) return <span class={config.enabled ? "state on" : "state"}>{config.enabled ? "On" : "Off"}</span>
  const toggle = async () => {
    if (busy) return
    const next = !config.enabled
    if (props.proposing) {
      const title = `Turn ${props.flag.key} ${next ? "on" : "off"} in ${props.environment}`
      if (!(await ask(`${props.environment} is protected. Propose a change request to turn ${props.flag.key} ${next ? "on" : "off"} there?`))) return
      setBusy(true)
      try {
        await propose(props.projectId, { title, description: "", environment: props.environment, flagKey: props.flag.key, targeting: changeTargeting({ ...config, enabled: next }) })
        props.onProposed({ title, environment: props.environment })
      } catch (error) {
        props.onRefused(fromError(error))
      } finally {
        setBusy(false)
      }
      return
    }
    if (isProductionLike(props.environment) && !(await ask(`Turn ${props.flag.key} ${next ? "on" : "off"} in ${props.environment}?`))) return
    setBusy(true)
    try {
      const body = { ...targetingBody(config), enabled: next }
      props.onChanged(await request<Flag>("PUT", projectPath(props.projectId, `/flags/${seg(props.flag.key)}/targeting`), body, ifMatchConfig(props.flag, config)))
    } catch (error) {
      props.onRefused(fromError(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <button
      type="button"
      role="switch"
      class={config.enabled ? "switch on" : "switch"}
      aria-checked={config.enabled}
      aria-label={`${props.flag.key} in ${props.environment}`}
      aria-describedby={props.proposing ? PROTECTED_HINT : undefined}
      // aria-disabled, not disabled: a disabled button would lose the keyboard focus mid-request
      aria-disabled={busy}
      onClick={toggle}
    >
      {config.enabled ? "On" : "Off"}
    </button>
  )
}
