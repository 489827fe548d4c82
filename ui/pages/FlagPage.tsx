/**
 * One flag: its name, description and variations (saved with PATCH), and its targeting in the
 * environment chosen (saved with PUT). Both edits show the change as a diff before saving, and
 * both name the version they were made on (`If-Match`): when someone else saved the flag
 * meanwhile, the save is refused (412) and the page offers to load the current version.
 * The targeting of the environment shown can be copied to another one, or scheduled for later
 * instead of saved now. Below it: the flag's scheduled changes, and how often each variation was
 * served in the environment shown, hour by hour.
 */
import { useState } from "preact/hooks"
import { AuditHistory } from "../components/AuditHistory.js"
import { Diff } from "../components/Diff.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { TargetingEditor } from "../components/TargetingEditor.js"
import { toDraft, toVariations, VariationsEditor, type Draft } from "../components/VariationsEditor.js"
import { CopyFlag } from "../components/CopyFlag.js"
import { ReadOnlyUnless } from "../components/ReadOnly.js"
import { allows } from "../lib/roles.js"
import { proposes } from "../lib/changes.js"
import { SchedulesList } from "../components/SchedulesList.js"
import { EvaluationsChart } from "../components/EvaluationsChart.js"
import { StaleBadge } from "../components/StaleBadge.js"
import { ifMatch, projectPath, request, seg } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { href } from "../lib/router.js"
import type { ChangeRequest, Environment, Flag, List, Schedule, Segment } from "../lib/types.js"

const loadFlag = async (projectId: string, key: string) => {
  const [flag, environments, segments] = await Promise.all([
    request<Flag>("GET", projectPath(projectId, `/flags/${seg(key)}`)),
    request<List<Environment>>("GET", projectPath(projectId, "/environments")),
    request<List<Segment>>("GET", projectPath(projectId, "/segments"))
  ])
  return { flag, environments: environments.data, segments: segments.data }
}

