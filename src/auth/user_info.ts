/**
 * Who the admin says the caller is: `flyteidl.service.IdentityService.UserInfo`, through the admin client's
 * transport (so the cached token, the proxy header and the retries apply).
 *
 * @module
 */
import { createClient, type Transport } from "@connectrpc/connect";
import { IdentityService, type UserInfoResponse } from "../../proto/gen/flyteidl/service/identity_pb.ts";

/** The caller's identity as the admin service sees it. */
export async function userInfo(transport: Transport, signal?: AbortSignal): Promise<UserInfoResponse> {
  return await createClient(IdentityService, transport).userInfo({}, { signal });
}

/** The identity to show: the preferred user name, else the name, else the subject (empty when none). */
export function identityOf(info: UserInfoResponse): string {
  const subject = info.subject;
  const name = info.preferredUsername || info.name;
  return name && name !== subject ? `${name} (${subject})` : subject;
}
