/** What the CLI's exit status means; scripts can branch on it. */
export const ExitCode = {
  ok: 0,
  /** The operation ran and failed: a turn error, no such session, an invalid template, nondeterminism. */
  failed: 1,
  /** Bad or missing arguments or options. */
  usage: 2,
  /** Temporal could not be reached (address, TLS, API key or namespace). */
  unreachable: 3,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const exitCodesHelp = `Exit codes:
  0  ok
  1  the operation failed (turn error, no such session or agent, invalid template…)
  2  usage error (unknown command, bad or missing argument or option)
  3  cannot connect to Temporal (see TEMPORAL_ADDRESS, or run agentdock-temporal dev)`;
