/**
 * The declarations of signing in and out (docs/guide/people.md): with a password, with the setup of an
 * invitation or reset link, and the sign-in page's providers. Outside the management table: their
 * own middleware (SignInBodyChecks) checks the bodies, and none authenticates.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { documentName } from "../../../../src/domain/DocumentName.js"
import { PASSWORD_MAX_LENGTH } from "../../../../src/domain/people/PasswordRule.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { SignInBodyChecks } from "../Security.js"
import { SignedInDoc } from "./PeopleDocs.js"

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

const UNDER_LOAD = "Each client address has a budget of attempts (sign-ins and setups together; a successful sign-in gives its attempt back): beyond it, 429 with `Retry-After`. When too many passwords are being hashed at once, 503 with `Retry-After: 1`."

const SIGNED_IN = "Answers the person with their memberships and sets the session cookie `flagport_session` (HttpOnly, SameSite=Lax, Path=/; `__Host-flagport_session` and Secure when the public URL is https), and the device cookie `flagport_device` (90 days, HttpOnly, SameSite=Strict, the same prefix and Secure): a later sign-in as the same person presenting it hashes in a lane a flood without it cannot fill. It opens nothing by itself; the answers are the same with or without it."

export class AuthGroup extends HttpApiGroup.make("auth")
  .add(described(
    HttpApiEndpoint.post("login", "/v1/auth/login").setPayload(LoginInput).addSuccess(SignedInDoc)
      .addError(Errors.BadRequest)
      .addError(Errors.Unauthorized)
      .addError(Errors.SignInLimited)
      .addError(Errors.ForbiddenError)
      .addError(Errors.Unavailable)
      .middleware(SignInBodyChecks),
    "Sign in with email and password",
    `${SIGNED_IN} A wrong password, an unknown email and a disabled user all get the same 401 "Invalid email or password". After 10 failures for one email from one client address within 15 minutes, 429 with \`Retry-After\` from that address until the window passes, even with the right password; after 10 from all addresses together, each attempt with the email waits 2 s first (never refused for it). A global admin clears the failures: \`POST /v1/users/{id}/unlock\`. ${UNDER_LOAD} 403 for a browser's request from another origin.`
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
      .addError(Errors.SignInLimited)
      .addError(Errors.Unavailable)
      .middleware(SignInBodyChecks),
    "Set a password with a setup link",
    `Sets the password of the token's user (from an invitation or a reset), spends the token and signs in. ${SIGNED_IN} An unknown, spent or expired token: 400 "Setup link is invalid or has expired" (looked up before any hashing). ${UNDER_LOAD}`
  ))
  .add(described(
    HttpApiEndpoint.get("providers", "/v1/auth/providers").addSuccess(Providers),
    "How people sign in here",
    "`password` is always true; `oidc` names the single sign-on button when OpenID Connect is configured (FLAGPORT_OIDC_*), else null."
  ))
  .annotate(OpenApi.Description, "Signing in and out (people; keys need none of this).") {}
