/** Segments of a project: the list with the flags that use each, a form to create one or edit one. */
import { useState } from "preact/hooks"
import { ConditionsEditor } from "../components/ConditionsEditor.js"
import { Diff } from "../components/Diff.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { KeyLists } from "../components/KeyLists.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request, seg } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { href } from "../lib/router.js"
import type { ConditionItem, Flag, List, Segment } from "../lib/types.js"
import { flagsUsing } from "../lib/usage.js"
import { allows } from "../lib/roles.js"
import { Table } from "../components/Table.js"

const loadSegments = async (projectId: string) => {
  const [segments, flags] = await Promise.all([
    request<List<Segment>>("GET", projectPath(projectId, "/segments")),
    request<List<Flag>>("GET", projectPath(projectId, "/flags"))
  ])
  return { segments: segments.data, usage: flagsUsing(flags.data) }
}

/** Creates a segment (`editing` null) or edits one (key fixed). */
const SegmentForm = (props: { projectId: string; editing: Segment | null; segments: ReadonlyArray<Segment>; onDone: () => void }) => {
  const { editing } = props
  const [key, setKey] = useState(editing?.key ?? "")
  const [name, setName] = useState(editing?.name ?? "")
  const [description, setDescription] = useState(editing?.description ?? "")
  const [conditions, setConditions] = useState<ReadonlyArray<ConditionItem>>(editing?.conditions ?? [])
  const [keyAttribute, setKeyAttribute] = useState(editing?.keyAttribute ?? "key")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const body = { name, description: description === "" ? null : description, conditions, keyAttribute }
  const submit = async (e: Event) => {
    e.preventDefault()
    try {
      if (editing === null) await request("POST", projectPath(props.projectId, "/segments"), { key, ...body })
      else await request("PATCH", projectPath(props.projectId, `/segments/${seg(editing.key)}`), body)
      props.onDone()
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  const title = editing === null ? "New segment" : `Edit segment ${editing.key}`
  return (
    <form class="card" onSubmit={submit} aria-label={title} noValidate>
      <h2>{title}</h2>
      <ErrorSummary problems={problems} />
      <div class="row">
        {editing === null ? (
          <Field label="Segment key" problems={at(problems, "key")}>
            {(ctl) => <input {...ctl} value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
          </Field>
        ) : null}
        <Field label="Segment name" problems={at(problems, "name")}>
          {(ctl) => <input {...ctl} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Segment description" problems={at(problems, "description")} class="grow">
          {(ctl) => <input {...ctl} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
        </Field>
        <Field label="Key lists match attribute" problems={at(problems, "keyAttribute")}>
          {(ctl) => <input {...ctl} value={keyAttribute} onInput={(e) => setKeyAttribute(e.currentTarget.value)} />}
        </Field>
      </div>
      <p class="muted">The segment's key lists hold values of this context attribute: <code>key</code> is the context key; another name reads that attribute (an account id, say).</p>
      <p class="muted">A context is in the segment when every condition holds.</p>
      <ConditionsEditor
        items={conditions}
        path="conditions"
        itemLabel={(i) => `Segment condition ${i + 1}`}
        addCondition="Add segment condition"
        addGroup="Add “any of these” block to the segment"
        problems={problems}
        segments={props.segments.filter((s) => s.key !== editing?.key)}
        onChange={setConditions}
      />
      {editing === null ? null : (
        <Diff
          before={{ name: editing.name, description: editing.description, conditions: editing.conditions, keyAttribute: editing.keyAttribute }}
          after={body}
          label={`Change to ${editing.key}`}
        />
      )}
      <div class="actions">
        <button type="submit">{editing === null ? "Create segment" : "Save segment"}</button>
        <button type="button" class="secondary" onClick={props.onDone}>Cancel</button>
      </div>
    </form>
  )
}

export const SegmentsPage = ({ projectId }: { projectId: string }) => {
  const { loaded, reload } = useLoad(() => loadSegments(projectId), [projectId])
  const [form, setForm] = useState<{ editing: Segment | null } | null>(null)
  const [listsOf, setListsOf] = useState<string | null>(null)
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { segments, usage } = loaded.data
  const writes = allows("write")
  const done = () => {
    setForm(null)
    reload()
  }
  return (
    <section aria-labelledby="segments-title">
      <div class="page-head">
        <h1 id="segments-title">Segments</h1>
        {writes ? <button type="button" onClick={() => setForm({ editing: null })}>New segment</button> : null}
      </div>
      {form === null || !writes ? null : (
        <SegmentForm key={form.editing?.key ?? "new"} projectId={projectId} editing={form.editing} segments={segments} onDone={done} />
      )}
      {listsOf === null ? null : <KeyLists key={listsOf} projectId={projectId} segmentKey={listsOf} onClose={() => setListsOf(null)} />}
      {segments.length === 0 ? (
        <p>No segments yet.</p>
      ) : (
        <Table caption={<>Segments of {projectId}</>}>
          <thead>
            <tr>
              <th scope="col">Segment</th>
              <th scope="col">Conditions</th>
              <th scope="col">Used by</th>
              <th scope="col">Last change</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {segments.map((s) => (
              <tr key={s.key}>
                <th scope="row">
                  {s.name} <code>{s.key}</code>
                  {s.description === null ? null : <div class="muted">{s.description}</div>}
                </th>
                <td>
                  {s.conditions.length}
                  {s.keyAttribute === "key" ? null : <div class="muted">lists match <code>{s.keyAttribute}</code></div>}
                </td>
                <td>
                  {(usage.get(s.key) ?? []).length === 0
                    ? <span class="muted">no flag</span>
                    : (usage.get(s.key) ?? []).map((k, i) => <span key={k}>{i > 0 ? ", " : ""}<a href={href({ page: "flag", key: k })}>{k}</a></span>)}
                </td>
                <td>{when(s.updatedAt)}</td>
                <td>
                  <button type="button" class="secondary small" onClick={() => setListsOf(s.key)} aria-label={`Key lists of segment ${s.key}`}>Key lists</button>{" "}
                  {writes ? (
                    <button type="button" class="secondary small" onClick={() => setForm({ editing: s })} aria-label={`Edit segment ${s.key}`}>Edit</button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  )
}
