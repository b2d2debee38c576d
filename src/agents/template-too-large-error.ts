import { TemplateError } from "./validation/template-error.ts";

/** Template files larger than this are refused before they are read. */
export const MAX_TEMPLATE_FILE_BYTES = 1024 * 1024;

/**
 * A template file over MAX_TEMPLATE_FILE_BYTES. Refused unread: a template is small by nature,
 * and a huge one would ride in every session's start input and every model call's prompt.
 */
export class TemplateTooLargeError extends TemplateError {
  readonly bytes: number;

  constructor(source: string, bytes: number) {
    super(
      [
        {
          path: "",
          message: `the file is larger than 1 MiB (${bytes} bytes or more; the limit is ${MAX_TEMPLATE_FILE_BYTES}): keep templates small, long texts belong in tools or documents`,
        },
      ],
      source,
    );
    this.bytes = bytes;
  }
}
