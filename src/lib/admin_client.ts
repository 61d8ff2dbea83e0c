/**
 * The library's `createAdminClient`: the admin client without the CLI's early-connection plumbing.
 *
 * @module
 */
import { type AdminClient, type AdminClientOptions, createAdminClient as create } from "../admin/client.ts";

/**
 * Creates admin clients (AdminService and DataProxyService over one HTTP/2 connection); no connection is made
 * until the first call. It has no auth and no retries unless `options` add them: {@link connect} builds one
 * as the command line does, from the user's configuration. Close it when done (`client.close()`, or declare it with
 * `using`, which closes it when the block ends).
 *
 * ```ts
 * import { createAdminClient } from "@fctl/fctl";
 *
 * const retry = { maxAttempts: 4, perAttemptTimeoutMs: 10_000, maxBackoffMs: 5_000 };
 * using client = createAdminClient({ endpoint: "dns:///flyte.example.com", retry });
 * const { tasks } = await client.admin.listTasks({ id: { project: "flytesnacks", domain: "development" }, limit: 10 });
 * console.log(tasks.map((task) => task.id?.name));
 * ```
 */
export function createAdminClient(options: AdminClientOptions): AdminClient & Disposable {
  const client = create(options);
  return Object.assign(client, { [Symbol.dispose]: () => client.close() });
}
