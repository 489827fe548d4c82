/** Environments of a project: the list, a form to create one, and copying every flag's targeting from one to another. */
import { useState } from "preact/hooks"
import { CopyAllFlags } from "../components/CopyAllFlags.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { allows } from "../lib/roles.js"
import { isProductionLike } from "../lib/settings.js"
import type { Environment, List } from "../lib/types.js"

export const EnvironmentsPage = ({ projectId }: { projectId: string }) => {
  const { loaded, reload } = useLoad(() => request<List<Environment>>("GET", projectPath(projectId, "/environments")), [projectId])
  const [key, setKey] = useState("")
  const [name, setName] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
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
      {loaded.state !== "ready" ? (
        <Waiting loaded={loaded} />
      ) : (
        <table>
          <caption class="visually-hidden">Environments of {projectId}</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Changes confirmed</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((e) => (
              <tr key={e.key}>
                <th scope="row"><code>{e.key}</code></th>
                <td>{e.name}</td>
                <td>{isProductionLike(e.key) ? "yes (production-like)" : "no"}</td>
                <td>{when(e.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {loaded.state === "ready" && loaded.data.data.length > 1 && allows("write") ? (
        <CopyAllFlags key={loaded.data.data.map((e) => e.key).join()} projectId={projectId} environments={loaded.data.data} />
      ) : null}
      {!allows("manage") ? null : (
        <form class="card" onSubmit={create} aria-label="New environment" noValidate>
          <h2>New environment</h2>
          <p class="muted">Every flag gets a disabled configuration in the new environment.</p>
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
