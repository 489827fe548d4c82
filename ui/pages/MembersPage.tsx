/**
 * The members of a project and their roles, for the project's admins and global admins: change a
 * role, remove someone (removing a person's last membership ends their sessions), and, for global
 * admins (who can see every user), add a person. A refusal shows the API's message.
 */
import { useState } from "preact/hooks"
import { ask } from "../components/Confirm.js"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { changePerson } from "../lib/account.js"
import { projectPath, request, seg } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { personName, ROLE_HINTS, ROLES } from "../lib/people.js"
import { NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { isGlobalAdmin } from "../lib/roles.js"
import type { List, Member, Role, User } from "../lib/types.js"
import { Table } from "../components/Table.js"

const loadMembers = async (projectId: string) => {
  const [members, users] = await Promise.all([
    request<List<Member>>("GET", projectPath(projectId, "/members")),
    // Only a global admin may list every user, so only they can add someone here.
    isGlobalAdmin() ? request<List<User>>("GET", "/v1/users").then((u) => u.data) : Promise.resolve(null)
  ])
  return { members: members.data, users }
}

const AddMember = (props: { candidates: ReadonlyArray<User>; onAdd: (user: User, role: Role) => Promise<boolean> }) => {
  const [userId, setUserId] = useState("")
  const [role, setRole] = useState<Role>("viewer")
  const submit = async (e: Event) => {
    e.preventDefault()
    const user = props.candidates.find((u) => u.id === userId)
    if (user !== undefined && (await props.onAdd(user, role))) setUserId("")
  }
  return (
    <form class="card" onSubmit={submit} aria-label="Add a member" noValidate>
      <h2>Add a member</h2>
      {props.candidates.length === 0 ? (
        <p class="muted">Every user is a member already. Invite new people on the Users page.</p>
      ) : (
        <>
          <div class="row">
            <Field label="Person">
              {(ctl) => (
                <select {...ctl} value={userId} onChange={(e) => setUserId(e.currentTarget.value)}>
                  <option value="">Choose a person…</option>
                  {props.candidates.map((u) => <option key={u.id} value={u.id}>{personName(u)} ({u.email})</option>)}
                </select>
              )}
            </Field>
            <Field label="Role" hint={ROLE_HINTS[role]}>
              {(ctl) => (
                <select {...ctl} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
                  {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                </select>
              )}
            </Field>
          </div>
          <div class="actions">
            <button type="submit" disabled={userId === ""}>Add member</button>
          </div>
        </>
      )}
    </form>
  )
}

export const MembersPage = ({ projectId }: { projectId: string }) => {
  const { loaded, reload } = useLoad(() => loadMembers(projectId), [projectId])
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [status, setStatus] = useState("")
  if (loaded.state !== "ready") return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <Waiting loaded={loaded} />
    </section>
  )
  const { members, users } = loaded.data
  /** Runs a change, then says what it did (or shows the refusal) and loads the members again. */
  const change = (run: () => Promise<unknown>, done: string, who: User): Promise<boolean> =>
    changePerson({ setProblems, setStatus, reload }, who, run, done)
  const put = (user: User, role: Role, done: string) =>
    change(() => request("PUT", projectPath(projectId, `/members/${seg(user.id)}`), { role }), done, user)
  const remove = async (m: Member) => {
    if (!(await ask(`Remove ${personName(m.user)} from ${projectId}? If it is their last project, their sessions end too.`))) return
    await change(() => request("DELETE", projectPath(projectId, `/members/${seg(m.user.id)}`)), `${personName(m.user)} is no longer a member.`, m.user)
  }
  const candidates = users?.filter((u) => u.disabledAt === null && !members.some((m) => m.user.id === u.id)) ?? []
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <p class="muted">Global administrators reach every project without being members.</p>
      <ErrorSummary problems={problems} />
      <p role="status" class="status">{status}</p>
      {members.length === 0 ? (
        <p>This project has no members yet.</p>
      ) : (
        <Table caption={<>Members of {projectId}</>}>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Last sign-in</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.user.id} class={m.user.disabledAt === null ? undefined : "revoked"}>
                <th scope="row">
                  {personName(m.user)}
                  {m.user.disabledAt === null ? null : <span class="muted"> (disabled)</span>}
                </th>
                <td>{m.user.email}</td>
                <td>
                  <select
                    aria-label={`Role of ${m.user.email}`}
                    value={m.role}
                    onChange={(e) => void put(m.user, e.currentTarget.value as Role, `${personName(m.user)} is now ${e.currentTarget.value}.`)}
                  >
                    {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                  </select>
                </td>
                <td>{m.user.lastSignInAt === null ? "never" : when(m.user.lastSignInAt)}</td>
                <td>
                  <button type="button" class="danger small" aria-label={`Remove ${m.user.email}`} onClick={() => remove(m)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {users === null ? (
        <p class="muted">To add someone, ask a global administrator: they invite people and can add them here.</p>
      ) : (
        <AddMember candidates={candidates} onAdd={(user, role) => put(user, role, `${personName(user)} is now ${role} in ${projectId}.`)} />
      )}
    </section>
  )
}
