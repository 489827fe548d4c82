/**
 * `flagport --help` and `flagport <command> --help`, written for people: what the command is for,
 * its options in a few words, examples, in 80 columns. @effect/cli still parses every command line;
 * only its generated help is replaced (why: docs/internals/decisions.md, "Command-line help").
 * test/cli/Help.test.ts keeps these pages and the parser's options in step.
 */
import pkg from "../../package.json" with { type: "json" }
import { CHANGE_REQUESTS_PAGES } from "./HelpChangeRequests.js"
import { EXPERIMENTS_PAGES } from "./HelpExperiments.js"
import { FLAGS_AS_CODE_PAGES } from "./HelpFlagsAsCode.js"
import { MOVING_IN_PAGES } from "./HelpMovingIn.js"
import { RELEASE_PLANS_PAGES } from "./HelpReleasePlans.js"
import { USERS_PAGES } from "./HelpUsers.js"

const ROOT = `flagport ${pkg.version}: self-hosted feature flags

Usage: flagport <command> [options]

Commands:
  serve          Serve the API and the dashboard (npm start = serve --init)
  migrate        Apply pending database migrations, then exit
  seed           Make the default project if missing, print a new pair of keys
  keys           Create, list and revoke API keys
  users          Create people, list, disable, enable, reset passwords, unlock
  projects       Create and list projects
  environments   Create and list a project's environments
  flags          List, show, enable and disable flags
  experiments    List, show, start and stop experiments; read results
  release-plans  Create, start, pause, resume and cancel a flag's ramps
  change-requests
                 List, show, approve, reject and apply change requests
  import         Import flags from a flagd flag definition file
  codegen        Write TypeScript types for a project's flags
  transfer       Move a whole server to another database (SQLite <-> PostgreSQL)
  export         Write a project as YAML or JSON (or an OpenFeature manifest)
  apply          Make a project what its file says (plan, then apply)

Every command reads these environment variables:
  DATABASE_URL   sqlite:./data/flagport.db (default), postgres://..., memory:
  PORT, HOST     where serve listens (default 0.0.0.0:8080)
  FLAGPORT_KEY   the API key of export, apply and codegen --url (or --key)

Examples:
  npx flagport serve --init           first start: seed, print the keys, serve
  npx flagport keys create --type client --project default
  npx flagport users create --email edna@example.com --admin
  npx flagport flags disable new-checkout --environment production

Also: --version, --log-level LEVEL, --completions bash|zsh|fish|sh.
Run flagport <command> --help for one command. More: docs/guide/cli.md`

