/**
 * The GOAWAY scenario of `client_test.ts`, run as its own process: a server closes the client's session
 * with GOAWAY, then drops the next one, and each following call must open a new session.
 *
 * Why a process of its own: Deno's node:http2 can abort the whole process inside nghttp2 when a client
 * session that has made calls receives GOAWAY (`find_stream_on_goaway_func: Assertion 'stream->closed_next
 * == NULL' failed`, an open Deno bug). Here that abort ends one attempt instead of the whole test run.
 *
 * Exits 0 when every expectation holds; an assertion error exits non-zero with its message.
 *
 * @module
 */
import { equal } from "node:assert/strict";
import { create, toBinary } from "@bufbuild/protobuf";
import { TaskListSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { createAdminClient } from "./client.ts";
import { answer, grpcFrame, withRawServer } from "./_test_raw_http2_server.ts";

const LIST = { id: { project: "p", domain: "d" }, limit: 1 };
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

await withRawServer(answer(grpcFrame(toBinary(TaskListSchema, create(TaskListSchema)))), async (server) => {
  const client = createAdminClient({ endpoint: server.endpoint, insecure: true });
  try {
    await client.admin.listTasks(LIST);
    await client.admin.listTasks(LIST);
    equal(server.sessions.length, 1, "calls share one session");

    server.sessions[0].close(); // GOAWAY, as a server restarting or closing idle connections sends
    await tick();
    await client.admin.listTasks(LIST);
    equal(server.sessions.length, 2, "after GOAWAY the next call opens a new session");

    server.sessions[1].destroy();
    await tick();
    await client.admin.listTasks(LIST);
    equal(server.sessions.length, 3, "after a dropped session the next call opens a new session");
  } finally {
    client.close();
  }
});
