import * as Context from "effect/Context"
/**
 * The cryptography the core needs, behind a port so that src/ imports no runtime module
 * (node:crypto lives in adapters/crypto). Used to make and hash API keys and to sign webhooks;
 * the evaluator needs none of it (its hash, MurmurHash3, is plain arithmetic).
 */
export interface CryptoShape {
  /** `size` bytes from a cryptographically secure generator. */
  readonly randomBytes: (size: number) => Uint8Array
  /** SHA-256 of the text's UTF-8 bytes, as lowercase hex. */
  readonly sha256Hex: (text: string) => string
  /** HMAC-SHA256 of the message's UTF-8 bytes under the key bytes, as standard base64. */
  readonly hmacSha256Base64: (key: Uint8Array, message: string) => string
}

export class Crypto extends Context.Tag("@flagport/ports/Crypto")<Crypto, CryptoShape>() {}
