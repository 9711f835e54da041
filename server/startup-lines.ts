// The lines the server prints once it listens: the owner's set-up link on every address it answers on, and the guest demo's link while it is open.
import os from "node:os";

/** The network interfaces as `os.networkInterfaces()` lists them. */
export type Interfaces = NodeJS.Dict<os.NetworkInterfaceInfo[]>;

/** Hosts that mean "every address of this machine" (HOST). */
const EVERY_IPV4 = "0.0.0.0";
const EVERY_ADDRESS = "::";

/** `http://<host>:<port>`, an IPv6 address in brackets. */
function originOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Whether a browser on another machine can open this interface address in a URL. */
function reachable(address: os.NetworkInterfaceInfo, ipv6: boolean): boolean {
  if (address.internal) return false;
  if (address.family === "IPv4") return true;
  // An IPv6 link-local address (fe80::/10) needs its interface's name in a URL, which browsers refuse.
  return ipv6 && address.family === "IPv6" && !/^fe[89ab]/i.test(address.address);
}

/**
 * The origins a browser reaches this server at, for links printed at start: PUBLIC_URL alone when
 * it is set; else, when the server listens on every address (HOST 0.0.0.0, or :: for IPv6 too),
 * http://localhost:<port> and each address of this machine's network interfaces but loopback (and
 * IPv6 link-local); else HOST itself.
 * @param options.publicUrl PUBLIC_URL without a trailing slash, or "" when it is not set.
 * @param options.port the port the server listens on (the real one when PORT is 0).
 * @param interfaces this machine's interfaces (tests pass their own).
 */
export function reachableOrigins(
  options: { publicUrl: string; host: string; port: number },
  interfaces: Interfaces = os.networkInterfaces(),
): string[] {
  const { publicUrl, host, port } = options;
  if (publicUrl) return [publicUrl];
  if (host !== EVERY_IPV4 && host !== EVERY_ADDRESS) return [originOf(host, port)];
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((address) => reachable(address, host === EVERY_ADDRESS))
    .map((address) => originOf(address.address, port));
  return [...new Set([originOf("localhost", port), ...addresses])];
}

/**
 * What the server prints once it listens, after "Companion is running at …" (product.md §2
 * "Owner set-up"): while no admin exists, `Set up the owner account: <origin>/setup/<token>`
 * once per origin (one token: whichever address the owner's browser reaches works); then the guest
 * demo's link while the demo is open, or a line saying how to open it.
 * @param state.setupPath `/setup/<token>` while no admin exists (App.setupPath), else undefined.
 * @param state.demoPath `/login/<DEMO_LOGIN_ID>`.
 */
export function startupLines(
  origins: string[],
  state: { setupPath: string | undefined; demoOpen: boolean; demoPath: string },
): string[] {
  const lines = state.setupPath
    ? origins.map((origin) => `Set up the owner account: ${origin}${state.setupPath}`)
    : [];
  lines.push(
    state.demoOpen
      ? `Demo: open ${origins[0]}${state.demoPath}`
      : "Guest demo: off (an admin can turn it on in Admin → Site).",
  );
  return lines;
}
