// API test helpers: running a suite on SQLite and PostgreSQL, calling the API in process (form or multipart), demo sign-in and age confirmation.
import type { FastifyInstance } from "fastify";
import { describe } from "vitest";
import { TEST_DATABASE_URL, TEST_STACK } from "./server";

export type Dialect = "sqlite" | "postgres";

/**
 * Runs a suite on SQLite and on PostgreSQL. Without TEST_DATABASE_URL the PostgreSQL run is
 * skipped with a printed reason.
 */
export function describeEachDatabase(name: string, suite: (dialect: Dialect) => void): void {
  if (TEST_STACK === "shared") {
    // every app of the shared stack is on PostgreSQL, Redis and S3; a "sqlite" run would repeat it.
    describe(`${name} [shared: postgres, redis, s3]`, () => suite("postgres"));
    return;
  }
  describe(`${name} [sqlite]`, () => suite("sqlite"));
  if (TEST_DATABASE_URL) {
    describe(`${name} [postgres]`, () => suite("postgres"));
  } else {
    console.warn(`SKIPPED ${name} [postgres]: TEST_DATABASE_URL is not set (no PostgreSQL server given).`);
    describe.skip(`${name} [postgres] (TEST_DATABASE_URL not set)`, () => suite("postgres"));
  }
}

/**
 * An answer of the API in a test: the status and the envelope, `data` typed as the caller says
 * (`call<CharacterDetail>(...)`): a wire type of common/api.ts, never a cast at the call site.
 */
export interface CallResult<T = unknown> {
  status: number;
  body: Record<string, unknown> & { success: number; message: string; page?: string; data?: T };
}

/**
 * Calls the API in process with a form-encoded body (product.md §7: bodies are form-encoded).
 * @returns the status and the parsed envelope, its `data` typed `T` (unchecked: the app checks
 *   each answer against its route's response schema in tests, API_CHECK_RESPONSES).
 */
export async function call<T = unknown>(
  app: FastifyInstance,
  method: "GET" | "POST" | "DELETE" | "PATCH",
  url: string,
  options: { token?: string; form?: Record<string, string> } = {},
): Promise<CallResult<T>> {
  const response = await app.inject({
    method,
    url,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    payload: options.form ? new URLSearchParams(options.form).toString() : undefined,
  });
  return { status: response.statusCode, body: response.json() };
}

/**
 * Signs in a fresh demo user who has confirmed being 18 or older (chat needs it; pass
 * `adult: false` to leave it unconfirmed). @returns its token and user id.
 */
export async function demoLogin(
  app: FastifyInstance,
  options: { adult?: boolean } = {},
): Promise<{ token: string; userId: string }> {
  const { body } = await call(app, "POST", "/api/auth/demo-login", { form: { id: "demo" } });
  const data = body.data as { token: string; user: { id: string } };
  if (options.adult !== false) await confirmAge(app, data.token);
  return { token: data.token, userId: data.user.id };
}

/** POST /api/users/confirm-age for the user of `token`. @throws Error when refused. */
export async function confirmAge(app: FastifyInstance, token: string): Promise<void> {
  const answer = await call(app, "POST", "/api/users/confirm-age", { token, form: { confirm: "1" } });
  if (answer.body.success !== 1) throw new Error(`confirm-age failed: ${answer.body.message}`);
}

/** Signs in a demo user and gives them the first preset character. */
export async function demoWithCharacter(app: FastifyInstance) {
  const session = await demoLogin(app);
  const presets = await call(app, "GET", "/api/characters/selection", { token: session.token });
  const preset = (presets.body.data as Array<{ characterPreDefinedUUID: string }>)[0]!;
  const created = await call(app, "POST", "/api/characters/create-preselect", {
    token: session.token,
    form: { id: preset.characterPreDefinedUUID },
  });
  const characterId = (created.body.data as { characterUUID: string }).characterUUID;
  return { ...session, characterId };
}

/**
 * Calls the API with a multipart body (product.md §7: create/update and chat/message are multipart).
 * `files` values are sent as file parts with the given name (the server must not trust it).
 */
export async function callMultipart<T = unknown>(
  app: FastifyInstance,
  url: string,
  options: {
    token?: string;
    fields?: Record<string, string>;
    files?: Record<string, { bytes: Buffer; filename: string; type?: string }>;
  },
): Promise<CallResult<T>> {
  const form = new FormData();
  for (const [k, v] of Object.entries(options.fields ?? {})) form.append(k, v);
  for (const [k, f] of Object.entries(options.files ?? {})) {
    form.append(
      k,
      new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "application/octet-stream" }),
      f.filename,
    );
  }
  const request = new Request("http://local/", { method: "POST", body: form });
  const response = await app.inject({
    method: "POST",
    url,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      "content-type": request.headers.get("content-type") ?? "",
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return { status: response.statusCode, body: response.json() };
}
