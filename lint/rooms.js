/**
 * The rooms of the tree, declared once: every folder of src/ and adapters/ is a room or a folder
 * inside one, and each room names the rooms it may import. This list drives:
 * - the lint rule `rooms/one-way` (eslint.config.js): a relative import that lands in another room
 *   not on the importing room's list fails `npm run lint`;
 * - the rooms table of docs/internals/architecture.md (`docsTable()`);
 * - test/boundary/Rooms.test.ts: the table in the docs is this one, every folder on disk is in it,
 *   the files keep it, and every arrow it allows is one the code uses (an unused permission is
 *   drift too).
 *
 * A new folder: a row here (or its name in its room's `folders`), then `UPDATE_GOLDEN=1 npx vitest
 * run test/boundary/Rooms.test.ts` rewrites the docs table. `src/**` stands for every room of the
 * core (every adapter may use it); `X/**` for X and every room under it.
 *
 * Plain JavaScript with no dependency, because eslint.config.js loads it (lint/rooms.d.ts types it
 * for the tests).
 */
import { dirname, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** @type {ReadonlyArray<{ room: string, folders?: ReadonlyArray<string>, holds: string, mayImport: ReadonlyArray<string> }>} */
export const ROOMS = [
  // The core: no adapter, no @effect/platform*, no @effect/sql*, no Node module (eslint.config.js, `boundary`).
  {
    room: "src/domain",
    holds: "what every domain room shares: errors (`Errors.ts`, `NotFound.ts`), every size limit once (`Limits.ts`), `Base64.ts`, `JsonRecord.ts`, `DocumentName.ts`",
    mayImport: []
  },
  {
    room: "src/domain/tracing",
    holds: "W3C trace context (`TraceParent.ts`), for webhooks, the evaluation lane and telemetry alike",
    mayImport: []
  },
  {
    room: "src/domain/conditions",
    holds: "the operator table (`OperatorTable.ts`), dates, semver, RE2 regular expressions (`Re2.ts`)",
    mayImport: ["src/domain"]
  },
  {
    room: "src/domain/definitions",
    holds: "flags, targeting, segments, projects, environments, ids, and their validation",
    mayImport: ["src/domain", "src/domain/conditions"]
  },
  {
    room: "src/domain/evaluation",
    folders: ["jit"],
    holds: "the compiler (`Compile.ts`) and the compiled form (`Compiled.ts`), operators, bucketing (`Murmur3.ts`, `Bucketing.ts`), the evaluator (`Evaluator.ts`), explain, the `Evaluate` namespace (`Evaluate.ts`), `ConfigSnapshot.ts`; attribute readers and `evaluateAll`'s record generated at run time (`jit/`)",
    mayImport: ["src/domain", "src/domain/conditions", "src/domain/definitions"]
  },
  {
    room: "src/domain/codegen",
    holds: "the TypeScript module of `flagport codegen` (`TypeScriptModule.ts`)",
    mayImport: ["src/domain/definitions"]
  },
  {
    room: "src/domain/ascode",
    holds: "flags as code: the project file's schema (`ProjectFile.ts`) and its JSON Schema, export, validation with paths in the file, the plan and its text and who may apply it (`PlanAccess.ts`, by the permission table's rules), the plan against a person's pending change requests (`PendingProposals.ts`), release plans' definitions in the file (`FileReleasePlans.ts`), the OpenFeature manifest",
    mayImport: ["src/domain", "src/domain/auth", "src/domain/changes", "src/domain/definitions", "src/domain/experiments", "src/domain/releaseplans"]
  },
  {
    room: "src/domain/flagd",
    holds: "the flagd import's translation: a flagd file to flag and targeting bodies or refusals, the condition table, `fractional` as a rollout, alternatives joined into groups, the docs tables",
    mayImport: ["src/domain", "src/domain/conditions", "src/domain/definitions", "src/domain/evaluation"]
  },
  {
    room: "src/domain/insights",
    holds: "evaluation insights: report and series schemas, hour buckets, the in-memory `EvaluationCounter`, `lastEvaluatedAt` and the stale rule (`Usage.ts`)",
    mayImport: ["src/domain", "src/domain/definitions", "src/domain/evaluation"]
  },
  {
    room: "src/domain/audit",
    holds: "the actor of a write (`Actor.ts`, `CurrentActor`), audit entries and their filters, the read query, page and cursor (`AuditPage.ts`)",
    mayImport: ["src/domain", "src/domain/definitions"]
  },
  {
    room: "src/domain/people",
    holds: "people: users, memberships, roles and the grants table (`Grants.ts`, plain for the dashboard), sessions, setup links, the sign-in limit",
    mayImport: ["src/domain", "src/domain/definitions"]
  },
  {
    room: "src/domain/auth",
    holds: "API keys (`ApiKey.ts`), the permission table (`Permissions.ts`), the access policy (`Policy.ts`, `Access.ts`)",
    mayImport: ["src/domain", "src/domain/audit", "src/domain/definitions", "src/domain/people"]
  },
  {
    room: "src/domain/schedules",
    holds: "scheduled changes: the schedule's schemas, its stored targeting and why a schedule fails (`Schedule.ts`)",
    mayImport: ["src/domain", "src/domain/audit", "src/domain/definitions"]
  },
  {
    room: "src/domain/changes",
    holds: "protected environments and change requests: the protection rule (`ProtectionRule.ts`, plain for the dashboard), who may do what in which status (`ChangeRequestRuleTable.ts`), approvals that still count, a release plan's start or resume a request carries (`PlanChange.ts`)",
    mayImport: ["src/domain", "src/domain/audit", "src/domain/auth", "src/domain/definitions", "src/domain/people", "src/domain/releaseplans", "src/domain/schedules"]
  },
  {
    room: "src/domain/experiments",
    holds: "experiments: the record, its metrics and analysis (`Experiment.ts`), what a create or a patch makes and the rule a flag must have for one (`ExperimentRules.ts`), exposures and what each may claim (`Exposure.ts`), the results' shape (`Results.ts`) and how they are made from the stored sums and the flag's audit entries (`ResultsOf.ts`), a release plan's guardrail check on the same engine (`Guardrail.ts`)",
    mayImport: ["src/domain", "src/domain/audit", "src/domain/definitions", "src/domain/experiments/statistics", "src/domain/insights"]
  },
  {
    room: "src/domain/experiments/statistics",
    holds: "the statistics of experiment results, pure and total, on sufficient statistics (n, sum, sum of squares): Welch's t test, the relative lift by the delta method, the Bayesian normal approximation, the always-valid confidence sequence, CUPED, the sample-ratio check, goal-aware verdicts; the distribution functions come from stdlib (`Distributions.ts`)",
    mayImport: []
  },
  {
    room: "src/domain/releaseplans",
    holds: "release plans: the plan, its steps and guardrails (`ReleasePlan.ts`), the table of rules a plan must satisfy (`PlanRules.ts`), its statuses and transitions (`Transitions.ts`), a step as a rule's rollout (`ApplyStep.ts`)",
    mayImport: ["src/domain", "src/domain/audit", "src/domain/definitions", "src/domain/experiments"]
  },
  {
    room: "src/domain/webhooks",
    holds: "webhook records, events and payloads, signing, the retry schedule, destination rules",
    mayImport: ["src/domain", "src/domain/changes", "src/domain/definitions", "src/domain/experiments", "src/domain/releaseplans"]
  },
  {
    room: "src/ports",
    holds: "narrow Effect tags: one repository per entity, `Transactor`, `ChangeFeed`, `Crypto`, `IdGenerator`, `EventOutbox`, `AuditLog`, `WebhookTransport`, `StorageHealth`, `StreamSecret`...",
    mayImport: ["src/domain/**"]
  },
  {
    room: "src/services",
    folders: ["projects", "flags", "segments", "changes", "schedules", "people", "auth", "evaluation", "webhooks", "ascode", "flagd", "insights", "audit", "operations", "experiments", "releaseplans", "shared"],
    holds: "the use cases, over the ports only, one folder per feature as in `src/domain`, each use case beside its helpers; `shared/` holds what the features share: `Writes.ts` (the one write path: revision bump, outbox, audit entry, the change announced after commit), the protected-environment guard, the clock, the project lookup; `UseCases.ts` builds them all",
    mayImport: ["src/domain/**", "src/ports"]
  },
  {
    room: "src",
    holds: "`index.ts`, the `flagport` entry: the evaluator, the domain's schemas, the ports and the use cases' tags, for hosts",
    mayImport: ["src/**"]
  },

  // The adapters: each may import the core; these lists say which other adapters.
  {
    room: "adapters/change-feed",
    holds: "the in-process change feed (`InProcessChangeFeed.ts`)",
    mayImport: ["src/**"]
  },
  {
    room: "adapters/crypto",
    holds: "`node:crypto` behind the `Crypto` port",
    mayImport: ["src/**"]
  },
  {
    room: "adapters/memory",
    holds: "every port in memory (`MemoryDb.ts` is the transactor)",
    mayImport: ["adapters/change-feed", "src/**"]
  },
  {
    room: "adapters/settings",
    holds: "settings several rooms read: `FLAGPORT_PUBLIC_URL` (`PublicUrl.ts`), for the HTTP adapter, single sign-on and the CLI",
    mayImport: ["src/**"]
  },
  {
    room: "adapters/metrics",
    holds: "Prometheus metrics: the instruments, the evaluation lane's preallocated cells, the pool's use, `GET /metrics`",
    mayImport: ["src/**"]
  },
  {
    room: "adapters/sql",
    folders: ["decoding", "migrations", "transfer"],
    holds: "every storage port in SQL, one implementation for both databases; rows decoded by compiled Schemas, a reload decoding only what changed (`decoding/`); the migrations (`migrations/`); copying a database to another backend (`transfer/`)",
    mayImport: ["src/**"]
  },
  {
    room: "adapters/sql-sqlite",
    folders: ["worker"],
    holds: "the SQLite client (better-sqlite3 on worker threads, group commit: `worker/`) and its change feed, the file watch (`SqliteChangeFeed.ts`)",
    mayImport: ["adapters/change-feed", "adapters/metrics", "adapters/sql", "src/**"]
  },
  {
    room: "adapters/sql-pg",
    holds: "the PostgreSQL pool and its change feed, LISTEN/NOTIFY (`PgChangeFeed.ts`)",
    mayImport: ["adapters/change-feed", "adapters/metrics", "src/**"]
  },
  {
    room: "adapters/storage",
    holds: "the backend switch: `DatabaseUrl.ts` parses `DATABASE_URL`, `Ports.ts` builds every port for it, `Transfer.ts` moves a database between backends",
    mayImport: ["adapters/change-feed", "adapters/crypto", "adapters/memory", "adapters/sql", "adapters/sql-pg", "adapters/sql-sqlite", "src/**"]
  },
  {
    room: "adapters/webhook-http",
    holds: "the Standard Webhooks sender behind `WebhookTransport`",
    mayImport: ["src/**"]
  },
  {
    room: "adapters/app",
    holds: "the composition root: `Composition.ts` builds the use cases over the ports (plus the configured `Webhooks` and `Insights`), `Workers.ts` chooses the background workers; the server, the mounted handlers, the CLI and `flagport/storage` take the app from here",
    mayImport: ["adapters/memory", "adapters/storage", "adapters/webhook-http", "src/**"]
  },
  {
    room: "adapters/telemetry",
    folders: ["lane"],
    holds: "OpenTelemetry traces from the `OTEL_*` variables (`Tracing.ts`, the SDK loaded on demand by `TracingSdk.ts`), the evaluation lane's spans recorded off the SDK and encoded on a worker thread (`lane/`), diag logging",
    mayImport: ["src/**"]
  },
  {
    room: "adapters/http/shared",
    holds: "what every HTTP room needs: the error envelope (`Errors.ts`), body limits, `Authentication.ts` and its key cache, the `EvaluationLaneService` tag, the one hub of open server-sent-event streams both kinds stand on (`SseHub.ts`) and their limits, the session cookie, a request's origin and trusted proxies",
    mayImport: ["adapters/settings", "src/**"]
  },
  {
    room: "adapters/oidc",
    holds: "single sign-on's OpenID Connect client and settings (`OidcClient.ts`, `OidcSettings.ts`)",
    mayImport: ["adapters/settings", "src/**"]
  },
  {
    room: "adapters/http/api",
    folders: ["projects", "environments", "flags", "segments", "changes", "schedules", "people", "keys", "webhooks", "ascode", "codegen", "flagd", "evaluation", "insights", "audit", "events", "experiments", "releaseplans", "health"],
    holds: "the HttpApi declaration (`Api.ts` assembles the groups) and its handlers (`HandlersLive.ts` merges them), a folder per feature with each group's declaration beside its handlers (`flags/FlagsGroup.ts`, `flags/FlagsLive.ts`, ...), auth middlewares, the OpenAPI document, the management events stream (`events/`)",
    mayImport: ["adapters/http/shared", "adapters/oidc", "src/**"]
  },
  {
    room: "adapters/http/lane",
    holds: "the evaluation lane, the evaluation routes answered by plain functions: the route table (`Routes.ts`), `EvaluationLane.ts`, `SnapshotCache.ts`, `FastDecode.ts`, `ResultJson.ts`, OFREP, the change streams",
    mayImport: ["adapters/http/shared", "adapters/metrics", "adapters/settings", "src/**"]
  },
  {
    room: "adapters/http/signin",
    holds: "single sign-on's two browser routes, plain redirects beside the API (`OidcRoutes.ts`)",
    mayImport: ["adapters/http/shared", "adapters/oidc", "src/**"]
  },
  {
    room: "adapters/http/serving",
    holds: "the transports: `App.ts` (the HTTP layers over the app), `Server.ts` (the standalone server), `Embed.ts` (node and web handlers for hosts), `HostMiddleware.ts` (what the handlers add, as an Effect middleware for hosts serving `layer()`), request tracing, metrics and logs",
    mayImport: ["adapters/app", "adapters/http/api", "adapters/http/lane", "adapters/http/shared", "adapters/http/signin", "adapters/metrics", "adapters/oidc", "adapters/telemetry", "src/**"]
  },
  {
    room: "adapters/cli",
    folders: ["commands"],
    holds: "the `flagport` command: parsing, help pages, output, the first start; one file per command in `commands/`",
    mayImport: ["adapters/app", "adapters/http/serving", "adapters/http/shared", "adapters/settings", "adapters/sql", "adapters/storage", "src/**"]
  },
  {
    room: "adapters/client",
    holds: "the SDK (`flagport/client`, also `@flagport/client`): evaluates in the application from `GET /v1/config`, kept fresh by polling or streaming; no Effect except its Effect face (`FlagportClient.ts`), no `node:*`",
    mayImport: ["src/domain", "src/domain/conditions", "src/domain/definitions", "src/domain/evaluation"]
  },
  {
    room: "adapters/openfeature",
    holds: "the OpenFeature provider over the SDK",
    mayImport: ["adapters/client"]
  },
  {
    room: "adapters/testing",
    holds: "`flagport/testing`: fast-check arbitraries for snapshots, flags and contexts",
    mayImport: ["src/domain/definitions", "src/domain/evaluation"]
  }
]

/** The repository's root (this file is in lint/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")

const byName = new Map(ROOMS.map((row) => [row.room, row]))

/** The room a repository-relative path (with `/`) lies in: the deepest room that contains it, or undefined. */
export const roomOf = (path) => {
  let found
  for (const { room } of ROOMS) {
    if ((path === room || path.startsWith(`${room}/`)) && (found === undefined || room.length > found.length)) found = room
  }
  return found
}

/** Whether room `from` may import room `to` (itself always). */
export const allows = (from, to) =>
  from === to ||
  (byName.get(from)?.mayImport ?? []).some((entry) =>
    entry.endsWith("/**") ? to === entry.slice(0, -3) || to.startsWith(entry.slice(0, -2)) : entry === to
  )

/** The Markdown table of docs/internals/architecture.md, generated from ROOMS. */
export const docsTable = () =>
  [
    "| room | what lives there | may import |",
    "|---|---|---|",
    ...ROOMS.map(({ room, folders, holds, mayImport }) => {
      const name = `\`${room}\`${folders ? ` (with ${folders.map((folder) => `\`${folder}/\``).join(", ")})` : ""}`
      const imports = mayImport.length === 0 ? "nothing else in the tree" : mayImport.map((entry) => `\`${entry}\``).join(", ")
      return `| ${name} | ${holds} | ${imports} |`
    })
  ].join("\n")

/** A repository-relative path with `/`, or undefined outside the repository. */
const inRepository = (absolute) => {
  const path = relative(ROOT, absolute).split("\\").join("/")
  return path.startsWith("..") ? undefined : path
}

/**
 * The ESLint rule: every relative import (`import`, `export ... from`, `import()`, type-only ones
 * and `import("...")` types too) that lands in a room the importing file's room may not import is reported.
 */
const oneWay = {
  meta: { type: "problem", schema: [], docs: { description: "rooms import one way (lint/rooms.js)" } },
  create(context) {
    const file = inRepository(context.filename)
    const from = file === undefined ? undefined : roomOf(file)
    if (from === undefined) return {}
    const check = (node) => {
      const source = node.source ?? node.argument?.literal
      const spec = source?.value
      if (typeof spec !== "string" || !spec.startsWith(".")) return
      const target = inRepository(resolve(dirname(context.filename), spec))
      const to = target === undefined ? undefined : roomOf(target)
      if (to !== undefined && !allows(from, to)) {
        context.report({
          node: source,
          message: `${from} must not import ${to}: rooms import one way (the table in lint/rooms.js and docs/internals/architecture.md).`
        })
      }
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check, TSImportType: check }
  }
}

/** The plugin eslint.config.js registers as `rooms`. */
export const plugin = { rules: { "one-way": oneWay } }
