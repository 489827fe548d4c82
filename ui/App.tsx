/**
 * The dashboard's frame: the setup page of a setup link; sign-in until a person or a key is
 * signed in; then the header (project, the person's menu or the key's sign-out), the navigation
 * (the entries the role allows, the change requests with how many are open) and the page of the
 * current route. On a narrow screen the navigation folds behind a **Menu** button (a disclosure:
 * `aria-expanded`, Escape closes it and returns to the button, following a link closes it).
 */
import { useEffect, useRef, useState } from "preact/hooks"
import { ConfirmDialog } from "./components/Confirm.js"
import { Field } from "./components/Field.js"
import { PersonMenu } from "./components/PersonMenu.js"
import { countLive, liveCount } from "./lib/changes.js"
import { allows, isGlobalAdmin } from "./lib/roles.js"
import { entry, href, route, type Route } from "./lib/router.js"
import { chooseProject, me, projectId, projects, serverKey, signedIn, signOut } from "./lib/session.js"
import { AuditPage } from "./pages/AuditPage.js"
import { ChangeRequestsPage } from "./pages/ChangeRequestsPage.js"
import { EnvironmentsPage } from "./pages/EnvironmentsPage.js"
import { ExperimentPage } from "./pages/ExperimentPage.js"
import { ExperimentsPage } from "./pages/ExperimentsPage.js"
import { FlagPage } from "./pages/FlagPage.js"
import { FlagsPage } from "./pages/FlagsPage.js"
import { KeysPage } from "./pages/KeysPage.js"
import { MembersPage } from "./pages/MembersPage.js"
import { PlaygroundPage } from "./pages/PlaygroundPage.js"
import { SchedulesPage } from "./pages/SchedulesPage.js"
import { SegmentsPage } from "./pages/SegmentsPage.js"
import { SetupPage } from "./pages/SetupPage.js"
import { SignInPage } from "./pages/SignInPage.js"
import { UsersPage } from "./pages/UsersPage.js"
import { WebhooksPage } from "./pages/WebhooksPage.js"

interface NavEntry {
  readonly label: string
  readonly route: Route
  readonly pages: ReadonlyArray<Route["page"]>
  /** Shown only when this holds (the role allows the page); absent: always. */
  readonly shown?: () => boolean
  /** A number beside the label (the open change requests), when there is one. */
  readonly count?: () => number | null
}

const manages = () => allows("manage")
/** Global admins, and keys (a global server key may manage users; the API judges a key). */
const seesUsers = () => isGlobalAdmin() || serverKey.value !== null

/**
 * The navigation. The pages about governing change (keys, the audit log, the pending scheduled
 * changes) are siblings at the end, then the people (the project's members, every user), each
 * one entry here, one route and one `Page` case. Pages only a project's admins can use are not
 * offered to others (the API would refuse them anyway, and the page would say so).
 */
const NAV: ReadonlyArray<NavEntry> = [
  { label: "Flags", route: { page: "flags" }, pages: ["flags", "flag"] },
  { label: "Segments", route: { page: "segments" }, pages: ["segments"] },
  { label: "Environments", route: { page: "environments" }, pages: ["environments"] },
  { label: "Experiments", route: { page: "experiments" }, pages: ["experiments", "experiment"] },
  { label: "Webhooks", route: { page: "webhooks" }, pages: ["webhooks"], shown: manages },
  // The playground explains with `POST /v1/explain`, an evaluation route: keys only, as SDKs call it.
  { label: "Playground", route: { page: "playground" }, pages: ["playground"], shown: () => serverKey.value !== null },
  { label: "Keys", route: { page: "keys" }, pages: ["keys"], shown: manages },
  { label: "Audit log", route: { page: "audit" }, pages: ["audit"] },
  { label: "Schedules", route: { page: "schedules" }, pages: ["schedules"] },
  { label: "Change requests", route: { page: "change-requests" }, pages: ["change-requests"], count: () => liveCount.value },
  { label: "Members", route: { page: "members" }, pages: ["members"], shown: manages },
  { label: "Users", route: { page: "users" }, pages: ["users"], shown: seesUsers }
]

