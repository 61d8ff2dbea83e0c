/**
 * Seeds what fctl's client cannot create (projects, archived ones, named-entity metadata) into a sandbox with
 * Connect's own client of the whole AdminService, over TLS with a token when the sandbox is production-shaped.
 *
 * @module
 */
import { type Client, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AdminService } from "../proto/gen/flyteidl/service/admin_pb.ts";
import type { Sandbox } from "../src/sandbox/mod.ts";

/** Runs `fn` with a client of the sandbox's whole AdminService, on one HTTP/2 connection. */
export async function withFullAdmin(
  sandbox: Sandbox,
  fn: (admin: Client<typeof AdminService>) => Promise<void>,
): Promise<void> {
  const baseUrl = sandbox.endpoint.replace(/^dns:\/\/\//, "http://");
  const sessionManager = new Http2SessionManager(
    baseUrl,
    undefined,
    sandbox.caCertificate ? { ca: sandbox.caCertificate } : undefined,
  );
  const token = sandbox.auth?.issueToken();
  const transport = createGrpcTransport({
    baseUrl,
    sessionManager,
    interceptors: token
      ? [(next) => (req) => (req.header.set("flyte-authorization", `Bearer ${token}`), next(req))]
      : [],
  });
  try {
    await fn(createClient(AdminService, transport));
  } finally {
    sessionManager.abort();
  }
}

/** A project to register: id, name and description; archived ones are archived after registering. */
export interface TestProject {
  id: string;
  name?: string;
  description?: string;
  archived?: boolean;
}

/** Registers each project (archiving those marked so), then forgets the requests it made. */
export async function seedProjects(sandbox: Sandbox, projects: TestProject[]): Promise<void> {
  await withFullAdmin(sandbox, async (admin) => {
    for (const p of projects) {
      const project = { id: p.id, name: p.name ?? p.id, description: p.description ?? "" };
      await admin.registerProject({ project });
      if (p.archived) await admin.updateProject({ ...project, state: 1 });
    }
  });
  sandbox.clearRequests();
}
