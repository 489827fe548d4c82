/**
 * The audit log's handler. A key bound to an environment reads the entries of its environment and
 * those of no environment (a flag's name, a segment), flags showing its configuration only; the
 * log of another environment is 403 (EnvironmentView.ts).
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { auditEntrySeen } from "../../../../src/domain/auth/EnvironmentView.js"
import { Audit } from "../../../../src/services/audit/Audit.js"
import { FlagportApi } from "../Api.js"
import { mapped, mayRead, seenEnvironment } from "../Calling.js"

export const AuditLive = HttpApiBuilder.group(FlagportApi, "audit", (handlers) =>
  handlers.handle("list", ({ path, urlParams }) =>
    Effect.gen(function* () {
      if (urlParams.environment !== undefined) yield* mayRead(urlParams.environment)
      const seen = yield* seenEnvironment
      const page = yield* Effect.flatMap(Audit, (audit) => mapped(audit.list(path.projectId, urlParams)))
      // A bound key's page leaves other environments' entries out: it may hold fewer than `limit` (follow `nextCursor`).
      return seen === null ? page : { ...page, data: page.data.flatMap((entry) => auditEntrySeen(seen, entry) ?? []) }
    }))
)
