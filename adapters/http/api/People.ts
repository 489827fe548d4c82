/**
 * The declarations of people (docs/guide/people.md): signing in and out, the setup of an invitation or
 * reset link, the sign-in page's providers, the signed-in person (`/v1/me`), users (global admins)
 * and a project's members (its admins). Routes outside the management table (sign-in, `/v1/me`)
 * are decided by their own middlewares or none.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { Text } from "../../../src/domain/definitions/Text.js"
import { documentName } from "../../../src/domain/DocumentName.js"
import { Member } from "../../../src/domain/people/Member.js"
import { Membership, Role } from "../../../src/domain/people/Role.js"
import { PASSWORD_MAX_LENGTH } from "../../../src/domain/people/PasswordRule.js"
import { Email, User, UserWithMemberships } from "../../../src/domain/people/User.js"
import { strict } from "../shared/EvaluationRequests.js"
import * as Errors from "../shared/Errors.js"
import { Created, dataOf, described, projectId } from "./Declaring.js"
import * as Examples from "./Examples.js"
import { ManagementAuth, SessionAuth, SignInBodyChecks, TopLevelAuth } from "./Security.js"

export const userId = HttpApiSchema.param("userId", Text)
export const id = HttpApiSchema.param("id", Text)

// The resources with their examples: one instance of each, so every operation refers to one component.
const UserDoc = User.annotations({ examples: [Examples.edna] })
// Built from UserDoc (not the domain's UserWithMemberships and Member, whose User has no
// example), so the one User component of the document carries its example.
const SignedInDoc = Schema.Struct({ ...UserWithMemberships.fields, user: UserDoc }).annotations({ ...documentName("Me"), examples: [Examples.signedIn] })
const MemberDoc = Schema.Struct({ ...Member.fields, user: UserDoc }).annotations({ ...documentName("Member"), examples: [Examples.member] })

/** Longer passwords are refused before any hashing (the hash's cost grows with the input). */
const PasswordText = Schema.String.pipe(Schema.maxLength(PASSWORD_MAX_LENGTH))

export const LoginInput = strict(Schema.Struct({
  email: Schema.String.pipe(Schema.maxLength(320)),
  password: PasswordText
}).annotations({ ...documentName("LoginInput"), examples: [Examples.login] }))

export const SetupInput = strict(Schema.Struct({
  token: Schema.String.pipe(Schema.maxLength(256)),
  password: PasswordText
}).annotations({ ...documentName("SetupInput"), examples: [Examples.setup] }))

export const Providers = Schema.Struct({
  password: Schema.Literal(true),
  oidc: Schema.NullOr(Schema.Struct({ name: Schema.String }))
}).annotations({ ...documentName("SignInProviders"), examples: [Examples.providers] })

export const InviteUserInput = strict(Schema.Struct({
  email: Email,
  name: Schema.optional(Text.pipe(Schema.maxLength(200))),
  admin: Schema.optional(Schema.Boolean),
  projects: Schema.optional(Schema.Array(Membership))
}).annotations({ ...documentName("InviteUserInput"), examples: [Examples.inviteUser] }))

export const PatchUserInput = strict(Schema.Struct({
  name: Schema.optional(Text.pipe(Schema.maxLength(200))),
  admin: Schema.optional(Schema.Boolean),
  disabled: Schema.optional(Schema.Boolean)
}).annotations({ ...documentName("PatchUserInput"), examples: [Examples.patchUser] }))

export const SetupLink = Schema.Struct({
  setupUrl: Schema.String.annotations({ description: "`<public URL>/ui/setup#token=<one-time token>`: valid 72 h, usable once. There is no mail: pass it on." })
}).annotations({ ...documentName("SetupLink"), examples: [Examples.setupLink] })

export const InvitedUser = Schema.Struct({
  user: UserDoc,
  setupUrl: SetupLink.fields.setupUrl
}).annotations({ ...documentName("InvitedUser"), examples: [Examples.invitedUser] })

export const MemberInput = strict(Schema.Struct({ role: Role }).annotations({ ...documentName("MemberInput"), examples: [Examples.memberRole] }))

const SIGNED_IN = "Answers the person with their memberships and sets the session cookie `flagport_session` (HttpOnly, SameSite=Lax, Path=/; `__Host-flagport_session` and Secure when the public URL is https)."

