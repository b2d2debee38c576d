import type { temporal } from "@temporalio/proto";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { indexedValueType } from "../dev-server/ensure-search-attributes.ts";
import type { SearchAttributeType } from "../dev-server/search-attributes.ts";
import { sessionSearchAttributes } from "../session/search-attributes.ts";
import type { CliContext } from "./cli-context.ts";
import { CliError, usageError } from "./cli-error.ts";
import { ExitCode } from "./exit-codes.ts";

type OperatorService = temporal.api.operatorservice.v1.OperatorService;

/** The part of a client or worker connection the check uses. */
export interface OperatorConnection {
  operatorService: OperatorService;
}

// gRPC status codes the check tells apart (both connection kinds report them as `code`).
const grpcStatus = { notFound: 5, alreadyExists: 6, permissionDenied: 7, unimplemented: 12 };

const typeNames = Object.fromEntries(
  Object.entries(indexedValueType).map(([name, wire]) => [wire, name]),
) as Record<number, SearchAttributeType | undefined>;

const registerSchema = z
  .enum(["true", "false", "1", "0"], {
    error: "set it to true (register missing ones, the default) or false (only check)",
  })
  .optional()
  .transform((value) => value === undefined || value === "true" || value === "1");

/** AGENTDOCK_REGISTER_SEARCH_ATTRIBUTES: whether `worker` and `serve` may register missing ones. */
export function registerSearchAttributesSetting(env: CliContext["env"]): boolean {
  const raw = env["AGENTDOCK_REGISTER_SEARCH_ATTRIBUTES"];
  const parsed = registerSchema.safeParse(raw === "" ? undefined : raw);
  if (!parsed.success) {
    throw usageError(
      `AGENTDOCK_REGISTER_SEARCH_ATTRIBUTES: "${raw ?? ""}": ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

export const searchAttributesHelp = `  AGENTDOCK_REGISTER_SEARCH_ATTRIBUTES
                          at start the namespace is checked for the sessions' search attributes
                          (${Object.keys(sessionSearchAttributes).join(", ")}); missing ones are
                          registered (true, the default) or the command refuses to start and
                          prints the command that registers them (false)`;

export interface SearchAttributesCheckOptions {
  connection: OperatorConnection;
  address: string;
  namespace: string;
  register: boolean;
  log: (line: string) => void;
  wanted?: Readonly<Record<string, SearchAttributeType>>;
  /** How long registered attributes may take to show (the server's namespace cache, ~10 s). */
  settleTimeoutMs?: number;
}

/**
 * Makes sure the namespace has every search attribute sessions set, before a worker polls or the
 * API listens: without them the first message fails with the server's "no mapping defined for
 * search attribute". Missing ones are registered when allowed and possible; otherwise a CliError
 * names them with the exact commands to run. A type clash cannot be fixed here and is refused.
 */
export async function checkSearchAttributes(opts: SearchAttributesCheckOptions): Promise<void> {
  const wanted = opts.wanted ?? sessionSearchAttributes;
  const { namespace } = opts;
  let existing: Record<string, number>;
  try {
    existing = await listCustom(opts.connection, namespace);
  } catch (error) {
    if (codeOf(error) === grpcStatus.notFound) {
      throw new CliError(
        `namespace ${namespace} does not exist on ${opts.address}: create it (temporal operator namespace create --address ${opts.address} --namespace ${namespace}) or set TEMPORAL_NAMESPACE to an existing one`,
        ExitCode.unreachable,
        { cause: error },
      );
    }
    if (isRefusal(error)) {
      // Some hosted namespaces do not let a worker's credentials list attributes: say what to
      // check instead of refusing to run.
      opts.log(
        `warning: could not check the search attributes of namespace ${namespace} (${messageOf(error)}); if messages fail with "no mapping defined for search attribute", run:\n${commands(opts.address, namespace, wanted)}`,
      );
      return;
    }
    throw error;
  }
  const clashes = Object.entries(wanted).flatMap(([name, type]) => {
    const found = existing[name];
    return found === undefined || found === indexedValueType[type]
      ? []
      : [
          `${name} is registered in namespace ${namespace} as ${typeNames[found] ?? `IndexedValueType ${found}`}, but sessions need ${type}`,
        ];
  });
  if (clashes.length > 0) {
    throw new CliError(
      `${clashes.join("; ")}. A search attribute's type cannot change: use another namespace (TEMPORAL_NAMESPACE), or remove the attribute there (temporal operator search-attribute remove) if nothing else uses it.`,
    );
  }
  const missing = Object.fromEntries(
    Object.entries(wanted).filter(([name]) => existing[name] === undefined),
  );
  if (Object.keys(missing).length === 0) return;
  const names = Object.keys(missing).join(", ");
  const refuse = (why: string, cause?: unknown): CliError =>
    new CliError(
      `namespace ${namespace} lacks the search attributes ${names} that sessions set (${why}). Register them once, then start again:\n${commands(opts.address, namespace, missing)}`,
      ExitCode.failed,
      { cause },
    );
  if (!opts.register) throw refuse("AGENTDOCK_REGISTER_SEARCH_ATTRIBUTES=false");
  try {
    await opts.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(
        Object.entries(missing).map(([name, type]) => [name, indexedValueType[type]]),
      ),
    });
  } catch (error) {
    // Another worker or serve starting at the same time registered them first.
    if (codeOf(error) !== grpcStatus.alreadyExists) {
      throw refuse(`registering them failed: ${messageOf(error)}`, error);
    }
  }
  await waitUntilListed(opts, Object.keys(missing));
  opts.log(`registered search attributes ${names} on namespace ${namespace}`);
}

async function listCustom(
  connection: OperatorConnection,
  namespace: string,
): Promise<Record<string, number>> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({
    namespace,
  });
  return Object.fromEntries(Object.entries(customAttributes).map(([name, type]) => [name, type]));
}

async function waitUntilListed(opts: SearchAttributesCheckOptions, names: string[]): Promise<void> {
  const deadline = Date.now() + (opts.settleTimeoutMs ?? 30_000);
  for (;;) {
    const listed = await listCustom(opts.connection, opts.namespace);
    const pending = names.filter((name) => listed[name] === undefined);
    if (pending.length === 0) return;
    if (Date.now() > deadline) {
      throw new CliError(
        `registered search attributes ${names.join(", ")} on namespace ${opts.namespace}, but ${pending.join(", ")} still do not show after ${Math.round((opts.settleTimeoutMs ?? 30_000) / 1000)} s: check the server's logs, then start again`,
      );
    }
    await sleep(500);
  }
}

/** The commands that register `attributes`: the Temporal CLI, and tcld for Temporal Cloud. */
function commands(
  address: string,
  namespace: string,
  attributes: Readonly<Record<string, SearchAttributeType>>,
): string {
  const entries = Object.entries(attributes);
  const cli = entries.map(([name, type]) => `--name ${name} --type ${type}`).join(" ");
  const cloud = entries.map(([name, type]) => `--search-attribute ${name}=${type}`).join(" ");
  return (
    `  temporal operator search-attribute create --address ${address} --namespace ${namespace} ${cli}\n` +
    `(with the same TEMPORAL_* settings as this command; on Temporal Cloud: tcld namespace search-attributes add --namespace ${namespace}.<account> ${cloud})`
  );
}

function codeOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? Number(error.code)
    : undefined;
}

function isRefusal(error: unknown): boolean {
  const code = codeOf(error);
  return code === grpcStatus.permissionDenied || code === grpcStatus.unimplemented;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
