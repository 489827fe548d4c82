/**
 * The signed-in person's menu in the header: who they are (name, email), their role in the chosen
 * project, and signing out (the server ends the session, so the cookie no longer works anywhere).
 */
import { useState } from "preact/hooks"
import { endSession } from "../lib/account.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { roleIn } from "../lib/roles.js"
import { projectId } from "../lib/session.js"
import type { Me } from "../lib/types.js"
import { ErrorSummary } from "./ErrorSummary.js"

const roleText = (who: Me, project: string | null): string => {
  if (who.user.admin) return "Global administrator"
  if (project === null) return "No project chosen"
  const role = roleIn(project)
  return role === null ? `No role in ${project}` : `${role[0]!.toUpperCase()}${role.slice(1)} in ${project}`
}

export const PersonMenu = ({ who }: { who: Me }) => {
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const signOut = async () => {
    setBusy(true)
    try {
      await endSession()
    } catch (error) {
      setProblems(fromError(error))
      setBusy(false)
    }
  }
  return (
    <details class="person-menu">
      <summary>
        <span class="visually-hidden">Signed in as </span>
        {who.user.name === "" ? who.user.email : who.user.name}
      </summary>
      <div class="menu">
        <p>
          {who.user.name === "" ? null : <strong>{who.user.name}</strong>}
          <br />
          {who.user.email}
        </p>
        <p class="muted">{roleText(who, projectId.value)}</p>
        <ErrorSummary problems={problems} />
        <button type="button" class="secondary" disabled={busy} onClick={signOut}>Sign out</button>
      </div>
    </details>
  )
}
