import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { QueryResult, ResultCell } from '@hdp/contract';

echarts.use([BarChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

type Option = echarts.EChartsCoreOption;

/**
 * One chart: the option is applied again when it changes; the chart follows its box's width.
 * Its accessible name says what it shows; the numbers are in the tables beside it.
 */
function Chart({ option, label, height = 280 }: { option: Option; label: string; height?: number }) {
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
  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} />;
}

const FEMALE = '#c0397b';
const MALE = '#1d5fa8';
const OTHER = '#5b6b7c';

/** The bar's length: hidden counts draw nothing, and their label says why. */
const barValue = (cell: ResultCell) => cell.count ?? 0;
const barLabel = (cell: ResultCell) => (cell.suppressed ? cell.display : '');

function sexColour(label: string): string {
  const l = label.toLowerCase();
  return l.startsWith('f') ? FEMALE : l.startsWith('m') ? MALE : OTHER;
}

/** The age pyramid: one side per sex (the first to the left), one bar per age band. */
export function pyramidOption(result: QueryResult): Option {
  const rows = result.breakdowns.sex_by_age_band;
  const bands = rows[0]?.cells.map((c) => c.label) ?? result.breakdowns.age_band.map((c) => c.label);
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0 },
    grid: { left: 60, right: 24, top: 32, bottom: 24 },
    xAxis: { type: 'value', axisLabel: { formatter: (v: number) => String(Math.abs(v)) } },
    yAxis: { type: 'category', data: bands, axisTick: { show: false } },
    series: rows.map((row, index) => ({
      name: row.label,
      type: 'bar',
      stack: 'pyramid',
      itemStyle: { color: sexColour(row.label) },
      label: { show: true, position: index === 0 ? 'left' : 'right', formatter: (p: { dataIndex: number }) => barLabel(row.cells[p.dataIndex]!) },
      tooltip: { valueFormatter: (_v: unknown, i: number) => row.cells[i]?.display ?? '' },
      data: row.cells.map((cell) => (index === 0 ? -barValue(cell) : barValue(cell))),
    })),
  };
}

/** One breakdown as horizontal bars, hidden cells labelled as the API shows them. */
export function breakdownOption(cells: readonly ResultCell[], name: string): Option {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 64, top: 8, bottom: 24, containLabel: true },
    xAxis: { type: 'value' },
    yAxis: { type: 'category', data: cells.map((c) => c.label), inverse: true, axisTick: { show: false } },
    series: [
      {
        name,
        type: 'bar',
        itemStyle: { color: OTHER },
        label: { show: true, position: 'right', formatter: (p: { dataIndex: number }) => cells[p.dataIndex]?.display ?? '' },
        data: cells.map(barValue),
      },
    ],
  };
}

/** The result's charts: the age pyramid by sex, race and ethnicity. */
export function ResultCharts({ result }: { result: QueryResult }) {
  const pyramid = pyramidOption(result);
  const race = breakdownOption(result.breakdowns.race, 'Race');
  const ethnicity = breakdownOption(result.breakdowns.ethnicity, 'Ethnicity');
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: 16 }}>
      <figure style={{ margin: 0 }}>
        <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>Age pyramid by sex</figcaption>
        <Chart option={pyramid} label="Age pyramid: persons by sex and age band" height={320} />
      </figure>
      <figure style={{ margin: 0 }}>
        <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>Race</figcaption>
        <Chart option={race} label="Persons by race" />
      </figure>
      <figure style={{ margin: 0 }}>
        <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>Ethnicity</figcaption>
        <Chart option={ethnicity} label="Persons by ethnicity" height={200} />
      </figure>
    </div>
  );
}
