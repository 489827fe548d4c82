/**
 * Live changes on the flag page (lib/events.ts): what someone else changed while the page was
 * open, in words ("Targeting in staging changed by ana@example.com at 14:05"), and when it touched
 * the targeting being edited, their new state with a way to take it into the editor, instead of a
 * refused save.
 */
import { changeTargeting } from "../lib/changes.js"
import { actorName, type ManagementEvent } from "../lib/events.js"
import { when } from "../lib/format.js"
import type { EnvironmentConfig } from "../lib/types.js"
import { TargetingChange } from "./TargetingChange.js"

/** What an event did, as a person reads it. */
const WHAT: Readonly<Record<string, (event: ManagementEvent) => string>> = {
  "targeting.updated": (e) => `Targeting in ${e.environments.join(", ")} changed`,
  "flag.updated": () => "Name, description or variations changed",
  "flag.created": () => "Flag created",
  "flag.deleted": () => "Flag deleted",
  "schedule.created": (e) => `Change to ${e.environments.join(", ")} scheduled`,
  "schedule.cancelled": (e) => `Scheduled change to ${e.environments.join(", ")} cancelled`
}

/** "Targeting in staging changed by ana@example.com at 14:05" (null: changed elsewhere, who and when unknown). */
export const changedBy = (event: ManagementEvent | null): string =>
  event === null
    ? "Changed elsewhere while this page was not following changes."
    : `${(WHAT[event.kind] ?? (() => "Changed"))(event)} by ${actorName(event)} ${when(event.at)}.`

export const LiveChangeNotice = (props: {
  event: ManagementEvent | null
  environment: string
  mine: EnvironmentConfig
  theirs: EnvironmentConfig
  onTakeOver: () => void
}) => (
  <div class="card notice conflict" role="alert">
    <p>{changedBy(props.event)} You are editing the targeting in {props.environment}: saving your change now would be refused.</p>
    <TargetingChange before={changeTargeting(props.mine)} after={changeTargeting(props.theirs)} label={`Their change to ${props.environment}`} />
    <p class="detail">Take their change into the editor (yours is set aside), then make yours again on top of it.</p>
    <div class="actions">
      <button type="button" onClick={props.onTakeOver}>Take their change into the editor</button>
    </div>
  </div>
)
