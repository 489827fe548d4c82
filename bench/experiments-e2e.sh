#!/bin/sh
# The done-when of experiments at full size: 100,000 simulated units through the SDK and the HTTP
# routes (duplicates and retries mixed in) on SQLite and PostgreSQL, the stored per-unit rows
# compared with what was sent (test/client/ExperimentsEndToEnd.test.ts, which the suite runs with
# 10,000). Figures: docs/operations/benchmarks.md.
#
#   flock /tmp/flagport-bench.lock nice -n -10 sh bench/experiments-e2e.sh
set -e
cd "$(dirname "$0")/.."
FLAGPORT_E2E_UNITS="${FLAGPORT_E2E_UNITS:-100000}" exec npx vitest run test/client/ExperimentsEndToEnd.test.ts
