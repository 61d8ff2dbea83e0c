/**
 * A versioned table of one entity kind with FlyteAdmin's create rules: a version is immutable, re-creating it
 * with the same spec is ALREADY_EXISTS and with another spec INVALID_ARGUMENT.
 *
 * @module
 */
import { equals, type Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Identifier } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Row } from "./filters.ts";
import { type EntityKind, idKey, notFound } from "./identifiers.ts";

/**
 * One stored version: its list columns, the spec it was created from, and the message reads return.
 *
 * ```ts
 * import { type Entry, startSandbox } from "@fctl/fctl/testing";
 * import type { Task, TaskSpec } from "@fctl/fctl/types";
 *
 * const sandbox = await startSandbox();
 * const entries: Entry<Task, TaskSpec>[] = sandbox.store.taskEntries();
 * console.log(entries.map((entry) => `${entry.id.name}@${entry.version}, created ${entry.createdNs} ns`));
 * await sandbox.close();
 * ```
 */
export interface Entry<M, S> extends Row {
  /** The version's identifier, as created. */
  id: Identifier;
  /** The spec it was created from, compared on re-creation. */
  spec: S;
  /** The entity with its closure, as Get and List return it. */
  message: M;
}

/** Stored versions of one kind, in creation order. */
export class EntityTable<M, S extends Message> {
  readonly #entries = new Map<string, Entry<M, S>>();
  readonly #kind: EntityKind;
  readonly #specSchema: GenMessage<S>;

  constructor(kind: EntityKind, specSchema: GenMessage<S>) {
    this.#kind = kind;
    this.#specSchema = specSchema;
  }

  /** Throws ALREADY_EXISTS or INVALID_ARGUMENT when the version exists; call before any other check. */
  assertNew(id: Identifier, spec: S): void {
    const existing = this.#entries.get(idKey(id));
    if (!existing) return;
    if (equals(this.#specSchema, existing.spec, spec)) {
      throw new ConnectError(`${this.#kind} with identical structure already exists`, Code.AlreadyExists);
    }
    throw new ConnectError(`${this.#kind} with different structure already exists`, Code.InvalidArgument);
  }

  /** Stores a version checked with {@link assertNew}. */
  insert(id: Identifier, spec: S, createdNs: bigint, message: M): Entry<M, S> {
    const entry: Entry<M, S> = {
      id,
      spec,
      message,
      createdNs,
      project: id.project,
      domain: id.domain,
      name: id.name,
      version: id.version,
    };
    this.#entries.set(idKey(id), entry);
    return entry;
  }

  /** The stored version, or undefined. */
  find(id: Identifier): Entry<M, S> | undefined {
    return this.#entries.get(idKey(id));
  }

  /** The stored version, or NOT_FOUND naming the id. */
  get(id: Identifier): Entry<M, S> {
    const entry = this.find(id);
    if (!entry) throw notFound(this.#kind, id);
    return entry;
  }

  /** Every stored version, oldest first. */
  entries(): Entry<M, S>[] {
    return [...this.#entries.values()];
  }

  /** Forgets every version. */
  clear(): void {
    this.#entries.clear();
  }
}
