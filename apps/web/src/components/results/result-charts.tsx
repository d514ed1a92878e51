import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { QueryResult, ResultCell } from '@hdp/contract';
import { categoryLabel } from './category-label';

echarts.use([BarChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

type Option = echarts.EChartsCoreOption;

/**
 * One chart: the option is applied again when it changes; the chart follows its box's width.
 * Its accessible name says what it shows; the numbers are in the tables beside it.
 */
function Chart({ option, label, height }: { option: Option; label: string; height: number }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!box.current) return undefined;
    const instance = echarts.init(box.current, undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(box.current);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);
  return <div ref={box} role="img" aria-label={label} className="result-chart" style={{ width: '100%', height }} />;
}

const FEMALE = '#c0397b';
const MALE = '#1d5fa8';
const OTHER = '#5b6b7c';
const TEXT = '#1f2933';
/** Room for category names beside the bars; longer names wrap onto a second line. */
const CATEGORY_LABEL_WIDTH = 180;
/** Height per bar, so that wrapped names and values never touch their neighbours. */
const ROW_HEIGHT = 44;

/** The bar's length: hidden counts draw nothing, and their label says why. */
const barValue = (cell: ResultCell) => cell.count ?? 0;

function sexColour(label: string): string {
  const l = label.toLowerCase();
  return l.startsWith('f') ? FEMALE : l.startsWith('m') ? MALE : OTHER;
}

/** Whether a chart of these cells would show no person at all: every cell hidden (or empty beside hidden ones). */
export function allHidden(cells: readonly ResultCell[]): boolean {
  return cells.some((c) => c.suppressed) && cells.every((c) => c.suppressed || c.count === null || c.count === 0);
}

/** The sexes that hold persons (a shown count above 0 or a hidden one). */
function sexesPresent(result: QueryResult) {
  return result.breakdowns.sex_by_age_band.filter((row) => row.cells.some((c) => c.suppressed || (c.count ?? 0) > 0));
}

/**
 * The age pyramid: one side per sex (the first to the left), one bar per age band, on an axis
 * symmetric about zero so that both sides compare; values on the bars instead of axis ticks.
 */
export function pyramidOption(result: QueryResult): Option {
  const rows = result.breakdowns.sex_by_age_band;
  const bands = rows[0]?.cells.map((c) => c.label) ?? result.breakdowns.age_band.map((c) => c.label);
  const largest = Math.max(1, ...rows.flatMap((row) => row.cells.map(barValue)));
  // Headroom for the values printed beyond the longest bar.
  const extent = Math.ceil(largest * 1.35);
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, textStyle: { color: TEXT } },
    grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'value', min: -extent, max: extent, axisLabel: { show: false }, splitLine: { show: false } },
    yAxis: { type: 'category', data: bands, axisTick: { show: false }, axisLabel: { color: TEXT } },
    series: rows.map((row, index) => ({
      name: categoryLabel(row.label),
      type: 'bar',
      stack: 'pyramid',
      barCategoryGap: '25%',
      itemStyle: { color: sexColour(row.label) },
      label: {
        show: true,
        color: TEXT,
        position: index === 0 ? 'left' : 'right',
        formatter: (p: { dataIndex: number }) => row.cells[p.dataIndex]?.display ?? '',
      },
      tooltip: { valueFormatter: (_v: unknown, i: number) => row.cells[i]?.display ?? '' },
      data: row.cells.map((cell) => (index === 0 ? -barValue(cell) : barValue(cell))),
    })),
  };
}

