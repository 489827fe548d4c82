/** The help pages of `flagport release-plans` (Help.ts shows them; docs/guide/release-plans.md says more). */
const PLAN_OPTIONS = `  --project ID   The project (default: default)
  --json         Print the plan as the API shows it`

export const RELEASE_PLANS_PAGES: Readonly<Record<string, string>> = {
  "release-plans": `Usage: flagport release-plans <command> FLAG [ID] [options]

Commands:
  list FLAG           A flag's release plans with status and current step
  show FLAG ID        One plan: rule, variation, steps, guardrails, status
  create FLAG         Make a draft plan (--environment, --rule, --variation,
                      --step WEIGHT:MINUTES...)
  update FLAG ID      Change a draft: only what is given changes
  start FLAG ID       Start a draft; the server's scheduler applies the steps
  pause FLAG ID       Pause a running plan at its weight
  resume FLAG ID      Resume a paused or harmed plan
  cancel FLAG ID      Stop a plan for good; its rule keeps its weight
  delete FLAG ID      Delete a draft, completed or cancelled plan

Every command goes through the same checks as the API, is audited (actor
cli) and sends the API's webhook events (release_plan.started, .paused,
.cancelled). Weights are thousandths of a percent: 5000 is 5%.
Run flagport release-plans <command> --help for its options.`,

  "release-plans list": `Usage: flagport release-plans list FLAG [--project ID] [--json]

Lists a flag's release plans: id, status (draft, running, paused, harmed,
completed, cancelled), environment, rule, variation, the step it is at (2/4)
and its weight, and when the next step is due.

Options:
  --project ID   The project (default: default)
  --json         Print { data: [...] }, the plans as the API shows them`,

  "release-plans show": `Usage: flagport release-plans show FLAG ID [--project ID] [--json]

Shows one plan as KEY=value lines: PLAN, FLAG, ENVIRONMENT, RULE, VARIATION,
STATUS, STEP, WEIGHT, STEPS (WEIGHT:MINUTES each), GUARDRAILS, ON_HARM,
ALPHA, NEXT_STEP_AT, PAUSED_BY, STARTED, COMPLETED, VERSION (and FAILURE,
HARM when there are).

Options:
${PLAN_OPTIONS}

Example:
  npx flagport release-plans show new-checkout rp-01J9Z3...`,

  "release-plans create": `Usage: flagport release-plans create FLAG --environment ENV --rule RULE
                                     --variation VARIATION
                                     --step WEIGHT:MINUTES [--step ...]
                                     [--guardrail JSON ...]
                                     [--on-harm pause|rollback] [--alpha ALPHA]
                                     [--project ID] [--json]

Makes a draft plan that ramps VARIATION up in the rule RULE of the flag's
targeting in ENV. Each --step gives a weight (thousandths of a percent,
rising, up to 100000) and the minutes it holds (at least 0.05). Each
--guardrail is a metric as the API takes it. Exits 1 with every problem of
the plan and its path (steps[1].weight: ...).

Options:
  --environment ENV      The environment
  --rule RULE            The id of the rule (flags get FLAG --json shows ids)
  --variation VARIATION  The variation ramped up
  --step WEIGHT:MINUTES  A step; repeat in order
  --guardrail JSON       A guardrail metric; repeat for each
  --on-harm WHAT         pause (default) or rollback to weight 0
  --alpha ALPHA          The guardrails' alpha (default 0.05)
${PLAN_OPTIONS}

Example:
  npx flagport release-plans create new-checkout --environment production \\
    --rule everyone --variation on --step 5000:60 --step 25000:60 \\
    --step 100000:60 --on-harm rollback \\
    --guardrail '{"key":"errors","event":"error","kind":"conversion",
                  "goal":"decrease","role":"guardrail"}'`,

  "release-plans update": `Usage: flagport release-plans update FLAG ID [--rule RULE]
                                     [--variation VARIATION]
                                     [--step WEIGHT:MINUTES ...]
                                     [--guardrail JSON ... | --no-guardrails]
                                     [--on-harm pause|rollback] [--alpha ALPHA]
                                     [--project ID] [--json]

Changes a draft plan (a started one exits 1): only what is given changes;
--step and --guardrail replace the whole list, --no-guardrails empties it.
The plan is checked again as on create.

Options:
  --rule RULE            The id of the rule
  --variation VARIATION  The variation ramped up
  --step WEIGHT:MINUTES  The steps, in order
  --guardrail JSON       The guardrail metrics
  --no-guardrails        Remove every guardrail
  --on-harm WHAT         pause or rollback
  --alpha ALPHA          The guardrails' alpha
${PLAN_OPTIONS}

Example:
  npx flagport release-plans update new-checkout rp-01J9Z3... --alpha 0.01`,

  "release-plans start": `Usage: flagport release-plans start FLAG ID [--project ID] [--json]

Starts a draft: the server's scheduler applies its first step at once, then
each next one when its hold has passed. Exits 1 when it is not a draft, its
rule no longer fits it, or another plan holds the flag's environment. In a
protected environment a person's start is a change request; the command
line (cli) starts it directly, as a server key does.

Options:
${PLAN_OPTIONS}`,

  "release-plans pause": `Usage: flagport release-plans pause FLAG ID [--project ID] [--json]

Pauses a running plan: the rule keeps the weight it has, no step is applied
until it is resumed.

Options:
${PLAN_OPTIONS}`,

  "release-plans resume": `Usage: flagport release-plans resume FLAG ID [--confirm] [--project ID]
                                     [--json]

Resumes a paused or harmed plan. After harm with rollback it starts from the
first step again. A plan paused because someone changed its flag's targeting
directly resumes only with --confirm: its next step then sets the rule's
rollout again.

Options:
  --confirm      Continue from the targeting as it is now
${PLAN_OPTIONS}`,

  "release-plans cancel": `Usage: flagport release-plans cancel FLAG ID [--project ID] [--json]

Stops a plan for good (draft, running, paused or harmed); its rule keeps the
weight it has.

Options:
${PLAN_OPTIONS}`,

  "release-plans delete": `Usage: flagport release-plans delete FLAG ID [--project ID] [--json]

Deletes a draft, completed or cancelled plan and prints DELETED=<id>. A plan
that holds its environment (running, paused, harmed) must be cancelled first.

Options:
  --project ID   The project (default: default)
  --json         Print { id, deleted: true }`
}
