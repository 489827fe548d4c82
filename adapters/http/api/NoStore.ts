/**
 * `Cache-Control: no-store` on every answer to a request that carries a session cookie (the
 * sign-in's answer, which sets one, says so itself: AuthLive.ts). What a person's browser is shown (their flags, the audit
 * log, members, who they are) must not be kept by the browser's cache or a shared proxy, where it
 * would outlive the sign-out and reach the next person at that computer. Keys' answers are left to
 * the caller (applications and tools do not share a browser).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { FlagportApi } from "./Api.js"
import { COOKIE_NAME, hasSessionCookie, SECURE_COOKIE_NAME } from "../shared/SessionCookie.js"

const COOKIES = [{ name: COOKIE_NAME, secure: false }, { name: SECURE_COOKIE_NAME, secure: true }]

/** Whether a `Cookie` header carries a session cookie, under either name. */
export const carriesSessionCookie = (cookieHeader: string | undefined): boolean => COOKIES.some((cookie) => hasSessionCookie(cookie, cookieHeader))

const noStore = HttpApp.appendPreResponseHandler((request, response) =>
  Effect.succeed(
    carriesSessionCookie(request.headers.cookie) ? HttpServerResponse.setHeader(response, "cache-control", "no-store") : response
  )
)

export const NoStoreLive = HttpApiBuilder.middleware(
  FlagportApi,
  Effect.succeed((app: HttpApp.Default) => Effect.zipRight(noStore, app)),
  { withContext: true }
)
