/**
 * An in-process FlyteAdmin for testing programs that talk to Flyte: real gRPC over HTTP/2 on loopback (h2c,
 * or TLS when given a certificate), served by Connect's router with FlyteAdmin's semantics for tasks,
 * workflows and launch plans (filters, sorting, paging, `ALREADY_EXISTS`, missing references), executions
 * (created from a launch plan or a task, validated, listed, terminated, archived, with node and task executions)
 * that run a lifecycle tests plan on the sandbox's clock ({@link SandboxExecutions}), DataProxy
 * `CreateUploadLocation` with signed upload URLs served by a real HTTP server, a record of every request,
 * and latency and fault injection.
 *
 * Point any gRPC client at {@link Sandbox.endpoint}; seed and inspect entities through
 * {@link Sandbox.store}; read what the client sent in {@link Sandbox.requests}. As a fresh demo cluster's
 * FlyteAdmin, it starts with the project `flytesnacks` and the domains development, staging and production, and
 * refuses creates anywhere else (INVALID_ARGUMENT): make other projects with RegisterProject or
 * {@link SandboxStore.addProject}. With `production: true` the
 * sandbox is shaped like a secured deployment: TLS from a CA made at start ({@link Sandbox.caCertificate}; needs
 * `openssl`), OAuth enforced, and an authorization server ({@link Sandbox.auth}).
 *
 * ```ts
 * import { Code } from "@fctl/fctl/types";
 * import { createAdminClient } from "@fctl/fctl";
 * import { startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
 * try {
 *   sandbox.store.addTask({
 *     id: { resourceType: 1, project: "flytesnacks", domain: "development", name: "hello", version: "v1" },
 *     spec: {
 *       template: {
 *         type: "python-task",
 *         metadata: { runtime: { version: "1.16.1" } },
 *         interface: {},
 *         target: { case: "container", value: { image: "python:3.12" } },
 *       },
 *     },
 *   });
 *   const scope = { project: "flytesnacks", domain: "development" };
 *   sandbox.failNext("ListTasks", Code.Unavailable);
 *   await client.admin.listTasks({ id: scope, limit: 10 }).catch((err) => console.log(err.status)); // Unavailable
 *   const { tasks } = await client.admin.listTasks({ id: scope, limit: 10 });
 *   console.log(tasks.map((task) => task.id?.name)); // [ "hello" ]
 *   console.log(sandbox.requests.map((request) => request.method)); // [ "ListTasks", "ListTasks" ]
 * } finally {
 *   client.close();
 *   await sandbox.close();
 * }
 * ```
 *
 * @module
 */
// The sandbox module curates what tests of programs that use fctl need; this export is that list.
export * from "./src/sandbox/mod.ts";
