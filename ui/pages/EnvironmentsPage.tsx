/**
 * Environments of a project: the list, a form to create one, and copying every flag's targeting
 * from one to another. Each shows whether it is protected (people change its targeting only through
 * approved change requests) and how many approvals a request needs; project admins change both
 * here (`PATCH .../environments/{e}`, at once, as the Members page changes a role).
 */
import { useState } from "preact/hooks"
import { CopyAllFlags } from "../components/CopyAllFlags.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request, seg } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { allows } from "../lib/roles.js"
import { isProductionLike } from "../lib/settings.js"
import type { Environment, List } from "../lib/types.js"
import { Table } from "../components/Table.js"

const APPROVALS = [1, 2, 3, 4, 5]

/** Protected or not, and the approvals required: controls for a project admin, words for everyone else. */
const Protection = (props: { environment: Environment; onChange: (change: { protected?: boolean; requiredApprovals?: number }) => void }) => {
  const e = props.environment
  const required = e.requiredApprovals
  if (!allows("manage")) {
    return (
      <>
        <td>{e.protected ? "yes: changes need approval" : "no"}</td>
        <td>{e.protected ? required : <span class="muted">{required}</span>}</td>
      </>
    )
  }
  return (
    <>
      <td>
        <label class="check">
          <input type="checkbox" checked={e.protected} onChange={(ev) => props.onChange({ protected: ev.currentTarget.checked })} />
          Protect {e.name}
        </label>
      </td>
      <td>
        <label class="visually-hidden" for={`approvals-${e.key}`}>Approvals required in {e.name}</label>
        <select id={`approvals-${e.key}`} value={required} onChange={(ev) => props.onChange({ requiredApprovals: Number(ev.currentTarget.value) })}>
          {APPROVALS.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </td>
    </>
  )
}

export const EnvironmentsPage = ({ projectId }: { projectId: string }) => {
  const { loaded, reload, update } = useLoad(() => request<List<Environment>>("GET", projectPath(projectId, "/environments")), [projectId])
  const [key, setKey] = useState("")
  const [name, setName] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [protectionProblems, setProtectionProblems] = useState<Problems>(NO_PROBLEMS)
  const [status, setStatus] = useState("")
  const protect = async (environment: Environment, change: { protected?: boolean; requiredApprovals?: number }) => {
    try {
      const updated = await request<Environment>("PATCH", projectPath(projectId, `/environments/${seg(environment.key)}`), change)
      update((list) => ({ data: list.data.map((e) => (e.key === updated.key ? updated : e)) }))
      setProtectionProblems(NO_PROBLEMS)
      const n = updated.requiredApprovals
      setStatus(updated.protected ? `${updated.name} is protected: changes need ${n} approval${n === 1 ? "" : "s"}.` : `${updated.name} is not protected.`)
    } catch (error) {
      setStatus("")
      setProtectionProblems(fromError(error))
    }
  }
  const create = async (e: Event) => {
    e.preventDefault()
    try {
      await request("POST", projectPath(projectId, "/environments"), { key, name })
      setKey("")
      setName("")
      setProblems(NO_PROBLEMS)
      reload()
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  return (
    <section aria-labelledby="environments-title">
      <h1 id="environments-title">Environments</h1>
      <p class="muted">In a protected environment people propose changes to targeting as change requests, which others approve before they are applied; server keys still write directly.</p>
      <p role="status" class="status">{status}</p>
      <ErrorSummary problems={protectionProblems} />
      {loaded.state !== "ready" ? (
        <Waiting loaded={loaded} />
      ) : (
        <Table caption={<>Environments of {projectId}</>}>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Changes confirmed</th>
              <th scope="col">Protected</th>
              <th scope="col">Approvals required</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((e) => (
              <tr key={e.key}>
                <th scope="row"><code>{e.key}</code></th>
                <td>{e.name}</td>
                <td>{isProductionLike(e.key) ? "yes (production-like)" : "no"}</td>
                <Protection environment={e} onChange={(change) => void protect(e, change)} />
                <td>{when(e.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {loaded.state === "ready" && loaded.data.data.length > 1 && allows("write") ? (
        <CopyAllFlags key={loaded.data.data.map((e) => e.key).join()} projectId={projectId} environments={loaded.data.data} />
      ) : null}
      {!allows("manage") ? null : (
        <form class="card" onSubmit={create} aria-label="New environment" noValidate>
          <h2>New environment</h2>
          <p class="muted">Every flag starts switched off in the new environment.</p>
          <ErrorSummary problems={problems} />
          <div class="row">
            <Field label="Environment key" problems={at(problems, "key")}>
              {(ctl) => <input {...ctl} value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
            </Field>
            <Field label="Environment name" problems={at(problems, "name")}>
              {(ctl) => <input {...ctl} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
            </Field>
          </div>
          <div class="actions">
            <button type="submit">Create environment</button>
          </div>
        </form>
      )}
    </section>
  )
}
