import { equal, match, ok as assert, throws } from "node:assert/strict";
import { clone, create } from "@bufbuild/protobuf";
import { fileURLToPath } from "node:url";
import { CompiledWorkflowClosureSchema } from "../../proto/gen/flyteidl/core/compiler_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { OperationError } from "../errors.ts";
import { everyNodeKind } from "./_test_constructed.ts";
import { compiledFixtureWorkflows } from "./_test_helpers.ts";
import { MAX_DRAWN_NODES, MAX_GRAPH_NODES, workflowDot } from "./graph_dot.ts";

/** Compares with `testdata/<name>.dot`; `UPDATE_GOLDEN=1` rewrites the file instead. */
async function golden(name: string, actual: string): Promise<void> {
  const path = fileURLToPath(new URL(`./testdata/${name}.dot`, import.meta.url));
  if (Deno.env.get("UPDATE_GOLDEN")) await Deno.writeTextFile(path, actual);
  equal(actual, await Deno.readTextFile(path), `${name}.dot (UPDATE_GOLDEN=1 rewrites it)`);
}

const core = await compiledFixtureWorkflows("flytesnacks-core.tgz");
const failureNode = await compiledFixtureWorkflows("failure-node.tgz");

Deno.test("tasks in a line: start and end circles, a box per task with its short name and type, edges by (from, to)", async () => {
  await golden("sql_wf", workflowDot(core.get("core.extend_flyte.sql.wf")));
});

Deno.test("sub-workflows, nested: a cluster each, names prefixed with the node's, edges to the cluster's start node", async () => {
  await golden("nested_parent_wf", workflowDot(core.get("core.control_flow.subworkflows.nested_parent_wf")));
  await golden("failure_node_wf1", workflowDot(failureNode.get("flyte-example.failure_node.wf1")));
});

Deno.test("a branch of a real package: its cluster, a diamond, its condition and orElse, its cases under the compiler's ids", async () => {
  const dot = workflowDot(core.get("core.control_flow.run_merge_sort.merge_sort"));
  await golden("merge_sort", dot);
  // flytekit numbers the cases `n0` and `n1` inside the branch `n0`; Flyte's compiler stores them as `n0-n0`, `n0-n1`.
  match(dot, /\tn0 \[ label="\[terminal_case\]", shape=diamond \];/);
  match(dot, /\tn0_n0 \[ label="sort_locally \[python-task\]", shape=box \];/);
});

Deno.test("a case under its branch's own id (a closure Flyte's compiler did not rename) keeps a box of its own", () => {
  const closure = clone(CompiledWorkflowClosureSchema, core.get("core.control_flow.run_merge_sort.merge_sort")!);
  const branch = closure.primary!.template!.nodes.find((node) => node.id === "n0")!;
  if (branch.target.case !== "branchNode") throw new Error("n0 is no branch");
  branch.target.value.ifElse!.case!.thenNode!.id = "n0";
  // The case's own entries then share the branch's key, as they did in such closures: the branch's are kept.
  for (const map of [closure.primary!.connections!.upstream, closure.primary!.connections!.downstream]) {
    delete map["n0-n0"];
    for (const ids of Object.values(map)) ids.ids = ids.ids.map((id) => id === "n0-n0" ? "n0" : id);
  }
  const dot = workflowDot(closure);
  // flytectl would draw the branch `n0` and its case `n0` as one node.
  match(dot, /\tn0 \[ label="\[terminal_case\]", shape=diamond \];/);
  match(dot, /\tn0_n0 \[ label="sort_locally \[python-task\]", shape=box \];/);
  match(dot, /\tn0->n0_n0\[ label="\.numbers_count LTE \.run_local_at_count" \];/);
});

Deno.test("every node kind: nested branches (comparison, conjunction, else, error), launch plan, gates, array", async () => {
  const dot = workflowDot(everyNodeKind());
  await golden("every_node_kind", dot);
  for (
    const line of [
      '\tn0->n0_n0[ label="(.my_input GT 0.1) AND (.my_input LT 1)", lhead="cluster_inner_fractions" ];',
      '\tn0_n0->n0_n0_error[ label="orElse - Fail" ];',
      '\tn0->n0_n2[ label="orElse" ];',
      '\t\t\tn0_n0_error [ color=red, label="Only <0.7 allowed", shape=box ];',
      '\tn1 [ label="n1 [launch plan]", shape=box ];',
      '\tn2 [ label="n2 [approve]", shape=box ];',
      '\tn3 [ label="n3 [signal]", shape=box ];',
      '\tn4 [ label="n4 [sleep]", shape=box ];',
      '\tn5 [ label="n5 [array]", shape=box ];',
    ]
  ) assert(dot.includes(`${line}\n`), line);
});

