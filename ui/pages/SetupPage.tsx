/**
 * The page of a setup link (`<prefix>/ui/setup#token=…`: an invitation, or a password reset): the
 * person chooses a password, confirms it, and is signed in. The token is read from the fragment,
 * which browsers never send to a server; it goes to the API only in the body of
 * `POST /v1/auth/setup`, and leaves the address once it is spent.
 *
 * The length and the confirmation are checked here first, to say so next to the fields; the API
 * checks again and its refusal (a spent or expired link) is shown the same way.
 */
import { useState } from "preact/hooks"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { PASSWORD_MIN_LENGTH, passwordProblems, setUpPassword } from "../lib/account.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { leaveEntry } from "../lib/router.js"

const tokenOf = (hash: string): string | null => new URLSearchParams(hash.replace(/^#/, "")).get("token")

export const SetupPage = () => {
  const [token] = useState(() => tokenOf(location.hash))
  const [password, setPassword] = useState("")
  const [confirmation, setConfirmation] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    const before = passwordProblems(password, confirmation)
    if (before !== null || token === null) return setProblems(before ?? NO_PROBLEMS)
    setBusy(true)
    try {
      await setUpPassword(token, password)
      leaveEntry()
    } catch (error) {
      setProblems(fromError(error))
      setBusy(false)
    }
  }
  return (
    <main id="main" class="sign-in">
      <h1>Choose your password</h1>
      {token === null ? (
        <div class="error-summary" role="alert">
          <p>This setup link is incomplete: open the whole link you were given, or ask an administrator for a new one.</p>
        </div>
      ) : (
        <form class="card" onSubmit={submit} aria-label="Choose your password" noValidate>
          <p>This link works once. After this you sign in with your email and this password.</p>
          <ErrorSummary problems={problems} />
          <Field label="New password" hint={`At least ${PASSWORD_MIN_LENGTH} characters.`} problems={at(problems, "password")}>
            {(ctl) => <input {...ctl} type="password" autoComplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
          </Field>
          <Field label="Confirm the password" problems={at(problems, "confirmation")}>
            {(ctl) => <input {...ctl} type="password" autoComplete="new-password" value={confirmation} onInput={(e) => setConfirmation(e.currentTarget.value)} />}
          </Field>
          <div class="actions">
            <button type="submit" disabled={busy}>Set password and sign in</button>
          </div>
        </form>
      )}
      <p>
        <a href="./">Go to sign-in</a>
      </p>
    </main>
  )
}
