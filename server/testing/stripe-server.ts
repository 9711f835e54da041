// A local Stripe double for tests: Checkout, the billing portal and subscriptions, plus signed webhook events.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local HTTP server that speaks the part of Stripe's REST API the app uses (tests only):
 * `POST /v1/checkout/sessions`, `POST /v1/billing_portal/sessions`, `GET /v1/subscriptions/:id`.
 * Requests are form-encoded with bracketed keys (`line_items[0][price]`), authenticated with
 * `Authorization: Bearer sk_...`; answers are Stripe's JSON objects, errors Stripe's
 * `{ error: { type, message } }`. Every request is recorded for the test to inspect.
 */

export const TEST_STRIPE_KEY = "sk_test_local_double";
export const TEST_WEBHOOK_SECRET = "whsec_local_double_secret";

type Params = { [key: string]: string | Params };

/** Decodes Stripe's form encoding (`a[b][0][c]=v`) into nested objects (arrays as index keys). */
export function decodeStripeForm(body: string): Params {
  const out: Params = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/[[\]]+/).filter(Boolean);
    let node = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else {
        const next = node[part];
        node[part] = typeof next === "object" ? next : {};
        node = node[part] as Params;
      }
    });
  }
  return out;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string;
  params: Params;
}

export interface StripeDouble {
  /** Origin to give as STRIPE_API_BASE. */
  url: string;
  requests: RecordedRequest[];
  /** Subscriptions answered by GET /v1/subscriptions/:id. */
  subscriptions: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export async function startStripeDouble(): Promise<StripeDouble> {
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://localhost");
      const params =
        request.method === "GET" ? decodeStripeForm(url.search.slice(1)) : decodeStripeForm(body);
      const authorization = request.headers.authorization ?? "";
      requests.push({ method: request.method ?? "", path: url.pathname, authorization, params });
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { "Content-Type": "application/json", "Request-Id": newId("req") });
        response.end(JSON.stringify(value));
      };
      if (authorization !== `Bearer ${TEST_STRIPE_KEY}`) {
        send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided." } });
        return;
      }
      const created = Math.floor(Date.now() / 1000);
      if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        const id = newId("cs_test");
        send(200, {
          id,
          object: "checkout.session",
          created,
          livemode: false,
          mode: params.mode,
          status: "open",
          payment_status: "unpaid",
          client_reference_id: params.client_reference_id ?? null,
          customer: params.customer ?? null,
          customer_email: params.customer_email ?? null,
          metadata: params.metadata ?? {},
          success_url: params.success_url,
          cancel_url: params.cancel_url,
          subscription: null,
          url: `https://checkout.stripe.test/c/pay/${id}`,
        });
        return;
      }
      if (request.method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
        const id = newId("bps");
        send(200, {
          id,
          object: "billing_portal.session",
          created,
          livemode: false,
          customer: params.customer,
          return_url: params.return_url ?? null,
          url: `https://billing.stripe.test/p/session/${id}`,
        });
        return;
      }
      const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      if (request.method === "GET" && subscription) {
        const found = subscriptions.get(subscription[1] ?? "");
        if (found) send(200, found);
        else send(404, { error: { type: "invalid_request_error", message: "No such subscription" } });
        return;
      }
      send(404, {
        error: {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${request.method}: ${url.pathname}).`,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Stripe subscription object (API 2025+: the period sits on the item). Times in seconds. */
export function stripeSubscription(input: {
  id: string;
  customer: string;
  priceId: string;
  userId: string;
  status?: string;
  cancelAtPeriodEnd?: boolean;
  periodEnd: number;
}) {
  return {
    id: input.id,
    object: "subscription",
    customer: input.customer,
    status: input.status ?? "active",
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    cancel_at: input.cancelAtPeriodEnd ? input.periodEnd : null,
    metadata: { userId: input.userId },
    items: {
      object: "list",
      data: [
        {
          id: `si_${input.id}`,
          object: "subscription_item",
          current_period_start: input.periodEnd - 30 * 86_400,
          current_period_end: input.periodEnd,
          price: { id: input.priceId, object: "price", recurring: { interval: "month" } },
        },
      ],
    },
  };
}

/**
 * A webhook delivery as Stripe sends it: the event JSON and its `Stripe-Signature` header,
 * signed with the SDK's own test helper.
 * @param options.timestamp signing time in seconds (default now); old ones test replay refusal.
 * @param options.secret signing secret (default the test one); another one forges the signature.
 */
export function signedEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; timestamp?: number; secret?: string } = {},
): { id: string; payload: string; signature: string } {
  const id = options.id ?? newId("evt");
  const payload = JSON.stringify({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? TEST_WEBHOOK_SECRET,
    timestamp: options.timestamp,
  });
  return { id, payload, signature };
}
