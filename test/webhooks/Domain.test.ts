import { describe, expect, it } from "@effect/vitest"
import { Webhook as StandardWebhook } from "standardwebhooks"
import { JITTER_RATIO, MAX_ATTEMPTS, RETRY_DELAYS_MS, isSuccessStatus, retryDelay } from "../../src/domain/webhooks/RetrySchedule.js"
import { nodeCrypto } from "../../adapters/crypto/NodeCrypto.js"
import { signer, toStandardSecret } from "../../src/domain/webhooks/WebhookSigning.js"
import { hostOf, validateWebhookUrl } from "../../src/domain/webhooks/WebhookUrl.js"
import { refusalOf } from "../../src/domain/webhooks/DestinationAddress.js"
import { initialWindow, nextWindow, receivesEventAt } from "../../src/domain/webhooks/WebhookWindow.js"
import { validateSecret } from "../../src/domain/webhooks/WebhookSecret.js"

const { deliveryHeaders, sign, signatureHeader } = signer(nodeCrypto)

const VECTOR = "ypRQXmikgn+ovqSu/bv0BCupoOGBoSbNsdxGlyeKaB8="

describe("WebhookSigning", () => {
  const body = JSON.stringify({ id: "evt_1", type: "flag.created", note: "héllo 🚀" })
  const now = Math.floor(Date.now() / 1000)

  it("agrees byte for byte with the standardwebhooks library's own signer", () => {
    // Plain secrets, a whsec_ secret, and a malformed whsec_ one stored before validation (signed as text).
    const standard = "whsec_" + Buffer.alloc(32, 42).toString("base64")
    for (const secret of ["abcdefgh", "s3cret-ü-🔑-value", "x".repeat(128), standard, "whsec_legacy plain text"]) {
      const lib = new StandardWebhook(toStandardSecret(secret))
      expect(sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)).toBe(
        lib.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", new Date(1614265330 * 1000), body)
      )
    }
  })

  it("matches a fixed vector (HMAC-SHA256 over id.timestamp.body, base64)", () => {
    // Computed independently: printf 'msg_1.1614265330.{"test": 2432232314}' | openssl dgst -sha256 -hmac 'a-test-secret' -binary | base64
    expect(sign("a-test-secret", "msg_1", 1614265330, '{"test": 2432232314}')).toBe(`v1,${VECTOR}`)
  })

  it("is verified by the standardwebhooks library with the secret as whsec_ + base64(utf8)", () => {
    const secret = "s3cret-ü-🔑-value"
    const headers = deliveryHeaders({ id: "evt_1", timestamp: now, body, secrets: [secret] })
    const verified = new StandardWebhook(toStandardSecret(secret)).verify(body, headers)
    expect(verified).toEqual(JSON.parse(body))
    expect(headers["content-type"]).toBe("application/json")
    expect(headers["webhook-id"]).toBe("evt_1")
    expect(headers["webhook-timestamp"]).toBe(String(now))
  })

  it("signs with every secret during rotation, space-separated", () => {
    const header = signatureHeader(["new-secret-1", "old-secret-1"], "evt_2", now, body)!
    expect(header.split(" ")).toEqual([sign("new-secret-1", "evt_2", now, body), sign("old-secret-1", "evt_2", now, body)])
    const headers = { "webhook-id": "evt_2", "webhook-timestamp": String(now), "webhook-signature": header }
    expect(() => new StandardWebhook(toStandardSecret("new-secret-1")).verify(body, headers)).not.toThrow()
    expect(() => new StandardWebhook(toStandardSecret("old-secret-1")).verify(body, headers)).not.toThrow()
    expect(() => new StandardWebhook(toStandardSecret("other-secret")).verify(body, headers)).toThrow()
  })

  it("omits the signature header without a secret", () => {
    expect(deliveryHeaders({ id: "e", timestamp: now, body, secrets: [] })["webhook-signature"]).toBeUndefined()
  })

  it("changes when any signed part changes", () => {
    const base = sign("secret-1", "id", 1, "{}")
    expect(sign("secret-2", "id", 1, "{}")).not.toBe(base)
    expect(sign("secret-1", "id2", 1, "{}")).not.toBe(base)
    expect(sign("secret-1", "id", 2, "{}")).not.toBe(base)
    expect(sign("secret-1", "id", 1, "{ }")).not.toBe(base)
  })
})

describe("RetrySchedule", () => {
  it("follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up", () => {
    const s = 1000
    expect(RETRY_DELAYS_MS).toEqual([5 * s, 300 * s, 1800 * s, 7200 * s, 18000 * s, 36000 * s, 36000 * s])
    expect(MAX_ATTEMPTS).toBe(8)
    RETRY_DELAYS_MS.forEach((d, i) => expect(retryDelay(i + 1, 0)).toBe(d))
    expect(retryDelay(8, 0)).toBeUndefined()
    expect(retryDelay(0, 0)).toBeUndefined()
  })

  it("adds at most 10% jitter and never retries early", () => {
    for (const r of [0, 0.25, 0.5, 0.999999]) {
      const d = retryDelay(1, r)!
      expect(d).toBeGreaterThanOrEqual(5000)
      expect(d).toBeLessThanOrEqual(5000 * (1 + JITTER_RATIO))
    }
    expect(retryDelay(2, 0.5)).toBe(Math.round(300_000 * 1.05))
  })

  it("counts only 2xx as success", () => {
    expect([200, 204, 299].map(isSuccessStatus)).toEqual([true, true, true])
    expect([null, 199, 300, 301, 404, 500].map(isSuccessStatus)).toEqual([false, false, false, false, false, false])
  })
})

