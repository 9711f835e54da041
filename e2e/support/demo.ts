import type { LoginData } from "../../common/api";

/**
 * Demo sign-in through the API for browser tests and benchmarks (no test-runner imports, so the
 * benchmarks can use it too).
 */

/**
 * Demo login, then the 18+ confirmation chat needs (the gate itself is tested in
 * skeleton.e2e). @returns the session data the SPA would store, with the confirmed user.
 * @throws Error when either call is refused.
 */
export async function demoSession(baseUrl: string): Promise<LoginData> {
  const answer = await fetch(`${baseUrl}/api/auth/demo-login`, {
    method: "POST",
    body: new URLSearchParams({ id: "demo" }),
  });
  const envelope = (await answer.json()) as { success: number; message: string; data: LoginData };
  if (envelope.success !== 1) throw new Error(`demo login failed: ${envelope.message}`);
  const confirmed = await fetch(`${baseUrl}/api/users/confirm-age`, {
    method: "POST",
    headers: { Authorization: `Bearer ${envelope.data.token}` },
    body: new URLSearchParams({ confirm: "1" }),
  });
  const adult = (await confirmed.json()) as { success: number; message: string; data: LoginData["user"] };
  if (adult.success !== 1) throw new Error(`confirm-age failed: ${adult.message}`);
  return { ...envelope.data, user: adult.data };
}

/**
 * A demo user ready to chat: signed in, 18+ confirmed, with the first preset as a character.
 * @returns its bearer token and the character's id.
 */
export async function demoChatUser(baseUrl: string): Promise<{ token: string; characterId: string }> {
  const { token } = await demoSession(baseUrl);
  const auth = { authorization: `Bearer ${token}` };
  const presets = (await (await fetch(`${baseUrl}/api/characters/selection`, { headers: auth })).json()) as {
    data: Array<{ characterPreDefinedUUID: string }>;
  };
  const created = (await (
    await fetch(`${baseUrl}/api/characters/create-preselect`, {
      method: "POST",
      headers: auth,
      body: new URLSearchParams({ id: presets.data[0]!.characterPreDefinedUUID }),
    })
  ).json()) as { data: { characterUUID: string } };
  return { token, characterId: created.data.characterUUID };
}
