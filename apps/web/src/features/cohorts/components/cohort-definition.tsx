import type { ReactNode } from 'react';
import type { CriteriaLine } from '@hdp/contract';

interface Node {
  text: string;
  children: Node[];
}

/** The flat lines (each with its depth) as a tree: a group's rules under its heading. */
function toTree(lines: readonly CriteriaLine[]): Node[] {
  const roots: Node[] = [];
  const stack: { depth: number; node: Node }[] = [];
  for (const line of lines) {
    const node: Node = { text: line.text, children: [] };
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= line.depth) stack.pop();
    (stack.length > 0 ? stack[stack.length - 1]!.node.children : roots).push(node);
    stack.push({ depth: line.depth, node });
  }
  return roots;
}

function List({ nodes, label }: { nodes: Node[]; label?: string }): ReactNode {
  return (
    <ul aria-label={label} style={{ margin: 0, paddingLeft: label ? 0 : 20, listStyle: label ? 'none' : 'disc' }}>
      {nodes.map((node, i) => (
        <li key={i} style={{ margin: '2px 0' }}>
          {node.text}
          {node.children.length > 0 ? <List nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** A version's criteria in plain language, read-only: a group's rules nested under its heading. */
export function CohortDefinition({ summary, label }: { summary: readonly CriteriaLine[]; label: string }) {
  return <List nodes={toTree(summary)} label={label} />;
}
