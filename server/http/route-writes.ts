// The route option a GET that changes stored data declares (`writes`), and the list of every route an app registered.
import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Set on a GET route that changes stored data (the spec's URLs, e.g. New Chat, or a first read
     * that stores a greeting). No GET changes data without it: server/http/route-writes.test.ts
     * walks every route and holds the list of these, each with its reason. Nothing drops cached
     * rows by method or by this flag: the code that writes a cached row drops it
     * (server/db/short-cache.ts).
     */
    writes?: true;
  }
}

/** Route `config` of a GET that changes stored data (spread it beside other config). */
export const GET_WRITES = { writes: true } as const;

/** One registered route: its method (HEAD left out), its full path and whether it declares `writes`. */
export interface RegisteredRoute {
  method: string;
  url: string;
  writes: boolean;
}

/**
 * Records every route registered on `app` from now on, its plugin scopes' included (an `onRoute`
 * hook on the root, so call it before any route or plugin is registered).
 * @returns the list, filled as routes are registered (read it once the app is ready).
 */
export function recordRoutes(app: FastifyInstance): ReadonlyArray<RegisteredRoute> {
  const routes: RegisteredRoute[] = [];
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method === "HEAD") continue;
      routes.push({ method, url: route.url, writes: route.config?.writes === true });
    }
  });
  return routes;
}
