/**
 * The one table of who may do what: every use case operation a caller may ask for, with what it
 * needs of its caller (docs/guide/people.md, "Roles") and how far into a project's environments it
 * reaches (docs/guide/delivery.md, "What a bound server key reads" and "writes"). The use cases
 * look their operation up here and decide with Access.ts, whoever calls them (HTTP, the CLI, an
 * Effect host); the HTTP adapter only authenticates. The dashboard reads the same rows to offer
 * only the controls that can work.
 *
 * Pure data with no imports but types, so the dashboard bundles it as it is (no Effect in the browser).
 */
import type { Permission } from "../people/Grants.js"

/**
 * What an operation needs of its caller:
 * - `Project`: `permission` in the operation's project (a key: its project; a person: their role there);
 * - `ListProjects`: nothing, answered with the projects the caller may see;
 * - `GlobalAdmin`: a global administrator or a global server key: projects, users;
 * - `Operator`: the command line or an Effect host only: global keys.
 */
export type Requirement =
  | { readonly _tag: "Project"; readonly permission: Permission }
  | { readonly _tag: "ListProjects" }
  | { readonly _tag: "GlobalAdmin" }
  | { readonly _tag: "Operator" }

/**
 * How far into the project's environments an operation reaches, which limits a key bound to one
 * environment (people and unbound keys reach every environment):
 * - `project`: nothing of one environment's configuration (environments, segments, members), or an
 *   answer narrowed to the environment the caller sees (EnvironmentView.ts: flags, schedules, change
 *   requests, the audit log, keys);
 * - `environment`: the environments the call names, or the one of the record it acts on (a
 *   schedule, a change request) once read: a bound key only its own (403 `environmentMismatch`);
 *   a call that must name one and names none reaches every one (a manifest's defaults);
 * - `everyRead`: every environment's configuration at once (an export, webhooks): no bound key;
 * - `everyWrite`: what every environment serves (a flag created or deleted, a segment, an
 *   environment created): no bound key (403 `boundKeyWritesEveryEnvironment`);
 * - `newKey` / `revokedKey`: the environment of the key made or revoked: never wider than the caller;
 * - `variations`: a flag's variations, changed only by an unbound caller (Policy.authorizeVariationsWrite);
 * - `plan`: each change of a flags-as-code plan as its own operation would reach (Policy.authorizePlan).
 */
export type Reach = "project" | "environment" | "everyRead" | "everyWrite" | "newKey" | "revokedKey" | "variations" | "plan"

/**
 * What only people may do, whatever a key's scope (a person with the permission, or the operator):
 * - `members`: a project's members are managed by people (its admins, global administrators), so a
 *   key (whose maker may leave) can never give a person, its maker included, a role;
 * - `approvals`: an approval is a person's judgement, and a key would let the author of a request
 *   approve it under a second name.
 */
export type PeopleOnly = "members" | "approvals"

export interface Rule {
  readonly needs: Requirement
  readonly reach: Reach
  /** Set: refused to every key (403), however wide (Access.ts). */
  readonly peopleOnly?: PeopleOnly
}

const rule = (needs: Requirement, reach: Reach = "project"): Rule => ({ needs, reach })
const inProject = (permission: Permission, reach?: Reach): Rule => rule({ _tag: "Project", permission }, reach)
const byPeople = (base: Rule, peopleOnly: PeopleOnly): Rule => ({ ...base, peopleOnly })
const globalAdmin = rule({ _tag: "GlobalAdmin" })
const operatorOnly = rule({ _tag: "Operator" })

