/**
 * What fctl's calls accept for a flyteidl message: the message, or a plain object with any of its fields.
 * Connect and protobuf-es accept the same (their `MessageInitShape`); this is fctl's own spelling of it, so the
 * library's signatures name no protobuf-es internals.
 *
 * @module
 */
import type { Message } from "@bufbuild/protobuf";

/**
 * A flyteidl message `T` as a call accepts it: the message itself, or an object with any of its fields (nested
 * messages, lists, maps and oneofs likewise), without `$typeName`. Missing fields take their defaults.
 *
 * ```ts
 * import type { MessageInit, ObjectGetRequest } from "@fctl/fctl/types";
 * import { ResourceType } from "@fctl/fctl/types";
 *
 * const request: MessageInit<ObjectGetRequest> = {
 *   id: { resourceType: ResourceType.TASK, project: "flytesnacks", domain: "development", name: "hello", version: "v1" },
 * };
 * console.log(request);
 * ```
 */
export type MessageInit<T extends Message> =
  | T
  | {
    [P in keyof T as P extends "$unknown" | "$typeName" ? never : P]?: FieldInit<T[P]>;
  };

/**
 * One field of a {@link MessageInit}: scalars as they are, a message as its {@link MessageInit}, a list or map
 * of messages as their inits, a oneof as `{ case, value }` with the value's init.
 *
 * ```ts
 * import type { FieldInit, TaskTemplate } from "@fctl/fctl/types";
 *
 * const target: FieldInit<TaskTemplate["target"]> = { case: "container", value: { image: "python:3.12" } };
 * console.log(target.case); // "container"
 * ```
 */
export type FieldInit<F> = F extends Date | Uint8Array | bigint | boolean | string | number ? F
  : F extends Array<infer U> ? Array<FieldInit<U>>
  : F extends ReadonlyArray<infer U> ? ReadonlyArray<FieldInit<U>>
  : F extends Message ? MessageInit<F>
  : F extends { case: infer C extends string; value: infer V extends Message } ? { case: C; value: MessageInit<V> }
  : F extends { case: string | undefined; value?: unknown } ? F
  : F extends { [key: string | number]: infer V extends Message } ? { [key: string | number]: MessageInit<V> }
  : F;
