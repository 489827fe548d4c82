import { createHash, createHmac, randomBytes } from "node:crypto"
import * as Layer from "effect/Layer"
import { Crypto, type CryptoShape } from "../../src/ports/Crypto.js"

/** The Crypto port over node:crypto (the OS CSPRNG, OpenSSL's SHA-256 and HMAC). */
export const nodeCrypto: CryptoShape = {
  randomBytes: (size) => new Uint8Array(randomBytes(size)),
  sha256Hex: (text) => createHash("sha256").update(text, "utf8").digest("hex"),
  hmacSha256Base64: (key, message) => createHmac("sha256", key).update(message, "utf8").digest("base64")
}

export const layer: Layer.Layer<Crypto> = Layer.succeed(Crypto, nodeCrypto)
