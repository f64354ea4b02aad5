import type { ServiceStockImportRow, ServiceStockImportSplit, ServiceStockKind } from '../../../../edge-api/src/contract/service-stocks.ts';

/**
 * The text of an import split in two by the rows the preview refused (issue 33, item 1; decision 198):
 * `kept` without them (a header line stays), `left` with only them, to fix and import next. A row is the
 * line it starts on (`row`, from 1); for lines imported in blocks, the block runs to the next blank line.
 */
export function splitOutRows(
  text: string,
  rows: readonly Pick<ServiceStockImportRow, 'row'>[],
  kind: ServiceStockKind,
  split: ServiceStockImportSplit,
): { kept: string; left: string } {
  const lines = text.split(/\r?\n/);
  const out = new Set<number>();
  for (const { row } of rows) {
    let index = row - 1;
    if (index < 0 || index >= lines.length) continue;
    out.add(index);
    if (kind === 'lines' && split === 'blocks') while (++index < lines.length && lines[index]!.trim() !== '') out.add(index);
  }
  const kept: string[] = [];
  const left: string[] = [];
  lines.forEach((line, index) => (out.has(index) ? left : kept).push(line));
  // Blocks left out stay apart from each other.
  const joinLeft = kind === 'lines' && split === 'blocks' ? groupBlocks(lines, out) : left.join('\n');
  return { kept: kept.join('\n'), left: joinLeft };
}

function groupBlocks(lines: readonly string[], out: ReadonlySet<number>): string {
  const blocks: string[][] = [];
  let current: string[] | null = null;
  lines.forEach((line, index) => {
    if (out.has(index)) {
      current ??= [];
      current.push(line);
    } else if (current) {
      blocks.push(current);
      current = null;
    }
  });
  if (current) blocks.push(current);
  return blocks.map((block) => block.join('\n')).join('\n\n');
}
