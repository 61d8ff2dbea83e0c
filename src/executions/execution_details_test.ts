/**
 * `executionDetails` against admins whose answers would keep a reader going for ever: a listing that repeats its
 * page tokens, a node listed below itself, nesting without end. Each is a real gRPC server on loopback (the
 * sandbox's router with a hand-written AdminService), and each read must end in one OperationError.
 */
import { equal, ok } from "node:assert/strict";
import type { ConnectRouter } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { ExecutionSchema } from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import {
  type NodeExecution,
  type NodeExecutionListRequest,
  NodeExecutionListSchema,
  NodeExecutionSchema,
} from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import { TaskExecutionListSchema } from "../../proto/gen/flyteidl/admin/task_execution_pb.ts";
import { NodeExecutionGetDataResponseSchema } from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import { createAdminClient } from "../admin/client.ts";
import { OperationError } from "../errors.ts";
import { createGrpcRouter } from "../sandbox/grpc_router.ts";
import { listenHttp2 } from "../sandbox/http2_listener.ts";
import { executionDetails, MAX_DEPTH, MAX_EXECUTIONS } from "./execution_details.ts";

const ID = { project: "flytesnacks", domain: "development", name: "loops" };

/** A node execution of `ID`; a parent node when `parent`. */
function node(nodeId: string, parent = false): NodeExecution {
  return create(NodeExecutionSchema, {
    id: { nodeId, executionId: ID },
    metadata: { isParentNode: parent },
  });
}

/**
 * Serves GetExecution, `listNodes` as ListNodeExecutions and empty task executions and data; runs `fn` with a
 * client of it, and counts the node listings it was asked for.
 */
async function withAdmin(
  listNodes: (request: NodeExecutionListRequest) => { nodes: NodeExecution[]; token: string },
  fn: (read: () => Promise<unknown>, listings: () => number) => Promise<void>,
): Promise<void> {
  let listings = 0;
  const shutdown = new AbortController();
  const onRequest = createGrpcRouter({
    routes: (router: ConnectRouter) =>
      void router.service(AdminService, {
        getExecution: (request) => create(ExecutionSchema, { id: request.id }),
        listNodeExecutions: (request) => {
          listings++;
          const { nodes, token } = listNodes(request);
          return create(NodeExecutionListSchema, { nodeExecutions: nodes, token });
        },
        listTaskExecutions: () => create(TaskExecutionListSchema, {}),
        getNodeExecutionData: () => create(NodeExecutionGetDataResponseSchema, {}),
      }),
    interceptors: [],
    shutdownSignal: shutdown.signal,
  });
  const server = await listenHttp2(onRequest, { port: 0, hostname: "127.0.0.1" });
  const client = createAdminClient({ endpoint: `http://127.0.0.1:${server.port}`, insecure: true });
  try {
    await fn(() => executionDetails(client, ID), () => listings);
  } finally {
    client.close();
    shutdown.abort();
    await server.close();
  }
}

/** The OperationError `read` ends in. */
async function failure(read: () => Promise<unknown>): Promise<OperationError> {
  try {
    await read();
  } catch (err) {
    ok(err instanceof OperationError, String(err));
    return err;
  }
  throw new Error("the read ended without an error");
}

Deno.test("executionDetails: page tokens that come back in a cycle end in an error naming the token, after one round", async () => {
  // A -> B -> A -> …: each page has a node, so neither an empty page nor an unchanged token stops it.
  let page = 0;
  await withAdmin(
    () => ({ nodes: [node(`n${page}`)], token: ["A", "B"][page++ % 2] }),
    async (read, listings) => {
      const err = await failure(read);
      equal(
        err.message,
        'the admin answered page token "A" of the nodes below the top level of execution "loops" a second time: ' +
          "a listing that repeats its tokens never ends",
      );
      equal(listings(), 3);
    },
  );
});

Deno.test("executionDetails: a token answered to itself is an error, not a silently cut listing", async () => {
  await withAdmin(
    (request) => ({ nodes: [node(`n-${request.token}`)], token: "same" }),
    async (read, listings) => {
      const err = await failure(read);
      equal(
        err.message.startsWith('the admin answered page token "same" of the nodes below the top level'),
        true,
      );
      equal(listings(), 2);
    },
  );
});

Deno.test("executionDetails: a parent node listed below itself is an error naming the loop", async () => {
  await withAdmin(
    (request) => ({ nodes: [node(request.uniqueParentId === "" ? "n0" : "n1", true)], token: "" }),
    async (read) => {
      const err = await failure(read);
      equal(err.message, 'the admin listed node "n1" of execution "loops" below itself (n0 > n1 > n1)');
    },
  );
});

Deno.test("executionDetails: parent nodes nested without end stop at the depth bound", async () => {
  await withAdmin(
    (request) => ({ nodes: [node(`${request.uniqueParentId}x`, true)], token: "" }),
    async (read, listings) => {
      const err = await failure(read);
      equal(
        err.message,
        `execution "loops" nests its nodes more than ${MAX_DEPTH} levels deep (at node "${
          "x".repeat(MAX_DEPTH + 1)
        }"): ` +
          "the deepest fctl reads for its details",
      );
      equal(listings(), MAX_DEPTH + 1);
    },
  );
});

Deno.test("executionDetails: pages with new tokens for ever stop once the tree passes the executions bound", async () => {
  let page = 0;
  await withAdmin(
    () => ({ nodes: Array.from({ length: 1000 }, (_, i) => node(`p${page}-${i}`)), token: `t${++page}` }),
    async (read, listings) => {
      const err = await failure(read);
      equal(
        err.message,
        `execution "loops" has more than ${MAX_EXECUTIONS} node and task executions: the most fctl reads for its details`,
      );
      equal(listings(), MAX_EXECUTIONS / 1000 + 1);
    },
  );
});
