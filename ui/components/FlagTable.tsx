/**
 * One page of the flags list as a table: a row per flag with its key (a link to its page), name and
 * stale mark, its type, a switch per environment (FlagSwitch.tsx), its version and last change.
 */
import { Component } from "preact"
import { proposes } from "../lib/changes.js"
import { when } from "../lib/format.js"
import { href } from "../lib/router.js"
import type { Environment, Flag } from "../lib/types.js"
import { FlagSwitch, type SwitchOutcomes } from "./FlagSwitch.js"
import { StaleBadge } from "./StaleBadge.js"
import { Table } from "./Table.js"

export interface FlagListProps extends SwitchOutcomes {
  readonly projectId: string
  readonly flags: ReadonlyArray<Flag>
  readonly environments: ReadonlyArray<Environment>
}

interface RowProps extends SwitchOutcomes {
  readonly projectId: string
  readonly flag: Flag
  readonly environments: ReadonlyArray<Environment>
}

/** One flag's row; rendered again only when that flag changes (a switch elsewhere leaves it alone). */
class FlagRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return next.flag !== this.props.flag || next.environments !== this.props.environments || next.projectId !== this.props.projectId
  }
  override render({ projectId, flag: f, environments, onChanged, onProposed, onRefused }: RowProps) {
    return (
      <tr>
        <th scope="row">
          <a class="flag-key" href={href({ page: "flag", key: f.key })}>{f.key}</a>
          {f.name !== "" && f.name !== f.key ? <span class="muted"> {f.name}</span> : null}
          <StaleBadge flag={f} />
        </th>
        <td>{f.type}</td>
        {environments.map((e) => (
          <td key={e.key}>
            <FlagSwitch projectId={projectId} flag={f} environment={e.key} proposing={proposes(e)} onChanged={onChanged} onProposed={onProposed} onRefused={onRefused} />
          </td>
        ))}
        <td>{f.version}</td>
        <td>{when(f.updatedAt)}</td>
      </tr>
    )
  }
}

export const FlagTable = ({ projectId, flags, environments, onChanged, onProposed, onRefused }: FlagListProps) => (
  <Table class="flags" caption={<>Flags of {projectId}, with their state in each environment</>}>
    <thead>
      <tr>
        <th scope="col">Flag</th>
        <th scope="col">Type</th>
        {environments.map((e) => <th scope="col" key={e.key}>{e.name}</th>)}
        <th scope="col">Version</th>
        <th scope="col">Last change</th>
      </tr>
    </thead>
    <tbody>
      {flags.map((f) => (
        <FlagRow key={f.key} projectId={projectId} flag={f} environments={environments} onChanged={onChanged} onProposed={onProposed} onRefused={onRefused} />
      ))}
    </tbody>
  </Table>
)