Deno.test("the same closure draws the same text: nothing depends on the order of maps or lists", () => {
  const closure = everyNodeKind();
  const reversed = everyNodeKind();
  const connections = reversed.primary!.connections!;
  connections.downstream = Object.fromEntries(Object.entries(connections.downstream).reverse());
  connections.upstream = Object.fromEntries(Object.entries(connections.upstream).reverse());
  reversed.tasks.reverse();
  equal(workflowDot(reversed), workflowDot(closure));
});

Deno.test("no closure (a listing's workflows carry none) draws an empty graph", () => {
  equal(workflowDot(undefined), "strict digraph  {\n\n}\n");
  equal(workflowDot(create(CompiledWorkflowClosureSchema)), "strict digraph  {\n\n}\n");
});

/** A one-task workflow whose node id, node name and task type are `text`. */
function oneTask(nodeId: string, name: string, type: string) {
  const taskId = { resourceType: ResourceType.TASK, project: "p", domain: "d", name: "t", version: "v" };
  return create(CompiledWorkflowClosureSchema, {
    primary: {
      template: {
        nodes: [
          { id: "start-node" },
          {
            id: nodeId,
            metadata: { name },
            target: { case: "taskNode", value: { reference: { case: "referenceId", value: taskId } } },
          },
        ],
      },
      connections: { downstream: { "start-node": { ids: [nodeId] } } },
    },
    tasks: [{ template: { id: taskId, type } }],
  });
}

Deno.test("labels and names from the server stay one DOT token: quotes, backslashes, line breaks, control characters", () => {
  const dot = workflowDot(oneTask('a.b "c"', 'x.say "hi" \\N\nnext\x1b[2J', "py\\task"));
  // The node name has a dot and quotes: quoted, its quotes escaped; `-` would still become `_`.
  match(dot, /\tstart_node->"a\.b \\"c\\"";\n/);
  const label = dot.match(/label="((?:[^"\\]|\\.)*)", shape=box/)?.[1];
  // A backslash is doubled (no \N substitution), a line break is Graphviz's \n, ESC shows as the text \x1b.
  equal(label, 'say \\"hi\\" \\\\N\\nnext\\\\x1b[2J [py\\\\task]');
  // deno-lint-ignore no-control-regex -- control characters are what must not be there
  assert(!/[\x00-\x08\x0b-\x1f\x7f]/.test(dot), "no control character but the line breaks between statements");
});

Deno.test("a node naming a task the closure lacks, a missing sub-workflow, or a connection to no node: an error naming it", () => {
  const missingTask = oneTask("n0", "t", "python-task");
  missingTask.tasks = [];
  throws(() => workflowDot(missingTask), (err: unknown) => {
    assert(err instanceof OperationError);
    equal(err.message, "failed to find task [p/d/t version v] in closure");
    return true;
  });

  const missingSub = create(CompiledWorkflowClosureSchema, {
    primary: {
      template: {
        nodes: [{
          id: "n0",
          target: {
            case: "workflowNode",
            value: {
              reference: { case: "subWorkflowRef", value: { project: "p", domain: "d", name: "sub", version: "v" } },
            },
          },
        }],
      },
    },
  });
  throws(() => workflowDot(missingSub), /^OperationError: sub-workflow \[p\/d\/sub version v\] not found in closure$/);

  const dangling = oneTask("n0", "t", "python-task");
  dangling.primary!.connections!.downstream["n0"] = { $typeName: "flyteidl.core.ConnectionSet.IdList", ids: ["n9"] };
  throws(() => workflowDot(dangling), /connection "n0" -> "n9" names node "n9", which the workflow does not have/);
});

