import * as Dns from "node:dns"
import type { LookupFunction } from "node:net"
import { isPrivateAddress } from "../../src/domain/webhooks/WebhookUrl.js"

/** Raised (as the connection error) when a destination resolves into a refused range. */
export class PrivateAddressRefused extends Error {
  constructor(hostname: string, address: string) {
    super(`destination ${hostname} resolves to ${address}, a private, loopback or link-local address (FLAGPORT_WEBHOOK_BLOCK_PRIVATE)`)
    this.name = "PrivateAddressRefused"
  }
}

/**
 * A socket `lookup` that resolves with the system resolver and refuses the connection when ANY
 * resolved address is private. The check runs on the very addresses the socket connects to, so a
 * DNS answer that changes between a check and the connection (rebinding) cannot slip through.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  Dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0)
    const list = addresses as unknown as ReadonlyArray<Dns.LookupAddress>
    const refused = list.find((a) => isPrivateAddress(a.address))
    if (refused !== undefined) return callback(new PrivateAddressRefused(hostname, refused.address), "", 0)
    if (options.all === true) return (callback as unknown as (e: null, a: ReadonlyArray<Dns.LookupAddress>) => void)(null, list)
    const first = list[0]
    if (first === undefined) return callback(new Error(`no address for ${hostname}`), "", 0)
    return callback(null, first.address, first.family)
  })
}
