/**
 * Who makes a call, as FlyteAdmin's managers read it from the call's identity context (`getUser`: the identity's
 * user id): the subject of the access token the production profile's token check accepted. A call the sandbox does
 * not authenticate (the default profile, like FlyteAdmin without auth) has no identity, so its user id is `""`.
 * FlyteAdmin records it as the principal of an execution's creation, abort and state change.
 *
 * @module
 */
import { createContextKey, type HandlerContext } from "@connectrpc/connect";

/** The caller's user id, set by the token check (`auth_metadata.ts`) for the handlers; `""` without one. */
export const CALLER = createContextKey<string>("", { description: "the sandbox caller's user id" });

/** The user id of the call `context` belongs to, as FlyteAdmin's `getUser` reads it: `""` for an anonymous call. */
export function callerOf(context: HandlerContext): string {
  return context.values.get(CALLER);
}
