/** The declarations of users: the people who sign in, managed by global administrators (docs/guide/people.md). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Text } from "../../../../src/domain/definitions/Text.js"
import { documentName } from "../../../../src/domain/DocumentName.js"
import { Membership } from "../../../../src/domain/people/Role.js"
import { Email } from "../../../../src/domain/people/User.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, described } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { TopLevelAuth } from "../Security.js"
import { UserDoc } from "./PeopleDocs.js"

const id = HttpApiSchema.param("id", Text)

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

export const SsoLinkAllowance = Schema.Struct({
  user: UserDoc,
  expiresAt: Schema.String.annotations({ description: "When the allowance lapses unspent (72 h after it was given)." })
}).annotations({ ...documentName("SsoLinkAllowance") })

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
    "Changes the name, the global administrator flag or whether the user is disabled (disabling ends their sessions at once). A global administrator cannot remove their own flag or disable themselves (409), and no change may leave no enabled global administrator (409, decided inside the write, so two administrators demoting or disabling each other at once leave one)."
  ))
  .add(described(
    HttpApiEndpoint.post("resetPassword")`/v1/users/${id}/reset-password`.addSuccess(SetupLink).addError(Errors.NotFound),
    "Reset a user's password",
    "Removes the password, ends the user's sessions and answers a new setup link (72 h, once)."
  ))
  .add(described(
    HttpApiEndpoint.post("unlock")`/v1/users/${id}/unlock`.addSuccess(UserDoc).addError(Errors.NotFound),
    "Clear a user's failed sign-ins",
    "Forgets the user's failed password sign-ins from every address, so neither the per-address limit (429) nor the per-email slow-down holds them back any more; answers the user. Their password, sessions and setup links are unchanged."
  ))
  .add(described(
    HttpApiEndpoint.post("allowSsoLink")`/v1/users/${id}/allow-sso-link`.addSuccess(SsoLinkAllowance).addError(Errors.NotFound).addError(Errors.Conflict),
    "Allow a user's next single sign-on to link their account",
    "Single sign-on links an existing account by its email only when it was never linked and is not a global administrator's. This allows the user's next single sign-on with their email, within 72 hours, to link the account anyway (replacing the identities linked before; the person's identity at the provider changed, or a global administrator moves to single sign-on); the link spends it. Audited as `user.sso_link_allowed`, the link as `user.sso_linked`. 409 for an account at localhost, which is never linked."
  ))
  .middleware(TopLevelAuth)
  .annotate(OpenApi.Description, "Users: the people who sign in (global administrators only).") {}
