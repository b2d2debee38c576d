import { defaultPayloadConverter, type Payload, type PayloadConverter } from "@temporalio/common";

/** What a payload that cannot be decoded becomes: handlers' validation rejects it like any bad input. */
export interface UndecodablePayload {
  undecodablePayload: string;
}

/**
 * The default converter, except that a payload it cannot decode (bytes that are not JSON, an
 * unknown encoding) becomes an `UndecodablePayload` instead of an exception. Signals are not
 * validated by the server: without this, one raw signal with garbage bytes would fail every
 * workflow task of the session before any handler could reject it.
 */
class TolerantPayloadConverter implements PayloadConverter {
  toPayload(value: unknown): Payload {
    return defaultPayloadConverter.toPayload(value);
  }

  // The generic signature is PayloadConverter's: callers name the type they expect.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  fromPayload<T>(payload: Payload): T {
    try {
      return defaultPayloadConverter.fromPayload<T>(payload);
    } catch (error) {
      const undecodable: UndecodablePayload = {
        undecodablePayload: error instanceof Error ? error.message : String(error),
      };
      return undecodable as T;
    }
  }
}

/** Loaded by name by the worker and the workflow bundle (`payloadConverterPath`). */
export const payloadConverter = new TolerantPayloadConverter();
