/** The bare workflow's only activity: a round trip through the server and nothing else. */
export const bareActivities = {
  noop: (step: number): Promise<number> => Promise.resolve(step),
};
export type BareActivities = typeof bareActivities;
