import { createHash, createHmac, randomBytes } from "node:crypto"
import * as Layer from "effect/Layer"
import type { PasswordHasher } from "../../src/ports/PasswordHasher.js"
import { Crypto, type CryptoShape } from "../../src/ports/Crypto.js"
import * as Argon2PasswordHasher from "./Argon2PasswordHasher.js"

/** The Crypto port over node:crypto (the OS CSPRNG, OpenSSL's SHA-256 and HMAC). */
export const nodeCrypto: CryptoShape = {
  randomBytes: (size) => new Uint8Array(randomBytes(size)),
  sha256Hex: (text) => createHash("sha256").update(text, "utf8").digest("hex"),
  hmacSha256Base64: (key, message) => createHmac("sha256", key).update(message, "utf8").digest("base64")
}

/**
 * The Crypto port, and password hashing (Argon2id, Argon2PasswordHasher.ts) beside it, so a host
 * that composes the use cases itself provides both with this one layer.
 */
export const layer: Layer.Layer<Crypto | PasswordHasher> = Layer.merge(Layer.succeed(Crypto, nodeCrypto), Argon2PasswordHasher.layer)