const PAGES: Readonly<Record<string, string>> = {
  ...FLAGS_AS_CODE_PAGES,
  ...EXPERIMENTS_PAGES,
  ...RELEASE_PLANS_PAGES,
  ...CHANGE_REQUESTS_PAGES,
  ...MOVING_IN_PAGES,
  ...USERS_PAGES,
  "": ROOT,
  serve: `Usage: flagport serve [--init] [--port PORT] [--host HOST]

Applies pending migrations, then serves the HTTP API, the dashboard (/ui/)
and the API docs (/docs) until SIGTERM or SIGINT, then shuts down gracefully.

Options:
  --init         On an empty database, seed it and print SERVER_KEY,
                 CLIENT_KEY and PROJECT_ID once (what npm start runs), then
                 SETUP_URL for the first global admin, admin@localhost
  --port PORT    Port to listen on (default: PORT, else 8080)
  --host HOST    Interface to listen on (default: HOST, else 0.0.0.0)

Examples:
  npx flagport serve --init
  npx flagport serve --host 127.0.0.1 --port 3000
  DATABASE_URL=postgres://flagport:secret@db/flagport npx flagport serve`,

  migrate: `Usage: flagport migrate

Applies pending migrations to DATABASE_URL and exits. serve applies them too;
run this to migrate ahead of a deploy.

Example:
  DATABASE_URL=postgres://flagport:secret@db/flagport npx flagport migrate`,

  seed: `Usage: flagport seed [--json]

Makes the project "default" with development, staging and production when
missing, then a new global server key and a client key for "default", and
prints SERVER_KEY=..., CLIENT_KEY=... and PROJECT_ID=default. Old keys stay
valid. Treat the output as a secret.

Options:
  --json         Print { serverKey, clientKey, projectId, environments }

Example:
  eval "$(npx flagport seed)"          sets SERVER_KEY, CLIENT_KEY, PROJECT_ID`,

  keys: `Usage: flagport keys <create|list|revoke> [options]

Commands:
  create         Make an API key and print it once
  list           List keys (ids, scopes, dates; never the keys themselves)
  revoke ID      Revoke a key; requests with it are refused from then on

Run flagport keys <command> --help for its options.`,

  "keys create": `Usage: flagport keys create --type server|client [--project ID]
                            [--environment ENV] [--name NAME] [--json]

Makes an API key and prints it once as KEY=...; only its hash is stored.
A server key manages and evaluates; a client key only evaluates (it may sit
in a browser or an app) and always belongs to a project.

Options:
  --type TYPE          server or client
  --project ID         The key's project (required for client keys; without
                       it a server key works on every project)
  --environment ENV    Bind the key to one environment of its project
  --name NAME          A name to recognise it by in keys list
  --json               Print { id, key, type, projectId, environment }

Examples:
  npx flagport keys create --type server
  npx flagport keys create --type client --project default --name web-app`,

  "keys list": `Usage: flagport keys list [--json]

Lists API keys: id, type, project, environment, prefix, name and dates.
The keys themselves are never shown: they are stored hashed.

Options:
  --json         Print { data: [...] }`,

  "keys revoke": `Usage: flagport keys revoke ID [--json]

Revokes the key with this id (from keys list). Requests with it are refused
within a second, and its open streams end.

Options:
  --json         Print the revoked key

Example:
  npx flagport keys revoke 01J9Z3...`,

  projects: `Usage: flagport projects <create|list> [options]

Commands:
  create ID      Make a project
  list           List projects

Run flagport projects <command> --help for its options.`,

  "projects create": `Usage: flagport projects create ID [--name NAME] [--json]

Makes a project. ID is a slug: lowercase letters, digits, - and _.
Prints PROJECT_ID=<id>.

Options:
  --name NAME    A display name (default: the id)
  --json         Print the project

Example:
  npx flagport projects create shop --name Shop`,

  "projects list": `Usage: flagport projects list [--json]

Lists projects.

Options:
  --json         Print { data: [...] }`,

  environments: `Usage: flagport environments <create|list> --project ID [options]

Commands:
  create KEY     Add an environment to a project
  list           List a project's environments

Run flagport environments <command> --help for its options.`,

  "environments create": `Usage: flagport environments create KEY --project ID [--name NAME] [--json]

Adds an environment to a project; every flag gets a disabled configuration
in it. Prints ENVIRONMENT=<key>.

Options:
  --project ID   The project
  --name NAME    A display name (default: the key)
  --json         Print the environment

Example:
  npx flagport environments create qa --project default --name QA`,

  "environments list": `Usage: flagport environments list --project ID [--json]

Lists a project's environments.

Options:
  --project ID   The project
  --json         Print { data: [...] }`,

  flags: `Usage: flagport flags <list|get|enable|disable> [options]

Commands:
  list           Each flag, on or off in each environment
  get FLAG       One flag: variations, and per environment its state and rules
  enable FLAG    Turn a flag on in one environment
  disable FLAG   Turn a flag off in one environment

Changes go through the same checks as the API: a new version, an audit entry
(actor cli), and streams and webhooks hear of them.
Run flagport flags <command> --help for its options.`,

  "flags list": `Usage: flagport flags list [--project ID] [--json]

Lists a project's flags, on or off in each environment.

Options:
  --project ID   The project (default: default)
  --json         Print { data: [...] }, the flags as the API shows them`,

  "flags get": `Usage: flagport flags get FLAG [--project ID] [--json]

Shows one flag: its variations and, per environment, on or off, default and
off variations, and rules.

Options:
  --project ID   The project (default: default)
  --json         Print the flag as the API shows it

Example:
  npx flagport flags get new-checkout`,

  "flags enable": `Usage: flagport flags enable FLAG --environment ENV [--project ID]
                            [--if-version N] [--json]

Turns a flag on in one environment: its rules and default apply again. Only
"enabled" changes. If someone changed the flag since it was read, nothing is
written and the command fails naming the current version.

Options:
  --environment ENV   The environment, e.g. production
  --project ID        The project (default: default)
  --if-version N      Change it only while it is at version N
  --json              Print the flag after the change

Example:
  npx flagport flags enable new-checkout --environment staging`,

  "flags disable": `Usage: flagport flags disable FLAG --environment ENV [--project ID]
                             [--if-version N] [--json]

Turns a flag off in one environment: everyone gets its off variation. Only
"enabled" changes. If someone changed the flag since it was read, nothing is
written and the command fails naming the current version.

Options:
  --environment ENV   The environment, e.g. production
  --project ID        The project (default: default)
  --if-version N      Change it only while it is at version N
  --json              Print the flag after the change

Example:
  npx flagport flags disable new-checkout --environment production`,

  codegen: `Usage: flagport codegen --project ID [--out FILE] [--url URL [--key KEY]]

Writes a TypeScript module declaring the project's flag keys and value types,
for createClient<Flags>() of flagport/client: a wrong key or type then fails
to compile. Reads DATABASE_URL, or asks a running server with --url.

Options:
  --project ID   The project
  --out FILE     Write to FILE instead of stdout
  --url URL      Ask the Flagport server at URL, with a server key in the
                 environment variable FLAGPORT_KEY (or --key)
  --key KEY      A server key for --url; FLAGPORT_KEY is safer: a command
                 line is visible in the process list and shell history

Examples:
  npx flagport codegen --project default --out src/flags.ts
  FLAGPORT_KEY="$SERVER_KEY" npx flagport codegen --project default \\
    --url https://flags.example.com --out src/flags.ts`,

}

/** Every command path with a page ("" is the root), for the test. */
export const helpPaths = (): ReadonlyArray<string> => Object.keys(PAGES)

const wantsHelp = (args: ReadonlyArray<string>) => args.length === 0 || args.includes("--help") || args.includes("-h")

/**
 * The page for a command line (without node and the script) that asks for help, else undefined:
 * the longest command path its leading words name (`keys create --type x --help` -> keys create).
 */
export const helpFor = (args: ReadonlyArray<string>): string | undefined => {
  if (!wantsHelp(args)) return undefined
  let path = ""
  for (const word of args) {
    const next = path === "" ? word : `${path} ${word}`
    if (PAGES[next] === undefined) break
    path = next
  }
  return `${PAGES[path]}\n`
}
