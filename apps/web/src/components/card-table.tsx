import { Table, type TableColumnsType, type TableProps } from 'antd';

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

type CardTableProps<T> = Omit<TableProps<T>, 'columns' | 'dataSource' | 'rowKey' | 'size' | 'className' | 'pagination' | 'locale'> & {
  columns: TableColumnsType<T>;
  rows: readonly T[];
  /** What the table says when it has no rows. */
  emptyText?: string;
};

/**
 * A small table of a record's parts (a workbench's members, cohorts, queries, documents), every row
 * shown, that becomes a list of cards on a phone. Tables that page, sort or select use antd's Table
 * with `CARD_TABLE_CLASS` and `labelledColumns` themselves.
 */
export function CardTable<T extends { id: string }>({ columns, rows, emptyText, ...rest }: CardTableProps<T>) {
  return (
    <Table<T>
      {...rest}
      rowKey="id"
      size="small"
      className={CARD_TABLE_CLASS}
      columns={labelledColumns(columns)}
      dataSource={rows as T[]}
      pagination={false}
      locale={emptyText ? { emptyText: <span style={{ color: '#5b6470' }}>{emptyText}</span> } : undefined}
    />
  );
}