/** One breakdown as horizontal bars: names beside the bars, the value (or why it is hidden) at each bar's end. */
export function breakdownOption(cells: readonly ResultCell[], name: string, colour = OTHER): Option {
  const largest = Math.max(1, ...cells.map(barValue));
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 8, top: 4, bottom: 4, containLabel: true },
    // Room beyond the longest bar for its value; no tick labels to collide.
    xAxis: { type: 'value', min: 0, max: Math.ceil(largest * 1.3), axisLabel: { show: false }, splitLine: { show: false } },
    yAxis: {
      type: 'category',
      data: cells.map((c) => categoryLabel(c.label)),
      inverse: true,
      axisTick: { show: false },
      axisLabel: { color: TEXT, width: CATEGORY_LABEL_WIDTH, overflow: 'break', lineHeight: 14 },
    },
    series: [
      {
        name,
        type: 'bar',
        barMaxWidth: 22,
        itemStyle: { color: colour },
        label: { show: true, position: 'right', color: TEXT, formatter: (p: { dataIndex: number }) => cells[p.dataIndex]?.display ?? '' },
        tooltip: { valueFormatter: (_v: unknown, i: number) => cells[i]?.display ?? '' },
        data: cells.map(barValue),
      },
    ],
  };
}

/** What replaces a chart none of whose cells may be shown. */
function AllHidden({ threshold, title }: { threshold: number; title: string }) {
  return (
    <div className="all-hidden" role="note" aria-label={`${title}: all counts are below ${threshold}`} style={{ border: '1px dashed #c2c8cf', borderRadius: 6, padding: '24px 16px', color: '#3d4852', textAlign: 'center' }}>
      <strong>All counts are below {threshold}</strong>
      <div style={{ fontSize: 13, marginTop: 4, color: '#5b6470' }}>Each group holds fewer than {threshold} persons, so none is shown.</div>
    </div>
  );
}

const heightFor = (rows: number) => Math.max(2, rows) * ROW_HEIGHT + 16;

function Figure({ caption, children }: { caption: string; children: React.ReactNode }) {
  return (
    <figure style={{ margin: 0, minWidth: 0 }}>
      <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>{caption}</figcaption>
      {children}
    </figure>
  );
}

/** The age chart: a pyramid when both sexes hold persons, plain bars for one sex ("Age bands (Female only)"). */
function AgeChart({ result }: { result: QueryResult }) {
  const threshold = result.suppression_threshold;
  const present = sexesPresent(result);
  const allCells = result.breakdowns.sex_by_age_band.flatMap((row) => row.cells);
  if (present.length === 1) {
    const only = present[0]!;
    const caption = `Age bands (${categoryLabel(only.label)} only)`;
    return (
      <Figure caption={caption}>
        {allHidden(only.cells) ? (
          <AllHidden threshold={threshold} title={caption} />
        ) : (
          <Chart option={breakdownOption(only.cells, categoryLabel(only.label), sexColour(only.label))} label={`Persons by age band, ${categoryLabel(only.label)} only`} height={heightFor(only.cells.length)} />
        )}
      </Figure>
    );
  }
  const caption = 'Age pyramid by sex';
  return (
    <Figure caption={caption}>
      {allCells.length === 0 || allHidden(allCells) ? (
        <AllHidden threshold={threshold} title={caption} />
      ) : (
        <Chart option={pyramidOption(result)} label="Age pyramid: persons by sex and age band" height={heightFor(result.breakdowns.sex_by_age_band[0]?.cells.length ?? 0) + 32} />
      )}
    </Figure>
  );
}

function BreakdownChart({ cells, caption, label, threshold }: { cells: readonly ResultCell[]; caption: string; label: string; threshold: number }) {
  return (
    <Figure caption={caption}>
      {cells.length === 0 || allHidden(cells) ? (
        <AllHidden threshold={threshold} title={caption} />
      ) : (
        <Chart option={breakdownOption(cells, caption)} label={label} height={heightFor(cells.length)} />
      )}
    </Figure>
  );
}

/** The result's charts: age (a pyramid by sex, or bars for one sex), race and ethnicity. */
export function ResultCharts({ result }: { result: QueryResult }) {
  const threshold = result.suppression_threshold;
  return (
    <div className="result-charts" style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 380px), 1fr))', gap: 24, alignItems: 'start' }}>
      <AgeChart result={result} />
      <BreakdownChart cells={result.breakdowns.race} caption="Race" label="Persons by race" threshold={threshold} />
      <BreakdownChart cells={result.breakdowns.ethnicity} caption="Ethnicity" label="Persons by ethnicity" threshold={threshold} />
    </div>
  );
}
