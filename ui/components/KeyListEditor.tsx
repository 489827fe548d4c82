/**
 * One of a segment's key lists (included or excluded): its size, a file that replaces it (the
 * PUT route, streamed), a search for one key, and keys to add or remove (the PATCH route). A
 * refusal shows as every form's does (a bad upload names its line). Only those who may write
 * segments get the upload and the changes; anyone who reads them can search.
 */
import { useState } from "preact/hooks"
import { changeKeys, findKey, keysOf, type ListName, replaceKeys } from "../lib/keyLists.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { allows } from "../lib/roles.js"
import type { KeyListInfo } from "../lib/types.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field } from "./Field.js"

const TITLES: Record<ListName, string> = { included: "Included keys", excluded: "Excluded keys" }
const MEANING: Record<ListName, string> = {
  included: "These keys are in the segment whatever its conditions say.",
  excluded: "These keys are never in the segment."
}

const plural = (n: number): string => `${n.toLocaleString("en")} ${n === 1 ? "key" : "keys"}`

export const KeyListEditor = (props: { projectId: string; segmentKey: string; info: KeyListInfo; onChanged: () => void }) => {
  const list = props.info.list as ListName
  const title = TITLES[list]
  const writes = allows("write")
  const [file, setFile] = useState<File | null>(null)
  const [search, setSearch] = useState("")
  const [found, setFound] = useState<string | null>(null)
  const [add, setAdd] = useState("")
  const [remove, setRemove] = useState("")
  const [status, setStatus] = useState<string | null>(null)
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const attempt = async (work: () => Promise<string>) => {
    setProblems(NO_PROBLEMS)
    setStatus(null)
    // An earlier search's answer may no longer hold after a write.
    setFound(null)
    try {
      setStatus(await work())
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  const upload = (e: Event) => {
    e.preventDefault()
    if (file === null) return setProblems({ message: "Choose a file of keys first.", details: [], status: null })
    void attempt(async () => {
      const info = await replaceKeys(props.projectId, props.segmentKey, list, file)
      props.onChanged()
      return `${title} replaced from ${file.name}: ${plural(info.count)}.`
    })
  }
  const change = (e: Event) => {
    e.preventDefault()
    const adding = keysOf(add)
    const removing = keysOf(remove)
    if (adding.length + removing.length === 0) return setProblems({ message: "Name a key to add or to remove.", details: [], status: null })
    void attempt(async () => {
      const info = await changeKeys(props.projectId, props.segmentKey, list, adding, removing)
      setAdd("")
      setRemove("")
      props.onChanged()
      return `${adding.length} added, ${removing.length} removed: ${plural(info.count)} now.`
    })
  }
  const find = (e: Event) => {
    e.preventDefault()
    const key = search.trim()
    if (key === "") return
    void attempt(async () => {
      const holds = await findKey(props.projectId, props.segmentKey, list, key)
      setFound(`${key} is ${holds ? "" : "not "}in the ${list} list.`)
      return ""
    })
  }
  const headingId = `keys-${list}`
  return (
    <section class="card key-list" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <p>
        <strong>{plural(props.info.count)}</strong>{" "}
        <span class="muted">{props.info.version === 0 ? "(never written)" : `(version ${props.info.version})`}</span>
      </p>
      <p class="muted">{MEANING[list]}</p>
      <ErrorSummary problems={problems} />
      {status === null || status === "" ? null : <p role="status" class="status">{status}</p>}
      <form onSubmit={find} aria-label={`Search ${title.toLowerCase()}`} class="row">
        <Field label={`Find a key in ${title.toLowerCase()}`} class="grow">
          {(ctl) => <input {...ctl} type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />}
        </Field>
        <div class="actions"><button type="submit" class="secondary">Search</button></div>
      </form>
      {found === null ? null : <p role="status" class="status">{found}</p>}
      {!writes ? null : (
        <>
          <form onSubmit={upload} aria-label={`Upload ${title.toLowerCase()}`} class="row">
            <Field label={`File of ${title.toLowerCase()}`} hint="A .csv file with a header row (the key column named key, else the first), or text with one key a line. It replaces the whole list." class="grow">
              {(ctl) => <input {...ctl} type="file" accept=".csv,.txt,text/csv,text/plain" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />}
            </Field>
            <div class="actions"><button type="submit">Replace {title.toLowerCase()}</button></div>
          </form>
          <form onSubmit={change} aria-label={`Change ${title.toLowerCase()}`}>
            <div class="row">
              <Field label={`Keys to add to ${title.toLowerCase()}`} hint="One a line or separated by commas." class="grow">
                {(ctl) => <textarea {...ctl} rows={2} value={add} onInput={(e) => setAdd(e.currentTarget.value)} />}
              </Field>
              <Field label={`Keys to remove from ${title.toLowerCase()}`} class="grow">
                {(ctl) => <textarea {...ctl} rows={2} value={remove} onInput={(e) => setRemove(e.currentTarget.value)} />}
              </Field>
            </div>
            <div class="actions"><button type="submit">Save changes to {title.toLowerCase()}</button></div>
          </form>
        </>
      )}
    </section>
  )
}
