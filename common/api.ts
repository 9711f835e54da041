// The API's wire shapes (product.md §3) as zod schemas and their types, re-exported from common/api/<area>.ts: envelope, account, characters, chat, pictures, plans, site, admin, models, search, prompt inspection.

/**
 * Wire shapes of the API (spec sections 3 and 7), each declared once as a zod schema in
 * common/api/<area>.ts with its type (`z.infer`) of the same name, all re-exported here. Field names
 * are exactly the spec's; the server's presenters are typed against the types, routes may declare
 * the schemas as `schema.response` (server/http/route-schemas.ts: the OpenAPI document names each
 * by its `meta` id), and the SPA's web/api reads the types (docs/architecture.md, "Where new code
 * goes": wire types). The SPA imports them with `import type` only, so it bundles no zod.
 */
export * from "./api/account";
export * from "./api/admin";
export * from "./api/capabilities";
export * from "./api/characters";
export * from "./api/chat";
export * from "./api/chat-settings";
export * from "./api/envelope";
export * from "./api/images";
export * from "./api/inspection";
export * from "./api/members";
export * from "./api/models";
export * from "./api/payments";
export * from "./api/search";
export * from "./api/site";
export * from "./api/system";
