// The server's place in its life for graceful shutdown: readiness turns 503 and what registered is told the shutdown began.
declare module "fastify" {
  interface FastifyInstance {
    /** Whether the server is shutting down; set by the system routes. */
    lifecycle: Lifecycle;
  }
}

/**
 * The server's place in its life (graceful shutdown): once `beginShutdown` is called,
 * GET /api/ready answers 503 so a load balancer stops sending new requests, while the running
 * ones finish; what registered with `onShutdown` is told at once (a stream that only follows a
 * reply ends with a resumable end, so its client reconnects to another instance). The system
 * routes decorate the Fastify instance with one (`app.lifecycle`); server/main.ts calls
 * `beginShutdown` on SIGTERM or SIGINT.
 */
export class Lifecycle {
  private stopping = false;
  private readonly listeners = new Set<() => void>();

  /** True once the shutdown has begun. */
  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** Marks the server as shutting down and tells every listener (once); readiness answers 503. */
  beginShutdown(): void {
    if (this.stopping) return;
    this.stopping = true;
    for (const listener of [...this.listeners]) {
      this.listeners.delete(listener);
      listener();
    }
  }

  /**
   * Calls `listener` when the shutdown begins (at once when it has begun).
   * @returns a function that unregisters it (call it when what it ends has ended by itself).
   */
  onShutdown(listener: () => void): () => void {
    if (this.stopping) {
      listener();
      return () => {};
    }
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
