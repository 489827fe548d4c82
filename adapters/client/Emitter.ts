/**
 * The client's events (`client.on("change", ...)`): a listener map with no dependency, since
 * Node's EventEmitter does not exist on every runtime the client targets.
 */
import type { ClientEventName, ClientEvents } from "./Types.js"

export class Emitter {
  private readonly listeners = new Map<ClientEventName, Set<(...args: Array<never>) => void>>()

  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void {
    let set = this.listeners.get(event)
    if (set === undefined) this.listeners.set(event, (set = new Set()))
    set.add(listener)
    return () => this.off(event, listener)
  }

  off<E extends ClientEventName>(event: E, listener: ClientEvents[E]): void {
    this.listeners.get(event)?.delete(listener)
  }

  has<E extends ClientEventName>(event: E, listener: ClientEvents[E]): boolean {
    return this.listeners.get(event)?.has(listener) ?? false
  }

  emit<E extends ClientEventName>(event: E, ...args: Parameters<ClientEvents[E]>): void {
    const set = this.listeners.get(event)
    if (set === undefined) return
    for (const listener of [...set]) this.tell(listener as (...a: Parameters<ClientEvents[E]>) => void, ...args)
  }

  /** Calls one listener, as `emit` calls each. */
  tell<A extends ReadonlyArray<unknown>>(listener: (...args: A) => void, ...args: A): void {
    try {
      listener(...args)
    } catch {
      // A failing listener must not stop the client's updates nor the other listeners.
    }
  }

  clear(): void {
    this.listeners.clear()
  }
}
