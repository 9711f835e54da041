// Route schemas: each route's request parts checked by its declared zod schemas, its answers by its response schema in tests, and the OpenAPI document made from them.
import { isDeepStrictEqual } from "node:util";
import fastifySwagger from "@fastify/swagger";
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { z } from "zod";
import { FailBody } from "../../common/api/envelope";
import { hasNul, nulRefusal } from "./security";
import { checkInput } from "./validate";

/**
 * A Fastify instance whose routes take zod schemas (`schema: { body, querystring, params,
 * response }`) and whose handlers see the parsed, typed request parts.
 */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The same instance, typed for zod route schemas (Fastify's `withTypeProvider`). */
export const zodApp = (app: FastifyInstance): ZodApp => app.withTypeProvider<ZodTypeProvider>();

/**
 * Checks one request part (body, querystring or params) against its route's zod schema before
 * the handler runs and after the session hooks (`onRequest`), with the sentences of `parseInput`
 * (server/http/validate.ts): a refusal is AppError 400 with the first broken rule's sentence, a
 * NUL character anywhere is 400 `bad_input` (as the hook in security.ts answers for routes
 * without schemas). A missing part is checked as `{}`.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data: unknown) => {
    if (hasNul(data)) return { error: nulRefusal() };
    return checkInput(schema, data);
  };

/**
 * A route's `schema.response`: its answer's schema at 200, or the failure envelope, which a few
 * refusals answer at 200 too (the form shows them in place: docs/api.md, "Error envelope").
 * Other statuses carry the failure envelope and are not declared.
 */
export function answers<S extends z.ZodType>(schema: S) {
  return { 200: z.union([schema, FailBody]) };
}

/** What is done with an answer that differs from its route's response schema (API_CHECK_RESPONSES). */
export type ResponseCheck = "off" | "throw" | "log";

/**
 * Writes a route's answer as JSON, exactly as Fastify does without a schema. With `check` on, the
 * answer as the client reads it (after JSON) must parse by the route's response schema and lose
 * nothing to it: a field the schema does not declare, or one of another shape, throws (a 500 the
 * test sees: the API suites) or is logged to stderr and sent as it is (the browser suites, where
 * the screens are under test), so a presenter and the declared contract cannot drift apart.
 */
export function responseSerializer(check: ResponseCheck): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) =>
    (data: unknown) => {
      const json = JSON.stringify(data);
      if (check === "off") return json;
      const wire: unknown = JSON.parse(json);
      const result = schema.safeParse(wire);
      let problem: string | undefined;
      if (!result.success) {
        problem = `The answer of ${method} ${url} breaks its response schema: ${result.error.message}`;
      } else if (!isDeepStrictEqual(result.data, wire)) {
        problem = `The answer of ${method} ${url} holds fields its response schema does not declare`;
      }
      if (problem === undefined) return json;
      if (check === "throw") throw new Error(problem);
      console.error(`API_CHECK_RESPONSES: ${problem}`);
      return json;
    };
}

/**
 * Sets the zod compilers on `app` and registers @fastify/swagger, which collects every route
 * registered after it into the OpenAPI document (`app.swagger()`, served at /api/openapi.json
 * and committed as docs/openapi.json). Call before any route is registered.
 * @param checkResponses what to do with an answer that breaks its response schema (`responseSerializer`).
 */
export async function registerRouteSchemas(
  app: FastifyInstance,
  checkResponses: ResponseCheck,
): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(checkResponses));
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "AI companion chat API",
        description:
          "Generated from the routes' schemas (server/http/route-schemas.ts); docs/api.md explains it.",
        version: "1",
      },
      components: {
        securitySchemes: { session: { type: "http", scheme: "bearer" } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // The document itself, for clients and tools (left out of itself).
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}

/**
 * The OpenAPI document of `app` as committed in docs/openapi.json: 2-space JSON and a final
 * newline. `app` must be ready (every route registered). Written by `npm run api-docs`; a test
 * fails when the committed file differs (server/http/openapi.test.ts).
 */
export function openApiText(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}
