// The route option that tells which cached rows a write route may change (the rule in server/db/short-cache.ts).

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Which cached rows a request of this route other than GET, HEAD or OPTIONS may change; read
     * when its answer has left (server/app.ts). Unset: the signed-in user's own rows (an admin's
     * request: every row).
     */
    invalidates?: Invalidates;
  }
}

/**
 * `"none"`: the route changes nothing the caches hold (the chat sends change only the quota count
 * and the history). `"all"`: it may change any user's rows (the admin area; a payment, whose
 * webhook changes a plan).
 */
export type Invalidates = "none" | "all";

/** Route `config` of a write that changes no cached row (spread it beside other config). */
export const CHANGES_NO_CACHED_ROWS = { invalidates: "none" } as const satisfies { invalidates: Invalidates };

/** Route `config` of a write that may change any user's cached rows. */
export const CHANGES_ANY_USER = { invalidates: "all" } as const satisfies { invalidates: Invalidates };
