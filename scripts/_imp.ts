const t0 = performance.now();
const mods = Deno.args;
let last = t0;
for (const m of mods) {
  await import(m);
  const now = performance.now();
  console.log(`${(now - last).toFixed(1).padStart(7)} ms  ${m}`);
  last = now;
}
console.log(`total ${(last - t0).toFixed(1)} ms, since process start ${performance.now().toFixed(1)}`);
