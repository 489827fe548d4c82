/** The help pages of `flagport change-requests` (Help.ts shows them; docs/guide/change-requests.md says more). */
export const CHANGE_REQUESTS_PAGES: Readonly<Record<string, string>> = {
  "change-requests": `Usage: flagport change-requests <list|show|approve|reject|apply> [options]

Commands:
  list          A project's change requests, newest first
  show ID       One request: status, approvals, each flag's before and after
  approve ID    Approve it (once; never a request cli opened)
  reject ID     Reject it, saying why: it is closed and never applies
  apply ID      Apply an approved request you approved, in one transaction

The command line acts as the operator and is recorded as cli in the audit log
and in the request's approvals. The rules of the API hold: no approving your
own request, once each, applied once, refused if a flag moved on since.
Run flagport change-requests <command> --help for its options.`,

  "change-requests list": `Usage: flagport change-requests list [--project ID] [--status STATUS]
                                    [--json]

Lists a project's change requests, newest first: id, status, environment,
approvals that count over those required, flags, author, when, title.

Options:
  --project ID       The project (default: default)
  --status STATUS    Only open, approved, rejected, cancelled or applied ones
  --json             Print { data: [...] }, the requests as the API shows them

Example:
  npx flagport change-requests list --status open`,

  "change-requests show": `Usage: flagport change-requests show ID [--project ID] [--json]

Shows one change request as KEY=value lines (status, environment, author,
approvals, flags, when it applies), then what each change does to its flag:
the fields that differ, before (-) and after (+), and the segments it pins.

Options:
  --project ID   The project (default: default)
  --json         Print the request as the API shows it

Example:
  npx flagport change-requests show 0193f1c2-...`,

  "change-requests approve": `Usage: flagport change-requests approve ID [--comment TEXT] [--project ID]
                                       [--json]

Approves a change request as cli. It is approved once the approvals that
still count reach its environment's required number. Exits 1 when cli opened
it ("You cannot approve your own change request"), approved it already, or
it is closed.

Options:
  --comment TEXT   Said with the approval
  --project ID     The project (default: default)
  --json           Print the request as the API shows it

Example:
  npx flagport change-requests approve 0193f1c2-... --comment "Checked"`,

  "change-requests reject": `Usage: flagport change-requests reject ID --comment TEXT [--project ID]
                                      [--json]

Rejects a change request as cli, saying why: it is closed and never applies.
Exits 1 when cli opened it (cancel it instead) or it is closed.

Options:
  --comment TEXT   Why (required, not blank)
  --project ID     The project (default: default)
  --json           Print the request as the API shows it

Example:
  npx flagport change-requests reject 0193f1c2-... --comment "Not today"`,

  "change-requests apply": `Usage: flagport change-requests apply ID [--project ID] [--json]

Applies an approved change request in one transaction, each flag through the
same checks as the API, audited as cli with the request's id. cli may apply
a request it approved (or opened). Exits 1, applying nothing, when its
approvals that still count are too few, when it is not approved, or when a
flag or pinned segment changed since (its author updates it).

Options:
  --project ID   The project (default: default)
  --json         Print the request as the API shows it

Example:
  npx flagport change-requests approve 0193f1c2-... &&
    npx flagport change-requests apply 0193f1c2-...`
}
