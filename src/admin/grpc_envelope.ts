/**
 * The gRPC message envelope: one flag byte (bit 0: compressed), a big-endian 32-bit length, the
 * message. Written and read the same way by the admin client and the sandbox's server.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";

/** Flag byte and length before each message. */
const ENVELOPE_HEADER_BYTES = 5;
/** The flag bit of a compressed message. */
const COMPRESSED_FLAG = 1;

/** One message read from a body. */
export interface Envelope {
  /** The sender compressed it (neither side here negotiates compression, so both refuse it). */
  compressed: boolean;
  /** The serialized message, a view into the body. */
  message: Uint8Array;
}

/** Frames one serialized message; `flags` only for tests that build broken input. */
export function encodeEnvelope(message: Uint8Array, flags = 0): Uint8Array {
  const framed = new Uint8Array(ENVELOPE_HEADER_BYTES + message.length);
  framed[0] = flags;
  new DataView(framed.buffer).setUint32(1, message.length);
  framed.set(message, ENVELOPE_HEADER_BYTES);
  return framed;
}

/**
 * The envelopes of a whole body, in order; how many there may be, and whether compressed ones are
 * acceptable, is for the caller to say.
 *
 * @throws {ConnectError} INVALID_ARGUMENT when the body ends inside an envelope
 */
export function splitEnvelopes(body: Uint8Array): Envelope[] {
  const envelopes: Envelope[] = [];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let offset = 0;
  while (offset < body.length) {
    if (body.length - offset < ENVELOPE_HEADER_BYTES) {
      throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
    }
    const length = view.getUint32(offset + 1);
    const start = offset + ENVELOPE_HEADER_BYTES;
    if (start + length > body.length) {
      throw new ConnectError(
        `protocol error: promised ${length} bytes in enveloped message, got ${body.length - start}`,
        Code.InvalidArgument,
      );
    }
    envelopes.push({
      compressed: (body[offset] & COMPRESSED_FLAG) !== 0,
      message: body.subarray(start, start + length),
    });
    offset = start + length;
  }
  return envelopes;
}
