/**
 * The type of the sandbox's AdminService implementation, in a module of its own so that the files contributing
 * methods to it (projects, named entities) and the one assembling it import it without importing each other.
 *
 * @module
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";

/** The implemented subset of AdminService. */
export type AdminServiceImpl = Partial<ServiceImpl<typeof AdminService>>;