describe("WebhookUrl", () => {
  it.each([
    ["http://127.0.0.1:8080/hook", true],
    ["https://example.com/a?b=c", true],
    ["https://[::1]:9/x", true],
    ["ftp://example.com/", false],
    ["javascript:alert(1)", false],
    ["example.com/hook", false],
    ["", false],
    [`https://e.com/${"a".repeat(2100)}`, false]
  ])("validates %s", (url, ok) => {
    expect(validateWebhookUrl(url).length === 0).toBe(ok)
    if (!ok) expect(validateWebhookUrl(url)[0]!.path).toBe("url")
  })

  it("extracts the host without IPv6 brackets", () => {
    expect(hostOf("https://[::1]:9/x")).toBe("::1")
    expect(hostOf("http://Example.COM/x")).toBe("example.com")
  })

  it.each([
    "127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
    "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fc00::1", "fd12:3456::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:7f00:1", "64:ff9b::a00:1", "ff02::1",
    // IPv6 forms with an IPv4 address inside are refused whole, whatever is inside.
    "::ffff:8.8.8.8", "64:ff9b::808:808", "64:ff9b:1::808:8", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2"
  ])("%s is refused only when private destinations are blocked", (ip) => {
    expect(refusalOf(ip, true)?.refused).toBe("private")
    expect(refusalOf(ip, false)).toBeUndefined()
  })

  it.each([
    "169.254.169.254", "169.254.0.1", "100.100.100.200", "fe80::1", "fd00:ec2::254",
    "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "::169.254.169.254", "64:ff9b::169.254.169.254", "64:ff9b:1:a9fe:a9:fe00::",
    "2002:a9fe:a9fe::", "2001:0:a9fe:a9fe::", "2001:0:4136:e378:8000:63bf:5601:5601", "not-an-ip"
  ])("%s is refused always", (ip) => {
    expect(refusalOf(ip, false)?.refused).toBe("always")
    expect(refusalOf(ip, true)?.refused).toBe("always")
  })

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1", "169.253.1.1", "2606:4700::1111", "2a00:1450:4001:82b::200e"])(
    "%s is public",
    (ip) => expect(refusalOf(ip, true)).toBeUndefined()
  )

  it("a URL naming a link-local or metadata address is refused at creation", () => {
    expect(validateWebhookUrl("http://169.254.169.254/latest/meta-data/")).toEqual([
      { path: "url", message: "must not name 169.254.169.254: it is link-local (cloud metadata services), never a webhook destination" }
    ])
    expect(validateWebhookUrl("http://[::ffff:169.254.169.254]/")).toHaveLength(1)
    expect(validateWebhookUrl("http://0xa9fea9fe/")).toHaveLength(1) // the URL parser's IPv4 forms are normalised first
    expect(validateWebhookUrl("http://127.0.0.1:8080/hook")).toEqual([])
  })
})

describe("WebhookWindow", () => {
  const t = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString()

  it("a webhook receives the events of its latest enabled window, the enable's millisecond included", () => {
    const created = initialWindow(true, t(10))
    expect([9, 10, 11].map((ms) => receivesEventAt(created, t(ms)))).toEqual([false, true, true])
    expect(initialWindow(false, t(10))).toEqual({ enabledAt: null, disabledAt: null })
    expect(receivesEventAt(initialWindow(false, t(10)), t(20))).toBe(false)

    const disabled = nextWindow({ ...created, enabled: true }, false, t(20))
    expect([19, 20, 21].map((ms) => receivesEventAt(disabled, t(ms)))).toEqual([true, false, false])
    const reEnabled = nextWindow({ ...disabled, enabled: false }, true, t(30))
    expect([15, 25, 30, 99].map((ms) => receivesEventAt(reEnabled, t(ms)))).toEqual([false, false, true, true])
    // Setting the flag it already has keeps the window.
    expect(nextWindow({ ...reEnabled, enabled: true }, true, t(40))).toEqual(reEnabled)
    expect(nextWindow({ ...disabled, enabled: false }, false, t(40))).toEqual(disabled)
  })
})

describe("WebhookSecret", () => {
  const standard = (bytes: number) => "whsec_" + Buffer.alloc(bytes, 7).toString("base64")

  it("plain secrets: 8 to 128 characters, any text", () => {
    expect(validateSecret("12345678")).toEqual([])
    expect(validateSecret("x".repeat(128))).toEqual([])
    expect(validateSecret("1234567")).toEqual([{ path: "secret", message: "must be 8 to 128 characters" }])
    expect(validateSecret("x".repeat(129))).toEqual([{ path: "secret", message: "must be 8 to 128 characters" }])
  })

  it("whsec_ secrets: padded standard base64 of 24 to 64 bytes", () => {
    for (const bytes of [24, 25, 26, 32, 63, 64]) expect(validateSecret(standard(bytes))).toEqual([])
    for (const bytes of [0, 23, 65]) {
      expect(validateSecret(standard(bytes))).toEqual([
        { path: "secret", message: `must be whsec_ followed by the base64 of 24 to 64 bytes (this one holds ${bytes})` }
      ])
    }
    const badBase64 = "must be whsec_ followed by standard base64 (A-Z, a-z, 0-9, +, /, padded with =)"
    for (const bad of [
      standard(32).slice(0, -1), // padding cut
      "whsec_" + Buffer.alloc(32, 250).toString("base64url"), // URL-safe alphabet
      "whsec_ " + Buffer.alloc(32, 7).toString("base64").slice(1),
      "whsec_not base64 at all, but long enough to pass the length"
    ]) {
      expect(validateSecret(bad)).toEqual([{ path: "secret", message: badBase64 }])
    }
  })
})
