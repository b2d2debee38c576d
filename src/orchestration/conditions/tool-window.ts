/**
 * Whether `tool` is among the last `window` tools (all when undefined) of `tools` from index
 * `from` on: `lastEvents(tools.slice(from), window).includes(tool)` without the two copies.
 */
export function usedInWindow(
  tools: readonly string[],
  from: number,
  window: number | undefined,
  tool: string,
): boolean {
  const start = window === undefined ? from : Math.max(from, tools.length - window);
  for (let index = start; index < tools.length; index++) if (tools[index] === tool) return true;
  return false;
}