export const OPERATIONS = {
  "Projects.list": rule({ _tag: "ListProjects" }),
  "Projects.create": globalAdmin,
  "Projects.get": inProject("read"),

  "Environments.list": inProject("read"),
  // A new environment is one a bound key could neither read nor write.
  "Environments.create": inProject("manage", "everyWrite"),
  "Environments.update": inProject("manage", "environment"),
  // A copy writes flags' targeting into its target, as a targeting write does, and reads its source.
  "EnvironmentCopy.copy": inProject("write", "environment"),

  "Flags.list": inProject("read"),
  "Flags.get": inProject("read"),
  "Flags.targeting": inProject("read", "environment"),
  "Flags.validateTargeting": inProject("read", "environment"),
  // A new flag has a configuration in every environment; a deleted one loses them all.
  "Flags.create": inProject("write", "everyWrite"),
  "Flags.patch": inProject("write", "variations"),
  "Flags.remove": inProject("write", "everyWrite"),
  "Flags.replaceTargeting": inProject("write", "environment"),
  // The import creates flags.
  "FlagdImport.importFlags": inProject("write", "everyWrite"),

  // A segment may be used by the rules of every environment.
  "Segments.list": inProject("read"),
  "Segments.get": inProject("read"),
  "Segments.create": inProject("write", "everyWrite"),
  "Segments.patch": inProject("write", "everyWrite"),
  "Segments.remove": inProject("write", "everyWrite"),
  // A segment's key lists, as the segment itself: every environment's rules may use it.
  "SegmentKeys.read": inProject("read"),
  "SegmentKeys.replace": inProject("write", "everyWrite"),
  "SegmentKeys.change": inProject("write", "everyWrite"),

  "Schedules.list": inProject("read"),
  "Schedules.listPending": inProject("read", "environment"),
  "Schedules.create": inProject("write", "environment"),
  "Schedules.cancel": inProject("write", "environment"),

  // An experiment measures one environment's rule; starting one changes no targeting.
  "Experiments.list": inProject("read"),
  "Experiments.get": inProject("read", "environment"),
  "Experiments.results": inProject("read", "environment"),
  "Experiments.create": inProject("write", "environment"),
  "Experiments.patch": inProject("write", "environment"),
  "Experiments.remove": inProject("write", "environment"),
  "Experiments.start": inProject("write", "environment"),
  "Experiments.stop": inProject("write", "environment"),

  // A release plan ramps one environment's rule; its steps are the scheduler's targeting writes.
  "ReleasePlans.list": inProject("read"),
  "ReleasePlans.get": inProject("read", "environment"),
  "ReleasePlans.guardrails": inProject("read", "environment"),
  "ReleasePlans.create": inProject("write", "environment"),
  "ReleasePlans.update": inProject("write", "environment"),
  "ReleasePlans.remove": inProject("write", "environment"),
  "ReleasePlans.start": inProject("write", "environment"),
  "ReleasePlans.pause": inProject("write", "environment"),
  "ReleasePlans.resume": inProject("write", "environment"),
  "ReleasePlans.cancel": inProject("write", "environment"),

  // Who among those is the author or an approver, and in which status, is the change requests'
  // own table (changes/ChangeRequestRuleTable.ts): cancel is the author's or an admin's, apply the
  // author's or an approver's.
  "ChangeRequests.list": inProject("read"),
  "ChangeRequests.get": inProject("read", "environment"),
  "ChangeRequests.open": inProject("propose", "environment"),
  "ChangeRequests.update": inProject("propose", "environment"),
  "ChangeRequests.approve": byPeople(inProject("approve", "environment"), "approvals"),
  "ChangeRequests.reject": inProject("approve", "environment"),
  "ChangeRequests.cancel": inProject("propose", "environment"),
  "ChangeRequests.apply": inProject("propose", "environment"),

  // The live form of the audit log (each event is a summary of one entry) is `follow`'s.
  "Audit.list": inProject("read", "environment"),
  "Audit.follow": inProject("read"),
  "Insights.series": inProject("read", "environment"),

  // Flags as code: what each change of a plan needs besides (manage for an environment, a global
  // administrator for a new project) is the plan's rule (Policy.authorizePlan).
  "FlagsAsCode.exportFile": inProject("read", "everyRead"),
  "FlagsAsCode.manifest": inProject("read", "environment"),
  "FlagsAsCode.plan": inProject("write", "plan"),
  "FlagsAsCode.apply": inProject("write", "plan"),

  // Webhooks, keys and members are the project admin's (reading them too: a webhook's URL and a
  // key's name are configuration of the project, not of its flags). A webhook receives every
  // environment's changes.
  "Webhooks.list": inProject("manage", "everyRead"),
  "Webhooks.get": inProject("manage", "everyRead"),
  "Webhooks.create": inProject("manage", "everyRead"),
  "Webhooks.patch": inProject("manage", "everyRead"),
  "Webhooks.remove": inProject("manage", "everyRead"),
  "Webhooks.deliveries": inProject("manage", "everyRead"),
  "Webhooks.redeliver": inProject("manage", "everyRead"),

  "ApiKeys.listInProject": inProject("manage"),
  "ApiKeys.create": inProject("manage", "newKey"),
  "ApiKeys.revokeInProject": inProject("manage", "revokedKey"),
  // Global keys (no project) are made, listed and revoked with the command line only.
  "ApiKeys.createGlobal": operatorOnly,
  "ApiKeys.list": operatorOnly,
  "ApiKeys.revoke": operatorOnly,

  "Members.list": inProject("manage"),
  // Keys read the members (an automation may list them) but never change them.
  "Members.put": byPeople(inProject("manage"), "members"),
  "Members.remove": byPeople(inProject("manage"), "members"),

  "Users.list": globalAdmin,
  "Users.get": globalAdmin,
  "Users.invite": globalAdmin,
  "Users.create": globalAdmin,
  "Users.update": globalAdmin,
  "Users.resetPassword": globalAdmin,
  "Users.unlock": globalAdmin,
  "Users.allowSsoLink": globalAdmin
} as const satisfies { readonly [operation: string]: Rule }

/** An operation a caller may ask a use case for, named `Service.method`. */
export type Operation = keyof typeof OPERATIONS

/** What `operation` needs and reaches. */
export const ruleOf = (operation: Operation): Rule => OPERATIONS[operation]
