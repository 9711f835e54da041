// Tests of what the server says at start: the addresses its links use, the set-up and demo lines, and how to connect a model on a fresh install.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Interfaces, reachableOrigins, startupLines } from "./startup-lines";
import { call } from "./testing/api";
import { createTestStack } from "./testing/server";

/** A machine with loopback, a LAN card (IPv4, a ULA IPv6 and a link-local IPv6) and a second card. */
const INTERFACES: Interfaces = {
  lo: [
    { address: "127.0.0.1", netmask: "255.0.0.0", family: "IPv4", mac: "", internal: true, cidr: null },
    { address: "::1", netmask: "", family: "IPv6", mac: "", internal: true, cidr: null, scopeid: 0 },
  ],
  eth0: [
    { address: "192.168.1.5", netmask: "", family: "IPv4", mac: "", internal: false, cidr: null },
    { address: "fd00::5", netmask: "", family: "IPv6", mac: "", internal: false, cidr: null, scopeid: 0 },
    { address: "fe80::1", netmask: "", family: "IPv6", mac: "", internal: false, cidr: null, scopeid: 2 },
  ],
  wlan0: [{ address: "10.0.0.7", netmask: "", family: "IPv4", mac: "", internal: false, cidr: null }],
};

describe("the origins printed links use", () => {
  it("is PUBLIC_URL alone when it is set", () => {
    expect(
      reachableOrigins({ publicUrl: "https://chat.example.org", host: "0.0.0.0", port: 3000 }, INTERFACES),
    ).toEqual(["https://chat.example.org"]);
  });

  it("on 0.0.0.0: localhost and every IPv4 address but loopback", () => {
    expect(reachableOrigins({ publicUrl: "", host: "0.0.0.0", port: 3000 }, INTERFACES)).toEqual([
      "http://localhost:3000",
      "http://192.168.1.5:3000",
      "http://10.0.0.7:3000",
    ]);
  });

  it("on ::, the IPv6 addresses too, in brackets, but not link-local ones (a URL cannot name them)", () => {
    expect(reachableOrigins({ publicUrl: "", host: "::", port: 8080 }, INTERFACES)).toEqual([
      "http://localhost:8080",
      "http://192.168.1.5:8080",
      "http://[fd00::5]:8080",
      "http://10.0.0.7:8080",
    ]);
  });

  it("on one address: that address", () => {
    expect(reachableOrigins({ publicUrl: "", host: "192.168.1.5", port: 3000 }, INTERFACES)).toEqual([
      "http://192.168.1.5:3000",
    ]);
    expect(reachableOrigins({ publicUrl: "", host: "::1", port: 3000 }, INTERFACES)).toEqual([
      "http://[::1]:3000",
    ]);
  });
});

describe("the start-up lines", () => {
  const origins = ["http://localhost:3000", "http://192.168.1.5:3000"];

  it("give the set-up link once per origin while no admin exists, then the open demo's link", () => {
    expect(
      startupLines(origins, { setupPath: "/setup/abc", demoOpen: true, demoPath: "/login/demo" }),
    ).toEqual([
      "Set up the owner account: http://localhost:3000/setup/abc",
      "Set up the owner account: http://192.168.1.5:3000/setup/abc",
      "Demo: open http://localhost:3000/login/demo",
    ]);
  });

  it("advertise no demo link while the demo is off, and no set-up link once an admin exists", () => {
    expect(startupLines(origins, { setupPath: undefined, demoOpen: false, demoPath: "/login/demo" })).toEqual(
      ["Guest demo: off (an admin can turn it on in Admin → Site)."],
    );
  });
});

describe("the no-model line at start", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("points to <origin>/admin#models (no restart), after the set-up link while no admin exists; none once a model is connected", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    const stack = await createTestStack({ env: { LOG_LEVEL: "warn", PORT: "3000", LLM_PROVIDER: "none" } });
    const noModel = () => lines.filter((l) => l.startsWith("No language model:"));
    try {
      // A fresh install: no admin yet.
      const first = await stack.start();
      expect(noModel()).toHaveLength(1);
      expect(noModel()[0]).toContain("Open the owner set-up link");
      expect(noModel()[0]).toContain(
        "connect one in the admin console at http://localhost:3000/admin#models",
      );
      expect(noModel()[0]).toContain("no restart needed");
      expect(noModel()[0]).not.toMatch(/restart the server/);
      const { user } = await first.accounts.members.add({
        email: "owner@example.com",
        password: "owner-password-1",
        admin: true,
      });
      const token = (await first.auth.signInAs(user)).token;
      await first.close();

      // An admin exists: no set-up step; still the console's address.
      lines.length = 0;
      const second = await stack.start();
      expect(noModel()).toEqual([
        expect.stringMatching(
          /^No language model: An admin can connect one in the admin console at http:\/\/localhost:3000\/admin#models \(no restart needed\)\./,
        ),
      ]);
      expect(noModel()[0]).not.toContain("set-up link");
      // The admin connects a model (the first one saved becomes the default).
      const created = await second.app.inject({
        method: "POST",
        url: "/api/admin/models/create",
        headers: { authorization: `Bearer ${token}` },
        payload: {
          name: "Endpoint",
          kind: "openai",
          preset: "custom",
          baseUrl: "http://127.0.0.1:9/v1",
          model: "m",
          maxTokens: 100,
          temperature: 0.5,
          contextSize: 4096,
        },
      });
      expect(created.statusCode).toBe(200);
      await second.close();

      lines.length = 0;
      const third = await stack.start();
      expect(noModel()).toEqual([]);
      expect((await call(third.app, "GET", "/api/health")).status).toBe(200);
      await third.close();
    } finally {
      await stack.dispose();
    }
  }, 60_000);
});
