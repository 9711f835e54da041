// What both engines of the job queue share: the jobs' definitions and the check of a job being queued.
import { type JobData, type JobDefinition, type JobOptions, JobRegistry, plainData } from "./queue";

/**
 * The base of both engines of `JobQueue` (in memory and BullMQ): keeps the definitions and
 * schedules (JobRegistry) and checks each job queued against them.
 */
export abstract class RegisteredJobQueue {
  protected readonly registry = new JobRegistry();

  define<T extends JobData>(
    name: string,
    handler: (data: T) => Promise<unknown>,
    options?: JobOptions,
  ): void {
    this.registry.define(name, handler, options);
  }

  /**
   * The definition of job `name` and a copy of `data` as it comes back from JSON (what the
   * handler is given).
   * @throws Error when `name` was never defined, or `data` is not a plain object of JSON values.
   */
  protected queued(name: string, data: JobData): { definition: JobDefinition; data: JobData } {
    const definition = this.registry.get(name);
    return { definition, data: plainData(name, data) };
  }
}
