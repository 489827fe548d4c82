/** The members handlers (MembersGroup.ts): each a call to the `Members` use case as the signed-in person or key (`mapped`). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Members } from "../../../../src/services/people/Members.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const MembersLive = HttpApiBuilder.group(FlagportApi, "members", (handlers) =>
  handlers
    .handle("list", ({ path }) => Effect.flatMap(Members, (members) => Effect.map(mapped(members.list(path.projectId)), (data) => ({ data }))))
    .handle("put", ({ path, payload }) => Effect.flatMap(Members, (members) => mapped(members.put(path.projectId, path.userId, payload.role))))
    .handle("remove", ({ path }) => Effect.flatMap(Members, (members) => mapped(members.remove(path.projectId, path.userId))))
)
