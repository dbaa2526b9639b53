import { ConfigError, loadConfig } from "./config.ts";
import { hasSecretsToJudge } from "./secret-strength.ts";
import { judgeSecretsOnThread } from "./secret-thread.ts";
import { StartPhases } from "./start-phases.ts";

/**
 * Starts Meterline: configuration, database, migrations, seed, then the HTTP server. Only the
 * configuration is loaded before the secrets' judge starts: judging them is CPU work of its own,
 * done on another thread while this one loads the server's code, connects, checks the migrations
 * and registers the routes. Nothing derived from the secrets is stored, and nothing is answered,
 * before it has passed.
 */
async function main() {
  const phases = new StartPhases();
  const config = await loadConfig(process.env, { secretStrength: "later" });
  const weakSecret = hasSecretsToJudge(config) ? judgeSecretsOnThread(config) : Promise.resolve(undefined);
  phases.mark("config");
  const { startServer } = await import("./start-server.ts");
  phases.mark("modules");
  await startServer(config, weakSecret, phases);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Meterline cannot start: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
