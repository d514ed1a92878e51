import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { FunnelChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { Attrition } from '@hdp/contract';

echarts.use([FunnelChart, TooltipComponent, SVGRenderer]);

const ROW_HEIGHT = 40;

/** The funnel's option: one layer per step in order, hidden counts drawn empty and labelled as shown in the table. */
export function funnelOption(attrition: Attrition): echarts.EChartsCoreOption {
  const data = attrition.steps.map((s) => ({ name: s.label, value: s.persons.count ?? 0, display: s.persons.display }));
  return {
    tooltip: { trigger: 'item', formatter: (p: { name: string; data: { display: string } }) => `${p.name}: ${p.data.display} persons` },
    series: [
      {
        type: 'funnel',
        sort: 'none',
        left: 8,
        right: 8,
        top: 4,
        bottom: 4,
        minSize: '8%',
        gap: 2,
        label: { position: 'inside', color: '#ffffff', formatter: (p: { data: { display: string } }) => p.data.display },
        itemStyle: { color: '#1d5fa8', borderColor: '#ffffff' },
        data,
      },
    ],
  };
}

/** The attrition as a funnel (persons per step); the numbers and step names are in the table beside it. */
export function AttritionFunnel({ attrition }: { attrition: Attrition }) {
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
    chart.current?.setOption(funnelOption(attrition), true);
  }, [attrition]);
  const summary = attrition.steps.map((s) => `${s.label}: ${s.persons.display}`).join('; ');
  return <div ref={box} role="img" aria-label={`Attrition funnel, persons per step. ${summary}`} className="attrition-funnel" style={{ width: '100%', height: Math.max(160, attrition.steps.length * ROW_HEIGHT) }} />;
}
