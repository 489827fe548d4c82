/**
 * The dashboard's frame: sign-in until a key is kept, then the header (project, sign-out), the
 * navigation and the page of the current route.
 */
import { ConfirmDialog } from "./components/Confirm.js"
import { Field } from "./components/Field.js"
import { href, route, type Route } from "./lib/router.js"
import { chooseProject, projectId, projects, serverKey, signOut } from "./lib/session.js"
import { AuditPage } from "./pages/AuditPage.js"
import { EnvironmentsPage } from "./pages/EnvironmentsPage.js"
import { FlagPage } from "./pages/FlagPage.js"
import { FlagsPage } from "./pages/FlagsPage.js"
import { KeysPage } from "./pages/KeysPage.js"
import { PlaygroundPage } from "./pages/PlaygroundPage.js"
import { SchedulesPage } from "./pages/SchedulesPage.js"
import { SegmentsPage } from "./pages/SegmentsPage.js"
import { SignInPage } from "./pages/SignInPage.js"
import { WebhooksPage } from "./pages/WebhooksPage.js"

/**
 * The navigation. The pages about governing change (keys, the audit log, the pending scheduled
 * changes) are siblings at the end, each one entry here, one route and one `Page` case.
 */
const NAV: ReadonlyArray<{ readonly label: string; readonly route: Route; readonly pages: ReadonlyArray<Route["page"]> }> = [
  { label: "Flags", route: { page: "flags" }, pages: ["flags", "flag"] },
  { label: "Segments", route: { page: "segments" }, pages: ["segments"] },
  { label: "Environments", route: { page: "environments" }, pages: ["environments"] },
  { label: "Webhooks", route: { page: "webhooks" }, pages: ["webhooks"] },
  { label: "Playground", route: { page: "playground" }, pages: ["playground"] },
  { label: "Keys", route: { page: "keys" }, pages: ["keys"] },
  { label: "Audit log", route: { page: "audit" }, pages: ["audit"] },
  { label: "Schedules", route: { page: "schedules" }, pages: ["schedules"] }
]

const Page = ({ project, at }: { project: string; at: Route }) => {
  switch (at.page) {
    case "flags":
      return <FlagsPage projectId={project} />
    case "flag":
      return <FlagPage key={at.key} projectId={project} flagKey={at.key} />
    case "segments":
      return <SegmentsPage projectId={project} />
    case "environments":
      return <EnvironmentsPage projectId={project} />
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
  }
}

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

export const App = () => {
  if (serverKey.value === null) return <SignInPage />
  const project = projectId.value
  const at = route.value
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header>
        <span class="brand">Flagport</span>
        <nav aria-label="Sections">
          <ul>
            {NAV.map((n) => (
              <li key={n.label}>
                <a href={href(n.route)} aria-current={n.pages.includes(at.page) ? "page" : undefined}>{n.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="session">
          {projects.value.length > 1 ? <ProjectPicker /> : <span>Project: {project}</span>}
          <button type="button" class="secondary" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {project === null ? (
          projects.value.length === 0 ? <p>This key sees no project.</p> : <p>Choose a project above.</p>
        ) : (
          <Page key={project} project={project} at={at} />
        )}
      </main>
      <ConfirmDialog />
    </>
  )
}
