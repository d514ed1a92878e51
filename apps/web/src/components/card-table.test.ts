import { describe, expect, it } from 'vitest';
import { labelledColumns } from './card-table';

describe('labelledColumns', () => {
  it("labels every cell with its column's title, keeping a column's own cell props", () => {
    const [name, actions] = labelledColumns<{ id: string }>([
      { title: 'Name', key: 'name' },
      { title: 'Actions', key: 'actions', onCell: () => ({ className: 'x' }) },
    ]);
    expect(name!.onCell!({ id: '1' }, 0)).toEqual({ 'data-label': 'Name' });
    expect(actions!.onCell!({ id: '1' }, 0)).toEqual({ className: 'x', 'data-label': 'Actions' });
  });
});