export class AuthGroup extends HttpApiGroup.make("auth")
  .add(described(
    HttpApiEndpoint.post("login", "/v1/auth/login").setPayload(LoginInput).addSuccess(SignedInDoc)
      .addError(Errors.BadRequest)
      .addError(Errors.Unauthorized)
      .addError(Errors.SignInLimited)
      .addError(Errors.ForbiddenError)
      .middleware(SignInBodyChecks),
    "Sign in with email and password",
    `${SIGNED_IN} A wrong password, an unknown email and a disabled user all get the same 401 "Invalid email or password". After 10 failures for one email within 15 minutes, 429 with \`Retry-After\` until the window passes, even with the right password. 403 for a browser's request from another origin.`
  ))
  .add(described(
    HttpApiEndpoint.post("logout", "/v1/auth/logout").addSuccess(HttpApiSchema.NoContent).addError(Errors.ForbiddenError),
    "Sign out",
    "Ends the session of the cookie on the server (it then works nowhere) and removes the cookie; 204 also without a session. 403 for a browser's request from another origin."
  ))
  .add(described(
    HttpApiEndpoint.post("setup", "/v1/auth/setup").setPayload(SetupInput).addSuccess(SignedInDoc)
      .addError(Errors.BadRequest)
      .addError(Errors.ForbiddenError)
      .middleware(SignInBodyChecks),
    "Set a password with a setup link",
    `Sets the password of the token's user (from an invitation or a reset), spends the token and signs in. ${SIGNED_IN} An unknown, spent or expired token: 400 "Setup link is invalid or has expired".`
  ))
  .add(described(
    HttpApiEndpoint.get("providers", "/v1/auth/providers").addSuccess(Providers),
    "How people sign in here",
    "`password` is always true; `oidc` names the single sign-on button when OpenID Connect is configured (FLAGPORT_OIDC_*), else null."
  ))
  .annotate(OpenApi.Description, "Signing in and out (people; keys need none of this).") {}

export class MeGroup extends HttpApiGroup.make("me")
  .add(described(
    HttpApiEndpoint.get("me", "/v1/me").addSuccess(SignedInDoc),
    "The signed-in person",
    "The person of the session cookie with their memberships (`[{ projectId, role }]`); 401 without a session (an API key has no person)."
  ))
  .middleware(SessionAuth)
  .annotate(OpenApi.Description, "The signed-in person.") {}

export class UsersGroup extends HttpApiGroup.make("users")
  .add(described(
    HttpApiEndpoint.get("list", "/v1/users").addSuccess(dataOf(UserDoc)),
    "List users",
    "Every user, disabled ones included. Global administrators (or a global server key) only."
  ))
  .add(described(
    HttpApiEndpoint.post("invite", "/v1/users").setPayload(InviteUserInput).addSuccess(Created(InvitedUser))
      .addError(Errors.Conflict)
      .addError(Errors.NotFound),
    "Invite a person",
    "Makes the user (no password yet) with the memberships given and answers a setup link (72 h, once) for them to choose a password. 409 when the email is taken (compared case-insensitively), 404 for an unknown project."
  ))
  .add(described(
    HttpApiEndpoint.patch("update")`/v1/users/${id}`.setPayload(PatchUserInput).addSuccess(UserDoc)
      .addError(Errors.Conflict)
      .addError(Errors.NotFound),
    "Change a user",
    "Changes the name, the global administrator flag or whether the user is disabled (disabling ends their sessions at once). A global administrator cannot remove their own flag or disable themselves (409)."
  ))
  .add(described(
    HttpApiEndpoint.post("resetPassword")`/v1/users/${id}/reset-password`.addSuccess(SetupLink).addError(Errors.NotFound),
    "Reset a user's password",
    "Removes the password, ends the user's sessions and answers a new setup link (72 h, once)."
  ))
  .middleware(TopLevelAuth)
  .annotate(OpenApi.Description, "Users: the people who sign in (global administrators only).") {}

export class MembersGroup extends HttpApiGroup.make("members")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/members`.addSuccess(dataOf(MemberDoc)),
    "List a project's members",
    "Every member of the project with their role. Project admins and global administrators."
  ))
  .add(described(
    HttpApiEndpoint.put("put")`/v1/projects/${projectId}/members/${userId}`.setPayload(MemberInput).addSuccess(MemberDoc),
    "Add a member or change their role",
    "Makes the user a member of the project with the role (`viewer`, `editor` or `admin`), or changes their role."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/members/${userId}`.addSuccess(HttpApiSchema.NoContent),
    "Remove a member",
    "The user is no longer a member of the project; removing their last membership ends their sessions."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Members of a project and their roles (viewer, editor, admin).") {}
