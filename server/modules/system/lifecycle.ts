declare module "fastify" {
  interface FastifyInstance {
    /** Whether the server is shutting down (issue 15); set by the system routes. */
    lifecycle: Lifecycle;
  }
}

/**
 * The server's place in its life (issue 15, graceful shutdown): once `beginShutdown` is called,
 * GET /api/ready answers 503 so a load balancer stops sending new requests, while the running
 * ones finish. The system routes decorate the Fastify instance with one (`app.lifecycle`);
 * server/main.ts calls `beginShutdown` on SIGTERM or SIGINT.
 */
export class Lifecycle {
  private stopping = false;

  /** True once the shutdown has begun. */
  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** Marks the server as shutting down; readiness answers 503 from now on. */
  beginShutdown(): void {
    this.stopping = true;
  }
}
