/**
 * One flag, in sections (tabs): its targeting in the environment chosen first (saved with PUT,
 * copied to another environment, or scheduled for later), then its definition (name, description
 * and variations, saved with PATCH), its scheduled changes, its release plans there (ReleasePlans.tsx), how often each variation was served in
 * the environment chosen, and its history. The section and the environment are in the URL
 * (`#/flags/checkout/history?environment=production`): a reload, a shared link and back/forward
 * show the same view. Every section stays mounted while another is shown, so an edit in progress
 * is kept. Saves name the version they were made on (`If-Match`; the targeting's is its
 * environment's configuration's): when someone else saved it meanwhile, the save is refused and
 * the page offers to load the current version.
 *
 * Live (lib/events.ts): a change made elsewhere to this flag is read at once and shown in place,
 * with who made it and when; the targeting editor is remounted only when its own configuration
 * changed. If that happens while it holds an unsaved change, the page keeps the change on screen
 * and shows theirs beside it, with a way to take theirs into the editor (LiveChange.tsx).
 */
import { useCallback, useRef, useState } from "preact/hooks"
import { AuditHistory } from "../components/AuditHistory.js"
import { CopyFlag } from "../components/CopyFlag.js"
import { DefinitionEditor } from "../components/DefinitionEditor.js"
import { EvaluationsChart } from "../components/EvaluationsChart.js"
import { changedBy, LiveChangeNotice } from "../components/LiveChange.js"
import { Field } from "../components/Field.js"
import { ProposedNotice, SettledNotice } from "../components/FlagNotices.js"
import { ReadOnlyUnless } from "../components/ReadOnly.js"
import { ReleasePlansPanel } from "../components/ReleasePlans.js"
import { SchedulesList } from "../components/SchedulesList.js"
import { StaleBadge } from "../components/StaleBadge.js"
import { Waiting } from "../components/Status.js"
import { Tabs, type Tab } from "../components/Tabs.js"
import { TargetingEditor } from "../components/TargetingEditor.js"
import { projectPath, request, seg } from "../lib/api.js"
import { proposes } from "../lib/changes.js"
import { when } from "../lib/format.js"
import { LIVE_WORDS, type ManagementEvent, useProjectEvents } from "../lib/events.js"
import { useLoad } from "../lib/load.js"
import { allows } from "../lib/roles.js"
import { FLAG_SECTIONS, go, href, type FlagSection } from "../lib/router.js"
import type { ChangeRequest, Environment, Flag, List, Schedule, Segment } from "../lib/types.js"

const loadFlag = async (projectId: string, key: string) => {
  const [flag, environments, segments] = await Promise.all([
    request<Flag>("GET", projectPath(projectId, `/flags/${seg(key)}`)),
    request<List<Environment>>("GET", projectPath(projectId, "/environments")),
    request<List<Segment>>("GET", projectPath(projectId, "/segments"))
  ])
  return { flag, environments: environments.data, segments: segments.data }
}

/**
 * Remounts the definition editor when the definition changed (a save, or someone else's change),
 * not when only targeting did: a live change elsewhere in the flag keeps an edit in progress.
 */
const definitionKey = (flag: Flag): string => `definition-${JSON.stringify([flag.name, flag.description, flag.variations])}`

const SECTION_LABELS: { readonly [S in FlagSection]: string } = {
  targeting: "Targeting",
  definition: "Definition",
  schedules: "Schedules",
  "release-plans": "Release plans",
  evaluations: "Evaluations",
  history: "History"
}

