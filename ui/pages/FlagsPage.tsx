/**
 * The flags of a project, a page of 50 at a time in key order (lib/flagPages.ts): search by key or
 * name, filter by type or to the stale flags (the server narrows, so a search reaches every flag),
 * previous and next page; switch a flag on or off in an environment with one click
 * (FlagSwitch.tsx: production-like environments ask first, protected ones propose a change
 * request). New flags are created here. A switch that meets a change made since the page loaded is
 * a 412, explained, with the page offered again. The list follows the project's changes live
 * (lib/events.ts): a change made elsewhere shows within a moment.
 */
import { useCallback, useEffect, useState } from "preact/hooks"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { FlagCards } from "../components/FlagCards.js"
import { FlagTable } from "../components/FlagTable.js"
import { PROTECTED_HINT, type Proposed } from "../components/FlagSwitch.js"
import { Waiting } from "../components/Status.js"
import { defaultDrafts, toVariations, VariationsEditor, type Draft } from "../components/VariationsEditor.js"
import { projectPath, request } from "../lib/api.js"
import { proposes } from "../lib/changes.js"
import { LIVE_WORDS, useProjectEvents } from "../lib/events.js"
import { type FlagFilter, loadFlagPage, NO_FILTER, PAGE_SIZE } from "../lib/flagPages.js"
import { useLoad } from "../lib/load.js"
import { usePhone } from "../lib/media.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { allows } from "../lib/roles.js"
import { go, href } from "../lib/router.js"
import type { Environment, Flag, FlagType, List } from "../lib/types.js"

const STALE_HINT = "Stale: older than the server’s stale period (30 days unless set otherwise) and not evaluated in any environment during it, so its code can probably go."
const TYPES: ReadonlyArray<FlagType> = ["boolean", "string", "number", "json"]
/** How long typing may pause before the search goes to the server. */
const SEARCH_PAUSE_MS = 250

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

export const FlagsPage = ({ projectId }: { projectId: string }) => {
  const environments = useLoad(() => request<List<Environment>>("GET", projectPath(projectId, "/environments")), [projectId])
  const [filter, setFilter] = useState<FlagFilter>(NO_FILTER)
  const [search, setSearch] = useState("")
  // The cursor of each page shown so far (null: the first), so "Previous page" can go back.
  const [cursors, setCursors] = useState<ReadonlyArray<string | null>>([null])
  const cursor = cursors[cursors.length - 1] ?? null
  const flags = useLoad(() => loadFlagPage(projectId, filter, cursor), [projectId, filter, cursor])
  const narrow = (change: Partial<FlagFilter>) => {
    setFilter((f) => ({ ...f, ...change }))
    setCursors([null])
  }
  useEffect(() => {
    setFilter(NO_FILTER)
    setSearch("")
    setCursors([null])
  }, [projectId])
  // The search goes to the server once typing pauses, from the first page.
  useEffect(() => {
    if (search === filter.q) return
    const soon = setTimeout(() => narrow({ q: search }), SEARCH_PAUSE_MS)
    return () => clearTimeout(soon)
  }, [search, filter.q])
  // Live: a change to a flag or an environment made elsewhere reads the page again (a burst, once).
  const [due, setDue] = useState(0)
  const live = useProjectEvents(projectId, (event) => {
    if (event === null || event.flagKeys.length > 0 || event.resource.type === "flag" || event.resource.type === "environment") setDue((n) => n + 1)
  })
  const { reload: reloadFlags, reloadThen, update } = flags
  const reloadEnvironments = environments.reload
  useEffect(() => {
    if (due === 0) return
    const soon = setTimeout(() => {
      reloadEnvironments()
      reloadFlags()
    }, 100)
    return () => clearTimeout(soon)
  }, [due, reloadFlags, reloadEnvironments])
  const phone = usePhone()
  const [creating, setCreating] = useState(false)
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [proposed, setProposed] = useState<Proposed | null>(null)
  const onProposed = useCallback((p: Proposed) => {
    setProblems(NO_PROBLEMS)
    setProposed(p)
  }, [])
  const changed = useCallback((flag: Flag) => {
    setProblems(NO_PROBLEMS)
    setProposed(null)
    update((page) => ({ ...page, data: page.data.map((f) => (f.key === flag.key ? flag : f)) }))
  }, [update])
  // The conflict notice stays until the current version is on screen: a switch clicked in between
  // would send the old version again and meet the same conflict.
  const reloadList = useCallback(() => reloadThen(() => setProblems(NO_PROBLEMS)), [reloadThen])
  if (environments.loaded.state !== "ready") return <Waiting loaded={environments.loaded} />
  if (flags.loaded.state !== "ready") return <Waiting loaded={flags.loaded} />
  const envs = environments.loaded.data.data
  const page = flags.loaded.data
  const first = (cursors.length - 1) * PAGE_SIZE
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
      {envs.some(proposes) ? (
        <p class="muted" id={PROTECTED_HINT}>
          Protected: {envs.filter(proposes).map((e) => e.name).join(", ")}. A switch there proposes a change request rather than changing the flag.
        </p>
      ) : null}
      <div class="row filters" role="search">
        <Field label="Search by key or name">
          {(ctl) => <input {...ctl} type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />}
        </Field>
        <Field label="Type">
          {(ctl) => (
            <select {...ctl} value={filter.type} onChange={(e) => narrow({ type: e.currentTarget.value as FlagType | "" })}>
              <option value="">all types</option>
              {TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          )}
        </Field>
        <label class="check">
          <input type="checkbox" checked={filter.onlyStale} onChange={(e) => narrow({ onlyStale: e.currentTarget.checked })} />
          Only stale flags
        </label>
      </div>
      <p class="muted">{STALE_HINT}</p>
      <p role="status" class="muted">
        {page.data.length === 0
          ? cursors.length === 1 ? "No flags match." : "No more flags."
          : `Flags ${first + 1} to ${first + page.data.length}${page.nextCursor === null ? "" : ", more on the next page"}.`}{" "}
        <span class="live">{LIVE_WORDS[live]}</span>
      </p>
      {/* On a phone each flag is a card: the table's columns would scroll sideways. */}
      {phone ? (
        <FlagCards projectId={projectId} flags={page.data} environments={envs} onChanged={changed} onProposed={onProposed} onRefused={setProblems} />
      ) : (
        <FlagTable projectId={projectId} flags={page.data} environments={envs} onChanged={changed} onProposed={onProposed} onRefused={setProblems} />
      )}
      <nav class="pager actions" aria-label="Pages of flags">
        <button type="button" class="secondary" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>
        <button type="button" class="secondary" disabled={page.nextCursor === null} onClick={() => setCursors((c) => [...c, page.nextCursor])}>
          Next page
        </button>
      </nav>
    </section>
  )
}
