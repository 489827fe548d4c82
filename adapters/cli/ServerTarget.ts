/**
 * `--url URL` with its API key, for the commands that may ask a running server instead of the
 * database (export, apply, codegen). The key comes from `--key KEY` or, when that is not given,
 * from the environment variable FLAGPORT_KEY: a key on the command line is visible to every user
 * of the machine in the process list and stays in shell history, so CI jobs and scripts should
 * pass it in the environment (GitHub Actions: `env: FLAGPORT_KEY: ${{ secrets.… }}`).
 *
 * `--key` wins when both are given; an empty FLAGPORT_KEY counts as unset. Without `--url` the
 * command reads DATABASE_URL and FLAGPORT_KEY is ignored (so a variable exported for one command
 * does not change what another does). No message here ever contains the key.
 */
import * as Options from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UsageError } from "./UsageError.js"

/** The environment variable a command reads the key from when `--key` is not given. */
export const KEY_VARIABLE = "FLAGPORT_KEY"

export interface ServerTarget {
  readonly url: string
  readonly key: string
}

/** The `--url` and `--key` options; `key` says what kind of key the command needs. */
export const serverOptions = (descriptions: { readonly url: string; readonly key: string }) => ({
  url: Options.text("url").pipe(Options.withPseudoName("URL"), Options.withDescription(descriptions.url), Options.optional),
  key: Options.text("key").pipe(
    Options.withPseudoName("KEY"),
    Options.withDescription(`${descriptions.key} Prefer the environment variable ${KEY_VARIABLE}: a command line is visible to others.`),
    Options.optional
  )
})

/** A key is printable ASCII without spaces; surrounding whitespace (a pasted line break) is dropped. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/

const checked = (raw: string, from: string): Effect.Effect<string, UsageError> => {
  const key = raw.trim()
  if (key === "") return Effect.fail(new UsageError({ message: `${from} is empty: give the API key` }))
  if (!VISIBLE_ASCII.test(key)) {
    // Never echo the value: it is a secret, and a mangled one is still most of a secret.
    return Effect.fail(new UsageError({ message: `${from} holds characters no API key has (spaces, line breaks or control characters): check how it was set` }))
  }
  return Effect.succeed(key)
}

/**
 * The server to ask, or none (the command reads DATABASE_URL). A usage error when `--key` comes
 * without `--url`, or `--url` without any key.
 */
export const serverTarget = (
  url: Option.Option<string>,
  key: Option.Option<string>,
  without: string
): Effect.Effect<Option.Option<ServerTarget>, UsageError> =>
  Effect.gen(function* () {
    if (Option.isNone(url)) {
      if (Option.isSome(key)) return yield* new UsageError({ message: `--key goes with --url (the server to ask); without --url the command ${without}` })
      return Option.none()
    }
    if (Option.isSome(key)) return Option.some({ url: url.value, key: yield* checked(key.value, "--key") })
    const variable = yield* Config.option(Config.string(KEY_VARIABLE)).pipe(Effect.orElseSucceed(() => Option.none<string>()))
    if (Option.isNone(variable) || variable.value === "") {
      return yield* new UsageError({ message: `--url needs an API key: set the environment variable ${KEY_VARIABLE} (preferred) or pass --key KEY` })
    }
    return Option.some({ url: url.value, key: yield* checked(variable.value, KEY_VARIABLE) })
  })
