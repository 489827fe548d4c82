/**
 * A flag's definition (name, description, variations), saved with PATCH. The change is shown
 * before saving; the save names the version it was made on (`If-Match`), so a change someone else
 * saved meanwhile is not overwritten: the refusal is explained and `onReload` offered.
 */
import { useEffect, useState } from "preact/hooks"
import { ifMatch, projectPath, request, seg } from "../lib/api.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import type { Flag } from "../lib/types.js"
import { Diff } from "./Diff.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field } from "./Field.js"
import { toDraft, toVariations, VariationsEditor, type Draft } from "./VariationsEditor.js"

export const DefinitionEditor = ({ projectId, flag, onSaved, onReload, onEdited }: {
  projectId: string
  flag: Flag
  onSaved: (f: Flag) => void
  onReload: () => void
  /** Told whether the editor holds a change not saved yet (the page then keeps it on the definition it started from). */
  onEdited?: (edited: boolean) => void
}) => {
  const [name, setName] = useState(flag.name)
  const [description, setDescription] = useState(flag.description ?? "")
  const [drafts, setDrafts] = useState<ReadonlyArray<Draft>>(() => flag.variations.map((v) => toDraft(flag.type, v)))
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const variations = toVariations(flag.type, drafts)
  const before = { name: flag.name, description: flag.description, variations: flag.variations }
  const after = { name, description: description === "" ? null : description, variations: variations ?? flag.variations }
  const changed = JSON.stringify(before) !== JSON.stringify(after)
  useEffect(() => onEdited?.(changed), [changed, onEdited])
  useEffect(() => () => onEdited?.(false), [onEdited])
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

