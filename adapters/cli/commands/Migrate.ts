import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Migrations from "../../sql/Migrations.js"
import { databaseUrlConfig, parseDatabaseUrl, redactUrl } from "../../storage/DatabaseUrl.js"
import { sqlClientFor } from "../../app/Composition.js"
import { note } from "../Output.js"
import { say } from "../Progress.js"

/**
 * Runs the migrator over a bare SQL client (not the whole storage layer, which would apply the
 * migrations silently while it is built) so that the applied migrations can be listed.
 */
export const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function* () {
    const url = yield* databaseUrlConfig
    const target = yield* Either.match(parseDatabaseUrl(url), { onLeft: Effect.fail, onRight: Effect.succeed })
    // The pending migrations run in one transaction: all of them or none (reaching the database
    // may take long, so this stays interruptible, and the line says what is certain).
    yield* say("the pending migrations run in one transaction, so all of them or none were applied: flagport migrate again says which")
    const applied =
      target._tag === "Memory"
        ? []
        : yield* Migrations.run.pipe(Effect.provide(sqlClientFor(target)))
    for (const [id, name] of applied) yield* note(`applied ${String(id).padStart(4, "0")}_${name}`)
    yield* note(
      applied.length === 0
        ? `Database schema is already up to date (${redactUrl(url)}).`
        : `Database schema is up to date (${redactUrl(url)}): ${applied.length} migration(s) applied.`
    )
  })
).pipe(Command.withDescription("Apply pending database migrations to DATABASE_URL and exit (serve also applies them at start)."))
