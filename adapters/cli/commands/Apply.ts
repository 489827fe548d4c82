/**
 * `flagport apply FILE [--project P] [--dry-run] [--detailed-exitcode] [--prune] [--json] [--url URL --key KEY]`:
 * makes a project what its declarative file says (docs/guide/flags-as-code.md). Reads the file (YAML or
 * JSON; `-` for stdin), checks it whole (every problem on its own line, with its path in the
 * file; nothing applied), prints the plan, then applies it in one transaction (FlagsAsCode.ts),
 * refused when the project changed after the plan was made. The segments' key lists are files
 * beside it (KeyListFiles.ts): read and checked before anything is written, and those that differ
 * from the stored lists replaced after the rest, each whole. Against DATABASE_URL like the other
 * commands (actor `cli`), or a running server with `--url/--key` (`POST /v1/projects/P/apply`).
 * With list files, the fingerprint printed and checked (`--plan`) covers them too (planFingerprint):
 * a list file changed after its plan was reviewed is refused like a moved project.
 *
 * Exit codes: 0 nothing to do or applied; 2 the plan has changes (`--dry-run --detailed-exitcode`);
 * 1 anything went wrong.
 */
import { createHash } from "node:crypto"
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { ApplyResult } from "../../../src/domain/ascode/ApplyResult.js"
import { listReferences, withoutKeyLists } from "../../../src/domain/ascode/FileKeyLists.js"
import { parseFile } from "../../../src/domain/ascode/FileText.js"
import type { ShownPlan } from "../../../src/domain/ascode/Plan.js"
import { planText } from "../../../src/domain/ascode/PlanText.js"
import { projectIdOf } from "../../../src/domain/ascode/ValidateFile.js"
import { type Problem, ResourceConflict } from "../../../src/domain/Errors.js"
import { FlagsAsCode } from "../../../src/services/ascode/FlagsAsCode.js"
import { inWords } from "../../http/shared/Wording.js"
import { ExitWith } from "../ExitWith.js"
import { readInput } from "../InputFile.js"
import { baseDirOf, type ListChange, type ListFile, listChanges, localStore, type ListStore, readListFiles, remoteStore } from "../KeyListFiles.js"
import { note, printJson } from "../Output.js"
import { say, whole } from "../Progress.js"
import { callServer, type ServerRefused } from "../ServerCall.js"
import * as Storage from "../Storage.js"
import { serverOptions, serverTarget } from "../ServerTarget.js"
import { UsageError } from "../UsageError.js"

interface Choices {
  readonly dryRun: boolean
  readonly prune: boolean
  readonly json: boolean
  readonly detailedExitcode: boolean
  /** `--plan`: the fingerprint of the plan shown before; anything else is refused (409). */
  readonly plan: string | undefined
}

const FINGERPRINT = /^[0-9a-f]{16}$/

/**
 * The fingerprint the command prints and checks: the plan's own (the rest of the file, from the
 * service or the server) when the file names no list file; otherwise a hash of it with every list
 * file's (segment, list, count, digest), sorted, so a list file changed after its plan was shown
 * changes the fingerprint (16 hex digits, like the plan's).
 */
export const planFingerprint = (planned: string, files: ReadonlyArray<ListFile>): string => {
  if (files.length === 0) return planned
  const lists = files.map((f) => [f.segmentKey, f.list, String(f.digest.count), f.digest.digest].join("\u0000")).sort()
  return createHash("sha256").update(["flagport-plan-with-key-lists", planned, ...lists].join("\n")).digest("hex").slice(0, 16)
}

/** The refusal of a `--plan` that is not the plan now (the service's own words, FlagsAsCode.ts). */
const checkPlan = (projectId: string, shown: string | undefined, now: string) =>
  shown === undefined || shown === now
    ? Effect.void
    : Effect.fail(new ResourceConflict({ message: `Project '${projectId}' changed since plan ${shown} was shown (its plan is now ${now}); nothing was applied: plan again` }))

/** Every problem on its own line (stderr), then exit 1. */
const refuse = (headline: string, problems: ReadonlyArray<Problem>) =>
  Effect.zipRight(
    note([`error: ${headline}`, ...problems.map((p) => `  ${p.path === "" ? "(file)" : p.path}: ${inWords(p.message)}`)].join("\n")),
    Effect.fail(new ExitWith({ code: 1 }))
  )

