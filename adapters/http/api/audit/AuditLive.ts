/** The audit log's handler: a call to the `Audit` use case, which decides who may read what of it. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Audit } from "../../../../src/services/audit/Audit.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const AuditLive = HttpApiBuilder.group(FlagportApi, "audit", (handlers) =>
  handlers.handle("list", ({ path, urlParams }) => Effect.flatMap(Audit, (audit) => mapped(audit.list(path.projectId, urlParams))))
)
