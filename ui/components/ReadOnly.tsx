/**
 * Controls the signed-in person's role does not allow, still shown (the targeting, a flag's
 * definition: they are how a viewer reads them) but disabled all at once by a disabled fieldset,
 * with a legend that says why.
 */
import type { ComponentChildren } from "preact"
import { roleIn } from "../lib/roles.js"
import { projectId } from "../lib/session.js"

export const ReadOnlyUnless = ({ allowed, children }: { allowed: boolean; children: ComponentChildren }) => {
  if (allowed) return <>{children}</>
  const role = roleIn(projectId.value)
  return (
    <fieldset class="read-only" disabled>
      <legend>Read only: {role === null ? "you have no role" : `your role (${role}) does not allow changes`} in this project.</legend>
      {children}
    </fieldset>
  )
}