/** A list change as the plan prints it: `+` a list filled, `-` emptied, `~` replaced. */
const listLine = (change: ListChange): string => {
  const { file, before } = change
  const sign = before === 0 ? "+" : file.digest.count === 0 ? "-" : "~"
  const now = `${before.toLocaleString("en-US")} key${before === 1 ? "" : "s"} now`
  const count = file.digest.count
  const after = file.path === "" ? "to be emptied (the segment's keys name no file for it)" : `${count.toLocaleString("en-US")} distinct key${count === 1 ? "" : "s"} from ${file.path}`
  return `${sign} ${file.list} keys of segment ${file.segmentKey}: ${after} (${now})`
}

/** A list change in --json's `keyLists`. */
const listJson = (change: ListChange) => ({
  segment: change.file.segmentKey,
  list: change.file.list,
  file: change.file.path === "" ? null : change.file.path,
  before: change.before,
  after: change.file.digest.count
})

/** What is printed for a plan or an applied result (with the key lists to replace), then the exit code it deserves. */
const finish = (result: ApplyResult, choices: Choices, files: ReadonlyArray<ListFile>, lists: ReadonlyArray<ListChange>) =>
  Effect.gen(function* () {
    const fingerprint = planFingerprint(result.fingerprint, files)
    const plan: ShownPlan = {
      projectId: result.projectId,
      changes: result.changes,
      pendingChangeRequests: result.pendingChangeRequests ?? [],
      // With list files, the fingerprint line comes after the lists it covers.
      ...(files.length === 0 ? { fingerprint } : {})
    }
    if (choices.json) yield* printJson({ ...result, fingerprint, keyLists: lists.map(listJson) })
    else {
      const text = result.changes.length === 0 && lists.length > 0
        ? `Project ${result.projectId}: no changes to its environments, segments or flags.\n`
        : planText(plan)
      const listText = lists.length === 0 ? "" : `\nKey lists: ${lists.length} to replace (after the rest is applied).\n\n${lists.map(listLine).join("\n")}\n`
      const planLine = files.length > 0 && (result.changes.length > 0 || lists.length > 0)
        ? `\nPlan ${fingerprint}: apply --plan ${fingerprint} applies this plan and nothing else.\n`
        : ""
      yield* Effect.sync(() => void process.stdout.write(text + listText + planLine))
    }
    if (result.applied) yield* note(`Applied ${result.changes.length} change${result.changes.length === 1 ? "" : "s"} to project ${result.projectId}.`)
    for (const request of result.changeRequests) {
      const what = request.action === "updated" ? "Updated your change request" : "Opened change request"
      const approvals = request.action === "updated" ? "its approvals are cleared, and it" : "it"
      yield* note(`${what} ${request.id} in ${request.environment} for ${request.flagKeys.join(", ")}: ${approvals} needs approval before it applies.`)
    }
    if (choices.dryRun && choices.detailedExitcode && (result.changes.length > 0 || lists.length > 0)) return yield* new ExitWith({ code: 2 })
  })

/**
 * The key lists replaced, one after another, once the rest of the file is applied (each replace
 * is whole: the list is the old one or the new one). A failure stops there and says what was
 * applied and what was not: applying the file again finishes it (what is done plans nothing).
 */
const replaceLists = (store: ListStore, lists: ReadonlyArray<ListChange>, flagsApplied: boolean) =>
  Effect.gen(function* () {
    const done: Array<string> = []
    for (const change of lists) {
      const { file } = change
      const replaced = yield* Effect.either(store.replace(file.segmentKey, file.list, file))
      if (replaced._tag === "Left") {
        const before = [
          flagsApplied ? "the rest of the file was applied" : "the rest of the file needed no change",
          done.length === 0 ? "no key list was replaced" : `these lists were replaced: ${done.join(", ")}`
        ].join("; ")
        return yield* refuse(`${replaced.left.message}`, [{ path: "", message: `${before}; the ${file.list} list of segment ${file.segmentKey} and the lists after it are as they were; apply again to finish` }])
      }
      done.push(`${file.list} of ${file.segmentKey}`)
      const count = replaced.right.count
      yield* note(`Replaced the ${file.list} keys of segment ${file.segmentKey}: ${count.toLocaleString("en-US")} key${count === 1 ? "" : "s"} (list version ${replaced.right.version}).`)
    }
  })

