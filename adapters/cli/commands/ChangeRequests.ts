/**
 * `flagport change-requests list|show|approve|reject|apply`: a protected environment's change
 * requests from a terminal. Every command goes through the ChangeRequests use case, as the
 * `.../change-requests` routes do, so the decisions are the same: the command acts as the
 * operator, recorded as `cli` (Main.ts), and the rules table judges it like anyone else. It may
 * not approve or reject a request `cli` opened, approves once, applies only a request it approved
 * (or opened) once its approvals that still count are enough, and of two approvals or applies
 * racing (another process, the server beside it) each lands once or answers why not.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ApproveInput, type ChangeRequest, ChangeRequestStatus, RejectInput } from "../../../src/domain/changes/ChangeRequest.js"
import { ChangeRequests } from "../../../src/services/changes/ChangeRequests.js"
import { actorText, approvalsText, requestDetail, requestLines } from "../ChangeRequestText.js"
import { decode } from "../Decode.js"
import * as Shared from "../Options.js"
import { printJson, printLines, printTable } from "../Output.js"
import { whole } from "../Progress.js"
import * as Storage from "../Storage.js"
import { UsageError } from "../UsageError.js"

const project = Shared.project

const requestId = Args.text({ name: "ID" }).pipe(Args.withDescription("The change request's id, as `change-requests list` shows it."))

const status = Options.choice("status", ChangeRequestStatus.literals).pipe(
  Options.withDescription("Only the requests in this status."),
  Options.optional
)

const comment = (description: string) => Options.text("comment").pipe(Options.withPseudoName("TEXT"), Options.withDescription(description))

const list = Command.make("list", { project, status, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const requests = yield* (yield* ChangeRequests).list(options.project, Option.getOrUndefined(options.status))
    if (options.json) return yield* printJson({ data: requests })
    yield* printTable(
      ["ID", "STATUS", "ENVIRONMENT", "APPROVALS", "FLAGS", "AUTHOR", "CREATED", "TITLE"],
      requests.map((request) => [
        request.id,
        request.status,
        request.environment,
        approvalsText(request),
        [...request.changes.map((change) => change.flagKey), ...request.releasePlans.filter((p) => !request.changes.some((c) => c.flagKey === p.flagKey)).map((p) => p.flagKey)].join(","),
        actorText(request.author),
        request.createdAt,
        request.title
      ])
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("List a project's change requests, newest first.")
)

const show = Command.make("show", { id: requestId, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const request = yield* (yield* ChangeRequests).get(options.project, options.id)
    if (options.json) return yield* printJson(request)
    yield* printLines([...requestLines(request), ...requestDetail(request)])
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Show one change request: its status, approvals and each flag's change (before and after).")
)

/** A write to one request, printed whole: a signal waits for it (Progress.ts) and then says what it did. */
const decided = <E, R>(writing: Effect.Effect<ChangeRequest, E, R>, json: boolean, done: string) =>
  whole(
    Effect.tap(writing, (request) => (json ? printJson(request) : printLines(requestLines(request)))),
    (request) => `change request ${request.id} was ${done} (now ${request.status})`
  )

const approve = Command.make(
  "approve",
  { id: requestId, project, comment: comment("Said with the approval (optional).").pipe(Options.optional), json: Shared.json },
  (options) =>
    Effect.gen(function* () {
      const input = yield* decode(ApproveInput, "approval")(Option.match(options.comment, { onNone: () => ({}), onSome: (text) => ({ comment: text }) }))
      yield* decided((yield* ChangeRequests).approve(options.project, options.id, input), options.json, "approved")
    })
).pipe(
  Storage.forCommand,
  Command.withDescription("Approve a change request (as cli: never one cli opened, once); approved once it has the approvals its environment requires.")
)

const reject = Command.make("reject", { id: requestId, project, comment: comment("Why it is rejected (required)."), json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const input = yield* decode(RejectInput, "rejection")({ comment: options.comment })
    yield* decided((yield* ChangeRequests).reject(options.project, options.id, input), options.json, "rejected")
  })).pipe(
    Storage.forCommand,
    Command.withDescription("Reject a change request, saying why: it is closed and never applies.")
  )

const apply = Command.make("apply", { id: requestId, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    yield* decided((yield* ChangeRequests).apply(options.project, options.id), options.json, "applied")
  })).pipe(
    Storage.forCommand,
    Command.withDescription("Apply an approved change request in one transaction (as its approver: approve it first); refused if a flag or segment moved on.")
  )

export const changeRequests = Command.make("change-requests", {}, () =>
  new UsageError({ message: "missing subcommand: flagport change-requests list|show|approve|reject|apply (see --help)" })
).pipe(
  Command.withDescription("List, show, approve, reject and apply change requests."),
  Command.withSubcommands([list, show, approve, reject, apply])
)
