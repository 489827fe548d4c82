/** The mark of a stale flag: no environment evaluated it for the server's stale period (default 30 days). */
import type { Flag } from "../lib/types.js"

export const StaleBadge = ({ flag }: { flag: Flag }) => (flag.stale ? <span class="badge">stale</span> : null)