/** What an apply did, for the line of an interruption after it (Progress.ts). */
const doneLine = (result: ApplyResult): string => {
  if (!result.applied) return `nothing was applied to project ${result.projectId}`
  const requests = result.changeRequests.length === 0 ? "" : `, and ${result.changeRequests.length} change request(s) opened or updated: ${result.changeRequests.map((r) => r.id).join(", ")}`
  return `the plan was applied to project ${result.projectId} whole (${result.changes.length} change${result.changes.length === 1 ? "" : "s"})${requests}`
}

/** Applying and printing what was applied, whole: the apply is one transaction, so a signal waits for it. */
const applyAndFinish = <E, R>(applying: Effect.Effect<ApplyResult, E, R>, choices: Choices, files: ReadonlyArray<ListFile>, lists: ReadonlyArray<ListChange>) =>
  whole(Effect.flatMap(applying, (result) => Effect.as(finish(result, choices, files, lists), result)), doneLine)

/** Problems of the key list files, refused with the file's own (when the rest of it is fine, alone). */
const refuseLists = (problems: ReadonlyArray<Problem>) => refuse("Invalid project file: nothing was applied", problems)

const local = (projectId: string, input: unknown, choices: Choices, files: ReadonlyArray<ListFile>, listProblems: ReadonlyArray<Problem>) =>
  Effect.gen(function* () {
    const code = yield* FlagsAsCode
    // With list files, --plan is checked here against the fingerprint that covers them (the plan's
    // own with the files' digests); the apply below is then based on the plan checked.
    const pinned = choices.plan !== undefined && files.length === 0 && listProblems.length === 0
    const options = { prune: choices.prune, ...(pinned ? { planFingerprint: choices.plan } : {}) }
    const plan = yield* code.plan(projectId, input, options).pipe(
      Effect.catchTag("InvalidRequest", (e) => refuse(`${e.message}: nothing was applied`, [...e.details, ...listProblems]))
    )
    if (listProblems.length > 0) return yield* refuseLists(listProblems)
    if (!pinned && choices.plan !== undefined) {
      const shown = yield* code.apply(projectId, input, { prune: choices.prune, dryRun: true, basedOn: plan })
      yield* checkPlan(projectId, choices.plan, planFingerprint(shown.fingerprint, files))
    }
    const store = yield* localStore(projectId)
    const lists = yield* listChanges(files, store)
    // The plan shown is the plan applied: the apply refuses when the project changed in between (and,
    // with --plan, since the plan of that fingerprint was shown).
    const result = yield* applyAndFinish(
      choices.dryRun || plan.changes.length === 0
        ? code.apply(projectId, input, { ...options, dryRun: true })
        : code.apply(projectId, input, { ...options, basedOn: plan }),
      choices,
      files,
      lists
    )
    if (!choices.dryRun) yield* replaceLists(store, lists, result.applied)
  }).pipe(Storage.withDatabase)

const remote = (url: string, key: string, projectId: string, input: unknown, choices: Choices, files: ReadonlyArray<ListFile>, listProblems: ReadonlyArray<Problem>) =>
  Effect.gen(function* () {
    const post = (dryRun: boolean, extraProblems: ReadonlyArray<Problem>, plan: string | undefined) => {
      const query = new URLSearchParams({
        ...(dryRun ? { dryRun: "true" } : {}),
        ...(choices.prune ? { prune: "true" } : {}),
        ...(plan === undefined ? {} : { plan })
      })
      return callServer(url, key, `/v1/projects/${encodeURIComponent(projectId)}/apply${query.size === 0 ? "" : `?${query}`}`, {
        method: "POST",
        body: JSON.stringify(input),
        contentType: "application/json"
      }).pipe(Effect.catchTag("ServerRefused", (refused): Effect.Effect<never, ServerRefused | ExitWith> =>
        refused.details === undefined ? Effect.fail(refused) : refuse(refused.message, [...refused.details, ...extraProblems])))
    }
    // The fingerprint the server checks: the one given, or (with list files, which it does not see)
    // the plan's own fingerprint that the given one was checked against here.
    let serverPlan = choices.plan
    if (files.length > 0 || listProblems.length > 0) {
      // With key lists, the server checks the rest of the file first (a dry run): every problem is
      // reported together, and a bad file is refused before any list is read from the server.
      const dry = yield* post(true, listProblems, undefined)
      if (listProblems.length > 0) return yield* refuseLists(listProblems)
      if (choices.plan !== undefined) {
        serverPlan = (JSON.parse(dry.text) as ApplyResult).fingerprint
        yield* checkPlan(projectId, choices.plan, planFingerprint(serverPlan, files))
      }
    }
    // The lists to replace are known before anything is written: a server that cannot say fails here, nothing applied.
    const store = remoteStore(url, key, projectId)
    const lists = yield* listChanges(files, store)
    if (!choices.dryRun) {
      yield* say(
        `the file was sent to ${url} for project ${projectId} and no answer had come: the server applies a plan whole or not at all, ` +
          "and may have applied it (apply --dry-run shows what is left to do)"
      )
    }
    const answer = yield* post(choices.dryRun, [], serverPlan)
    const result = yield* applyAndFinish(Effect.succeed(JSON.parse(answer.text) as ApplyResult), choices, files, lists)
    if (!choices.dryRun) yield* replaceLists(store, lists, result.applied)
  })

