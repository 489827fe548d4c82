/** `/v1/me`: the person the session middleware found (Security.ts `SignedIn`). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { FlagportApi } from "../Api.js"
import { SignedIn } from "../Security.js"

export const MeLive = HttpApiBuilder.group(FlagportApi, "me", (handlers) => handlers.handle("me", () => SignedIn))
