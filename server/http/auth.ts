// Sessions on routes (product.md §6): the bearer token, the signed-in scope, refusing other users' ids with 404, and the admin scope (401/403).
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onRequestAsyncHookHandler,
  RouteOptions,
} from "fastify";
import type { User } from "../db/schema";
import { forbidden, notFound, unauthorized } from "../errors";
import { msg } from "../i18n/messages";
import { type ZodApp, zodApp } from "./route-schemas";

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
 * `onRequest`, so a request without a valid token is refused before its body is read (an unauthenticated 2 GB upload is answered 401 at once).
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
  if (id && id !== userId) throw notFound(msg("admin.userNotFound"));
}

/**
 * Writes who may call a route into its schema, for the OpenAPI document (server/http/route-schemas.ts):
 * the bearer session, and `x-who` ("signed in", "admin") unless the route named its own.
 */
function documentWho(route: RouteOptions, who: string): void {
  const schema = route.schema ?? {};
  route.schema = { security: [{ session: [] }], "x-who": who, ...schema } as FastifySchema;
}

/**
 * Registers `routes` in their own plugin scope behind the session hook (`requireUser`), so every
 * route of the scope needs a valid session and none can be added without it (auth once
 * per route scope). The hook runs at `onRequest`, before any body is read.
 */
export async function signedIn(
  app: FastifyInstance,
  auth: onRequestAsyncHookHandler,
  routes: (scope: ZodApp) => void | Promise<void>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook("onRequest", auth);
    scope.addHook("onRoute", (route) => documentWho(route, "signed in"));
    await routes(zodApp(scope));
  });
}

/** One route of the admin area: its method and full path (`:id` parameters as registered). */
export interface AdminRoute {
  method: "GET" | "POST" | "DELETE" | "PATCH";
  url: string;
}

const adminRoutes: AdminRoute[] = [];

/**
 * Every route registered through `adminScope`, in the order registered (HEAD left out), once each
 * however many apps a process builds. The tests attack each: a non-admin gets 403, no session 401.
 */
export const ADMIN_ROUTES: ReadonlyArray<AdminRoute> = adminRoutes;

/** Refuses a signed-in user who is not an admin (product.md §9: the admin console). */
async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (currentUser(request).role !== "admin") {
    throw forbidden(msg("http.areaAdministratorsOnly"), "not_admin");
  }
}

/**
 * Registers `routes` under `prefix` in their own plugin scope behind the session hook and the admin
 * check, so no admin route can be added without them: no session → 401, a signed-in non-admin →
 * 403 "not_admin" with the envelope (product.md §9). Each route of the scope is listed in
 * `ADMIN_ROUTES`.
 */
export async function adminScope(
  app: FastifyInstance,
  auth: onRequestAsyncHookHandler,
  prefix: string,
  routes: (scope: ZodApp) => void | Promise<void>,
): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addHook("onRoute", (route) => {
        for (const method of [route.method].flat()) {
          if (method === "HEAD") continue;
          const entry = { method: method as AdminRoute["method"], url: route.url };
          if (!adminRoutes.some((r) => r.method === entry.method && r.url === entry.url))
            adminRoutes.push(entry);
        }
      });
      scope.addHook("onRequest", auth);
      scope.addHook("onRequest", requireAdmin);
      scope.addHook("onRoute", (route) => documentWho(route, "admin"));
      await routes(zodApp(scope));
    },
    { prefix },
  );
}