export const applyCommand = Command.make(
  "apply",
  {
    file: Args.text({ name: "FILE" }).pipe(Args.withDescription("The project file, YAML or JSON (- reads stdin).")),
    project: Options.text("project").pipe(Options.withPseudoName("ID"), Options.withDescription("Apply to this project instead of the one the file names."), Options.optional),
    dryRun: Options.boolean("dry-run").pipe(Options.withDescription("Print the plan; change nothing.")),
    detailedExitcode: Options.boolean("detailed-exitcode").pipe(Options.withDescription("With --dry-run: exit 2 when the plan has changes (0 when none, 1 on error).")),
    prune: Options.boolean("prune").pipe(Options.withDescription("Also delete the flags, segments and release plan drafts the file leaves out.")),
    json: Options.boolean("json").pipe(Options.withDescription("Print the plan (and what was applied) as JSON.")),
    plan: Options.text("plan").pipe(
      Options.withPseudoName("FINGERPRINT"),
      Options.withDescription("Apply only the plan with this fingerprint (printed with the plan, e.g. by --dry-run in CI): refused, nothing applied, if the project or a key list file changed since."),
      Options.optional
    ),
    ...serverOptions({
      url: "Apply through the Flagport server at URL instead of DATABASE_URL (with a key from FLAGPORT_KEY or --key).",
      key: "A server key for --url."
    })
  },
  (options) =>
    Effect.gen(function* () {
      yield* say("nothing was applied")
      const server = yield* serverTarget(options.url, options.key, "applies to DATABASE_URL")
      if (options.detailedExitcode && !options.dryRun) return yield* new UsageError({ message: "--detailed-exitcode goes with --dry-run" })
      const planFingerprint = Option.getOrUndefined(options.plan)
      if (planFingerprint !== undefined && !FINGERPRINT.test(planFingerprint)) {
        return yield* new UsageError({ message: "--plan takes a plan's fingerprint: the 16 hex digits printed with the plan (apply --dry-run)" })
      }
      const parsed = parseFile(yield* readInput(options.file))
      if (Either.isLeft(parsed)) return yield* refuse(`${options.file} is not YAML or JSON: nothing was applied`, parsed.left)
      const projectId = Option.getOrUndefined(options.project) ?? projectIdOf(parsed.right)
      if (projectId === undefined) return yield* new UsageError({ message: `${options.file} names no project (project.id): say which with --project` })
      yield* say(`nothing was applied to project ${projectId}`)
      const choices: Choices = { dryRun: options.dryRun, prune: options.prune, json: options.json, detailedExitcode: options.detailedExitcode, plan: planFingerprint }
      // The key lists' files, each read whole as a stream and checked, before anything is written; the
      // server plans the rest of the file without them (it could not read them).
      const references = listReferences(parsed.right)
      const { files, problems } = Either.isLeft(references)
        ? { files: [], problems: references.left }
        : yield* readListFiles(references.right, baseDirOf(options.file))
      const input = withoutKeyLists(parsed.right)
      return Option.isSome(server)
        ? yield* remote(server.value.url, server.value.key, projectId, input, choices, files, problems)
        : yield* local(projectId, input, choices, files, problems)
    })
).pipe(Command.withDescription("Make a project what its declarative file says: check the file, print the plan, apply it in one transaction."))
