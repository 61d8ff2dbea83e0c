/**
 * Connect's error class and codes, and nothing else of Connect: what `session_guard.ts` loads on first need.
 * A dynamic import of Connect's package itself would keep every export of its index in the bundle (the
 * router, the handlers of three protocols, CORS), and every command that calls the admin would evaluate them.
 *
 * @module
 */
export { Code, ConnectError } from "@connectrpc/connect";
