import { buildApp } from "./app";
import { loadConfig } from "./env";

/** Entry point: `npm start`. Reads the environment, builds the server, listens. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(String(error instanceof Error ? error.message : error));
    process.exit(1);
  }
  const server = await buildApp(config);
  const address = await server.app.listen({ port: config.PORT, host: config.HOST });
  console.log(`Companion is running at ${address.replace("0.0.0.0", "localhost")}`);
  console.log(`Demo: open ${address.replace("0.0.0.0", "localhost")}/login/${config.DEMO_LOGIN_ID}`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

void main();