const Definition = ({ projectId, flag, onSaved, onReload }: { projectId: string; flag: Flag; onSaved: (f: Flag) => void; onReload: () => void }) => {
  const [name, setName] = useState(flag.name)
  const [description, setDescription] = useState(flag.description ?? "")
  const [drafts, setDrafts] = useState<ReadonlyArray<Draft>>(() => flag.variations.map((v) => toDraft(flag.type, v)))
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const variations = toVariations(flag.type, drafts)
  const before = { name: flag.name, description: flag.description, variations: flag.variations }
  const after = { name, description: description === "" ? null : description, variations: variations ?? flag.variations }
  const changed = JSON.stringify(before) !== JSON.stringify(after)
  const save = async (e: Event) => {
    e.preventDefault()
    if (variations === null) return
    try {
      onSaved(await request<Flag>("PATCH", projectPath(projectId, `/flags/${seg(flag.key)}`), after, ifMatch(flag.version)))
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  return (
    <form class="card" onSubmit={save} aria-label="Flag definition" noValidate>
      <h2>Definition</h2>
      <ErrorSummary problems={problems} onReload={onReload} />
      <div class="row">
        <Field label="Name" problems={at(problems, "name")}>
          {(ctl) => <input {...ctl} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Description" problems={at(problems, "description")} class="grow">
          {(ctl) => <input {...ctl} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
        </Field>
      </div>
      <VariationsEditor type={flag.type} drafts={drafts} problems={problems} onChange={setDrafts} />
      <Diff before={before} after={after} label="Change to the definition" />
      <div class="actions">
        <button type="submit" disabled={!changed || variations === null}>Save definition</button>
      </div>
    </form>
  )
}

/**
 * A scheduled change settled while the page was open. An applied one changed the flag, but the
 * page is not reloaded by itself, so an edit in progress is not lost: the person chooses when.
 */
/** A change request opened from the targeting editor: where to follow it. */
const ProposedNotice = ({ proposed }: { proposed: ChangeRequest | null }) =>
  proposed === null ? null : (
    <div class="card notice" role="status">
      <p>
        Change request “{proposed.title}” opened for {proposed.environment}: it needs {proposed.requiredApprovals} approval{proposed.requiredApprovals === 1 ? "" : "s"} before it is applied.{" "}
        <a href={href({ page: "change-requests" })}>See the change requests</a>
      </p>
    </div>
  )

const SettledNotice = ({ settled, onReload }: { settled: Schedule | null; onReload: () => void }) =>
  settled === null ? null : (
    <div class="card notice" role="status">
      {settled.status === "applied" ? (
        <>
          <p>The change to {settled.environment} scheduled for {when(settled.at)} was applied: the flag has a new version.</p>
          <button type="button" onClick={onReload}>Reload the current version</button>
        </>
      ) : (
        <p>The change to {settled.environment} scheduled for {when(settled.at)} failed and changed nothing: {settled.reason}</p>
      )}
    </div>
  )

export const FlagPage = ({ projectId, flagKey }: { projectId: string; flagKey: string }) => {
  const { loaded, replace, reload } = useLoad(() => loadFlag(projectId, flagKey), [projectId, flagKey])
  const [environment, setEnvironment] = useState<string | null>(null)
  const [status, setStatus] = useState("")
  // Bumped when a change is scheduled: the list reads the schedules again, the editor starts over.
  const [scheduled, setScheduled] = useState(0)
  // A scheduled change that took effect (or failed) while the page was open.
  const [settled, setSettled] = useState<Schedule | null>(null)
  // The change request last opened from the targeting editor.
  const [proposed, setProposed] = useState<ChangeRequest | null>(null)
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { flag, environments, segments } = loaded.data
  // A viewer reads the definition and the targeting, with their controls disabled.
  const writes = allows("write")
  const envKey = environment ?? environments[0]?.key ?? null
  const config = flag.configs.find((c) => c.environmentKey === envKey)
  const proposing = proposes(environments.find((e) => e.key === envKey))
  const saved = (what: string) => (updated: Flag) => {
    replace({ ...loaded.data, flag: updated })
    setStatus(`${what} saved (version ${updated.version}).`)
  }
  const reloadFlag = () => {
    setStatus("")
    setSettled(null)
    reload()
  }
  const onScheduled = (s: Schedule) => {
    setScheduled((n) => n + 1)
    setStatus(`Change to ${s.environment} scheduled for ${when(s.at)}.`)
  }
  const copied = (message: string) => {
    reload()
    setStatus(message)
  }
  return (
    <section aria-labelledby="flag-title">
      <p>
        <a href={href({ page: "flags" })}>All flags</a>
      </p>
      <div class="page-head">
        <h1 id="flag-title">
          <code>{flag.key}</code> <span class="muted">{flag.type}</span>
          <StaleBadge flag={flag} />
        </h1>
        <p class="muted">
          Version {flag.version}, changed {when(flag.updatedAt)}
        </p>
      </div>
      <p role="status" class="status">{status}</p>
      <SettledNotice settled={settled} onReload={reloadFlag} />
      <ProposedNotice proposed={proposed} />
      <ReadOnlyUnless allowed={writes}>
        <Definition key={`definition-${flag.version}`} projectId={projectId} flag={flag} onSaved={saved("Definition")} onReload={reloadFlag} />
      </ReadOnlyUnless>
      <section class="card" aria-labelledby="targeting-title">
        <h2 id="targeting-title">Targeting</h2>
        <Field label="Environment">
          {(ctl) => (
            <select {...ctl} value={envKey ?? ""} onChange={(e) => (setEnvironment(e.currentTarget.value), setStatus(""), setProposed(null))}>
              {environments.map((e) => <option key={e.key} value={e.key}>{e.name} ({e.key}){e.protected === true ? ", protected" : ""}</option>)}
            </select>
          )}
        </Field>
        {config === undefined ? (
          <p>This project has no environments yet.</p>
        ) : (
          <ReadOnlyUnless allowed={writes}>
            <TargetingEditor
              key={`${config.environmentKey}-${flag.version}-${scheduled}-${proposed?.id ?? ""}`}
              projectId={projectId}
              flag={flag}
              config={config}
              segments={segments}
              onSaved={saved(`Targeting in ${config.environmentKey}`)}
              onScheduled={onScheduled}
              onReload={reloadFlag}
              proposing={proposing}
              onProposed={setProposed}
            />
          </ReadOnlyUnless>
        )}
        {config === undefined || environments.length < 2 || !writes ? null : (
          <CopyFlag
            key={`copy-${config.environmentKey}-${flag.version}`}
            projectId={projectId}
            flag={flag}
            from={config.environmentKey}
            environments={environments}
            onCopied={copied}
            onReload={reloadFlag}
          />
        )}
      </section>
      <SchedulesList
        projectId={projectId}
        flagKey={flag.key}
        refresh={scheduled}
        onSettled={setSettled}
        onCancelled={(s) => setStatus(`The change to ${s.environment} scheduled for ${when(s.at)} is cancelled.`)}
      />
      {config === undefined ? null : (
        <EvaluationsChart projectId={projectId} flagKey={flag.key} environment={config.environmentKey} lastEvaluatedAt={config.lastEvaluatedAt} />
      )}
      <section class="card" aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        <AuditHistory
          key={`history-${flag.version}`}
          projectId={projectId}
          filter={{ resourceType: "flag", resourceKey: flag.key, environment: "" }}
          label={`Changes to ${flag.key}`}
        />
      </section>
    </section>
  )
}
