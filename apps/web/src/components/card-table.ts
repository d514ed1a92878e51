import type { TableColumnsType } from 'antd';

/** The class of a table that becomes a list of cards on a phone (see global.css). */
export const CARD_TABLE_CLASS = 'hdp-card-table';

/**
 * Gives every cell of a column the column's title as `data-label`, which the phone layout shows
 * beside the value (the header row is not shown there).
 */
export function labelledColumns<T>(columns: TableColumnsType<T>): TableColumnsType<T> {
  return columns.map((column) => {
    const label = typeof column.title === 'string' ? column.title : '';
    const onCell = column.onCell;
    return {
      ...column,
      onCell: (record: T, index?: number) => ({ ...(onCell?.(record, index) ?? {}), 'data-label': label }) as ReturnType<NonNullable<typeof onCell>>,
    };
  });
}
