/**
 * A field that a row (proto/client/fctl/rows/) leaves out, read all the same. A decoder keeps every field its message
 * does not declare among the message's unknown fields, as the bytes that came; these bytes decode into flyteidl's
 * message as a reader of the whole message would decode them. `create execution` reads the input types of the task or
 * launch plan it runs this way: the descriptors of the row and of the types are built, not those of everything else
 * the task or launch plan holds.
 *
 * @module
 */
import { type DescMessage, fromBinary, type MessageShape } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";

/** What a decoded message keeps of the fields its schema does not declare (protobuf-es's `$unknown`). */
export interface WithUnknownFields {
  $unknown?: { no: number; wireType: WireType; data: Uint8Array }[];
}

/**
 * The message-valued field numbered `number` that the schema of `message` leaves out, decoded as `schema`; undefined
 * when it was not sent. Sent more than once, its occurrences are merged, as a decoder of the whole message merges them
 * (their bytes one after the other decode as that merge).
 */
export function leftOutField<Desc extends DescMessage>(
  message: WithUnknownFields | undefined,
  number: number,
  schema: Desc,
): MessageShape<Desc> | undefined {
  // Each kept field's bytes are its length prefix, then its value.
  const values = (message?.$unknown ?? [])
    .filter((field) => field.no === number && field.wireType === WireType.LengthDelimited)
    .map((field) => new BinaryReader(field.data).bytes());
  if (values.length === 0) return undefined;
  const bytes = new Uint8Array(values.reduce((size, value) => size + value.length, 0));
  let at = 0;
  for (const value of values) {
    bytes.set(value, at);
    at += value.length;
  }
  return fromBinary(schema, bytes);
}
