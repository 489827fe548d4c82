/**
 * One page of the flags list as cards, for phones (below 600 px): the table's columns would not fit
 * and would scroll sideways, so each flag is a card with its key (a link to its page), name and
 * stale mark, its type, version and last change, and a labelled switch per environment
 * (FlagSwitch.tsx), wrapping as the width allows.
 */
import { proposes } from "../lib/changes.js"
import { when } from "../lib/format.js"
import { href } from "../lib/router.js"
import { FlagSwitch } from "./FlagSwitch.js"
import type { FlagListProps } from "./FlagTable.js"
import { StaleBadge } from "./StaleBadge.js"

export const FlagCards = ({ projectId, flags, environments, onChanged, onProposed, onRefused }: FlagListProps) => (
  <ul class="flag-cards" aria-label={`Flags of ${projectId}, with their state in each environment`}>
    {flags.map((f) => (
      <li key={f.key} class="flag-card">
        <p class="flag-card-head">
          <a class="flag-key" href={href({ page: "flag", key: f.key })}>{f.key}</a>
          {f.name !== "" && f.name !== f.key ? <span class="muted"> {f.name}</span> : null}
          <StaleBadge flag={f} />
        </p>
        <p class="muted flag-card-facts">
          {f.type}, version {f.version}, changed {when(f.updatedAt)}
        </p>
        <ul class="flag-card-switches">
          {environments.map((e) => (
            <li key={e.key}>
              <span aria-hidden="true">{e.name}</span>
              <FlagSwitch projectId={projectId} flag={f} environment={e.key} proposing={proposes(e)} onChanged={onChanged} onProposed={onProposed} onRefused={onRefused} />
            </li>
          ))}
        </ul>
      </li>
    ))}
  </ul>
)
