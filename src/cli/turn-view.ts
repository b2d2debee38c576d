import type { LiveItem } from "../client/index.ts";
import type { TurnResult } from "../session/index.ts";
import { describeEvent } from "./event-lines.ts";

/**
 * How one turn looks in the terminal: the agent's text streamed inline after its name, event
 * lines (steps, tools, refusals) on lines of their own, and a summary when the turn ends.
 */
export class TurnView {
  private readonly output: NodeJS.WritableStream;
  private readonly agentName: string;
  private textOpen = false;
  private streamedText = "";

  constructor(output: NodeJS.WritableStream, agentName: string) {
    this.output = output;
    this.agentName = agentName;
  }

  reset(): void {
    this.textOpen = false;
    this.streamedText = "";
  }

  line(text: string): void {
    this.closeText();
    this.output.write(`${text}\n`);
  }

  show(item: LiveItem): void {
    switch (item.type) {
      case "text_delta":
        if (!this.textOpen) {
          this.output.write(`${this.agentName} › `);
          this.textOpen = true;
        }
        this.output.write(item.delta);
        this.streamedText += item.delta;
        return;
      case "model_retry":
        this.line("  ↺ the model call failed and is retried; its answer starts over");
        return;
      case "gap":
        this.line("  … some live events were missed");
        return;
      case "skipped":
        this.line(`  … ${item.reason}`);
        return;
      case "session": {
        const description =
          item.event.type === "tool_output" ? undefined : describeEvent(item.event);
        if (description !== undefined) this.line(description);
        return;
      }
      default:
        return;
    }
  }

  finish(result: TurnResult): void {
    this.closeText();
    if (result.error !== undefined) this.line(`  ✗ turn failed: ${result.error}`);
    if (result.cancelled === true) {
      this.line("  ⏹ turn cancelled: the reply stops here (the agent sees it next turn)");
    }
    // Text the live view did not show (it trailed the result) is printed whole.
    if (
      !this.streamedText.includes(result.text) ||
      (result.text === "" && result.cancelled !== true)
    ) {
      this.line(`${this.agentName} › ${result.text || "(no text)"}`);
    }
    const usage = result.state.cumulativeTokenUsage;
    this.line(
      `  [turn ${result.turn} · step ${result.state.activeStep ?? "none"} · ${usage.totalTokens} tokens so far]`,
    );
  }

  private closeText(): void {
    if (!this.textOpen) return;
    this.output.write("\n");
    this.textOpen = false;
  }
}
