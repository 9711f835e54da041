import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import type { User } from "../db/schema";
import { notFound, unauthorized } from "../errors";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user, set by `requireUser`. */
    user?: User;
    /** The bearer token of this request, if any. */
    bearer?: string;
    /** Time spent in the language model while serving this request, milliseconds. */
    modelMs?: number;
  }
}

/** Reads `Authorization: Bearer <token>`. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith("Bearer ")) return undefined;
  return header.slice(7).trim() || undefined;
}

/**
 * Builds the hook that requires a valid session (product.md §6: protected calls). Routes register it as
 * `onRequest`, so a request without a valid token is refused before its body is read (* an unauthenticated 2 GB upload is answered 401 at once).
 * @param authenticate resolves a token to its user, or undefined when unknown or expired.
 * @throws AppError 401 when the token is missing, unknown, expired or revoked.
 */
export function requireUser(authenticate: (token: string) => Promise<User | undefined>) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const user = await authenticate(token);
    if (!user) throw unauthorized();
    request.user = user;
    request.bearer = token;
  };
}

/** The signed-in user of a request behind `requireUser`. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * Refuses a user id parameter naming someone else (product.md §7 sends the user's own id with many
 * calls). Answers 404 so that other users' ids cannot be probed.
 */
export function assertSelf(userId: string, id: string | undefined): void {
  if (id && id !== userId) throw notFound("User not found.");
}

/**
 * Registers `routes` in their own plugin scope behind the session hook (`requireUser`), so every
 * route of the scope needs a valid session and none can be added without it (auth once
 * per route scope). The hook runs at `onRequest`, before any body is read.
 */
export async function signedIn(
  app: FastifyInstance,
  auth: onRequestAsyncHookHandler,
  routes: (scope: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook("onRequest", auth);
    await routes(scope);
  });
}
