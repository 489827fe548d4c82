/** The help pages of `flagport import` and `flagport transfer`: bringing flags or a whole server in (Help.ts shows them; docs/guide/coming-from-flagd.md and docs/operations/storage.md say more). */
export const MOVING_IN_PAGES: Readonly<Record<string, string>> = {
  import: `Usage: flagport import flagd FILE|--url URL --environment ENV [options]

Commands:
  flagd FILE     Import a flagd flag definition file (JSON or YAML), from
                 disk or fetched with --url

Run flagport import flagd --help for its options.

Example:
  npx flagport import flagd flags.flagd.json --environment production`,

  "import flagd": `Usage: flagport import flagd FILE|--url URL --environment ENV
         [--project ID] [--skip-unsupported] [--dry-run] [--json]

Creates a flag for each flag of a flagd file: its variants become variations,
its targeting becomes rules in ENV (enabled there, disabled elsewhere). One
line per flag says imported, or refused and why (a construct Flagport cannot
evaluate exactly as flagd does, or a key the project already has). A refusal
writes nothing and exits 1. Everything is written in one transaction.

Options:
  --environment ENV    The environment the rules go to
  --url URL            Fetch the file over http(s) instead of reading FILE
                       (30 s at most, 10 MiB at most, a 2xx answer; YAML
                       when its content type or path says so, else JSON).
                       Here URL is the file's address, not a Flagport server
  --project ID         The project (default: default)
  --skip-unsupported   Import the flags that translate, leave out the others
  --dry-run            Translate and check only; write nothing
  --json               The report as JSON

Examples:
  npx flagport import flagd flags.flagd.json --environment production --dry-run
  npx flagport import flagd --environment production \\
    --url https://config.example.com/flags.flagd.json`,

  transfer: `Usage: flagport transfer --from URL --to URL

Copies everything a server holds (projects, flags, keys as their hashes,
webhooks and their secrets, schedules, change requests, the audit log,
insights, people and their sessions) from one database to an empty other,
SQLite to PostgreSQL or back, in one transaction on the target. Then compares
rows per table and every flag, and prints the comparison. The source is only
read; stop the server first, then start it on the target.

Options:
  --from URL     The database to copy from: sqlite:PATH or postgres://...
  --to URL       The empty database to copy to, migrated first

Example:
  npx flagport transfer --from sqlite:./data/flagport.db \\
    --to postgres://flagport:secret@db:5432/flagport`
}