const Page = ({ project, at }: { project: string; at: Route }) => {
  switch (at.page) {
    case "flags":
      return <FlagsPage projectId={project} />
    case "flag":
      return <FlagPage key={at.key} projectId={project} flagKey={at.key} section={at.section} environment={at.environment} />
    case "segments":
      return <SegmentsPage projectId={project} />
    case "environments":
      return <EnvironmentsPage projectId={project} />
    case "experiments":
      return <ExperimentsPage projectId={project} />
    case "experiment":
      return <ExperimentPage key={at.key} projectId={project} experimentKey={at.key} />
    case "webhooks":
      return <WebhooksPage projectId={project} />
    case "playground":
      return <PlaygroundPage projectId={project} />
    case "keys":
      return <KeysPage projectId={project} />
    case "audit":
      return <AuditPage projectId={project} />
    case "schedules":
      return <SchedulesPage projectId={project} />
    case "change-requests":
      return <ChangeRequestsPage projectId={project} />
    case "members":
      return <MembersPage projectId={project} />
    case "users":
      return <UsersPage />
  }
}

/** How many are waiting (shown only when some are): " 2" read as "2 open". */
const Count = ({ n }: { n: number | null }) =>
  n === null || n === 0 ? null : (
    <span class="count">
      {" "}
      {n}
      <span class="visually-hidden"> open</span>
    </span>
  )

const ProjectPicker = () => (
  <Field label="Project" class="inline">
    {(ctl) => (
      <select {...ctl} value={projectId.value ?? ""} onChange={(e) => chooseProject(e.currentTarget.value || null)}>
        {projectId.value === null ? <option value="">Choose a project…</option> : null}
        {projects.value.map((p) => <option key={p.id} value={p.id}>{p.name} ({p.id})</option>)}
      </select>
    )}
  </Field>
)

const NoProject = () =>
  projects.value.length > 0 ? (
    <p>Choose a project above.</p>
  ) : me.value === null ? (
    <p>This key sees no project.</p>
  ) : (
    <p>You are not a member of any project yet: ask a project's administrator to add you.</p>
  )

export const App = () => {
  if (entry.value === "setup") return <SetupPage />
  if (!signedIn.value || entry.value === "signin") return <SignInPage />
  const project = projectId.value
  const at = route.value
  const who = me.value
  return (
    <Frame project={project} at={at} who={who} />
  )
}

/** The frame of a signed-in page; the open change requests are counted again when the project changes. */
const Frame = ({ project, at, who }: { project: string | null; at: Route; who: typeof me.value }) => {
  useEffect(() => void countLive(project), [project])
  const [menuOpen, setMenuOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const closeOnEscape = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || !menuOpen) return
    setMenuOpen(false)
    menuButton.current?.focus()
  }
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header onKeyDown={closeOnEscape}>
        <span class="brand">Flagport</span>
        <button ref={menuButton} type="button" class="secondary menu-button" aria-expanded={menuOpen} aria-controls="site-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        {/* A link followed folds the menu, also when it leads to the page already shown. */}
        <nav id="site-nav" aria-label="Sections" class={menuOpen ? "open" : undefined} onClick={(e) => (e.target as Element).closest("a") !== null && setMenuOpen(false)}>
          <ul>
            {NAV.filter((n) => n.shown?.() ?? true).map((n) => (
              <li key={n.label}>
                <a href={href(n.route)} aria-current={n.pages.includes(at.page) ? "page" : undefined}>
                  {n.label}
                  <Count n={n.count?.() ?? null} />
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="session">
          {projects.value.length > 1 ? <ProjectPicker /> : project === null ? null : <span>Project: {project}</span>}
          {who === null ? (
            <button type="button" class="secondary" onClick={() => signOut()}>Sign out</button>
          ) : (
            <PersonMenu who={who} />
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {at.page === "users" && seesUsers() ? (
          <UsersPage />
        ) : project === null ? (
          <NoProject />
        ) : (
          <Page key={project} project={project} at={at} />
        )}
      </main>
      <ConfirmDialog />
    </>
  )
}
