/**
 * The API keys of a project: the list (name, type, environment, who made it, created, last used,
 * revoked; a key lives only as long as its maker may manage the project),
 * a form to make one (its secret shown once), and revoking with a confirmation. The API refuses
 * to let a key revoke itself (409); that refusal is shown at the top of the list.
 */
import { useState } from "preact/hooks"
import { ask } from "../components/Confirm.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { NewSecret } from "../components/NewSecret.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request, seg } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { personName } from "../lib/people.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { isGlobalAdmin } from "../lib/roles.js"
import type { ApiKey, CreatedApiKey, Environment, KeyType, List, Member, User } from "../lib/types.js"
import { Table } from "../components/Table.js"

const loadKeys = async (projectId: string) => {
  const [keys, environments, members, users] = await Promise.all([
    request<List<ApiKey>>("GET", projectPath(projectId, "/keys")),
    request<List<Environment>>("GET", projectPath(projectId, "/environments")),
    request<List<Member>>("GET", projectPath(projectId, "/members")),
    // A key's maker may be a global admin who is no member here: only a global admin lists them.
    isGlobalAdmin() ? request<List<User>>("GET", "/v1/users").then((u) => u.data) : Promise.resolve([])
  ])
  const people = new Map<string, User>([...users.map((u) => [u.id, u] as const), ...members.data.map((m) => [m.user.id, m.user] as const)])
  return { keys: keys.data, environments: environments.data, people }
}

/** Who made a key: the person by name, an id this page cannot name (no longer a member), or none recorded (the command line, or older keys). */
const Maker = ({ id, people }: { id: string | null; people: ReadonlyMap<string, User> }) => {
  if (id === null) return <span class="muted">not recorded</span>
  const person = people.get(id)
  return person === undefined ? <code>{id}</code> : <>{personName(person)}</>
}

const TYPE_HINTS: Record<KeyType, string> = {
  server: "Server keys manage the project (this dashboard, the API) and evaluate flags. Keep them on servers.",
  client: "Client keys only evaluate flags, download configuration and stream changes: for SDKs and apps."
}

const NewKey = (props: { projectId: string; environments: ReadonlyArray<Environment>; onCreated: (k: CreatedApiKey) => void }) => {
  const [type, setType] = useState<KeyType>("client")
  const [name, setName] = useState("")
  const [environment, setEnvironment] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const submit = async (e: Event) => {
    e.preventDefault()
    try {
      const body = { type, name, environment: environment === "" ? null : environment }
      props.onCreated(await request<CreatedApiKey>("POST", projectPath(props.projectId, "/keys"), body))
      setName("")
      setProblems(NO_PROBLEMS)
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  return (
    <form class="card" onSubmit={submit} aria-label="New key" noValidate>
      <h2>New key</h2>
      <ErrorSummary problems={problems} />
      <div class="row">
        <Field label="Key name" hint="Who or what uses it, such as “Mobile app”." problems={at(problems, "name")}>
          {(ctl) => <input {...ctl} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Key type" hint={TYPE_HINTS[type]} problems={at(problems, "type")} class="grow">
          {(ctl) => (
            <select {...ctl} value={type} onChange={(e) => setType(e.currentTarget.value as KeyType)}>
              <option value="client">client</option>
              <option value="server">server</option>
            </select>
          )}
        </Field>
        <Field label="Environment" hint="A key bound to one environment may use only that one." problems={at(problems, "environment")}>
          {(ctl) => (
            <select {...ctl} value={environment} onChange={(e) => setEnvironment(e.currentTarget.value)}>
              <option value="">every environment</option>
              {props.environments.map((env) => <option key={env.key} value={env.key}>{env.name} ({env.key})</option>)}
            </select>
          )}
        </Field>
      </div>
      <div class="actions">
        <button type="submit">Create key</button>
      </div>
    </form>
  )
}

/** Keys made with the command line may have no name: they are told apart by their first characters. */
const nameOf = (k: ApiKey): string => (k.name === "" ? `unnamed key ${k.prefix}…` : k.name)

export const KeysPage = ({ projectId }: { projectId: string }) => {
  const { loaded, reload } = useLoad(() => loadKeys(projectId), [projectId])
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [status, setStatus] = useState("")
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { keys, environments, people } = loaded.data
  const revoke = async (k: ApiKey) => {
    if (!(await ask(`Revoke the ${k.type} key “${nameOf(k)}” (${k.prefix}…)? Everything using it is refused from then on; this cannot be undone.`))) return
    try {
      await request("DELETE", projectPath(projectId, `/keys/${seg(k.id)}`))
      setProblems(NO_PROBLEMS)
      setStatus(`Key “${nameOf(k)}” revoked.`)
      reload()
    } catch (error) {
      setStatus("")
      setProblems(fromError(error))
    }
  }
  const onCreated = (k: CreatedApiKey) => {
    setCreated(k)
    setStatus("")
    reload()
  }
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      {created === null ? null : <NewSecret key={created.id} created={created} onDismiss={() => setCreated(null)} />}
      <ErrorSummary problems={problems} />
      <p role="status" class="status">{status}</p>
      <Table caption={<>API keys of {projectId}</>}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Environment</th>
            <th scope="col">Starts with</th>
            <th scope="col">Made by</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Revoked</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} class={k.revokedAt === null ? undefined : "revoked"}>
              <th scope="row">{k.name === "" ? <span class="muted">(no name)</span> : k.name}</th>
              <td>{k.type}</td>
              <td>{k.environment ?? "every environment"}</td>
              <td><code>{k.prefix}…</code></td>
              <td><Maker id={k.createdBy} people={people} /></td>
              <td>{when(k.createdAt)}</td>
              <td>{k.lastUsedAt === null ? "never" : when(k.lastUsedAt)}</td>
              <td>
                {k.revokedAt !== null ? (
                  when(k.revokedAt)
                ) : (
                  <button type="button" class="danger small" aria-label={`Revoke ${nameOf(k)} (${k.prefix}…)`} onClick={() => revoke(k)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {keys.length === 0 ? <p>This project has no keys yet.</p> : null}
      <p class="muted">“Last used” is updated at most once a minute per key. A key is revoked when the person who made it is disabled or may no longer manage this project. Global keys (for every project) are made and revoked with the command line.</p>
      <NewKey projectId={projectId} environments={environments} onCreated={onCreated} />
    </section>
  )
}
