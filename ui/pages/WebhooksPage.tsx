/**
 * Webhooks of a project: the list with an enable/disable switch, a form to create one, and the
 * delivery log of the webhook chosen (every attempt, and redelivery of a finished delivery).
 */
import { useState } from "preact/hooks"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field, Group } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request, seg } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { type Delivery, FLAG_EVENTS, type List, type Webhook, WEBHOOK_EVENTS } from "../lib/types.js"
import { Table } from "../components/Table.js"

const NewWebhook = ({ projectId, onCreated }: { projectId: string; onCreated: () => void }) => {
  const [url, setUrl] = useState("")
  const [events, setEvents] = useState<ReadonlyArray<string>>([...FLAG_EVENTS])
  const [secret, setSecret] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const submit = async (e: Event) => {
    e.preventDefault()
    try {
      await request("POST", projectPath(projectId, "/webhooks"), { url, events, ...(secret === "" ? {} : { secret }) })
      setUrl("")
      setSecret("")
      setProblems(NO_PROBLEMS)
      onCreated()
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  return (
    <form class="card" onSubmit={submit} aria-label="New webhook" noValidate>
      <h2>New webhook</h2>
      <ErrorSummary problems={problems} />
      <Field label="Destination URL" problems={at(problems, "url")}>
        {(ctl) => <input {...ctl} type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
      <Group legend="Events" problems={at(problems, "events")}>
        {WEBHOOK_EVENTS.map((ev) => (
          <label key={ev} class="check">
            <input
              type="checkbox"
              checked={events.includes(ev)}
              onChange={(e) => setEvents(e.currentTarget.checked ? [...events, ev] : events.filter((x) => x !== ev))}
            />
            {ev}
          </label>
        ))}
      </Group>
      <Field label="Signing secret (optional)" hint="8 to 128 characters; without one, deliveries are not signed." problems={at(problems, "secret")}>
        {(ctl) => <input {...ctl} type="password" autoComplete="off" value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />}
      </Field>
      <div class="actions">
        <button type="submit">Create webhook</button>
      </div>
    </form>
  )
}

const Deliveries = ({ projectId, webhook }: { projectId: string; webhook: Webhook }) => {
  const path = projectPath(projectId, `/webhooks/${seg(webhook.id)}/deliveries`)
  const { loaded, reload } = useLoad(() => request<List<Delivery>>("GET", path), [path])
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const redeliver = async (d: Delivery) => {
    try {
      await request("POST", `${path}/${seg(d.id)}/redeliver`)
      setProblems(NO_PROBLEMS)
      reload()
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  return (
    <section class="card" aria-labelledby="deliveries-title">
      <div class="page-head">
        <h2 id="deliveries-title">Delivery log of {webhook.url}</h2>
        <button type="button" class="secondary" onClick={reload}>Refresh</button>
      </div>
      <ErrorSummary problems={problems} />
      {loaded.state !== "ready" ? (
        <Waiting loaded={loaded} />
      ) : loaded.data.data.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <Table class="deliveries" caption={<>Deliveries of the webhook, newest first</>}>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Created</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((d) => (
              <tr key={d.id}>
                <th scope="row">
                  {d.eventType}
                  {d.redeliveryOf === null ? null : <div class="muted">redelivery</div>}
                </th>
                <td class={`delivery-${d.status}`}>{d.status}</td>
                <td>
                  {d.attempts.length === 0 ? <span class="muted">none yet</span> : (
                    <ol class="attempts">
                      {d.attempts.map((a, i) => (
                        <li key={i}>
                          {when(a.attemptedAt)}: {a.statusCode === null ? "no response" : `HTTP ${a.statusCode}`} in {a.durationMs} ms
                          {a.error === null ? null : <span class="muted"> ({a.error})</span>}
                        </li>
                      ))}
                    </ol>
                  )}
                </td>
                <td>{when(d.createdAt)}</td>
                <td>
                  {d.status === "pending" ? null : (
                    <button type="button" class="secondary small" onClick={() => redeliver(d)} aria-label={`Redeliver ${d.eventType} of ${when(d.createdAt)}`}>
                      Redeliver
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  )
}

export const WebhooksPage = ({ projectId }: { projectId: string }) => {
  const { loaded, reload, replace } = useLoad(() => request<List<Webhook>>("GET", projectPath(projectId, "/webhooks")), [projectId])
  const [chosen, setChosen] = useState<string | null>(null)
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const webhooks = loaded.data.data
  const toggle = async (w: Webhook) => {
    try {
      const updated = await request<Webhook>("PATCH", projectPath(projectId, `/webhooks/${seg(w.id)}`), { enabled: !w.enabled })
      setProblems(NO_PROBLEMS)
      replace({ data: webhooks.map((x) => (x.id === w.id ? updated : x)) })
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  const shown = webhooks.find((w) => w.id === chosen)
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <ErrorSummary problems={problems} />
      {webhooks.length === 0 ? <p>No webhooks yet.</p> : (
        <Table caption={<>Webhooks of {projectId}</>}>
          <thead>
            <tr>
              <th scope="col">Destination</th>
              <th scope="col">Events</th>
              <th scope="col">Enabled</th>
              <th scope="col">Created</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {webhooks.map((w) => (
              <tr key={w.id}>
                <th scope="row"><code>{w.url}</code></th>
                <td>{w.events.join(", ")}</td>
                <td>
                  <button type="button" role="switch" class={w.enabled ? "switch on" : "switch"} aria-checked={w.enabled} aria-label={`Webhook ${w.url} enabled`} onClick={() => toggle(w)}>
                    {w.enabled ? "On" : "Off"}
                  </button>
                </td>
                <td>{when(w.createdAt)}</td>
                <td>
                  <button type="button" class="secondary small" onClick={() => setChosen(w.id)} aria-label={`Delivery log of ${w.url}`} aria-pressed={chosen === w.id}>
                    Delivery log
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {shown === undefined ? null : <Deliveries key={shown.id} projectId={projectId} webhook={shown} />}
      <NewWebhook projectId={projectId} onCreated={reload} />
    </section>
  )
}
