import { z } from "zod";
import { shortMessage } from "./support/long-session.ts";
import { driveConcurrently } from "./support/drive-concurrently.ts";
import { inProcessAgent } from "./support/in-process-agent.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import type { DriveResult } from "./support/drive-concurrently.ts";

export interface InProcessScaleResult extends DriveResult {
  peakRssBytes: number;
}

// The scale benchmark's baseline, as its own process so its peak RSS is its own: the same
// sessions and turns with the AI SDK alone, no Temporal. Prints one JSON line.
const { sessions, turns } = z
  .object({ sessions: z.number().int().positive(), turns: z.number().int().positive() })
  .parse(JSON.parse(process.argv[2] ?? "{}"));

const agent = inProcessAgent(shippedAgent("cognitive-reasoner"));
const conversations = Array.from({ length: sessions }, () => agent.newSession());
const driven = await driveConcurrently(sessions, turns, async (session, turn) => {
  const conversation = conversations[session];
  if (conversation === undefined) throw new Error(`no session ${session}`);
  await conversation.runTurn(shortMessage(turn));
});
const result: InProcessScaleResult = {
  ...driven,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
};
console.log(JSON.stringify(result));
