import net from "node:net";

/**
 * A TCP relay on 127.0.0.1 in front of a test server, that can freeze: while frozen, connections
 * are accepted but nothing passes either way (a storage server that hangs without closing), and
 * thawing lets everything held pass again. Tests point a client at `port` instead of the server.
 */
export interface TcpRelay {
  readonly port: number;
  /** Holds every byte of every connection, open or new, until `thaw`. */
  freeze(): void;
  /** Lets the held connections go on and new ones pass. */
  thaw(): void;
  /** Closes the relay and every connection through it. */
  close(): Promise<void>;
}

/**
 * Starts a relay to 127.0.0.1:`targetPort` on a free port.
 * @returns the relay once it listens.
 */
export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  let frozen = false;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    if (frozen) {
      client.pause();
      upstream.pause();
    }
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.once("error", end).once("close", end);
    upstream.once("error", end).once("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    freeze() {
      frozen = true;
      for (const { client, upstream } of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const { client, upstream } of pairs) {
        client.resume();
        upstream.resume();
      }
    },
    close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
