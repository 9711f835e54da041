// A TCP relay in front of a test server that a test switches to pass, hang or refuse, to fake an outage.
import net from "node:net";

/**
 * How a relay treats its connections: "pass" forwards both ways; "hang" holds every byte of
 * every connection, open or new, without closing any (a server that froze: SIGSTOP, a stuck
 * disk, a dropped route); "refuse" cuts every connection and stops listening (connection refused).
 */
export type RelayMode = "pass" | "hang" | "refuse";

/**
 * A TCP relay on 127.0.0.1 in front of a test server (an S3 server, PostgreSQL), switched by the
 * test to fail as a real server does. Tests point a client at `port` instead of the server.
 */
export interface TcpRelay {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /**
   * Switches the mode. Leaving "hang" for "pass" lets the held connections go on where they
   * stopped; "refuse" and leaving it cut every connection (a pooled socket cannot bypass it).
   */
  set(mode: RelayMode): Promise<void>;
  /** Closes the relay and every connection through it. */
  close(): Promise<void>;
}

/**
 * Starts a relay to 127.0.0.1:`targetPort` on a free port, in "pass" mode.
 * @returns the relay once it listens.
 */
export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  let mode: RelayMode = "pass";
  let port = 0;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const cutAll = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  const accept = (client: net.Socket) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    if (mode === "hang") {
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
  };
  let server = net.createServer(accept);
  const listen = () =>
    new Promise<void>((resolve) =>
      server.listen(port, "127.0.0.1", () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      }),
    );
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await listen();
  return {
    get port() {
      return port;
    },
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    async set(next) {
      if (next === mode) return;
      const was = mode;
      mode = next;
      if (next === "refuse") {
        cutAll();
        await stopListening();
        return;
      }
      if (was === "refuse") {
        server = net.createServer(accept);
        await listen();
        return;
      }
      for (const { client, upstream } of pairs) {
        if (next === "hang") {
          client.pause();
          upstream.pause();
        } else {
          client.resume();
          upstream.resume();
        }
      }
    },
    async close() {
      cutAll();
      if (mode !== "refuse") await stopListening();
    },
  };
}
