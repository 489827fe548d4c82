import * as Dns from "node:dns"
import type { LookupFunction } from "node:net"
import { describeRefusal, type Refusal, refusalOf } from "../../src/domain/webhooks/DestinationAddress.js"

/** Raised (as the connection error) when a destination resolves into a refused range. */
export class AddressRefused extends Error {
  constructor(readonly hostname: string, readonly refusal: Refusal) {
    // The address itself is left out: the log would otherwise tell a key holder what internal names resolve to.
    super(`destination refused: ${hostname} resolves to ${describeRefusal({ ...refusal, address: "an address that" })}`)
    this.name = "AddressRefused"
  }
}

/**
 * A socket `lookup` that resolves with the system resolver and refuses the connection when ANY
 * resolved address is refused (domain/webhooks/DestinationAddress.ts: link-local and metadata
 * addresses always, private ones with `blockPrivate`). The check runs on the very addresses the
 * socket connects to, so a DNS answer that changes between a check and the connection
 * (rebinding) cannot slip through.
 */
export const guardedLookup = (blockPrivate: boolean): LookupFunction => (hostname, options, callback) => {
  Dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0)
    const list = addresses as unknown as ReadonlyArray<Dns.LookupAddress>
    for (const { address } of list) {
      const refusal = refusalOf(address, blockPrivate)
      if (refusal !== undefined) return callback(new AddressRefused(hostname, refusal), "", 0)
    }
    if (options.all === true) return (callback as unknown as (e: null, a: ReadonlyArray<Dns.LookupAddress>) => void)(null, list)
    const first = list[0]
    if (first === undefined) return callback(new Error(`no address for ${hostname}`), "", 0)
    return callback(null, first.address, first.family)
  })
}
