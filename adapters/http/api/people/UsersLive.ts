/**
 * The users handlers (UsersGroup.ts): each a call to the `Users` use case as the signed-in person or
 * key (`mapped`); an invitation or a reset answers the setup link, on this server's base URL.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { setupUrl } from "../../../../src/domain/people/SetupLink.js"
import { Users } from "../../../../src/services/people/Users.js"
import { Authentication } from "../../shared/Authentication.js"
import { serverBase } from "../../shared/PeopleSettings.js"
import { FlagportApi } from "../Api.js"
import { headersOf, peerOf } from "../Auth.js"
import { mapped } from "../Calling.js"

/** The setup link of a token: the public URL, else where this request reached the server. */
const linkOf = (token: string) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const auth = yield* Authentication
    const base = serverBase(auth.people.settings, headersOf(request), peerOf(request)) ?? auth.people.settings.prefix
    return setupUrl(base, token)
  })

export const UsersLive = HttpApiBuilder.group(FlagportApi, "users", (handlers) =>
  handlers
    .handle("list", () => Effect.flatMap(Users, (users) => Effect.map(mapped(users.list()), (data) => ({ data }))))
    .handle("invite", ({ payload }) =>
      Effect.gen(function* () {
        const users = yield* Users
        const invited = yield* mapped(users.invite(payload))
        return { user: invited.user, setupUrl: yield* linkOf(invited.setupToken) }
      })
    )
    .handle("update", ({ path, payload }) => Effect.flatMap(Users, (users) => mapped(users.update(path.id, payload))))
    .handle("unlock", ({ path }) => Effect.flatMap(Users, (users) => mapped(users.unlock(path.id))))
    .handle("allowSsoLink", ({ path }) => Effect.flatMap(Users, (users) => mapped(users.allowSsoLink(path.id))))
    .handle("resetPassword", ({ path }) =>
      Effect.gen(function* () {
        const users = yield* Users
        const reset = yield* mapped(users.resetPassword(path.id))
        return { setupUrl: yield* linkOf(reset.setupToken) }
      })
    )
)
