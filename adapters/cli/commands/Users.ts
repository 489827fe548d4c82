import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ResourceNotFound } from "../../../src/domain/Errors.js"
import { normalizeEmail, type User } from "../../../src/domain/people/User.js"
import { Users } from "../../../src/services/people/Users.js"
import { InputUnusable, readStdin } from "../InputFile.js"
import * as Shared from "../Options.js"
import { printJson, printLines, printTable } from "../Output.js"
import { commandPublicUrl, setupUrlLine } from "../PublicAddress.js"
import { setupUrl } from "../../../src/domain/people/SetupLink.js"
import * as Storage from "../Storage.js"
import { UsageError } from "../UsageError.js"
import { whole } from "../Progress.js"

/**
 * People from the command line (docs/guide/people.md): for the first admin of a server, automation, and
 * getting back in when nobody can sign in. The CLI acts as `cli` in the audit log.
 */

const email = Options.text("email").pipe(Options.withPseudoName("EMAIL"), Options.withDescription("The person's email address (unique, compared case-insensitively)."))

const admin = Options.boolean("admin").pipe(Options.withDescription("A global administrator: every project, users, projects, global keys."))

const passwordStdin = Options.boolean("password-stdin").pipe(
  Options.withDescription("Read the password from standard input (12 to 1,024 characters; one trailing newline is dropped) instead of printing a setup link.")
)

const who = Args.text({ name: "ID|EMAIL" }).pipe(Args.withDescription("The user's id, as shown by `users list`, or their email address."))

/** Standard input to its end, without one trailing newline (what `echo` or a heredoc adds). */
const readPassword = Effect.map(readStdin, (text) => text.replace(/\r?\n$/, ""))

/** The user named by id or (with an `@`) by email. */
const findUser = (idOrEmail: string) =>
  Effect.gen(function* () {
    const users = yield* Users
    if (!idOrEmail.includes("@")) return yield* users.get(idOrEmail)
    const wanted = normalizeEmail(idOrEmail)
    const found = (yield* users.list()).find((user) => normalizeEmail(user.email) === wanted)
    if (found === undefined) return yield* new ResourceNotFound({ message: `No user with the email '${idOrEmail.trim()}'` })
    return found
  })

const create = Command.make(
  "create",
  { email, name: Shared.name, admin, passwordStdin, json: Shared.json },
  (options) =>
    Effect.gen(function* () {
      const users = yield* Users
      const input = { email: options.email, name: Option.getOrUndefined(options.name), admin: options.admin }
      if (options.passwordStdin) {
        const password = yield* readPassword
        if (password.length === 0) return yield* new InputUnusable({ message: "--password-stdin: standard input was empty" })
        return yield* whole(
          Effect.tap(users.create({ ...input, password }), (user) => (options.json ? printJson({ user }) : printLines([`USER_ID=${user.id}`]))),
          (user) => `user ${user.email} was created (printed above)`
        )
      }
      const base = yield* commandPublicUrl
      yield* whole(
        Effect.tap(users.invite(input), ({ setupToken, user }) =>
          options.json ? printJson({ user, setupUrl: setupUrl(base, setupToken) }) : printLines([`USER_ID=${user.id}`, setupUrlLine(base, setupToken)])
        ),
        ({ user }) => `user ${user.email} was created and their setup link printed above`
      )
    })
).pipe(
  Storage.forCommand,
  Command.withDescription(
    "Create a user and print USER_ID=<id> and SETUP_URL=<public URL>/ui/setup#token=<token> (usable once, 72 h), or with --password-stdin set the password at once. --json: { user, setupUrl }."
  )
)

const yesNo = (value: boolean) => (value ? "yes" : "no")

const list = Command.make("list", { json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const users = yield* (yield* Users).list()
    if (options.json) return yield* printJson({ data: users })
    yield* printTable(
      ["ID", "EMAIL", "NAME", "ADMIN", "SSO", "CREATED", "LAST SIGN-IN", "DISABLED"],
      users.map((user) => [user.id, user.email, user.name, yesNo(user.admin), yesNo(user.sso), user.createdAt, user.lastSignInAt ?? "-", user.disabledAt ?? "-"])
    )
  })
).pipe(Storage.forCommand, Command.withDescription("List users (never a password or its hash)."))

/** `disable` and `enable`: the same change with another value. */
const setDisabled = (name: "disable" | "enable", disabled: boolean, description: string) =>
  Command.make(name, { who, json: Shared.json }, (options) =>
    Effect.gen(function* () {
      const user: User = yield* findUser(options.who)
      yield* whole(
        Effect.tap((yield* Users).update(user.id, { disabled }), (changed) =>
          options.json ? printJson(changed) : printLines([`${disabled ? "DISABLED" : "ENABLED"}=${changed.id}`])
        ),
        (changed) => `user ${changed.email} was ${disabled ? "disabled" : "enabled"}`
      )
    })
  ).pipe(Storage.forCommand, Command.withDescription(description))

const disable = setDisabled("disable", true, "Disable a user: they cannot sign in, and their sessions end on every server at once.")
const enable = setDisabled("enable", false, "Enable a disabled user again.")

const resetPassword = Command.make("reset-password", { who, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const user = yield* findUser(options.who)
    const base = yield* commandPublicUrl
    yield* whole(
      Effect.tap((yield* Users).resetPassword(user.id), ({ setupToken }) =>
        options.json ? printJson({ userId: user.id, setupUrl: setupUrl(base, setupToken) }) : printLines([setupUrlLine(base, setupToken)])
      ),
      () => `the password of ${user.email} was removed and a new setup link printed above`
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription(
    "Remove a user's password, end their sessions and print a new SETUP_URL=... (usable once, 72 h; earlier links stop working). --json: { userId, setupUrl }."
  )
)

const unlock = Command.make("unlock", { who, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const user = yield* findUser(options.who)
    const unlocked = yield* (yield* Users).unlock(user.id)
    if (options.json) return yield* printJson(unlocked)
    yield* printLines([`UNLOCKED=${unlocked.id}`])
  })
).pipe(
  Storage.forCommand,
  Command.withDescription(
    "Forget a user's failed password sign-ins from every address, so the sign-in limits no longer hold them back; prints UNLOCKED=<id>. --json: the user."
  )
)

const allowSsoLink = Command.make("allow-sso-link", { who, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const user = yield* findUser(options.who)
    const allowed = yield* (yield* Users).allowSsoLink(user.id)
    if (options.json) return yield* printJson(allowed)
    yield* printLines([`SSO_LINK_ALLOWED=${allowed.user.id}`, `EXPIRES_AT=${allowed.expiresAt}`])
  })
).pipe(
  Storage.forCommand,
  Command.withDescription(
    "Allow a user's next single sign-on with their email (within 72 h) to link their account, though it was linked before or is a global admin's; prints SSO_LINK_ALLOWED=<id> and EXPIRES_AT=<time>. --json: { user, expiresAt }."
  )
)

export const users = Command.make("users", {}, () =>
  new UsageError({ message: "missing subcommand: flagport users create|list|disable|enable|reset-password|unlock|allow-sso-link (see --help)" })
).pipe(
  Command.withDescription("Create, list, disable and enable people, reset their passwords, clear their failed sign-ins and allow a single sign-on link."),
  Command.withSubcommands([create, list, disable, enable, resetPassword, unlock, allowSsoLink])
)
