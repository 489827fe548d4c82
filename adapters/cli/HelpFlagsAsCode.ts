/** The help pages of `flagport export` and `flagport apply` (Help.ts shows them; docs/guide/flags-as-code.md says more). */
export const FLAGS_AS_CODE_PAGES: Readonly<Record<string, string>> = {
  export: `Usage: flagport export --project ID [--format yaml|json|openfeature-manifest]
                       [--environment ENV] [--out FILE] [--url URL [--key KEY]]

Writes a project as its declarative file: environments, segments, flags,
their targeting in each environment and their release plans' definitions, in
a stable order, without API keys, secrets, versions, usage or plans' status.
With --out, each segment's non-empty key list is written beside FILE as
SEGMENT.LIST.txt (one key a line) and named by the segment's keys. Or, with
--format openfeature-manifest, the OpenFeature CLI's flag manifest (for its
typed accessors in other languages).

Options:
  --project ID        The project
  --format FORMAT     yaml (default), json, or openfeature-manifest
  --environment ENV   openfeature-manifest: the environment whose default
                      values it gives (default: the project's first)
  --out FILE          Write to FILE instead of stdout
  --url URL           Ask the Flagport server at URL, with the API key in
                      the environment variable FLAGPORT_KEY (or --key)
  --key KEY           An API key for --url; FLAGPORT_KEY is safer: a command
                      line is visible in the process list and shell history

Examples:
  npx flagport export --project default --out flagport.yaml
  FLAGPORT_KEY="$SERVER_KEY" npx flagport export --project default \\
    --url https://flags.example.com --out flagport.yaml
  npx flagport export --project default --format openfeature-manifest \\
    --environment production --out flags.manifest.json`,

  apply: `Usage: flagport apply FILE [--project ID] [--dry-run] [--detailed-exitcode]
                      [--prune] [--json] [--plan FINGERPRINT]
                      [--url URL [--key KEY]]

Makes a project what its file says. Checks the whole file first (every
problem with its path in the file; nothing applied), prints the plan (+
created, ~ changed with a diff, - deleted), then applies it in one
transaction. A second apply plans nothing. If the project changed after the
plan was made, nothing is applied. In a protected environment, a person's
targeting changes become a change request. Release plans become drafts (or
change the draft); a file that redefines a started plan is refused. A
segment's key lists are files beside FILE (keys: ./beta.txt), checked first
and replaced after the rest, each whole, only when they differ.

Options:
  --project ID          Apply to ID instead of the project the file names
  --dry-run             Print the plan, change nothing
  --detailed-exitcode   With --dry-run: exit 2 when the plan has changes
  --prune               Also delete flags, segments and release plan drafts
                        the file leaves out
  --json                Print the plan as JSON
  --plan FINGERPRINT    Apply only the plan with this fingerprint (printed
                        at the end of the plan); refused if the project
                        moved since
  --url URL             Apply through the server at URL, with a server key in
                        the environment variable FLAGPORT_KEY (or --key)
  --key KEY             A server key for --url; FLAGPORT_KEY is safer: a
                        command line is visible in the process list

Exit codes: 0 nothing to do or applied, 2 changes (with --dry-run
--detailed-exitcode), 1 an error.

Examples:
  npx flagport apply flagport.yaml --dry-run
  npx flagport apply flagport.yaml --plan 4e1f0c9a7b2d6e38
  FLAGPORT_KEY="$SERVER_KEY" npx flagport apply flagport.yaml \\
    --url https://flags.example.com`
}
