/**
 * The refusals of docs/guide/people.md, verbatim. Plain data with no imports, so the rules that name them
 * stay plain too (changes/ChangeRequestRuleTable.ts, which the dashboard bundles).
 */
export const PeopleMessages = {
  roleForbids: "Your role in this project does not allow this",
  adminRequired: "Only a global administrator can do this",
  crossSite: "Cross-site request refused",
  /** A session cookie that is unknown, expired, ended, or of a disabled user. */
  sessionEnded: "Your session has ended or expired; sign in again",
  /** `GET /v1/me` and the like: only a person has a "me". */
  sessionRequired: "Sign in first: this needs a session",
  /** A key asked to change a project's members (Permissions.ts, `peopleOnly`). */
  keyChangesMembers: "An API key cannot change a project's members: people are managed by people (project and global administrators)",
  /** A key asked to approve a change request (Permissions.ts, `peopleOnly`). */
  keyApproves: "An API key cannot approve a change request: approvals are people's"
} as const
