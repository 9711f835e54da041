// The composition root's builder of the admin console's model connections (server/modules/models).
import type { AppConfig } from "../env";
import { keyBoxFor } from "../modules/models/models.keys";
import { ModelRegistry } from "../modules/models/models.registry";
import { ModelsRepo } from "../modules/models/models.repo";
import { envConnection, ModelsService } from "../modules/models/models.service";
import type { ContainerDeps } from "./deps";

/**
 * The model connections of the admin console (product.md §9): the registry becomes the language
 * model's router. The environment's model seeds the first connection unless a provider was
 * injected (tests, benchmarks), which keeps answering wherever no connection is assigned.
 * @returns the service, the registry and `start`, which seeds and loads the connections.
 */
export function buildModels(config: AppConfig, deps: ContainerDeps) {
  const { db, llm, log, logError } = deps;
  const repo = new ModelsRepo(db.db);
  const keys = keyBoxFor(config);
  const env = deps.llmInjected ? null : envConnection(config);
  const registry = new ModelRegistry(repo, {
    config,
    base: () => llm.base(),
    fallback: !env,
    keys,
    log,
    logError,
  });
  llm.setRouter(registry);
  const service = new ModelsService(
    repo,
    registry,
    keys,
    { dataDir: config.dataDir, envModelPath: config.LLM_MODEL_PATH },
    logError,
  );
  return {
    service,
    registry,
    /** Seeds the environment's connection (first start only), loads the connections, follows changes. */
    async start(): Promise<void> {
      await service.seed(env);
      await registry.start();
    },
  };
}
