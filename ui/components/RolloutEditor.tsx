/**
 * A percentage rollout: the attribute it buckets by, then one share per variation of the flag,
 * typed as a percentage (stored as thousandths of a percent), and the running total. The API refuses a total other than 100%;
 * its message appears here, next to the shares.
 */
import { at, within, type Problems } from "../lib/problems.js"
import { percentOf, TOTAL_WEIGHT, weightOf } from "../lib/format.js"
import type { Rollout, Variation } from "../lib/types.js"
import { Field, Group } from "./Field.js"

export const evenRollout = (variations: ReadonlyArray<Variation>): Rollout => {
  const share = Math.floor(TOTAL_WEIGHT / Math.max(variations.length, 1))
  return {
    variations: variations.map((v, i) => ({
      variationKey: v.key,
      weight: i === 0 ? TOTAL_WEIGHT - share * (variations.length - 1) : share
    }))
  }
}

export const RolloutEditor = (props: {
  rollout: Rollout
  variations: ReadonlyArray<Variation>
  path: string
  label: string
  problems: Problems
  onChange: (r: Rollout) => void
}) => {
  const { rollout, path, label } = props
  const weightFor = (key: string): number => rollout.variations.find((w) => w.variationKey === key)?.weight ?? 0
  const setWeight = (key: string, weight: number) => {
    const known = rollout.variations.some((w) => w.variationKey === key)
    const variations = known
      ? rollout.variations.map((w) => (w.variationKey === key ? { ...w, weight } : w))
      : [...rollout.variations, { variationKey: key, weight }]
    props.onChange({ ...rollout, variations })
  }
  const total = rollout.variations.reduce((sum, w) => sum + (Number.isFinite(w.weight) ? w.weight : 0), 0)
  const problems = [...at(props.problems, `${path}.variations`), ...at(props.problems, path)]
  return (
    <Group legend={`${label}: rollout`} problems={problems} class="rollout">
      <Field label={`${label}: bucket by`} hint="The attribute whose value picks the bucket; empty means the context key." problems={at(props.problems, `${path}.bucketBy`)}>
        {(ctl) => (
          <input
            {...ctl}
            value={rollout.bucketBy ?? ""}
            onInput={(e) => {
              const { bucketBy: _old, ...rest } = rollout
              const value = e.currentTarget.value
              props.onChange(value === "" ? rest : { ...rest, bucketBy: value })
            }}
          />
        )}
      </Field>
      {props.variations.map((v, i) => {
        const weightPath = `${path}.variations[${rollout.variations.findIndex((w) => w.variationKey === v.key)}]`
        return (
          <Field key={v.key} label={`${label}: percentage for ${v.key}`} problems={within(props.problems, weightPath)} class="inline">
            {(ctl) => (
              <span class="percent">
                <input
                  {...ctl}
                  type="number"
                  min="0"
                  max="100"
                  step="0.001"
                  value={Number.isFinite(weightFor(v.key)) ? percentOf(weightFor(v.key)) : ""}
                  onInput={(e) => setWeight(v.key, weightOf(e.currentTarget.value))}
                  data-variation={v.key}
                  data-index={i}
                />
                %
              </span>
            )}
          </Field>
        )
      })}
      <p class={total === TOTAL_WEIGHT ? "total" : "total off"} aria-live="polite">
        Total: {percentOf(total)}%{total === TOTAL_WEIGHT ? "" : " (the shares must total 100%)"}
      </p>
    </Group>
  )
}
