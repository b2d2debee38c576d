import { z } from "zod";

// Messages are written so that `<tool>: "<field>" <message>` reads as a
// sentence the model can act on.
export const nonEmptyStringMessage = "must be a non-empty string";

export function requiredText(description: string) {
  return z
    .string({ error: nonEmptyStringMessage })
    .trim()
    .min(1, { error: nonEmptyStringMessage })
    .describe(description);
}

export function optionalText(description: string) {
  return requiredText(description).optional();
}

/** A strict object: unknown fields are reported rather than silently dropped. */
export function toolInputObject<S extends z.core.$ZodLooseShape>(shape: S) {
  const allowed = Object.keys(shape)
    .map((key) => `"${key}"`)
    .join(", ");
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") {
        const keys = issue.keys.map((key) => `"${key}"`).join(", ");
        const noun = issue.keys.length === 1 ? "field" : "fields";
        return `unknown ${noun} ${keys}; allowed fields are ${allowed}`;
      }
      return `input must be a JSON object with the fields ${allowed}`;
    },
  });
}
