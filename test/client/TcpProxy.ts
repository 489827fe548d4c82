/**
 * A TCP proxy on loopback between a client and a server: the network cut and restored, as an
 * outage is. `cut()` stops listening (new connections are refused) and destroys every open
 * connection; `restore()` listens again on the same port.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net"

export interface TcpProxy {
  readonly url: string
  readonly cut: () => Promise<void>
  readonly restore: () => Promise<void>
  readonly close: () => Promise<void>
}

const listen = (server: Server, port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject)
      const address = server.address()
      resolve(typeof address === "object" && address !== null ? address.port : port)
    })
  })

export const startTcpProxy = async (targetPort: number): Promise<TcpProxy> => {
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => socket.destroy())
  }
  const server = createServer((inbound) => {
    const outbound = createConnection(targetPort, "127.0.0.1")
    track(inbound)
    track(outbound)
    inbound.pipe(outbound)
    outbound.pipe(inbound)
    inbound.on("close", () => outbound.destroy())
    outbound.on("close", () => inbound.destroy())
  })
  const port = await listen(server, 0)
  let listening = true
  const cut = async () => {
    if (!listening) return
    listening = false
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    for (const socket of sockets) socket.destroy()
    await closed
  }
  return {
    url: `http://127.0.0.1:${port}`,
    cut,
    restore: async () => {
      if (listening) return
      await listen(server, port)
      listening = true
    },
    close: cut
  }
}
