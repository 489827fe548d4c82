/**
 * Sign-in with a server key. The key is checked by listing the projects it may see; only then is
 * it kept (in sessionStorage). A refusal shows the API's message.
 */
import { useState } from "preact/hooks"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { requestWith } from "../lib/api.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { keepKey } from "../lib/session.js"
import type { List, Project } from "../lib/types.js"

export const SignInPage = () => {
  const [key, setKey] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    try {
      const projects = await requestWith<List<Project>>(key.trim(), "GET", "/v1/projects")
      keepKey(key.trim(), projects.data)
    } catch (error) {
      setProblems(fromError(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to Flagport</h1>
      <form class="card" onSubmit={submit} aria-label="Sign in" noValidate>
        <ErrorSummary problems={problems} />
        <Field label="Server key" hint="A server key (srv_…). It stays in this tab only and is forgotten when the tab closes.">
          {(ctl) => <input {...ctl} type="password" autoComplete="off" spellcheck={false} value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
        </Field>
        <div class="actions">
          <button type="submit" disabled={busy || key.trim() === ""}>Sign in</button>
        </div>
      </form>
    </main>
  )
}