export const FlagPage = (props: { projectId: string; flagKey: string; section?: FlagSection | undefined; environment?: string | undefined }) => {
  const { projectId, flagKey } = props
  const { loaded, replace, reload } = useLoad(() => loadFlag(projectId, flagKey), [projectId, flagKey])
  // Live changes: whether the targeting editor holds an unsaved change, and a change of its
  // configuration made elsewhere meanwhile, held back until the person takes it.
  const editing = useRef(false)
  const onEdited = useCallback((edited: boolean) => void (editing.current = edited), [])
  // The last change made elsewhere, in words (kept apart from the page's own status line).
  const [lastChange, setLastChange] = useState("")
  const [incoming, setIncoming] = useState<{ readonly flag: Flag; readonly event: ManagementEvent | null } | null>(null)
  const [schedulesSeen, setSchedulesSeen] = useState(0)
  // The definition editor likewise: while it holds an unsaved change, a definition changed
  // elsewhere does not replace the one it started from (its save then meets the 412, explained).
  const definitionEditing = useRef(false)
  const onDefinitionEdited = useCallback((edited: boolean) => void (definitionEditing.current = edited), [])
  const [definitionBase, setDefinitionBase] = useState<Flag | null>(null)
  const shownRef = useRef<{ readonly flag: Flag; readonly environment: string | null } | null>(null)
  const live = useProjectEvents(projectId, (event) => {
    if (loaded.state !== "ready") return
    if (event !== null && event.resource.type === "environment") return reload()
    if (event !== null && !event.flagKeys.includes(flagKey)) return
    if (event?.resource.type === "schedule") setSchedulesSeen((n) => n + 1)
    void request<Flag>("GET", projectPath(projectId, `/flags/${seg(flagKey)}`)).then((fresh) => {
      const shown = shownRef.current
      if (shown === null || fresh.version === shown.flag.version) return
      const mine = shown.flag.configs.find((c) => c.environmentKey === shown.environment)
      const theirs = fresh.configs.find((c) => c.environmentKey === shown.environment)
      if (editing.current && mine !== undefined && theirs !== undefined && mine.version !== theirs.version) {
        setIncoming({ flag: fresh, event })
        return
      }
      if (definitionEditing.current && definitionKey(fresh) !== definitionKey(shown.flag)) setDefinitionBase((held) => held ?? shown.flag)
      setLastChange(changedBy(event))
      replace({ ...loaded.data, flag: fresh })
    }, () => reload())
  })
  const [status, setStatus] = useState("")
  // Bumped when a change is scheduled: the list reads the schedules again, the editor starts over.
  const [scheduled, setScheduled] = useState(0)
  // A scheduled change that took effect (or failed) while the page was open.
  const [settled, setSettled] = useState<Schedule | null>(null)
  // The change request last opened from the targeting editor.
  const [proposed, setProposed] = useState<ChangeRequest | null>(null)
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { flag, environments, segments } = loaded.data
  shownRef.current = { flag, environment: props.environment ?? environments[0]?.key ?? null }
  // A viewer reads the definition and the targeting, with their controls disabled.
  const writes = allows("write")
  // The URL's environment, unless it names none of the project's (deleted since the link was made).
  const envKey = environments.find((e) => e.key === props.environment)?.key ?? environments[0]?.key ?? null
  const section = props.section ?? FLAG_SECTIONS[0]
  const config = flag.configs.find((c) => c.environmentKey === envKey)
  const proposing = proposes(environments.find((e) => e.key === envKey))
  const show = (to: { section?: FlagSection; environment?: string | null }) => {
    const environment = to.environment === undefined ? envKey : to.environment
    go({ page: "flag", key: flag.key, section: to.section ?? section, ...(environment === null ? {} : { environment }) })
  }
  const saved = (what: string) => (updated: Flag) => {
    setDefinitionBase(null)
    replace({ ...loaded.data, flag: updated })
    setStatus(`${what} saved (version ${updated.version}).`)
  }
  const reloadFlag = () => {
    setStatus("")
    setSettled(null)
    setIncoming(null)
    setDefinitionBase(null)
    reload()
  }
  const takeOver = () => {
    if (incoming === null) return
    setLastChange(changedBy(incoming.event))
    setIncoming(null)
    editing.current = false
    replace({ ...loaded.data, flag: incoming.flag })
  }
  const onScheduled = (s: Schedule) => {
    setScheduled((n) => n + 1)
    setStatus(`Change to ${s.environment} scheduled for ${when(s.at)}.`)
  }
  const copied = (message: string) => {
    reload()
    setStatus(message)
  }
  const panels: { readonly [S in FlagSection]: Tab<S>["panel"] } = {
    targeting: (
      <>
        <section class="card" aria-labelledby="targeting-title">
          <h2 id="targeting-title">Targeting in {envKey ?? "…"}</h2>
          {config === undefined ? (
            <p>This project has no environments yet.</p>
          ) : (
            <ReadOnlyUnless allowed={writes}>
              <TargetingEditor
                key={`${config.environmentKey}-${config.version ?? flag.version}-${scheduled}-${proposed?.id ?? ""}`}
                projectId={projectId}
                flag={flag}
                config={config}
                segments={segments}
                onSaved={saved(`Targeting in ${config.environmentKey}`)}
                onScheduled={onScheduled}
                onReload={reloadFlag}
                proposing={proposing}
                onProposed={setProposed}
                onEdited={onEdited}
              />
            </ReadOnlyUnless>
          )}
        </section>
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
      </>
    ),
    definition: (
      <ReadOnlyUnless allowed={writes}>
        <DefinitionEditor
          key={definitionKey(definitionBase ?? flag)}
          projectId={projectId}
          flag={definitionBase ?? flag}
          onSaved={saved("Definition")}
          onReload={reloadFlag}
          onEdited={onDefinitionEdited}
        />
      </ReadOnlyUnless>
    ),
    schedules: (
      <SchedulesList
        projectId={projectId}
        flagKey={flag.key}
        refresh={scheduled + schedulesSeen}
        onSettled={setSettled}
        onCancelled={(s) => setStatus(`The change to ${s.environment} scheduled for ${when(s.at)} is cancelled.`)}
      />
    ),
    "release-plans":
      config === undefined ? (
        <p>This project has no environments yet.</p>
      ) : (
        <ReleasePlansPanel key={`plans-${config.environmentKey}`} projectId={projectId} flag={flag} environment={config.environmentKey} writes={writes} />
      ),
    evaluations:
      config === undefined ? (
        <p>This project has no environments yet.</p>
      ) : (
        <EvaluationsChart projectId={projectId} flagKey={flag.key} environment={config.environmentKey} lastEvaluatedAt={config.lastEvaluatedAt} />
      ),
    history: (
      <section class="card" aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        <AuditHistory
          key={`history-${flag.version}`}
          projectId={projectId}
          filter={{ resourceType: "flag", resourceKey: flag.key, environment: "" }}
          label={`Changes to ${flag.key}`}
        />
      </section>
    )
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
          Version {flag.version}, changed {when(flag.updatedAt)}. <span class="live">{LIVE_WORDS[live]}</span>
        </p>
      </div>
      <div class="flag-bar">
        <Field label="Environment" class="inline">
          {(ctl) => (
            <select {...ctl} value={envKey ?? ""} onChange={(e) => (setStatus(""), setProposed(null), show({ environment: e.currentTarget.value }))}>
              {environments.map((e) => <option key={e.key} value={e.key}>{e.name} ({e.key}){e.protected ? ", protected" : ""}</option>)}
            </select>
          )}
        </Field>
      </div>
      <p role="status" class="status">{status}</p>
      <p role="status" class="live-change muted">{lastChange}</p>
      {incoming === null || config === undefined ? null : (
        <LiveChangeNotice
          event={incoming.event}
          environment={config.environmentKey}
          mine={config}
          theirs={incoming.flag.configs.find((c) => c.environmentKey === config.environmentKey) ?? config}
          onTakeOver={takeOver}
        />
      )}
      <SettledNotice settled={settled} onReload={reloadFlag} />
      <ProposedNotice proposed={proposed} />
      <Tabs
        label={`Sections of ${flag.key}`}
        idPrefix="flag"
        tabs={FLAG_SECTIONS.map((key) => ({ key, label: SECTION_LABELS[key], panel: panels[key] }))}
        selected={section}
        onSelect={(to) => show({ section: to })}
      />
    </section>
  )
}
