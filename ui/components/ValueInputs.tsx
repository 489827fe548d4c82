/**
 * The values of a condition, typed in with the input that suits its operator: numbers, dates
 * (UTC), versions, regular expressions, plain strings, JSON values (for `in` / `notIn`), segment
 * checkboxes, or nothing at all (`exists`). What is typed is sent as typed: the API is the one
 * judge of validity, and its problems come back to the values' group.
 */
import { useState } from "preact/hooks"
import { fromUtcInput, toUtcInput } from "../lib/format.js"
import type { ValueInput } from "../lib/operators.js"
import type { Segment } from "../lib/types.js"
import { Group } from "./Field.js"

/** A JSON value as typed: valid JSON is that value, anything else is the string as typed. */
const parseJsonish = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
const showJsonish = (value: unknown): string => {
  if (typeof value !== "string") return JSON.stringify(value)
  // A string that would read back as other JSON ("true", "12") keeps its quotes.
  return parseJsonish(value) === value ? value : JSON.stringify(value)
}

const codec: Record<Exclude<ValueInput, "none" | "segments">, { show: (v: unknown) => string; read: (t: string) => unknown; type: string; hint: string }> = {
  json: { show: showJsonish, read: parseJsonish, type: "text", hint: "A JSON value; text that is not JSON is a string (quote \"true\" to mean the string)." },
  text: { show: String, read: (t) => t, type: "text", hint: "" },
  regex: { show: String, read: (t) => t, type: "text", hint: "A regular expression (RE2 syntax)." },
  number: { show: String, read: (t) => (t.trim() !== "" && Number.isFinite(Number(t)) ? Number(t) : t), type: "number", hint: "" },
  date: { show: (v) => toUtcInput(v), read: fromUtcInput, type: "datetime-local", hint: "Date and time in UTC." },
  semver: { show: String, read: (t) => t, type: "text", hint: "A semantic version such as 1.4.0." }
}

const OneValue = (props: { input: keyof typeof codec; value: unknown; label: string; describedBy: string | undefined; onChange: (v: unknown) => void }) => {
  const c = codec[props.input]
  // The text as typed, so a half-typed number or date is not rewritten under the cursor.
  const [text, setText] = useState(() => c.show(props.value))
  return (
    <input
      type={c.type}
      step={props.input === "number" ? "any" : undefined}
      class={props.input === "regex" ? "mono" : undefined}
      aria-label={props.label}
      aria-describedby={props.describedBy}
      value={text}
      onInput={(e) => {
        const t = e.currentTarget.value
        setText(t)
        props.onChange(c.read(t))
      }}
    />
  )
}

export const ValueInputs = (props: {
  input: ValueInput
  values: ReadonlyArray<unknown>
  segments: ReadonlyArray<Segment>
  problems: ReadonlyArray<string>
  label: string
  onChange: (values: ReadonlyArray<unknown>) => void
}) => {
  const { input, values } = props
  if (input === "none") return <p class="muted">This operator takes no values.</p>
  if (input === "segments") {
    return (
      <Group legend={`${props.label}: segments`} problems={props.problems} class="segments-picker">
        {props.segments.length === 0 ? <p class="muted">No segments in this project yet.</p> : null}
        {props.segments.map((s) => (
          <label key={s.key} class="check">
            <input
              type="checkbox"
              checked={values.includes(s.key)}
              onChange={(e) =>
                props.onChange(e.currentTarget.checked ? [...values, s.key] : values.filter((v) => v !== s.key))}
            />
            {s.name} <code>{s.key}</code>
          </label>
        ))}
      </Group>
    )
  }
  const c = codec[input]
  const hintId = c.hint === "" ? undefined : `${props.label.replace(/\W+/g, "-")}-hint`
  return (
    <Group legend={`${props.label}: values`} problems={props.problems} class="values">
      {c.hint === "" ? null : <small id={hintId}>{c.hint}</small>}
      {values.map((v, i) => (
        <div class="value-row" key={`${input}-${i}-${values.length}`}>
          <OneValue
            input={input}
            value={v}
            label={`${props.label}: value ${i + 1}`}
            describedBy={hintId}
            onChange={(next) => props.onChange(values.map((old, j) => (j === i ? next : old)))}
          />
          <button type="button" class="secondary small" onClick={() => props.onChange(values.filter((_, j) => j !== i))} aria-label={`Remove value ${i + 1} of ${props.label}`}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" class="secondary small" onClick={() => props.onChange([...values, input === "number" ? 0 : ""])}>
        Add value
      </button>
    </Group>
  )
}
