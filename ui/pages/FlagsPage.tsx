/**
 * The flags of a project: search by key or name, filter by type, switch a flag on or off in an
 * environment with one click (production-like environments ask first), version and last change.
 * New flags are created here. Stale flags (nobody evaluates them any more) are marked, and can be
 * listed alone. A switch sends the configuration it shows with the flag's version
 * (`If-Match`, that environment's configuration's version), so it never undoes a change made
 * there since the list loaded: that is a 412, explained, with the list offered again. The list
 * follows the project's changes live (lib/events.ts): a change made elsewhere shows within a moment. In a protected environment a person's switch proposes instead: it
 * opens a change request turning the flag on or off there, and stays as it is until that is applied.
 *
 * Rows are plain table rows (no virtual scrolling, so the browser's find and the keyboard reach
 * every flag), rendered in slices: the first FIRST_ROWS at once, the rest CHUNK_ROWS per task,
 * so the page shows and answers at once even with thousands of flags (docs/operations/benchmarks.md).
 */
import { Component } from "preact"
import { useCallback, useEffect, useMemo, useState } from "preact/hooks"
import { ask } from "../components/Confirm.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { StaleBadge } from "../components/StaleBadge.js"
import { Field } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { defaultDrafts, toVariations, VariationsEditor, type Draft } from "../components/VariationsEditor.js"
import { ifMatchConfig, projectPath, request, seg } from "../lib/api.js"
import { LIVE_WORDS, useProjectEvents } from "../lib/events.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { go, href } from "../lib/router.js"
import { isProductionLike } from "../lib/settings.js"
import type { Environment, Flag, FlagType, List } from "../lib/types.js"
import { allows } from "../lib/roles.js"
import { targetingBody } from "../components/TargetingEditor.js"
import { changeTargeting, propose, proposes } from "../lib/changes.js"
import { Table } from "../components/Table.js"

const STALE_HINT = "Stale: older than the server’s stale period (30 days unless set otherwise) and not evaluated in any environment during it, so its code can probably go."
const TYPES: ReadonlyArray<FlagType> = ["boolean", "string", "number", "json"]
const FIRST_ROWS = 100
const CHUNK_ROWS = 300

const loadFlags = async (projectId: string) => {
  const [environments, flags] = await Promise.all([
    request<List<Environment>>("GET", projectPath(projectId, "/environments")),
    request<List<Flag>>("GET", projectPath(projectId, "/flags"))
  ])
  return { environments: environments.data, flags: flags.data }
}

