/**
 * The floor `fctl get task` is measured against: a minimal gRPC client that makes the same ListTasks call over
 * raw `node:http2`, reads the whole answer and prints nothing. It loads no flyteidl descriptors and no RPC
 * library: the request message comes in prebuilt, as base64 (scripts/bench_get_task.ts encodes it once).
 * It fails (exit 1) unless the admin answers with grpc-status 0 and a message.
 *
 *   deno run --allow-net scripts/bench_get_task_floor.ts ENDPOINT REQUEST_BASE64
 *
 * @module
 */
import { connect } from "node:http2";
import { Buffer } from "node:buffer";

const [endpoint, requestBase64] = Deno.args;
const message = Buffer.from(requestBase64, "base64");
// gRPC's length-prefixed message: a compression flag (0) and a 4-byte big-endian length.
const frame = Buffer.alloc(5 + message.length);
frame.writeUInt32BE(message.length, 1);
message.copy(frame, 5);

const session = connect(endpoint);
try {
  await new Promise<void>((resolve, reject) => {
    session.on("error", reject);
    const stream = session.request({
      ":method": "POST",
      ":path": "/flyteidl.service.AdminService/ListTasks",
      "content-type": "application/grpc",
      te: "trailers",
    });
    let received = 0;
    let status: string | undefined;
    stream.on("response", (headers) => status = headers["grpc-status"]?.toString());
    stream.on("trailers", (trailers) => status = trailers["grpc-status"]?.toString());
    stream.on("data", (chunk: Buffer) => received += chunk.length);
    stream.on("error", reject);
    stream.on("end", () => {
      if (status === "0" && received > 5) resolve();
      else reject(new Error(`ListTasks answered grpc-status ${status} with ${received} bytes`));
    });
    stream.end(frame);
  });
} finally {
  session.close();
}
