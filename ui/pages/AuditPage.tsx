/** The project's audit log: every management write, newest first, narrowed by resource and environment. */
import { useState } from "preact/hooks"
import { AuditHistory } from "../components/AuditHistory.js"
import { Field } from "../components/Field.js"
import { projectPath, request } from "../lib/api.js"
import { ANY, type AuditFilter, RESOURCE_TYPES } from "../lib/audit.js"
import { useLoad } from "../lib/load.js"
import type { Environment, List } from "../lib/types.js"

export const AuditPage = ({ projectId }: { projectId: string }) => {
  const { loaded } = useLoad(() => request<List<Environment>>("GET", projectPath(projectId, "/environments")), [projectId])
  const environments = loaded.state === "ready" ? loaded.data.data : []
  const [draft, setDraft] = useState<AuditFilter>(ANY)
  const [filter, setFilter] = useState<AuditFilter>(ANY)
  const apply = (e: Event) => {
    e.preventDefault()
    setFilter(draft)
  }
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p class="muted">Who changed what, and when: every change to this project's flags, segments, environments, webhooks and keys.</p>
      <form class="row" onSubmit={apply} aria-label="Filter the audit log">
        <Field label="Resource type">
          {(ctl) => (
            <select {...ctl} value={draft.resourceType} onChange={(e) => setDraft({ ...draft, resourceType: e.currentTarget.value })}>
              <option value="">Any</option>
              {RESOURCE_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          )}
        </Field>
        <Field label="Resource key">
          {(ctl) => <input {...ctl} value={draft.resourceKey} onInput={(e) => setDraft({ ...draft, resourceKey: e.currentTarget.value })} />}
        </Field>
        <Field label="Environment">
          {(ctl) => (
            <select {...ctl} value={draft.environment} onChange={(e) => setDraft({ ...draft, environment: e.currentTarget.value })}>
              <option value="">Any</option>
              {environments.map((env) => <option key={env.key} value={env.key}>{env.name} ({env.key})</option>)}
            </select>
          )}
        </Field>
        <div class="actions">
          <button type="submit">Show</button>
        </div>
      </form>
      <AuditHistory projectId={projectId} filter={filter} label={`Audit log of ${projectId}`} />
    </section>
  )
}
