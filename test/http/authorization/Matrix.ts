/**
 * The authorization matrix's table, shared by every run of it: the callers, every endpoint, and
 * what each caller gets from each (written from the contract's roles table, not read from the
 * server's). The HTTP runs (../authorization.ts) send each endpoint's request with each caller's
 * credentials; the use-case run (../AuthorizationUseCases.test.ts) makes each endpoint's use case
 * call as each caller, with no HTTP; both expect exactly `expectedFor`.
 */
import { PeopleMessages } from "../../../src/domain/auth/PeopleMessages.js"
import { Messages } from "../../../src/domain/auth/Policy.js"
import { type Endpoint, type Expected, forbidden, notFound, type PersonCredential, ROLE_MAY, unauthorized } from "./Endpoint.js"
import { EVALUATION_ENDPOINTS } from "./EvaluationEndpoints.js"
import { EXPERIMENT_ENDPOINTS } from "./ExperimentEndpoints.js"
import { RELEASE_PLAN_ENDPOINTS } from "./ReleasePlanEndpoints.js"
import { GOVERNANCE_ENDPOINTS } from "./GovernanceEndpoints.js"
import { RESOURCE_ENDPOINTS } from "./ResourceEndpoints.js"
import { SEGMENT_KEY_ENDPOINTS } from "./SegmentKeyEndpoints.js"
import { TOOLING_AND_PEOPLE_ENDPOINTS } from "./ToolingAndPeopleEndpoints.js"

export type Credential =
  | "none"
  | "malformed"
  | "unknown"
  | "client"
  | "scopedOwn"
  | "scopedOther"
  | "global"
  /** Client key of p1 bound to development (the environment every evaluation row names). */
  | "boundClient"
  /** Client and server keys of p1 bound to production. */
  | "boundClientOther"
  | "boundServerOther"
  | PersonCredential

/** A person's session cookie: a role in p1, a global admin, a session that is no (longer a) session, another project's admin. */
export const PERSONS: ReadonlyArray<PersonCredential> = ["viewer", "editor", "projectAdmin", "globalAdmin", "noSession", "disabled", "otherAdmin"]
export const isPerson = (credential: Credential): credential is PersonCredential => (PERSONS as ReadonlyArray<string>).includes(credential)

export const KEY_CREDENTIALS: ReadonlyArray<Credential> = [
  "none",
  "malformed",
  "unknown",
  "client",
  "scopedOwn",
  "scopedOther",
  "global",
  "boundClient",
  "boundClientOther",
  "boundServerOther"
]
export const CREDENTIALS: ReadonlyArray<Credential> = [...KEY_CREDENTIALS, ...PERSONS]

/** Every endpoint of the API, by group. */
export const ENDPOINTS: ReadonlyArray<Endpoint> = [
  ...RESOURCE_ENDPOINTS,
  ...SEGMENT_KEY_ENDPOINTS,
  ...GOVERNANCE_ENDPOINTS,
  ...EXPERIMENT_ENDPOINTS,
  ...RELEASE_PLAN_ENDPOINTS,
  ...EVALUATION_ENDPOINTS,
  ...TOOLING_AND_PEOPLE_ENDPOINTS
]

/**
 * A person by session cookie: the evaluation side does not know cookies (the 401 of a missing
 * key); a cookie that is no session, or a disabled user's, is 401; a global admin may do
 * everything; a member what their role in p1 allows (403 beyond it); another project's admin
 * finds no p1 at all (404, as for a project that does not exist).
 */
const personExpected = (endpoint: Endpoint, credential: PersonCredential): Expected => {
  if (endpoint.kind === "service") return endpoint.success
  if (endpoint.kind === "evaluation") return unauthorized(Messages.malformedHeader)
  if (credential === "noSession" || credential === "disabled") return unauthorized(PeopleMessages.sessionEnded)
  if (credential === "globalAdmin" || endpoint.kind === "me" || endpoint.kind === "projects-list") return endpoint.success
  if (endpoint.kind === "global") return forbidden(PeopleMessages.adminRequired)
  if (credential === "otherAdmin") return notFound("Project 'p1' not found")
  const decided = endpoint.forPerson?.[credential]
  if (decided !== undefined && ROLE_MAY[credential as keyof typeof ROLE_MAY]?.includes(endpoint.needs!)) return decided
  return ROLE_MAY[credential].includes(endpoint.needs!) ? endpoint.success : forbidden(PeopleMessages.roleForbids)
}

/** What `credential` gets from `endpoint`, whichever way it asks. */
export const expectedFor = (endpoint: Endpoint, credential: Credential): Expected => {
  if (endpoint.kind === "service") return endpoint.success
  if (isPerson(credential)) return personExpected(endpoint, credential)
  // `/v1/me` is a person's: a key is no session.
  if (endpoint.kind === "me") return unauthorized(PeopleMessages.sessionRequired)
  switch (credential) {
    case "none":
    case "malformed":
      return unauthorized(Messages.malformedHeader)
    case "unknown":
      return unauthorized(Messages.invalidKey)
    case "client":
      return endpoint.kind === "evaluation" ? endpoint.success : forbidden(Messages.serverKeyRequired)
    case "scopedOwn":
      return endpoint.kind === "global" ? forbidden(Messages.projectMismatch) : endpoint.forKeys ?? endpoint.success
    case "scopedOther":
      return endpoint.kind === "projects-list" ? endpoint.success : forbidden(Messages.projectMismatch)
    case "global":
      return endpoint.forKeys ?? endpoint.success
    case "boundClient":
      return endpoint.kind === "evaluation" ? endpoint.success : forbidden(Messages.serverKeyRequired)
    case "boundClientOther":
      return endpoint.kind === "evaluation" ? forbidden(Messages.environmentMismatch) : forbidden(Messages.serverKeyRequired)
    case "boundServerOther":
      // Binding limits what a key evaluates and which environment's configuration it writes.
      if (endpoint.kind === "evaluation") return forbidden(Messages.environmentMismatch)
      return endpoint.kind === "global" ? forbidden(Messages.projectMismatch) : endpoint.forKeys ?? endpoint.boundServer ?? endpoint.success
  }
}
