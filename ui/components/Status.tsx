/** What a page shows while it loads or when the API refused to load it. */
import type { Loaded } from "../lib/load.js"
import { ErrorSummary } from "./ErrorSummary.js"

export const Waiting = ({ loaded }: { loaded: Loaded<unknown> }) =>
  loaded.state === "loading" ? <p role="status">Loading…</p> : loaded.state === "failed" ? <ErrorSummary problems={loaded.problems} /> : null
