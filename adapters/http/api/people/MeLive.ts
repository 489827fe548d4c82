/** `/v1/me`: the person the session middleware found (Security.ts `SignedIn`). */
import { HttpApiBuilder } from "@effect/platform"
import { FlagportApi } from "../Api.js"
import { SignedIn } from "../Security.js"

export const MeLive = HttpApiBuilder.group(FlagportApi, "me", (handlers) => handlers.handle("me", () => SignedIn))
