import { setCurrentDetails, upsertSearchAttributes } from "@temporalio/workflow";
import type { ToolDecision } from "../src/orchestration/index.ts";
import { activeStepKey, sessionStatusKey, turnCountKey } from "../src/session/search-attributes.ts";
import type { SessionView } from "../src/session/session-types.ts";

/** Keeps the Web UI's search attributes current; only upserts on change (each upsert is an event). */
export function searchAttributePublisher(): (view: SessionView) => void {
  let last = "";
  return (view) => {
    const key = `${view.activeStep ?? ""}|${view.status}|${view.turn}`;
    if (key === last) return;
    last = key;
    upsertSearchAttributes([
      { key: activeStepKey, value: view.activeStep ?? "none" },
      { key: sessionStatusKey, value: view.status },
      { key: turnCountKey, value: view.turn },
    ]);
  };
}

/** The "current details" panel of the Web UI: step, sequence progress, tools and why. */
export function publishCurrentDetails(
  view: SessionView,
  decisions: ToolDecision[],
  sequence: string[][] | undefined,
): void {
  const lines = [
    `**${view.agentId}** · session \`${view.sessionId}\` · ${view.status} · turn ${view.turn} · run ${view.run}`,
    "",
    `**Active step:** ${view.activeStep ?? "none (every agent tool allowed)"}`,
  ];
  if (sequence !== undefined && sequence.length > 0) {
    const positions = sequence.map((alternatives, index) => {
      const name = alternatives.join(" | ");
      return index < view.sequenceIndex
        ? `~~${name}~~`
        : index === view.sequenceIndex
          ? `**${name}**`
          : name;
    });
    lines.push(
      `**Sequence:** ${positions.join(" → ")} (${view.sequenceIndex}/${view.sequenceLength})`,
    );
  }
  lines.push("", "| tool | offered | why |", "|---|---|---|");
  for (const decision of decisions) {
    lines.push(`| ${decision.tool} | ${decision.allowed ? "yes" : "no"} | ${decision.reason} |`);
  }
  const usage = view.cumulativeTokenUsage;
  lines.push(
    "",
    `Tokens: ${usage.inputTokens} in · ${usage.outputTokens} out · ${usage.totalTokens} total`,
  );
  setCurrentDetails(lines.join("\n"));
}
