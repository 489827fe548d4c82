/**
 * The variations of a flag, each value typed by the flag's type: a true/false choice, a text, a
 * number, or JSON checked as it is typed (the value is sent only once it parses).
 */
import { useState } from "preact/hooks"
import { at, type Problems } from "../lib/problems.js"
import type { FlagType, Variation } from "../lib/types.js"
import { Field, Problems as ProblemList } from "./Field.js"

/** A variation being edited: JSON values keep their text until it parses. */
export interface Draft {
  readonly key: string
  readonly name: string
  readonly text: string
}

export const toDraft = (type: FlagType, v: Variation): Draft => ({
  key: v.key,
  name: v.name ?? "",
  text: type === "json" ? JSON.stringify(v.value, null, 2) : String(v.value)
})

/** The value a draft stands for, or an error message for the field. */
export const valueOf = (type: FlagType, text: string): { ok: true; value: unknown } | { ok: false; message: string } => {
  switch (type) {
    case "boolean":
      return { ok: true, value: text === "true" }
    case "number":
      return text.trim() !== "" && Number.isFinite(Number(text)) ? { ok: true, value: Number(text) } : { ok: false, message: "Enter a number." }
    case "json":
      try {
        return { ok: true, value: JSON.parse(text) }
      } catch (error) {
        return { ok: false, message: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` }
      }
    default:
      return { ok: true, value: text }
  }
}

/** The variations to send, or null while some value does not parse. */
export const toVariations = (type: FlagType, drafts: ReadonlyArray<Draft>): ReadonlyArray<Variation> | null => {
  const out: Array<Variation> = []
  for (const d of drafts) {
    const v = valueOf(type, d.text)
    if (!v.ok) return null
    out.push(d.name === "" ? { key: d.key, value: v.value } : { key: d.key, value: v.value, name: d.name })
  }
  return out
}

export const defaultDrafts = (type: FlagType): ReadonlyArray<Draft> =>
  type === "boolean"
    ? [{ key: "on", name: "", text: "true" }, { key: "off", name: "", text: "false" }]
    : type === "number"
      ? [{ key: "a", name: "", text: "1" }, { key: "b", name: "", text: "0" }]
      : type === "json"
        ? [{ key: "a", name: "", text: "{}" }, { key: "b", name: "", text: "null" }]
        : [{ key: "a", name: "", text: "a" }, { key: "b", name: "", text: "b" }]

const ValueControl = (props: { type: FlagType; text: string; label: string; problems: ReadonlyArray<string>; onText: (t: string) => void }) => {
  const local = valueOf(props.type, props.text)
  const problems = [...(local.ok ? [] : [local.message]), ...props.problems]
  return (
    <Field label={props.label} problems={problems}>
      {(ctl) =>
        props.type === "boolean" ? (
          <select {...ctl} value={props.text} onChange={(e) => props.onText(e.currentTarget.value)}>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : props.type === "json" ? (
          <textarea {...ctl} class="mono" rows={3} value={props.text} onInput={(e) => props.onText(e.currentTarget.value)} />
        ) : (
          <input {...ctl} type={props.type === "number" ? "number" : "text"} step={props.type === "number" ? "any" : undefined} value={props.text} onInput={(e) => props.onText(e.currentTarget.value)} />
        )}
    </Field>
  )
}

export const VariationsEditor = (props: {
  type: FlagType
  drafts: ReadonlyArray<Draft>
  problems: Problems
  onChange: (drafts: ReadonlyArray<Draft>) => void
}) => {
  const { drafts } = props
  // Rows keep their identity while others are removed.
  const [uids, setUids] = useState<ReadonlyArray<number>>(() => drafts.map((_, i) => i))
  const set = (i: number, patch: Partial<Draft>) => props.onChange(drafts.map((d, j) => (j === i ? { ...d, ...patch } : d)))
  return (
    <fieldset class="variations">
      <legend>Variations ({props.type})</legend>
      <ProblemList id="variations-problems" messages={at(props.problems, "variations")} />
      {drafts.map((d, i) => (
        <div class="variation" key={uids[i] ?? i}>
          <Field label={`Variation ${i + 1}: key`} problems={at(props.problems, `variations[${i}].key`)}>
            {(ctl) => <input {...ctl} value={d.key} onInput={(e) => set(i, { key: e.currentTarget.value })} />}
          </Field>
          <ValueControl type={props.type} text={d.text} label={`Variation ${i + 1}: value`} problems={at(props.problems, `variations[${i}].value`)} onText={(text) => set(i, { text })} />
          <Field label={`Variation ${i + 1}: name (optional)`} problems={at(props.problems, `variations[${i}].name`)}>
            {(ctl) => <input {...ctl} value={d.name} onInput={(e) => set(i, { name: e.currentTarget.value })} />}
          </Field>
          <button
            type="button"
            class="secondary small"
            disabled={drafts.length === 1}
            onClick={() => {
              setUids(uids.filter((_, j) => j !== i))
              props.onChange(drafts.filter((_, j) => j !== i))
            }}
          >
            Remove variation {i + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        class="secondary small"
        onClick={() => {
          setUids([...uids, Math.max(-1, ...uids) + 1])
          props.onChange([...drafts, { key: `v${drafts.length + 1}`, name: "", text: props.type === "boolean" ? "false" : props.type === "number" ? "0" : props.type === "json" ? "null" : "" }])
        }}
      >
        Add variation
      </button>
    </fieldset>
  )
}
