/**
 * The server's refusal (`FlagportServerError`) in OpenFeature's terms. OpenFeature has no code for
 * a refused credential, so:
 *
 *   400, 404 (no such environment or project, or none named) -> INVALID_CONTEXT: what the provider
 *                                                               was told to read does not exist
 *   401, 403 and any other refusal (a wrong, revoked or misplaced key) -> GENERAL
 *
 * Not PROVIDER_FATAL, although OpenFeature suggests it for bad credentials: FATAL is final in the
 * SDK (evaluations stop reaching the provider for good), while the client keeps asking the server,
 * slowly, and serves what it has (a bootstrap, its last configuration) meanwhile.
 */
import { ErrorCode, GeneralError, InvalidContextError, type OpenFeatureError } from "@openfeature/server-sdk"
import type { FlagportServerError } from "../client/index.js"

export const refusalCode = (refusal: FlagportServerError): ErrorCode =>
  refusal.status === 400 || refusal.status === 404 ? ErrorCode.INVALID_CONTEXT : ErrorCode.GENERAL

/** The error `initialize` fails with: OpenFeature reads its `code` (PROVIDER_ERROR, not FATAL) and message. */
export const toOpenFeatureError = (refusal: FlagportServerError): OpenFeatureError =>
  refusalCode(refusal) === ErrorCode.INVALID_CONTEXT
    ? new InvalidContextError(refusal.message, { cause: refusal })
    : new GeneralError(refusal.message, { cause: refusal })
