/**
 * Every person who can sign in, for global administrators: invite someone (email, name, global
 * admin or roles in projects) and pass on the setup link the API answers with (there is no mail);
 * rename, disable or enable (disabling ends their sessions); reset a password (a new setup link,
 * and their sessions end); unlock someone whose failed sign-ins (others' guesses, say) hold them
 * back; allow the next single sign-on to open an account (linked before, or a global admin's); make someone a global administrator or remove the flag. The API refuses a global admin who would disable themselves or drop
 * their own admin flag (409); the refusal shows at the top.
 */
import { useState } from "preact/hooks"
import { ask } from "../components/Confirm.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field, Group } from "../components/Field.js"
import { type MadeLink, SetupLink } from "../components/SetupLink.js"
import { Waiting } from "../components/Status.js"
import { changePerson } from "../lib/account.js"
import { request, seg } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { personName, ROLES } from "../lib/people.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { projects } from "../lib/session.js"
import type { List, Membership, Role, User } from "../lib/types.js"
import { Table } from "../components/Table.js"

interface Invited {
  readonly user: User
  readonly setupUrl: string
}

const Invite = ({ onInvited }: { onInvited: (link: MadeLink) => void }) => {
  const [email, setEmail] = useState("")
  const [name, setName] = useState("")
  const [admin, setAdmin] = useState(false)
  const [roles, setRoles] = useState<Readonly<Record<string, Role | "">>>({})
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    try {
      const memberships: Array<Membership> = Object.entries(roles).flatMap(([projectId, role]) => (role === "" ? [] : [{ projectId, role }]))
      const body = { email: email.trim(), ...(name.trim() === "" ? {} : { name: name.trim() }), admin, projects: memberships }
      const invited = await request<Invited>("POST", "/v1/users", body)
      onInvited({ email: invited.user.email, url: invited.setupUrl, kind: "invitation" })
      setEmail("")
      setName("")
      setAdmin(false)
      setRoles({})
      setProblems(NO_PROBLEMS)
    } catch (error) {
      setProblems(fromError(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form class="card" onSubmit={submit} aria-label="Invite a person" noValidate>
      <h2>Invite a person</h2>
      <p class="muted">You get a setup link to pass on: with it they choose a password. Single sign-on users need no invitation.</p>
      <ErrorSummary problems={problems} />
      <div class="row">
        <Field label="Email" problems={at(problems, "email")}>
          {(ctl) => <input {...ctl} type="email" spellcheck={false} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
        </Field>
        <Field label="Name" hint="Optional: how the dashboard and the audit log name them." problems={at(problems, "name")} class="grow">
          {(ctl) => <input {...ctl} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
      </div>
      <label class="check">
        <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.currentTarget.checked)} />
        Global administrator (every project, and the people)
      </label>
      {admin || projects.value.length === 0 ? null : (
        <Group legend="Roles in projects" problems={at(problems, "projects")}>
          <div class="row">
            {projects.value.map((p) => (
              <Field key={p.id} label={`${p.name} (${p.id})`}>
                {(ctl) => (
                  <select {...ctl} value={roles[p.id] ?? ""} onChange={(e) => setRoles({ ...roles, [p.id]: e.currentTarget.value as Role | "" })}>
                    <option value="">no access</option>
                    {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                  </select>
                )}
              </Field>
            ))}
          </div>
        </Group>
      )}
      <div class="actions">
        <button type="submit" disabled={busy || email.trim() === ""}>Invite</button>
      </div>
    </form>
  )
}

const Rename = (props: { user: User; onSave: (name: string) => Promise<boolean>; onCancel: () => void }) => {
  const [name, setName] = useState(props.user.name)
  const submit = async (e: Event) => {
    e.preventDefault()
    await props.onSave(name.trim())
  }
  return (
    <form class="row" onSubmit={submit} aria-label={`Rename ${props.user.email}`} noValidate>
      <Field label={`Name of ${props.user.email}`}>
        {(ctl) => <input {...ctl} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <div class="actions">
        <button type="submit" class="small">Save name</button>
        <button type="button" class="secondary small" onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  )
}

export const UsersPage = () => {
  const { loaded, reload } = useLoad(() => request<List<User>>("GET", "/v1/users"), [])
  const [link, setLink] = useState<MadeLink | null>(null)
  const [renaming, setRenaming] = useState<string | null>(null)
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [status, setStatus] = useState("")
  const change = (user: User, run: () => Promise<unknown>, done: string): Promise<boolean> =>
    changePerson({ setProblems, setStatus, reload }, user, run, done)
  const patch = (user: User, body: { name?: string; admin?: boolean; disabled?: boolean }, done: string) =>
    change(user, () => request("PATCH", `/v1/users/${seg(user.id)}`, body), done)
  const toggle = async (user: User) => {
    const disable = user.disabledAt === null
    if (disable && !(await ask(`Disable ${personName(user)}? They are signed out everywhere at once and cannot sign in until enabled again.`))) return
    await patch(user, { disabled: disable }, `${personName(user)} is ${disable ? "disabled" : "enabled"}.`)
  }
  const toggleAdmin = async (user: User) => {
    const grant = !user.admin
    const question = grant
      ? `Make ${personName(user)} a global administrator? They can then do anything in every project, and manage the people.`
      : `Remove ${personName(user)}'s global administrator flag? They keep only their roles in projects.`
    if (!(await ask(question))) return
    await patch(user, { admin: grant }, `${personName(user)} is ${grant ? "now" : "no longer"} a global administrator.`)
  }
  const reset = async (user: User) => {
    if (!(await ask(`Reset the password of ${personName(user)}? Their password stops working and their sessions end; you get a new setup link to pass on.`))) return
    await change(user, async () => {
      const reply = await request<{ setupUrl: string }>("POST", `/v1/users/${seg(user.id)}/reset-password`)
      setLink({ email: user.email, url: reply.setupUrl, kind: "reset" })
    }, `The password of ${personName(user)} is reset.`)
  }
  const unlock = (user: User) =>
    change(user, () => request("POST", `/v1/users/${seg(user.id)}/unlock`), `The failed sign-ins of ${personName(user)} are cleared: they can sign in with their password again.`)
  const allowSsoLink = async (user: User) => {
    const question = `Let the next single sign-on of ${personName(user)} with ${user.email}, within 72 hours, open this account? ` +
      "Use it when their identity at the provider changed, or to move a global administrator to single sign-on; it replaces the identity linked before."
    if (!(await ask(question))) return
    await change(user, () => request("POST", `/v1/users/${seg(user.id)}/allow-sso-link`), `The next single sign-on of ${personName(user)} within 72 hours will open this account.`)
  }
  const rename = (user: User) => async (name: string) => {
    const ok = await patch(user, { name }, `Renamed to ${name === "" ? user.email : name}.`)
    if (ok) setRenaming(null)
    return ok
  }
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      {link === null ? null : <SetupLink key={link.url} link={link} onDismiss={() => setLink(null)} />}
      <ErrorSummary problems={problems} />
      <p role="status" class="status">{status}</p>
      {loaded.state !== "ready" ? (
        <Waiting loaded={loaded} />
      ) : (
        <Table caption={<>Every user</>}>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Email</th>
              <th scope="col">Access</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Status</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((u) => (
              <tr key={u.id} class={u.disabledAt === null ? undefined : "revoked"}>
                <th scope="row">
                  {renaming === u.id ? <Rename user={u} onSave={rename(u)} onCancel={() => setRenaming(null)} /> : personName(u)}
                </th>
                <td>{u.email}</td>
                <td>
                  {u.admin ? "global administrator" : "per project"}
                  {u.sso ? <span class="muted"> (single sign-on)</span> : null}
                </td>
                <td>{u.lastSignInAt === null ? "never" : when(u.lastSignInAt)}</td>
                <td>{u.disabledAt === null ? "active" : `disabled ${when(u.disabledAt)}`}</td>
                <td>
                  <div class="actions">
                    <button type="button" class="secondary small" aria-label={`Rename ${u.email}`} onClick={() => setRenaming(u.id)}>Rename</button>
                    <button type="button" class={u.disabledAt === null ? "danger small" : "secondary small"} aria-label={`${u.disabledAt === null ? "Disable" : "Enable"} ${u.email}`} onClick={() => toggle(u)}>
                      {u.disabledAt === null ? "Disable" : "Enable"}
                    </button>
                    <button type="button" class="secondary small" aria-label={`Reset password of ${u.email}`} onClick={() => reset(u)}>Reset password</button>
                    <button type="button" class="secondary small" aria-label={`Unlock ${u.email}: clear failed sign-ins`} onClick={() => unlock(u)}>Unlock</button>
                    {/@localhost$/i.test(u.email) ? null : (
                      <button type="button" class="secondary small" aria-label={`Allow SSO link for ${u.email}`} onClick={() => allowSsoLink(u)}>Allow SSO link</button>
                    )}
                    <button type="button" class="secondary small" aria-label={`${u.admin ? "Remove admin" : "Make admin"}: ${u.email}`} onClick={() => toggleAdmin(u)}>
                      {u.admin ? "Remove admin" : "Make admin"}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Invite onInvited={(l) => (setLink(l), setStatus(""), reload())} />
    </section>
  )
}
