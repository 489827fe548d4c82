#!/bin/sh
# The issue's simulation of release plans at full size through a real server over HTTP: 200
# harmless (A/A) ramps and 200 whose treatment doubles the error rate, run 10 + 10 at a time on one
# `flagport serve` process (test/releaseplans/RampsOverHttp.test.ts, which the suite runs with 20 of
# each). Figures: docs/operations/benchmarks.md ("Release plans: ramps over HTTP").
#
#   flock /tmp/flagport-bench.lock nice -n -10 sh bench/release-plan-ramps.sh
set -e
cd "$(dirname "$0")/.."
FLAGPORT_RAMP_RUNS="${FLAGPORT_RAMP_RUNS:-200}" FLAGPORT_RAMP_BATCH="${FLAGPORT_RAMP_BATCH:-10}" exec npx vitest run test/releaseplans/RampsOverHttp.test.ts
