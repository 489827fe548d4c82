/** The matrix rows of code generation, flags as code, users and members. */
import { Effect } from "effect"
import { PeopleMessages } from "../../../src/domain/auth/PeopleMessages.js"
import { Messages } from "../../../src/domain/auth/Policy.js"
import { FlagsAsCode } from "../../../src/services/ascode/FlagsAsCode.js"
import { FlagdImport } from "../../../src/services/flagd/FlagdImport.js"
import { Flags } from "../../../src/services/flags/Flags.js"
import { Members } from "../../../src/services/people/Members.js"
import { Users } from "../../../src/services/people/Users.js"
import { type Endpoint, EVERY_ENVIRONMENT, flagBody, forbidden, freshUser, use } from "./Endpoint.js"

/** People are managed by people: no key changes a member (it may list them). */
const KEYS_CHANGE_NO_MEMBER = forbidden(PeopleMessages.keyChangesMembers)

export const TOOLING_AND_PEOPLE_ENDPOINTS: ReadonlyArray<Endpoint> = [
  // Typed code generation.
  {
    name: "GET /v1/projects/{p}/codegen/typescript",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/codegen/typescript", call: use(Flags, (f) => f.list("p1")) })
  },
  // Flags as code. The apply's file adds a fresh flag and turns it on in development: write, and
  // a key bound to production may not write development's targeting. (What an environment change
  // needs, manage, is tested in test/ascode/Http.test.ts.)
  {
    name: "GET /v1/projects/{p}/export",
    kind: "management",
    needs: "read",
    success: 200,
    // The file holds every environment: no bound key.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/export", call: use(FlagsAsCode, (c) => c.exportFile("p1")) })
  },
  {
    name: "POST /v1/projects/{p}/apply",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (_t, n) => {
      const body = {
        project: { id: "p1" },
        flags: [{ ...flagBody(`applied-${n}`), environments: [{ key: "development", enabled: true, defaultVariationKey: "a", offVariationKey: "b" }] }]
      }
      return { method: "POST", path: "/v1/projects/p1/apply", body, call: use(FlagsAsCode, (c) => c.apply("p1", body)) }
    }
  },
  // The flagd import creates a fresh flag, on in development: write in the project, and it
  // creates flags in every environment, so no key bound to one.
  {
    name: "POST /v1/projects/{p}/import/flagd",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (_t, n) => {
      const body = { flags: { [`flagd-${n}`]: { state: "ENABLED", variants: { on: true, off: false }, defaultVariant: "on" } } }
      return {
        method: "POST",
        path: "/v1/projects/p1/import/flagd?environment=development",
        body,
        call: use(FlagdImport, (f) => f.importFlags("p1", "development", body, { skipUnsupported: false, dryRun: false }))
      }
    }
  },
  { name: "GET /schemas/project-file.json", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/schemas/project-file.json" }) },
  // People.
  { name: "GET /v1/auth/providers", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/v1/auth/providers" }) },
  { name: "GET /v1/me", kind: "me", success: 200, prepare: async () => ({ method: "GET", path: "/v1/me" }) },
  { name: "GET /v1/users", kind: "global", success: 200, prepare: async () => ({ method: "GET", path: "/v1/users", call: use(Users, (u) => u.list()) }) },
  {
    name: "POST /v1/users",
    kind: "global",
    success: 201,
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/users", body: { email: `invited-${n}@example.com` }, call: use(Users, (u) => u.invite({ email: `invited-${n}@example.com` })) })
  },
  {
    name: "PATCH /v1/users/{id}",
    kind: "global",
    success: 200,
    prepare: async (t, n) => {
      const { id } = await freshUser(t, n, "patched")
      return { method: "PATCH", path: `/v1/users/${id}`, body: { name: "Renamed" }, call: use(Users, (u) => u.update(id, { name: "Renamed" })) }
    }
  },
  {
    name: "POST /v1/users/{id}/reset-password",
    kind: "global",
    success: 200,
    prepare: async (t, n) => {
      const { id } = await freshUser(t, n, "reset")
      return { method: "POST", path: `/v1/users/${id}/reset-password`, call: use(Users, (u) => u.resetPassword(id)) }
    }
  },
  {
    name: "POST /v1/users/{id}/unlock",
    kind: "global",
    success: 200,
    prepare: async (t, n) => {
      const { id } = await freshUser(t, n, "unlocked")
      return { method: "POST", path: `/v1/users/${id}/unlock`, call: use(Users, (u) => u.unlock(id)) }
    }
  },
  {
    name: "POST /v1/users/{id}/allow-sso-link",
    kind: "global",
    success: 200,
    prepare: async (t, n) => {
      const { id } = await freshUser(t, n, "sso-allowed")
      return { method: "POST", path: `/v1/users/${id}/allow-sso-link`, call: use(Users, (u) => u.allowSsoLink(id)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/members",
    kind: "management",
    needs: "manage",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/members", call: use(Members, (m) => m.list("p1")) })
  },
  {
    name: "PUT /v1/projects/{p}/members/{u}",
    kind: "management",
    needs: "manage",
    success: 200,
    forKeys: KEYS_CHANGE_NO_MEMBER,
    prepare: async (t, n) => {
      const { id } = await freshUser(t, n, "member")
      return { method: "PUT", path: `/v1/projects/p1/members/${id}`, body: { role: "viewer" }, call: use(Members, (m) => m.put("p1", id, "viewer")) }
    }
  },
  {
    name: "DELETE /v1/projects/{p}/members/{u}",
    kind: "management",
    needs: "manage",
    success: 204,
    forKeys: KEYS_CHANGE_NO_MEMBER,
    prepare: async (t, n) => {
      const user = await freshUser(t, n, "unmember")
      // As the operator (the CLI, an Effect host): no key may.
      await t.run(Effect.flatMap(Members, (members) => members.put("p1", user.id, "viewer")))
      return { method: "DELETE", path: `/v1/projects/p1/members/${user.id}`, call: use(Members, (m) => m.remove("p1", user.id)) }
    }
  }
]
