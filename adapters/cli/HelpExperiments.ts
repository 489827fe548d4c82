/** The help pages of `flagport experiments` (Help.ts shows them; docs/guide/experiments.md says more). */
export const EXPERIMENTS_PAGES: Readonly<Record<string, string>> = {
  experiments: `Usage: flagport experiments <list|show|results|start|stop> [options]

Commands:
  list                A project's experiments with their status
  show EXPERIMENT     One experiment: flag, rule, control, metrics, analysis
  results EXPERIMENT  Its results: the checks, then lift and verdict per metric
  start EXPERIMENT    Start a draft: collect its exposures and events from now
  stop EXPERIMENT     Stop a running experiment, with the decision if made

Starting and stopping go through the same checks as the API, are audited
(actor cli) and send the webhook events experiment.started and
experiment.stopped. Create and change experiments in the API or dashboard.
Run flagport experiments <command> --help for its options.`,

  "experiments list": `Usage: flagport experiments list [--project ID] [--json]

Lists a project's experiments: key, status (draft, running, stopped), flag,
environment, the rule that splits the units, when it started, name.

Options:
  --project ID   The project (default: default)
  --json         Print { data: [...] }, the experiments as the API shows them`,

  "experiments show": `Usage: flagport experiments show EXPERIMENT [--project ID] [--json]

Shows one experiment as KEY=value lines: status, flag, environment, rule,
control variation, metrics, analysis, when it started and stopped.

Options:
  --project ID   The project (default: default)
  --json         Print the experiment as the API shows it

Example:
  npx flagport experiments show checkout-redesign`,

  "experiments results": `Usage: flagport experiments results EXPERIMENT [--project ID] [--json]

Shows an experiment's results as the API computes them. First the checks as
KEY=value lines: TRUSTWORTHY (no when the units per variation do not match
the rollout's weights: do not act on the figures), SAMPLE_RATIO (units seen
against expected, its p-value), units seen in several variations (left out),
targeting changes while it ran, and whether there is enough data. Then one
row per metric and variation: units, mean, the relative lift against the
control with its interval, the p-value (or the Bayesian chance to beat the
control) and the verdict: better, worse or inconclusive.

Options:
  --project ID   The project (default: default)
  --json         Print the results as the API shows them, figures unrounded

Example:
  npx flagport experiments results checkout-redesign`,

  "experiments start": `Usage: flagport experiments start EXPERIMENT [--project ID] [--json]

Starts a draft: from now the exposures and metric events of its flag's rule
are collected. Exits 1 when it is not a draft, when its rule no longer splits
units by a percentage rollout serving the control, or when another running
experiment measures the same rule. It changes no targeting.

Options:
  --project ID   The project (default: default)
  --json         Print the experiment as the API shows it

Example:
  npx flagport experiments start checkout-redesign`,

  "experiments stop": `Usage: flagport experiments stop EXPERIMENT [--ship VARIATION]
                              [--note TEXT] [--project ID] [--json]

Stops a running experiment; what it collected stays. With --ship, records
the team's decision: the variation it ships and, with --note, why. Stopping
changes no targeting: ship the variation with flagport flags or the API.

Options:
  --ship VARIATION  The variation decided on (one the flag has)
  --note TEXT       Why (needs --ship)
  --project ID      The project (default: default)
  --json            Print the experiment as the API shows it

Example:
  npx flagport experiments stop checkout-redesign --ship on \\
    --note "Purchases up 4%, errors flat"`
}
