import { ClusterError } from "./cluster-error.ts";

/** Every port the Temporal server binds (all on 127.0.0.1), and PostgreSQL's. */
export interface ServerPorts {
  postgres: number;
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  metrics: number;
}

export interface ServerConfigSettings {
  ports: ServerPorts;
  /** Absolute path of the dynamic config file the server polls. */
  dynamicConfigFile: string;
  /**
   * History shards: fixed when the cluster is created (the server refuses another number on
   * the same database), the upper bound on how many history hosts can share the load.
   */
  historyShards: number;
}

/**
 * The cluster's server config: the module's `development-postgres12.yaml` with our ports, our
 * dynamic config and pprof off. Each edit must match exactly where expected, so a server release
 * that reshapes the file fails here, by name, instead of starting on the wrong ports.
 */
export function renderServerConfig(template: string, settings: ServerConfigSettings): string {
  const { ports } = settings;
  // [pattern, replacement, how many times the module's file holds it]
  const edits: [RegExp, string, number?][] = [
    [/(connectAddr: )"127\.0\.0\.1:5432"/g, `$1"127.0.0.1:${ports.postgres}"`, 2],
    [/(numHistoryShards: )4\b/g, `$1${settings.historyShards}`],
    [/(pprof:\n\s+port: )7936\b/g, "$10"],
    [/(listenAddress: )"127\.0\.0\.1:8000"/g, `$1"127.0.0.1:${ports.metrics}"`],
    [/(grpcPort: )7233\b/g, `$1${ports.frontend}`],
    [/(membershipPort: )6933\b/g, `$1${ports.frontendMembership}`],
    [/(httpPort: )7243\b/g, `$1${ports.frontendHttp}`],
    [/(grpcPort: )7234\b/g, `$1${ports.history}`],
    [/(membershipPort: )6934\b/g, `$1${ports.historyMembership}`],
    [/(grpcPort: )7235\b/g, `$1${ports.matching}`],
    [/(membershipPort: )6935\b/g, `$1${ports.matchingMembership}`],
    [/(grpcPort: )7239\b/g, `$1${ports.worker}`],
    [/(membershipPort: )6939\b/g, `$1${ports.workerMembership}`],
    [/(rpcAddress: )"localhost:7233"/g, `$1"127.0.0.1:${ports.frontend}"`],
    [
      /(dynamicConfigClient:\n\s+filepath: )"[^"]*"/g,
      `$1${JSON.stringify(settings.dynamicConfigFile)}`,
    ],
  ];
  let config = template;
  for (const [pattern, replacement, want = 1] of edits) {
    const found = config.match(pattern)?.length ?? 0;
    if (found !== want) {
      throw new ClusterError(
        `the Temporal server's config/development-postgres12.yaml has ${found} matches of ${pattern.source} where the cluster expects ${want}: this server release changed the file; update src/cluster/server-config.ts`,
      );
    }
    config = config.replace(pattern, replacement);
  }
  return config;
}

/**
 * The dynamic config: the module's `development-sql.yaml` (it turns on update-with-start, which
 * sessions use) with the Nexus callback on our HTTP port, then the project's own settings
 * (deploy/temporal-dynamic-config.yaml: eager activities), which docker compose mounts too.
 */
export function renderDynamicConfig(
  template: string,
  projectSettings: string,
  ports: Pick<ServerPorts, "frontendHttp">,
): string {
  const callback = /http:\/\/localhost:7243\//g;
  if ((template.match(callback)?.length ?? 0) !== 1) {
    throw new ClusterError(
      "the Temporal server's config/dynamicconfig/development-sql.yaml no longer names the Nexus callback at localhost:7243: update src/cluster/server-config.ts",
    );
  }
  return `${template.replace(callback, `http://127.0.0.1:${ports.frontendHttp}/`).trimEnd()}\n\n${projectSettings.trim()}\n`;
}
