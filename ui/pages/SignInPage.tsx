/**
 * Sign-in. People sign in with their email and password (the server sets an HttpOnly session
 * cookie the page never sees), or with single sign-on when the server has it configured. A server
 * key stays as the secondary way in, for operators: it is checked by listing the projects it may
 * see, and only then kept (in sessionStorage). A refusal shows the API's message.
 *
 * Above the forms: why this page shows, if there is a reason (a session that ended, or the reason
 * single sign-on gave: `account.ssoRefusal`), until the next attempt.
 */
import { useEffect, useState } from "preact/hooks"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { loadProviders, signInWithPassword, ssoHref } from "../lib/account.js"
import { requestWith } from "../lib/api.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { leaveEntry } from "../lib/router.js"
import { keepKey, signInNotice } from "../lib/session.js"
import type { List, Project, Providers } from "../lib/types.js"

const WithPassword = () => {
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    // The reason this page showed (a session that ended) gives way to this attempt's answer.
    signInNotice.value = null
    setBusy(true)
    try {
      await signInWithPassword(email.trim(), password)
      leaveEntry()
    } catch (error) {
      setProblems(fromError(error))
      setBusy(false)
    }
  }
  return (
    <form class="card" onSubmit={submit} aria-label="Sign in with email and password" noValidate>
      <ErrorSummary problems={problems} />
      <Field label="Email">
        {(ctl) => <input {...ctl} type="email" autoComplete="username" spellcheck={false} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
      </Field>
      <Field label="Password">
        {(ctl) => <input {...ctl} type="password" autoComplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
      </Field>
      <div class="actions">
        <button type="submit" disabled={busy || email.trim() === "" || password === ""}>Sign in</button>
      </div>
    </form>
  )
}

const WithKey = () => {
  const [key, setKey] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    // The reason this page showed (a session that ended) gives way to this attempt's answer.
    signInNotice.value = null
    setBusy(true)
    try {
      const projects = await requestWith<List<Project>>(key.trim(), "GET", "/v1/projects")
      keepKey(key.trim(), projects.data)
      leaveEntry()
    } catch (error) {
      setProblems(fromError(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form class="card" onSubmit={submit} aria-labelledby="key-title" noValidate>
      <h2 id="key-title">Sign in with a key</h2>
      <p class="muted">For operators: a server key of a project, or a global one. People sign in above, so the audit log names them.</p>
      <ErrorSummary problems={problems} />
      <Field label="Server key" hint="A server key (srv_…). It stays in this tab only and is forgotten when the tab closes.">
        {(ctl) => <input {...ctl} type="password" autoComplete="off" spellcheck={false} value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
      </Field>
      <div class="actions">
        <button type="submit" class="secondary" disabled={busy || key.trim() === ""}>Sign in with the key</button>
      </div>
    </form>
  )
}

export const SignInPage = () => {
  const [providers, setProviders] = useState<Providers | null>(null)
  useEffect(() => {
    loadProviders().then(setProviders, () => setProviders(null))
  }, [])
  const notice = signInNotice.value
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to Flagport</h1>
      {notice === null ? null : (
        <div class="error-summary" role="alert">
          <p>{notice}</p>
        </div>
      )}
      <WithPassword />
      {providers?.oidc == null ? null : (
        <p class="card sso">
          <a class="button" href={ssoHref()}>Sign in with {providers.oidc.name}</a>
        </p>
      )}
      <WithKey />
    </main>
  )
}
