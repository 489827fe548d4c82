/**
 * The banner over a result whose units per variation are not the split the rule assigns (the
 * sample-ratio check's χ² p-value under 0.001): something other than chance decides who is
 * counted (a redirect that loses units, a bot filter, a crash in one variation), so no verdict
 * below can be trusted until it is found. It shows the counts against the expected ones.
 */
import type { SampleRatioCheck } from "../lib/results.js"

const count = (n: number): string => Math.round(n).toLocaleString("en")

export const SampleRatioBanner = ({ check, nameOf }: { check: SampleRatioCheck; nameOf: (variationKey: string) => string }) => (
  <div class="banner danger" role="alert">
    <p>
      <strong>Sample ratio mismatch: do not trust these results.</strong> The units per variation are not the split the rule assigns (χ² {check.chiSquare.toFixed(1)}, p{" "}
      {check.pValue < 0.000001 ? "< 0.000001" : `= ${check.pValue.toPrecision(2)}`}), so something other than chance decides which units are counted. Find and
      fix the cause (a redirect or a crash that loses units in one variation, filtering, exposures sent for only some units) before reading any verdict.
    </p>
    <ul>
      {check.variations.map((v) => (
        <li key={v.variationKey}>
          {nameOf(v.variationKey)}: {count(v.units)} units, {count(v.expectedUnits)} expected
        </li>
      ))}
    </ul>
  </div>
)