const NewFlag = ({ projectId, onCreated }: { projectId: string; onCreated: (f: Flag) => void }) => {
  const [key, setKey] = useState("")
  const [name, setName] = useState("")
  const [type, setType] = useState<FlagType>("boolean")
  const [drafts, setDrafts] = useState<ReadonlyArray<Draft>>(defaultDrafts("boolean"))
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const variations = toVariations(type, drafts)
  const submit = async (e: Event) => {
    e.preventDefault()
    if (variations === null) return
    try {
      const body = { key, type, variations, ...(name === "" ? {} : { name }) }
      onCreated(await request<Flag>("POST", projectPath(projectId, "/flags"), body))
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  return (
    <form class="card" onSubmit={submit} aria-label="New flag" noValidate>
      <h2>New flag</h2>
      <ErrorSummary problems={problems} />
      <div class="row">
        <Field label="Key" hint="Letters, digits, '.', '_' and '-'." problems={at(problems, "key")}>
          {(ctl) => <input {...ctl} value={key} onInput={(e) => setKey(e.currentTarget.value)} required />}
        </Field>
        <Field label="Name" problems={at(problems, "name")}>
          {(ctl) => <input {...ctl} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Type" problems={at(problems, "type")}>
          {(ctl) => (
            <select
              {...ctl}
              value={type}
              onChange={(e) => {
                const t = e.currentTarget.value as FlagType
                setType(t)
                setDrafts(defaultDrafts(t))
              }}
            >
              {TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          )}
        </Field>
      </div>
      <VariationsEditor key={type} type={type} drafts={drafts} problems={problems} onChange={setDrafts} />
      <div class="actions">
        <button type="submit" disabled={variations === null}>Create flag</button>
      </div>
    </form>
  )
}

/** A change request the switch opened, for the page to say so. */
export interface Proposed {
  readonly title: string
  readonly environment: string
}

const Switch = (props: {
  projectId: string
  flag: Flag
  environment: string
  proposing: boolean
  onChanged: (f: Flag) => void
  onProposed: (p: Proposed) => void
  onRefused: (p: Problems) => void
}) => {
  const config = props.flag.configs.find((c) => c.environmentKey === props.environment)
  const [busy, setBusy] = useState(false)
  if (config === undefined) return <span class="muted">n/a</span>
  // A viewer sees the state, not a switch.
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
      aria-describedby={props.proposing ? "protected-hint" : undefined}
      // aria-disabled, not disabled: a disabled button would lose the keyboard focus mid-request
      aria-disabled={busy}
      onClick={toggle}
    >
      {config.enabled ? "On" : "Off"}
    </button>
  )
}

interface RowProps {
  readonly projectId: string
  readonly flag: Flag
  readonly environments: ReadonlyArray<Environment>
  readonly onChanged: (f: Flag) => void
  readonly onProposed: (p: Proposed) => void
  readonly onRefused: (p: Problems) => void
}

/** One flag's row; rendered again only when that flag changes (the list grows in slices). */
class FlagRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return next.flag !== this.props.flag || next.environments !== this.props.environments || next.projectId !== this.props.projectId
  }
  override render({ projectId, flag: f, environments, onChanged, onProposed, onRefused }: RowProps) {
    return (
      <tr>
        <th scope="row">
          <a href={href({ page: "flag", key: f.key })}>{f.key}</a>
          {f.name !== "" && f.name !== f.key ? <span class="muted"> {f.name}</span> : null}
          <StaleBadge flag={f} />
        </th>
        <td>{f.type}</td>
        {environments.map((e) => (
          <td key={e.key}>
            <Switch projectId={projectId} flag={f} environment={e.key} proposing={proposes(e)} onChanged={onChanged} onProposed={onProposed} onRefused={onRefused} />
          </td>
        ))}
        <td>{f.version}</td>
        <td>{when(f.updatedAt)}</td>
      </tr>
    )
  }
}

export const FlagsPage = ({ projectId }: { projectId: string }) => {
  const { loaded, update, reload, reloadThen } = useLoad(() => loadFlags(projectId), [projectId])
  // Live: a change to a flag or an environment made elsewhere reads the list again (a burst, once).
  const [due, setDue] = useState(0)
  const live = useProjectEvents(projectId, (event) => {
    if (event === null || event.flagKeys.length > 0 || event.resource.type === "flag" || event.resource.type === "environment") setDue((n) => n + 1)
  })
  useEffect(() => {
    if (due === 0) return
    const soon = setTimeout(reload, 100)
    return () => clearTimeout(soon)
  }, [due, reload])
  const [query, setQuery] = useState("")
  const [type, setType] = useState("")
  const [onlyStale, setOnlyStale] = useState(false)
  const [creating, setCreating] = useState(false)
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [proposed, setProposed] = useState<Proposed | null>(null)
  const data = loaded.state === "ready" ? loaded.data : null
  const shown = useMemo(() => {
    if (data === null) return []
    const q = query.trim().toLowerCase()
    return data.flags.filter(
      (f) => (type === "" || f.type === type) && (!onlyStale || f.stale) && (q === "" || f.key.toLowerCase().includes(q) || f.name.toLowerCase().includes(q))
    )
  }, [data, query, type, onlyStale])
  const onProposed = useCallback((p: Proposed) => {
    setProblems(NO_PROBLEMS)
    setProposed(p)
  }, [])
  const changed = useCallback((flag: Flag) => {
    setProblems(NO_PROBLEMS)
    setProposed(null)
    update((d) => ({ ...d, flags: d.flags.map((f) => (f.key === flag.key ? flag : f)) }))
  }, [update])
  // The conflict notice stays until the current version is on screen: a switch clicked in between
  // would send the old version again and meet the same conflict.
  const reloadList = useCallback(() => reloadThen(() => setProblems(NO_PROBLEMS)), [reloadThen])
  const [limit, setLimit] = useState(FIRST_ROWS)
  useEffect(() => setLimit(FIRST_ROWS), [data?.flags.length, query, type, onlyStale])
  useEffect(() => {
    if (limit >= shown.length) return
    const next = setTimeout(() => setLimit(limit + CHUNK_ROWS), 0)
    return () => clearTimeout(next)
  }, [limit, shown.length])
  if (data === null) return <Waiting loaded={loaded} />
  return (
    <section aria-labelledby="flags-title">
      <div class="page-head">
        <h1 id="flags-title">Flags</h1>
        {allows("write") ? (
          <button type="button" onClick={() => setCreating(!creating)} aria-expanded={creating}>
            {creating ? "Close new flag" : "New flag"}
          </button>
        ) : null}
      </div>
      {creating && allows("write") ? <NewFlag projectId={projectId} onCreated={(f) => go({ page: "flag", key: f.key })} /> : null}
      <ErrorSummary problems={problems} onReload={reloadList} />
      <div role="status">
        {proposed === null ? null : (
          <p class="card notice">
            Change request “{proposed.title}” opened: {proposed.environment} changes once it is approved and applied.{" "}
            <a href={href({ page: "change-requests" })}>See the change requests</a>
          </p>
        )}
      </div>
      {data.environments.some(proposes) ? (
        <p class="muted" id="protected-hint">
          Protected: {data.environments.filter(proposes).map((e) => e.name).join(", ")}. A switch there proposes a change request rather than changing the flag.
        </p>
      ) : null}
      <div class="row filters" role="search">
        <Field label="Search by key or name">
          {(ctl) => <input {...ctl} type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />}
        </Field>
        <Field label="Type">
          {(ctl) => (
            <select {...ctl} value={type} onChange={(e) => setType(e.currentTarget.value)}>
              <option value="">all types</option>
              {TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          )}
        </Field>
        <label class="check">
          <input type="checkbox" checked={onlyStale} onChange={(e) => setOnlyStale(e.currentTarget.checked)} />
          Only stale flags
        </label>
      </div>
      <p class="muted">{STALE_HINT}</p>
      <p role="status" class="muted">
        {shown.length} of {data.flags.length} flags. <span class="live">{LIVE_WORDS[live]}</span>
      </p>
      <Table class="flags" caption={<>Flags of {projectId}, with their state in each environment</>}>
        <thead>
          <tr>
            <th scope="col">Flag</th>
            <th scope="col">Type</th>
            {data.environments.map((e) => <th scope="col" key={e.key}>{e.name}</th>)}
            <th scope="col">Version</th>
            <th scope="col">Last change</th>
          </tr>
        </thead>
        <tbody>
          {shown.slice(0, limit).map((f) => (
            <FlagRow key={f.key} projectId={projectId} flag={f} environments={data.environments} onChanged={changed} onProposed={onProposed} onRefused={setProblems} />
          ))}
        </tbody>
      </Table>
    </section>
  )
}
