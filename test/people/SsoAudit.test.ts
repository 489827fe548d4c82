/**
 * A first single sign-on makes the account; the audit log credits the new person themselves
 * (`{ type: "user", userId, email }`), not the command line, on every storage.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Audit } from "../../src/services/audit/Audit.js"
import { SignIn } from "../../src/services/people/SignIn.js"
import { freshStorage } from "../fixtures/databases.js"
import { fresh, givenProject } from "./fixtures.js"

describe.each(["memory", "sqlite", "postgres"] as const)("a first single sign-on's audit entries (%s)", (backend) => {
  layer(freshStorage(backend), { timeout: 60_000 })((it) => {
    it.effect("user.created and member.put are by the new person", () =>
      Effect.gen(function* () {
        const projectId = yield* givenProject
        const email = `First.${fresh()}@corp.example`
        const user = yield* (yield* SignIn).withSso({ issuer: "https://id.example.com", subject: `sub-${email}`, email, emailVerified: true, name: "First" }, { allowedDomains: [], defaultRole: "viewer" })
        const page = yield* (yield* Audit).list(projectId, { resourceKey: user.id })
        expect(page.data.map((e) => [e.action, e.actor]).sort()).toEqual([
          ["member.put", { type: "user", userId: user.id, email }],
          ["user.created", { type: "user", userId: user.id, email }]
        ])
      }))
  })
})
