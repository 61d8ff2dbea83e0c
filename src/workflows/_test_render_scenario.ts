/**
 * Draws the DOT text on stdin as SVG on stdout: run by graph_render_test.ts as a fresh process with no
 * permission at all, to show that drawing needs no network, system information, FFI, files or environment.
 *
 * @module
 */
import { renderDot } from "./graph_render.ts";

const dot = await new Response(Deno.stdin.readable).text();
await Deno.stdout.write(new TextEncoder().encode(await renderDot(dot)));
