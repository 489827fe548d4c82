/**
 * Base64 without node:buffer, so the core runs wherever `btoa` and `TextEncoder` exist (Node,
 * browsers, edge runtimes).
 */

/** Standard base64, padded. */
export const fromBytes = (bytes: Uint8Array): string => {
  let binary = ""
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!)
  return btoa(binary)
}

/** base64url (RFC 4648 §5), unpadded: safe in URLs and headers as it is. */
export const urlFromBytes = (bytes: Uint8Array): string =>
  fromBytes(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/** The bytes of standard base64 text (the caller checks the text first: `atob` throws on bad input). */
export const toBytes = (base64: string): Uint8Array => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))

/** Standard base64 of a string's UTF-8 bytes. */
export const fromUtf8 = (text: string): string => fromBytes(new TextEncoder().encode(text))