Deno.test("a sub-workflow with a branch, used by two nodes: two clusters, each with its own branch cluster and diamond", () => {
  const taskId = { resourceType: ResourceType.TASK, project: "p", domain: "d", name: "t", version: "v" };
  const subId = { resourceType: ResourceType.WORKFLOW, project: "p", domain: "d", name: "sub", version: "v" };
  const useSub = (id: string) => ({
    id,
    target: { case: "workflowNode" as const, value: { reference: { case: "subWorkflowRef" as const, value: subId } } },
  });
  const closure = create(CompiledWorkflowClosureSchema, {
    primary: {
      template: { nodes: [{ id: "start-node" }, useSub("n0"), useSub("n1")] },
      connections: { downstream: { "start-node": { ids: ["n0"] }, n0: { ids: ["n1"] } } },
    },
    subWorkflows: [{
      template: {
        id: subId,
        nodes: [{ id: "start-node" }, {
          id: "b",
          metadata: { name: "check" },
          target: {
            case: "branchNode",
            value: {
              ifElse: {
                case: {
                  thenNode: {
                    id: "b-n0",
                    metadata: { name: "t" },
                    target: { case: "taskNode", value: { reference: { case: "referenceId", value: taskId } } },
                  },
                },
              },
            },
          },
        }],
      },
      connections: { downstream: { "start-node": { ids: ["b"] } } },
    }],
    tasks: [{ template: { id: taskId, type: "python-task" } }],
  });
  const dot = workflowDot(closure);
  for (const prefix of ["n0", "n1"]) {
    assert(
      dot.includes(`\tsubgraph cluster_${prefix} {\n\t\tlabel=${prefix};\n\t\tsubgraph cluster_${prefix}_check {\n`),
      prefix,
    );
    assert(dot.includes(`\t\t\t${prefix}_b [ label="[check]", shape=diamond ];\n`), prefix);
    assert(dot.includes(`\t${prefix}_b->${prefix}_b_n0[ label="" ];\n`), prefix);
    assert(dot.includes(`\t${prefix}_start_node->${prefix}_b[ lhead="cluster_${prefix}_check" ];\n`), prefix);
  }
  // n0 -> n1 joins the two clusters through their start nodes.
  assert(dot.includes('\tn0_start_node->n1_start_node[ lhead="cluster_n1", ltail="cluster_n0" ];\n'));
});

/** The id of sub-workflow `name` of the tests' closures. */
const subWorkflowId = (name: string) => ({
  resourceType: ResourceType.WORKFLOW,
  project: "p",
  domain: "d",
  name,
  version: "v",
});

/** Node `id`, running sub-workflow `name`. */
const runsSub = (id: string, name: string) => ({
  id,
  target: {
    case: "workflowNode" as const,
    value: { reference: { case: "subWorkflowRef" as const, value: subWorkflowId(name) } },
  },
});

/**
 * A closure whose primary workflow runs sub-workflow s0 twice, each sub-workflow running the next twice, `depth`
 * deep: about 2^(depth + 1) nodes drawn from a closure of `depth` small templates.
 */
function doublingClosure(depth: number) {
  const twice = (name: string) => [runsSub("n0", name), runsSub("n1", name)];
  return create(CompiledWorkflowClosureSchema, {
    primary: { template: { nodes: twice("s0") } },
    subWorkflows: Array.from({ length: depth }, (_, level) => ({
      template: {
        id: subWorkflowId(`s${level}`),
        nodes: level + 1 < depth ? twice(`s${level + 1}`) : [{ id: "leaf" }],
      },
    })),
  });
}

Deno.test("a sub-workflow that runs itself, directly or through another: an error naming it, not a drawing without end", () => {
  for (const [sub, runs] of [["a", { a: "a" }], ["a", { a: "b", b: "a" }]] as const) {
    const closure = create(CompiledWorkflowClosureSchema, {
      primary: { template: { nodes: [runsSub("n0", sub)] } },
      subWorkflows: Object.entries(runs).map(([name, next]) => ({
        template: { id: subWorkflowId(name), nodes: [runsSub(`in-${name}`, next)] },
      })),
    });
    throws(() => workflowDot(closure), (err: unknown) => {
      assert(err instanceof OperationError);
      match(
        err.message,
        /^sub-workflow \[p\/d\/a version v\] runs itself \(node "in-[ab]"\): a compiled closure cannot/,
      );
      return true;
    });
  }
});

Deno.test(`sub-workflows each running the next twice, 20 deep (a million drawings): an error at ${MAX_GRAPH_NODES} nodes`, () => {
  const closure = doublingClosure(20);
  throws(() => workflowDot(closure), (err: unknown) => {
    assert(err instanceof OperationError);
    equal(
      err.message,
      `the workflow's graph has more than ${MAX_GRAPH_NODES} nodes (a sub-workflow is drawn once for each node that ` +
        "runs it): too many to draw",
    );
    return true;
  });
});

Deno.test(`a graph to lay out and draw is bounded at ${MAX_DRAWN_NODES} nodes, and the error says -o dot writes more`, () => {
  const closure = doublingClosure(12);
  assert(workflowDot(closure).length > 0);
  throws(() => workflowDot(closure, MAX_DRAWN_NODES), (err: unknown) => {
    assert(err instanceof OperationError);
    equal(
      err.message,
      `the workflow's graph has more than ${MAX_DRAWN_NODES} nodes (a sub-workflow is drawn once for each node that ` +
        `runs it): too many to draw; -o dot writes up to ${MAX_GRAPH_NODES} for a Graphviz of your own`,
    );
    return true;
  });
});
