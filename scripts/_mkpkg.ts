import { writeRenamedCopies } from "./bench_package.ts";
console.log(await writeRenamedCopies("/work/shared/fixtures/flytectl/flytesnacks-core.tgz", 24, "/tmp/prof/x24.tgz"));
