import { join } from "node:path";
import { ClusterError } from "./cluster-error.ts";
import { postgresUser } from "./postgres.ts";
import { runCommand } from "./run-command.ts";

/** The two databases the server's PostgreSQL persistence uses, and their schema folders. */
export const clusterDatabases = [
  { name: "temporal", schema: "temporal" },
  { name: "temporal_visibility", schema: "visibility" },
] as const;

/**
 * Creates both databases and brings their schemas to the server's version with the server's own
 * SQL tool. Every step is idempotent: on an existing cluster it only applies newer versions.
 */
export async function setupSchemas(opts: {
  sqlTool: string;
  schemaDir: string;
  port: number;
  env: Readonly<Record<string, string | undefined>>;
  onProgress: (line: string) => void;
}): Promise<void> {
  const connect = [
    ...["--plugin", "postgres12", "--endpoint", "127.0.0.1", "--port", String(opts.port)],
    ...["--user", postgresUser],
  ];
  for (const database of clusterDatabases) {
    const versioned = join(opts.schemaDir, database.schema, "versioned");
    const steps = [
      ["create-database"],
      ["setup-schema", "--version", "0.0"],
      ["update-schema", "--schema-dir", versioned],
    ];
    for (const step of steps) {
      const args = [...connect, "--db", database.name, ...step];
      const outcome = await runCommand(opts.sqlTool, args, { env: opts.env });
      if (outcome.code !== 0) {
        throw new ClusterError(
          `temporal-sql-tool ${args.join(" ")} failed (exit ${outcome.code}):\n${outcome.tail}`,
        );
      }
    }
    opts.onProgress(`schema of database ${database.name} is up to date`);
  }
}
